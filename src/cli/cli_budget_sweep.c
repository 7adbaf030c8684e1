/* cli_budget_sweep.c: what "memtris budget" writes beside the plan: the plan as a graph file
 * (-o, through the atomic writer) and the trade-off of memory against time (--sweep): the
 * extra time of the solver's plan at budgets from the lower bound to the budget-free peak,
 * each point the least extra time of the plans found at or under its budget, beside Chen's
 * sqrt(n) checkpointing and the usual claim of checkpointing (65% less memory for 15% more
 * time), as a table, JSON or an SVG curve (drawn by svg/svg_sweep.c). Exports cli_budget_*. */
#include "cli_budget.h"
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_opts.h"
#include "cli_plan.h"
#include "cli_time.h"
#include "sched/budget/budget_say.h"
#include "sched/graph/graph_write.h"
#include "svg/svg.h"
#include "util/units.h"
#include "util/utf8.h"

/* The claim's point: 35% of the budget-free peak for 15% more time than the step's. */
#define CLAIM_MEMORY 0.35
#define CLAIM_TIME   0.15

int cli_budget_fit_failed(const budget_request *rq, const budget_result *res, int at_budget)
{
    const char *src = rq->g->source;
    switch (res->error) {
    case BUDGET_FIT_MODEL: cli_eprintf("%s: error: %s\n", src, res->err); break;
    case BUDGET_FIT_GIVEN:
        cli_eprintf("memtris budget: %s: the given order's plan: %s\n", src, res->err);
        break;
    case BUDGET_FIT_INVALID:
        if (at_budget)
            cli_eprintf("memtris budget: internal error: the solver made an invalid plan for %s at "
                        "%" PRId64 " bytes: %s\n",
                        src, res->budget, res->err);
        else
            cli_eprintf("memtris budget: internal error: %s made an invalid plan for %s: %s\n",
                        rq->solver->name, src, res->err);
        break;
    default: cli_eprintf("memtris budget: out of memory\n");
    }
    return EXIT_BAD;
}

int cli_budget_write_graph(const budget_model *bm, const budget_plan *p, double bandwidth,
                           const char *path)
{
    graph *pg;
    char err[512];
    if (budget_plan_graph(bm, p, bandwidth, &pg, NULL, err, sizeof err)) {
        cli_eprintf("memtris budget: %s: the plan as a graph: %s\n", bm->g->source, err);
        return EXIT_BAD;
    }
    cli_out o;
    if (cli_out_open(&o, "budget", path)) {
        graph_free(pg);
        return EXIT_BAD;
    }
    int failed = graph_write(pg, cli_write_file, o.f, err, sizeof err);
    graph_free(pg);
    if (failed && !ferror(o.f)) {
        cli_eprintf("memtris budget: %s\n", err);
        cli_out_abandon(&o);
        return EXIT_BAD;
    }
    return cli_out_close(&o, failed ? (errno ? errno : EIO) : 0);
}

/* ------------------------------------------------------------ the sweep */

/* The budgets, solved in ascending order by budget_fit, each point's best plan so far. */
static int solve_points(const cli_budget_sweep *s, cli_budget_point *pt, uint32_t *n)
{
    int64_t lo = s->bound < s->free_peak ? s->bound : s->free_peak, span = s->free_peak - lo;
    const cli_budget_point *best = NULL;
    *n = 0;
    for (uint32_t k = 0; k < s->points; k++) {
        int64_t b = lo + (int64_t)((double)span * k / (s->points - 1) + 0.5);
        if (k == s->points - 1) b = s->free_peak;
        if (*n && b <= pt[*n - 1].budget) continue;
        cli_budget_point *q = &pt[(*n)++];
        memset(q, 0, sizeof *q);
        q->budget = b;
        s->rq->budget = b;
        s->rq->pct = 0;
        if (budget_fit(s->rq, s->res)) return cli_budget_fit_failed(s->rq, s->res, 1);
        q->found = s->res->found;
        q->stopped = s->res->out.stopped;
        q->st = s->res->st;
        if (q->stopped == SOLVE_CANCELLED) {
            cli_eprintf("memtris budget: %s: the sweep was interrupted at a budget of %" PRId64
                        " bytes; nothing is written\n",
                        s->bm->g->source, b);
            return EXIT_BAD;
        }
        if (q->found && (!best || q->st.extra_ms <= best->best.extra_ms)) best = q;
        if (best) {
            q->feasible = 1;
            q->from = best->budget;
            q->best = best == q ? q->st : best->best;
            /* the bound at this budget holds for every plan within it, the best one's too */
            double lb = s->res->bound_ms;
            if (q->found && s->res->proof.lower_bound_ms > lb) lb = s->res->proof.lower_bound_ms;
            q->lb_ms = lb < q->best.extra_ms ? lb : q->best.extra_ms;
        }
    }
    return EXIT_OK;
}

