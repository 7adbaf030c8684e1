/* whatif.c: the rows of the what-if table: the graph as given under a policy, checkpointing
 * through the budget solver, and the transformed graphs of whatif_build.c measured the same
 * way. Exports whatif_run and whatif_row_name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/budget/whatif.h"
#include "sched/time/timeline.h"
#include "util/units.h"

const char *whatif_row_name(int row)
{
    static const char *const names[WHATIF_NROWS] = {
        "baseline", "checkpointing", "mixed_precision",        "accumulation",
        "fusion",   "combined",      "combined_checkpointing",
    };
    return row >= 0 && row < WHATIF_NROWS ? names[row] : "";
}

/* The peak and time of o's policy on g into row. 0, or -1 with row->why said. */
static int measure(const graph *g, const whatif_opts *o, whatif_row *row)
{
    run r;
    char err[480];
    if (policy_run(g, o->pol, o->c, &r, err, sizeof err)) {
        snprintf(row->why, sizeof row->why, "%s", err);
        return -1;
    }
    row->has_peak = 1;
    row->peak = r.peak;
    if (g->latency) {
        timeline t;
        if (timeline_run(g, &r, &t, err, sizeof err)) {
            policy_run_free(&r);
            row->has_peak = 0;
            snprintf(row->why, sizeof row->why, "%s", err);
            return -1;
        }
        row->has_time = 1;
        row->time_ms = t.makespan;
        timeline_free(&t);
    }
    policy_run_free(&r);
    return 0;
}

/* The latencies of g's optimizer-Phase nodes, summed: the update, which runs once. */
static double update_ms(const graph *g)
{
    double s = 0;
    for (uint32_t i = 0; i < g->n; i++)
        if (g->kind[i] == NODE_COMPUTE && graph_phase(g, i) == GRAPH_PHASE_OPTIMIZER)
            s += graph_latency(g, i);
    return s;
}

/* The plan of bm within budget into *p (found: *found 1), or why not in row->why. */
static int fit(const budget_model *bm, int64_t budget, int64_t free_peak, const whatif_opts *o,
               budget_plan *p, int *found, whatif_row *row)
{
    char a[32], b[32];
    int64_t bound = budget_lower_bound(bm);
    *found = 0;
    if (budget >= free_peak) {
        if (budget_given_plan(bm, p)) return -1;
        *found = 1;
        return 0;
    }
    if (budget < bound) {
        snprintf(row->why, sizeof row->why, "no plan fits in %s: every plan needs %s",
                 units_bytes(a, sizeof a, budget, 0), units_bytes(b, sizeof b, bound, 0));
        return 0;
    }
    budget_outcome out;
    whatif_fit_fn solver = o->fit ? o->fit : budget_greedy;
    if (solver(bm, budget, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, o->c, p, &out)) return -1;
    *found = out.found;
    if (!out.found)
        snprintf(row->why, sizeof row->why, "the solver found no plan within %s: %s",
                 units_bytes(a, sizeof a, budget, 0), out.why);
    return 0;
}

/* Checkpointing g at o->pct% of its budget-free peak: the plan's peak, its reruns and extra
 * time (times k: every micro-batch reruns), on top of base's time. 0, or -1 out of memory. */
static int checkpoint(const graph *g, const whatif_opts *o, uint32_t k, double update,
                      const whatif_row *base, whatif_row *row)
{
    budget_model bm;
    budget_plan p = {0};
    budget_stats st;
    char err[480];
    int found = 0, rc = 0;
    if (budget_model_init(&bm, g, err, sizeof err)) {
        snprintf(row->why, sizeof row->why, "%s", err);
        return 0;
    }
    if (budget_given_plan(&bm, &p) || budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err))
        rc = -1;
    budget_plan_free(&p);
    if (!rc) {
        row->budget = (int64_t)floor((double)st.peak * o->pct / 100);
        rc = fit(&bm, row->budget, st.peak, o, &p, &found, row);
    }
    if (!rc && found && budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err)) {
        snprintf(row->why, sizeof row->why, "internal error: the plan fails the check: %.150s",
                 err);
        found = 0;
    }
    if (!rc && found) {
        row->has_peak = 1;
        row->peak = st.peak;
        row->reruns = st.reruns;
        row->extra_ms = k * st.extra_ms;
        row->has_time = base->has_time;
        row->time_ms = k * (base->time_ms + st.extra_ms) - (double)(k - 1) * update;
    }
    budget_plan_free(&p);
    budget_model_free(&bm);
    return rc;
}

/* Fills row: g transformed by what, measured (and checkpointed after, with ckpt); a transform
 * or policy that fails leaves the row's why. 0, or -1 out of memory. */
static int transformed(const graph *g, const whatif_opts *o, unsigned what, int ckpt,
                       whatif_row *row)
{
    graph *t;
    char err[480];
    uint32_t k = (what & WHATIF_ACCUM) ? o->k : 1;
    if (whatif_transform(g, what, o->k, &t, &row->fused, err, sizeof err)) {
        snprintf(row->why, sizeof row->why, "%s", err);
        return strstr(err, "out of memory") ? -1 : 0;
    }
    whatif_row step = {0}; /* one micro-batch (the whole step when k is 1) */
    int rc = 0;
    double update = update_ms(t);
    if (measure(t, o, &step)) snprintf(row->why, sizeof row->why, "%s", step.why);
    else if (ckpt) rc = checkpoint(t, o, k, update, &step, row);
    else {
        step.fused = row->fused;
        step.time_ms = k * step.time_ms - (double)(k - 1) * update;
        *row = step;
    }
    graph_free(t);
    return rc;
}

int whatif_run(const graph *g, const whatif_opts *o, whatif_result *r, char *err, size_t errcap)
{
    memset(r, 0, sizeof *r);
    r->has_latency = g->latency != NULL;
    for (uint32_t i = 0; i < g->n && g->tag; i++) {
        if (g->kind[i] == NODE_ALLOC && g->tag[i]) r->has_categories = 1;
        if (g->kind[i] == NODE_COMPUTE && g->tag[i]) r->has_phases = 1;
    }
    whatif_row *row = r->row;
    if (measure(g, o, &row[WHATIF_ROW_BASELINE])) {
        snprintf(err, errcap, "%s", row[WHATIF_ROW_BASELINE].why);
        return -1;
    }
    /* Checkpointing on g renumbered (transform 0): the budget model needs Ids in a
     * topological order, which g's may not be. */
    if (transformed(g, o, 0, 1, &row[WHATIF_ROW_CHECKPOINT]) ||
        transformed(g, o, WHATIF_FUSE, 0, &row[WHATIF_ROW_FUSION]))
        goto oom;
    static const int rows[] = {WHATIF_ROW_MIXED, WHATIF_ROW_ACCUM, WHATIF_ROW_THREE,
                               WHATIF_ROW_ALL};
    static const unsigned what[] = {WHATIF_MIXED, WHATIF_ACCUM,
                                    WHATIF_MIXED | WHATIF_ACCUM | WHATIF_FUSE,
                                    WHATIF_MIXED | WHATIF_ACCUM | WHATIF_FUSE};
    for (int j = 0; j < 4; j++) {
        if (!r->has_categories) {
            snprintf(row[rows[j]].why, sizeof row[rows[j]].why,
                     "needs Categories (activation, gradient, ...) on the ALLOCs: the graph has "
                     "none");
            continue;
        }
        if (transformed(g, o, what[j], rows[j] == WHATIF_ROW_ALL, &row[rows[j]])) goto oom;
    }
    return 0;
oom:
    snprintf(err, errcap, "out of memory");
    return -1;
}
