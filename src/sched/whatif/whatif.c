/* whatif.c: the rows of the what-if table: the graph as given under a policy, checkpointing
 * through the budgets' front door (budget_fit), and the transformed graphs of
 * whatif_transform.c measured the same way. Exports whatif_run and whatif_row_name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/whatif/whatif.h"
#include "defaults.h"
#include "sched/budget/budget_fit.h"
#include "sched/budget/budget_say.h"
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

/* Why no plan fits in res's budget, with the bound: "no plan fits in 250 B: every plan needs
 * 460 B, 92% of the peak (weight 200 B (43%), ... at Id 5 (relu)); with offload: 300 B
 * (60%)": what fills the least budget by Category, and the least with offload (the bytes a
 * node reads and writes, at the start or at the end: budget_lower_bound). */
static void why_none(const budget_result *res, char *out, size_t cap)
{
    char a[64], b[32], c[32], fill[320];
    int64_t off = budget_lower_bound(&res->bm);
    double peak = res->free_peak > 0 ? (double)res->free_peak : 1;
    budget_fill_words(fill, sizeof fill, res);
    snprintf(out, cap,
             "no plan fits in %s: every plan needs %s, %.0f%% of the peak%s%s%s; with "
             "offload: %s (%.0f%%)",
             units_bytes_beside(a, sizeof a, res->budget, res->bound),
             units_bytes(b, sizeof b, res->bound, 0), 100.0 * (double)res->bound / peak,
             fill[0] ? " (" : "", fill, fill[0] ? ")" : "", units_bytes(c, sizeof c, off, 0),
             100.0 * (double)off / peak);
}

/* Checkpointing g at o->pct_micro of its budget-free peak (budget_fit, recompute only): the
 * budget (has_budget), the plan's peak, its reruns and extra time (times k: every micro-batch
 * reruns), on top of base's time; without a plan, why not. 0, or -1 out of memory. */
static int checkpoint(const graph *g, const whatif_opts *o, uint32_t k, double update,
                      const whatif_row *base, whatif_row *row)
{
    char a[32];
    budget_request rq = {.g = g,
                         .pct_micro = o->pct_micro,
                         .allow = BUDGET_ALLOW_RECOMPUTE,
                         .bandwidth = BUDGET_BANDWIDTH,
                         .solver =
                             o->solver ? o->solver : budget_solver_find(DEFAULT_WHATIF_SOLVER),
                         .c = o->c};
    budget_result res = {0};
    int rc = 0;
    int failed = budget_fit(&rq, &res);
    row->has_budget = !failed || res.error == BUDGET_FIT_INVALID; /* worked out before the plan */
    row->budget = row->has_budget ? res.budget : 0;
    if (failed) {
        if (res.error == BUDGET_FIT_MEMORY) rc = -1;
        else if (res.error == BUDGET_FIT_INVALID)
            snprintf(row->why, sizeof row->why, "internal error: the plan fails the check: %.150s",
                     res.err);
        else snprintf(row->why, sizeof row->why, "%s", res.err);
    } else if (res.budget < res.bound) {
        why_none(&res, row->why, sizeof row->why);
    } else if (!res.found) {
        snprintf(row->why, sizeof row->why, "the solver found no plan within %s: %s",
                 units_bytes(a, sizeof a, res.budget, 0), res.out.why);
    } else {
        row->has_peak = 1;
        row->peak = res.st.peak;
        row->reruns = res.st.reruns;
        row->extra_ms = k * res.st.extra_ms;
        row->has_time = base->has_time;
        row->time_ms = k * (base->time_ms + res.st.extra_ms) - (double)(k - 1) * update;
    }
    budget_result_free(&res);
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
    r->has_latency = budget_has_latency(g); /* a compute node takes time */
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