static void json_stats(jw *w, int has, const budget_stats *st)
{
    if (!has) {
        jw_null(w);
        return;
    }
    jw_object(w);
    jw_kint(w, "peak", st->peak);
    jw_key(w, "extra_ms");
    cli_jw_ms(w, st->extra_ms);
    jw_kuint(w, "reruns", st->reruns);
    jw_object_end(w);
}

/* A feasible point's gap (budget_gap): proven where its bound meets its extra time. */
static double point_gap(const cli_budget_point *q)
{
    return budget_gap(q->best.extra_ms, q->lb_ms, q->lb_ms >= q->best.extra_ms * (1 - 1e-9));
}

static void print_json(const cli_budget_sweep *s, const cli_budget_point *pt, uint32_t n)
{
    jw w;
    jw_file(&w, stdout);
    jw_object(&w);
    jw_kstring(&w, "source", s->bm->g->source);
    jw_kint(&w, "budget_free_peak", s->free_peak);
    jw_key(&w, "step_ms");
    cli_jw_ms(&w, s->step_ms);
    jw_kstring(&w, "solver", s->solver);
    jw_kstring(&w, "allow", s->allow);
    jw_kint(&w, "least_budget_bound", s->bound);
    jw_key(&w, "points");
    jw_array(&w);
    for (uint32_t k = 0; k < n; k++) {
        const cli_budget_point *q = &pt[k];
        jw_break(&w, "\n  ");
        jw_object(&w);
        jw_kint(&w, "budget", q->budget);
        jw_kbool(&w, "feasible", q->feasible);
        jw_kbool(&w, "solver_found", q->found);
        jw_key(&w, "plan_budget");
        if (q->feasible) jw_int(&w, q->from);
        else jw_null(&w);
        jw_key(&w, "peak");
        if (q->feasible) jw_int(&w, q->best.peak);
        else jw_null(&w);
        jw_key(&w, "extra_ms");
        if (q->feasible) cli_jw_ms(&w, q->best.extra_ms);
        else jw_null(&w);
        jw_key(&w, "reruns");
        if (q->feasible) jw_uint(&w, q->best.reruns);
        else jw_null(&w);
        jw_key(&w, "offloaded_bytes");
        if (q->feasible) jw_int(&w, q->best.offloaded_bytes);
        else jw_null(&w);
        jw_key(&w, "lower_bound_ms");
        if (q->feasible) cli_jw_ms(&w, q->lb_ms);
        else jw_null(&w);
        double gap = q->feasible ? point_gap(q) : -1;
        jw_key(&w, "gap");
        if (gap >= 0) jw_g(&w, gap, 6);
        else jw_null(&w);
        jw_object_end(&w);
    }
    jw_break(&w, "\n");
    jw_array_end(&w);
    jw_key(&w, "chen_sqrt_n");
    json_stats(&w, s->chen, &s->chen_st);
    jw_key(&w, "seed_claim");
    jw_object(&w);
    jw_kint(&w, "budget", (int64_t)floor((double)s->free_peak * CLAIM_MEMORY));
    jw_key(&w, "extra_ms");
    cli_jw_ms(&w, s->step_ms * CLAIM_TIME);
    jw_kstring(&w, "says", "65% less memory for 15% more time");
    jw_object_end(&w);
    jw_object_end(&w);
    jw_end(&w);
}

/* "12.5%" of whole, or "-" when whole is 0. */
static const char *pct(char *out, size_t cap, double part, double whole)
{
    if (whole > 0) snprintf(out, cap, "%.1f%%", 100 * part / whole);
    else snprintf(out, cap, "-");
    return out;
}

static void print_text(const cli_budget_sweep *s, const cli_budget_point *pt, uint32_t n)
{
    char src[1024], a[32], b[32], c[32], d[32];
    int starred = 0;
    printf("%s: extra time against the memory budget, solver %s, allow %s\n",
           utf8_printable(s->bm->g->source, src, sizeof src), s->solver, s->allow);
    printf("budget-free peak %s, step %s; no plan fits under %s (a bound)\n",
           units_bytes(a, sizeof a, s->free_peak, 0), units_ms(b, sizeof b, s->step_ms),
           units_bytes(c, sizeof c, s->bound, 0));
    printf("  %-12s %7s  %-12s %-12s %8s %7s  %-11s %s\n", "budget", "of peak", "peak",
           "extra time", "of step", "reruns", "offloaded", "gap");
    for (uint32_t k = 0; k < n; k++) {
        const cli_budget_point *q = &pt[k];
        printf("  %-12s %7s  ", units_bytes(a, sizeof a, q->budget, 0),
               pct(b, sizeof b, (double)q->budget, (double)s->free_peak));
        if (!q->feasible) {
            printf("no plan found%s\n", q->stopped == SOLVE_DONE ? "" : " (stopped at a limit)");
            continue;
        }
        starred |= q->from != q->budget;
        double gap = point_gap(q);
        char e[32];
        if (gap == 0) snprintf(e, sizeof e, "optimal");
        else if (gap < 0) snprintf(e, sizeof e, "?");
        else snprintf(e, sizeof e, "%d%%", budget_gap_pct(gap));
        printf("%-12s %-12s %8s %7" PRIu64 "  %-11s %s%s\n",
               units_bytes(a, sizeof a, q->best.peak, 0), units_ms(b, sizeof b, q->best.extra_ms),
               pct(c, sizeof c, q->best.extra_ms, s->step_ms), q->best.reruns,
               units_bytes(d, sizeof d, q->best.offloaded_bytes, 0), e,
               q->from != q->budget ? "  *" : "");
    }
    if (starred)
        printf("* the plan of a smaller budget: the solver's own plan here costs more time, or "
               "it found none\n");
    printf("gap: how far the extra time may be above the least any plan takes, from a lower "
           "bound (\"optimal\": proven; \"?\": no bound above 0)\n");
    if (s->chen)
        printf("Chen's sqrt(n) checkpointing: peak %s (%s of the budget-free peak), %s extra "
               "(%s of the step)\n",
               units_bytes(a, sizeof a, s->chen_st.peak, 0),
               pct(b, sizeof b, (double)s->chen_st.peak, (double)s->free_peak),
               units_ms(c, sizeof c, s->chen_st.extra_ms),
               pct(d, sizeof d, s->chen_st.extra_ms, s->step_ms));
    else printf("Chen's sqrt(n) checkpointing: no plan (the graph has no forward Phase)\n");
    printf("65%% less memory for 15%% more time, as checkpointing is said to give: a budget of "
           "%s for %s extra\n",
           units_bytes(a, sizeof a, (int64_t)floor((double)s->free_peak * CLAIM_MEMORY), 0),
           units_ms(b, sizeof b, s->step_ms * CLAIM_TIME));
}

/* ------------------------------------------------------------ the SVG */

/* The sweep drawn by svg_write_sweep (n is at most --points, CLI_BUDGET_MAX_POINTS). */
static void svg_write(FILE *f, const cli_budget_sweep *s, const cli_budget_point *pt, uint32_t n)
{
    svg_sweep_point sp[CLI_BUDGET_MAX_POINTS];
    for (uint32_t k = 0; k < n; k++)
        sp[k] = (svg_sweep_point){pt[k].budget, pt[k].feasible, pt[k].best.extra_ms};
    svg_sweep sw = {.source = s->bm->g->source,
                    .solver = s->solver,
                    .allow = s->allow,
                    .free_peak = s->free_peak,
                    .step_ms = s->step_ms,
                    .chen = s->chen,
                    .chen_peak = s->chen_st.peak,
                    .chen_ms = s->chen_st.extra_ms,
                    .claim_budget = floor((double)s->free_peak * CLAIM_MEMORY),
                    .claim_ms = s->step_ms * CLAIM_TIME,
                    .claim = "65% less memory, 15% more time",
                    .n = n,
                    .pt = sp};
    svg_write_sweep(f, &sw);
}

/* The graph's figures from a fit at the budget-free peak (budget_fit's first: the model, the
 * peak, the bound, the baselines) into w. EXIT_OK, or EXIT_BAD after a message. */
static int figures(cli_budget_sweep *w)
{
    w->rq->budget = INT64_MAX;
    w->rq->pct = 0;
    if (budget_fit(w->rq, w->res)) return cli_budget_fit_failed(w->rq, w->res, 0);
    const budget_result *r = w->res;
    w->bm = &r->bm;
    w->solver = w->rq->solver->name;
    w->free_peak = r->free_peak;
    w->bound = r->bound;
    w->step_ms = r->step_ms;
    w->chen = r->chen;
    w->chen_st = r->chen_st;
    return EXIT_OK;
}

int cli_budget_sweep_run(const cli_budget_sweep *sweep)
{
    cli_budget_sweep w = *sweep;
    const cli_budget_sweep *s = &w;
    if (figures(&w)) return EXIT_BAD;
    cli_budget_point *pt = calloc(s->points + 1, sizeof *pt);
    if (!pt) {
        cli_eprintf("memtris budget: out of memory\n");
        return EXIT_BAD;
    }
    uint32_t n = 0;
    int status = solve_points(s, pt, &n);
    if (!status && s->svg) {
        cli_out o;
        status = cli_out_open(&o, "budget", s->svg);
        if (!status) {
            svg_write(o.f, s, pt, n);
            status = cli_out_close(&o, ferror(o.f) ? (errno ? errno : EIO) : 0);
        }
    }
    if (!status && !(s->svg && !strcmp(s->svg, "-"))) {
        if (s->format == CLI_JSON) print_json(s, pt, n);
        else print_text(s, pt, n);
    }
    free(pt);
    return status;
}
