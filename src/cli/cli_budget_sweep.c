/* cli_budget_sweep.c: what "memtris budget" writes beside the plan: the plan as a graph file
 * (-o, through the atomic writer) and the trade-off of memory against time (--sweep): the
 * extra time of the solver's plan at budgets from the lower bound to the budget-free peak,
 * each point the least extra time of the plans found at or under its budget, in one series
 * (--allow) or two side by side (recompute only, and with offload), beside Chen's
 * sqrt(n) checkpointing and the usual claim of checkpointing (65% less memory for 15% more
 * time), as a table, JSON or an SVG curve (drawn by svg/svg_sweep.c). Exports cli_budget_*. */
#include "cli_budget.h"
#include <errno.h>
#include <inttypes.h>
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

/* The claim's point: 35% of the budget-free peak (rounded down) for 15% more time than the
 * step's. */
#define CLAIM_MEMORY_PCT 35
#define CLAIM_TIME       0.15

/* The claim's budget: CLAIM_MEMORY_PCT% of peak, rounded down, in integers. */
static int64_t claim_budget(int64_t peak)
{
    return (int64_t)((unsigned __int128)peak * CLAIM_MEMORY_PCT / 100);
}

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
    case BUDGET_FIT_RANGE: cli_eprintf("memtris budget: %s: %s\n", src, res->err); break;
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

/* One series of the sweep: the plans of one allow at every budget. */
typedef struct series {
    budget_request rq;  /* the sweep's, with this series' allow; its budget set at each point */
    budget_result *res; /* budget_fit's, kept from one point to the next */
    const char *allow;  /* as --allow takes it */
    const char *label;  /* in the table's and the chart's words */
    int64_t bound;      /* no plan of this allow peaks below it */
    cli_budget_point *pt;
    uint32_t n;
    int64_t least; /* the least budget the solver found a plan for, or -1 */
} series;

/* The budgets from lo to the budget-free peak, solved in ascending order by budget_fit, each
 * point the best plan so far of sr. */
static int solve_points(const cli_budget_sweep *s, series *sr, int64_t lo)
{
    int64_t span = s->free_peak - lo;
    const cli_budget_point *best = NULL;
    cli_budget_point *pt = sr->pt;
    sr->n = 0;
    sr->least = -1;
    for (uint32_t k = 0; k < s->points; k++) {
        /* lo + span * k / (points - 1), rounded half up, in integers */
        int64_t b = lo + (int64_t)(((unsigned __int128)span * k * 2 + (s->points - 1)) /
                                   ((unsigned __int128)(s->points - 1) * 2));
        if (k == s->points - 1) b = s->free_peak;
        if (sr->n && b <= pt[sr->n - 1].budget) continue;
        cli_budget_point *q = &pt[sr->n++];
        memset(q, 0, sizeof *q);
        q->budget = b;
        sr->rq.budget = b;
        sr->rq.pct_micro = 0;
        if (budget_fit(&sr->rq, sr->res)) return cli_budget_fit_failed(&sr->rq, sr->res, 1);
        q->found = sr->res->found;
        q->stopped = sr->res->out.stopped;
        q->st = sr->res->st;
        q->none_fits = !q->found && sr->res->proven_infeasible;
        if (q->stopped == SOLVE_CANCELLED) {
            cli_eprintf("memtris budget: %s: the sweep was interrupted at a budget of %" PRId64
                        " bytes; nothing is written\n",
                        s->bm->g->source, b);
            return EXIT_BAD;
        }
        if (q->found && sr->least < 0) sr->least = b;
        if (q->found && (!best || q->st.extra_ms <= best->best.extra_ms)) best = q;
        if (best) {
            q->feasible = 1;
            q->from = best->budget;
            q->best = best == q ? q->st : best->best;
            /* the bound at this budget holds for every plan within it, the best one's too */
            double lb = sr->res->bound_ms;
            if (q->found && sr->res->proof.lower_bound_ms > lb) lb = sr->res->proof.lower_bound_ms;
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

/* A series' least budget with a plan and its points, as keys of the object open in w. */
static void json_series(jw *w, const series *sr)
{
    jw_kint(w, "least_budget_bound", sr->bound);
    jw_key(w, "least_plan_budget");
    if (sr->least >= 0) jw_int(w, sr->least);
    else jw_null(w);
    jw_key(w, "points");
    jw_array(w);
    for (uint32_t k = 0; k < sr->n; k++) {
        const cli_budget_point *q = &sr->pt[k];
        jw_break(w, "\n  ");
        jw_object(w);
        jw_kint(w, "budget", q->budget);
        jw_kbool(w, "feasible", q->feasible);
        jw_kbool(w, "solver_found", q->found);
        jw_key(w, "plan_budget");
        if (q->feasible) jw_int(w, q->from);
        else jw_null(w);
        jw_key(w, "peak");
        if (q->feasible) jw_int(w, q->best.peak);
        else jw_null(w);
        jw_key(w, "extra_ms");
        if (q->feasible) cli_jw_ms(w, q->best.extra_ms);
        else jw_null(w);
        jw_key(w, "reruns");
        if (q->feasible) jw_uint(w, q->best.reruns);
        else jw_null(w);
        jw_key(w, "offloaded_bytes");
        if (q->feasible) jw_int(w, q->best.offloaded_bytes);
        else jw_null(w);
        jw_key(w, "lower_bound_ms");
        if (q->feasible) cli_jw_ms(w, q->lb_ms);
        else jw_null(w);
        double gap = q->feasible ? point_gap(q) : -1;
        jw_key(w, "gap");
        if (gap >= 0) jw_g(w, gap, 6);
        else jw_null(w);
        jw_object_end(w);
    }
    jw_break(w, "\n");
    jw_array_end(w);
}

/* Without Latency every rerun costs 0 ms: the words that say so (for the series' allows), or
 * NULL when a compute node takes time and the claim is judged. */
static const char *no_latency(const cli_budget_sweep *s, const series *sr, int nsr)
{
    unsigned allow = 0;
    for (int i = 0; i < nsr; i++) allow |= sr[i].rq.allow;
    return budget_has_latency(s->bm->g) ? NULL : budget_no_latency_words(allow, 0);
}

/* The first series at the top (the keys of a sweep of one series), the second under
 * "with_offload" (null with one series). */
static void print_json(const cli_budget_sweep *s, const series *sr, int nsr)
{
    jw w;
    jw_file(&w, stdout);
    jw_object(&w);
    jw_kstring(&w, "source", s->bm->g->source);
    jw_kint(&w, "budget_free_peak", s->free_peak);
    jw_key(&w, "step_ms");
    cli_jw_ms(&w, s->step_ms);
    jw_kstring(&w, "solver", s->solver);
    const char *warn = no_latency(s, sr, nsr);
    jw_kbool(&w, "latency", !warn);
    jw_key(&w, "warning");
    if (warn) jw_string(&w, warn);
    else jw_null(&w);
    jw_kstring(&w, "allow", sr[0].allow);
    json_series(&w, &sr[0]);
    jw_key(&w, "with_offload");
    if (nsr > 1) {
        jw_object(&w);
        jw_kstring(&w, "allow", sr[1].allow);
        json_series(&w, &sr[1]);
        jw_object_end(&w);
    } else {
        jw_null(&w);
    }
    jw_key(&w, "chen_sqrt_n");
    json_stats(&w, s->chen, &s->chen_st);
    jw_key(&w, "seed_claim");
    jw_object(&w);
    jw_kint(&w, "budget", claim_budget(s->free_peak));
    jw_key(&w, "extra_ms");
    cli_jw_ms(&w, s->step_ms * CLAIM_TIME);
    jw_kstring(&w, "says", "65% less memory for 15% more time");
    jw_kbool(&w, "judged", !warn); /* without Latency every plan "meets" it at 0 ms */
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

/* A feasible point's gap in words: "optimal", "12%" or "?". */
static const char *gap_words(char *out, size_t cap, const cli_budget_point *q)
{
    double gap = point_gap(q);
    if (gap == 0) snprintf(out, cap, "optimal");
    else if (gap < 0) snprintf(out, cap, "?");
    else snprintf(out, cap, "%d%%", budget_gap_pct(gap));
    return out;
}

/* Why a point has no plan, in words. */
static const char *none_words(const cli_budget_point *q)
{
    return q->none_fits               ? "no plan found (none fits)"
           : q->stopped == SOLVE_DONE ? "no plan found"
                                      : "no plan found (stopped at a limit)";
}

/* The first series' cells of point k (all of a sweep of one series: wide, the last on the
 * line); the second's after it: peak, extra time, its share of the step, gap. */
static void print_cells(const cli_budget_sweep *s, const series *sr, int second, uint32_t k,
                        int wide)
{
    const cli_budget_point *q = &sr->pt[k];
    char a[32], b[32], c[32], d[32], e[40];
    if (!q->feasible) {
        if (wide) printf("%-69s", none_words(q));
        else printf("%s", none_words(q));
        return;
    }
    const char *star = q->from != q->budget ? (wide || second ? " *" : "  *") : "";
    snprintf(e, sizeof e, "%s%s", gap_words(a, sizeof a, q), star);
    if (second) {
        printf("%-12s %-12s %8s %s", units_bytes(a, sizeof a, q->best.peak, 0),
               units_ms(b, sizeof b, q->best.extra_ms),
               pct(c, sizeof c, q->best.extra_ms, s->step_ms), e);
        return;
    }
    printf("%-12s %-12s %8s %7" PRIu64 "  %-11s ", units_bytes(a, sizeof a, q->best.peak, 0),
           units_ms(b, sizeof b, q->best.extra_ms), pct(c, sizeof c, q->best.extra_ms, s->step_ms),
           q->best.reruns, units_bytes(d, sizeof d, q->best.offloaded_bytes, 0));
    if (wide) printf("%-13s", e);
    else printf("%s", e);
}

/* The least budget a plan was found for, of each series, as a share of the peak. */
static void print_least(const cli_budget_sweep *s, const series *sr, int nsr)
{
    char a[32], b[32];
    printf("the least budget a plan was found for:");
    for (int i = 0; i < nsr; i++) {
        if (sr[i].least >= 0)
            printf("%s %s (%s)", i ? "," : "",
                   pct(a, sizeof a, (double)sr[i].least, (double)s->free_peak),
                   units_bytes(b, sizeof b, sr[i].least, 0));
        else printf("%s none", i ? "," : "");
        if (nsr > 1) printf(" %s", sr[i].label);
    }
    printf("\n");
}

static void print_text(const cli_budget_sweep *s, const series *sr, int nsr)
{
    char src[1024], a[32], b[32], c[32], d[32];
    int starred = 0;
    printf("%s: extra time against the memory budget, solver %s, ",
           utf8_printable(s->bm->g->source, src, sizeof src), s->solver);
    if (nsr > 1) printf("%s and %s (allow %s)\n", sr[0].label, sr[1].label, sr[1].allow);
    else printf("allow %s\n", sr[0].allow);
    printf("budget-free peak %s, step %s; no plan fits under %s",
           units_bytes(a, sizeof a, s->free_peak, 0), units_ms(b, sizeof b, s->step_ms),
           units_bytes(c, sizeof c, sr[0].bound, 0));
    if (nsr > 1)
        printf(" %s, %s %s (bounds)\n", sr[0].label, units_bytes(d, sizeof d, sr[1].bound, 0),
               sr[1].label);
    else printf(" (a bound)\n");
    const char *warn = no_latency(s, sr, nsr);
    if (warn) printf("%s\n", warn);
    if (nsr > 1) printf("  %-12s %7s  %-69s%s\n", "", "", sr[0].label, sr[1].label);
    printf("  %-12s %7s  %-12s %-12s %8s %7s  %-11s %s", "budget", "of peak", "peak", "extra time",
           "of step", "reruns", "offloaded", "gap");
    if (nsr > 1) printf("%10s%-12s %-12s %8s %s", "", "peak", "extra time", "of step", "gap");
    printf("\n");
    for (uint32_t k = 0; k < sr[0].n; k++) {
        const cli_budget_point *q = &sr[0].pt[k];
        printf("  %-12s %7s  ", units_bytes(a, sizeof a, q->budget, 0),
               pct(b, sizeof b, (double)q->budget, (double)s->free_peak));
        for (int i = 0; i < nsr; i++) {
            print_cells(s, &sr[i], i, k, i == 0 && nsr > 1);
            starred |= sr[i].pt[k].feasible && sr[i].pt[k].from != sr[i].pt[k].budget;
        }
        printf("\n");
    }
    if (starred)
        printf("* the plan of a smaller budget: the solver's own plan here costs more time, or "
               "it found none\n");
    printf("gap: how far the extra time may be above the least any plan takes, from a lower "
           "bound (\"optimal\": proven; \"?\": no bound above 0)\n");
    print_least(s, sr, nsr);
    if (s->chen)
        printf("Chen's sqrt(n) checkpointing: peak %s (%s of the budget-free peak), %s extra "
               "(%s of the step)\n",
               units_bytes(a, sizeof a, s->chen_st.peak, 0),
               pct(b, sizeof b, (double)s->chen_st.peak, (double)s->free_peak),
               units_ms(c, sizeof c, s->chen_st.extra_ms),
               pct(d, sizeof d, s->chen_st.extra_ms, s->step_ms));
    else printf("Chen's sqrt(n) checkpointing: no plan (the graph has no forward Phase)\n");
    units_bytes(a, sizeof a, claim_budget(s->free_peak), 0);
    if (warn)
        printf("65%% less memory for 15%% more time, as checkpointing is said to give: not judged "
               "without Latency (a budget of %s)\n",
               a);
    else
        printf("65%% less memory for 15%% more time, as checkpointing is said to give: a budget "
               "of %s for %s extra\n",
               a, units_ms(b, sizeof b, s->step_ms * CLAIM_TIME));
}

/* ------------------------------------------------------------ the SVG */

/* The sweep drawn by svg_write_sweep (n is at most --points, CLI_BUDGET_MAX_POINTS). */
static void svg_write(FILE *f, const cli_budget_sweep *s, const series *sr, int nsr)
{
    uint32_t n = sr[0].n;
    svg_sweep_point sp[2 * CLI_BUDGET_MAX_POINTS];
    for (int i = 0; i < nsr; i++)
        for (uint32_t k = 0; k < n; k++) {
            const cli_budget_point *q = &sr[i].pt[k];
            sp[(uint32_t)i * n + k] = (svg_sweep_point){q->budget, q->feasible, q->best.extra_ms};
        }
    svg_sweep sw = {.source = s->bm->g->source,
                    .solver = s->solver,
                    .allow = sr[0].allow,
                    .free_peak = s->free_peak,
                    .step_ms = s->step_ms,
                    .chen = s->chen,
                    .chen_peak = s->chen_st.peak,
                    .chen_ms = s->chen_st.extra_ms,
                    .claim_budget = (double)claim_budget(s->free_peak),
                    .claim_ms = s->step_ms * CLAIM_TIME,
                    .claim = "65% less memory, 15% more time",
                    .warning = no_latency(s, sr, nsr),
                    .n = n,
                    .pt = sp,
                    .bound = sr[0].bound};
    if (nsr > 1) {
        sw.label = sr[0].label;
        sw.label2 = sr[1].label;
        sw.allow2 = sr[1].allow;
        sw.pt2 = sp + n;
        sw.bound2 = sr[1].bound;
    }
    svg_write_sweep(f, &sw);
}

/* The graph's figures from a fit at the budget-free peak (budget_fit's first: the model, the
 * peak, the bound, the baselines) into w, and sr's bound. EXIT_OK, or EXIT_BAD after a
 * message. */
static int figures(cli_budget_sweep *w, series *sr)
{
    sr->rq.budget = INT64_MAX;
    sr->rq.pct_micro = 0;
    if (budget_fit(&sr->rq, sr->res)) return cli_budget_fit_failed(&sr->rq, sr->res, 0);
    const budget_result *r = sr->res;
    sr->bound = r->bound;
    if (w->bm) return EXIT_OK;
    w->bm = &r->bm;
    w->solver = sr->rq.solver->name;
    w->free_peak = r->free_peak;
    w->bound = r->bound;
    w->step_ms = r->step_ms;
    w->chen = r->chen;
    w->chen_st = r->chen_st;
    return EXIT_OK;
}

/* The series (one, or recompute only and recompute + offload), each solved at the same
 * budgets, from the lower of their bounds, and written. */
static int run_series(cli_budget_sweep *w, series *sr, int nsr)
{
    const cli_budget_sweep *s = w;
    for (int i = 0; i < nsr; i++) {
        if (figures(w, &sr[i])) return EXIT_BAD;
        /* the points need no baselines, nor greedy's try at the bound under it */
        sr[i].rq.want = 0;
        if (!(sr[i].pt = calloc(s->points + 1, sizeof *sr[i].pt))) {
            cli_eprintf("memtris budget: out of memory\n");
            return EXIT_BAD;
        }
    }
    int64_t lo = s->free_peak;
    for (int i = 0; i < nsr; i++)
        if (sr[i].bound < lo) lo = sr[i].bound;
    for (int i = 0; i < nsr; i++)
        if (solve_points(s, &sr[i], lo)) return EXIT_BAD;
    int status = EXIT_OK;
    if (s->svg) {
        cli_out o;
        status = cli_out_open(&o, "budget", s->svg);
        if (!status) {
            svg_write(o.f, s, sr, nsr);
            status = cli_out_close(&o, ferror(o.f) ? (errno ? errno : EIO) : 0);
        }
    }
    if (!status && !(s->svg && !strcmp(s->svg, "-"))) {
        if (s->format == CLI_JSON) print_json(s, sr, nsr);
        else print_text(s, sr, nsr);
    }
    return status;
}

int cli_budget_sweep_run(const cli_budget_sweep *sweep)
{
    cli_budget_sweep w = *sweep;
    budget_result res2;
    memset(&res2, 0, sizeof res2);
    series sr[2] = {{.rq = *w.rq,
                     .res = w.res,
                     .allow = w.allow,
                     .label = w.both ? "recompute only" : w.allow,
                     .least = -1},
                    {.rq = *w.rq,
                     .res = &res2,
                     .allow = "recompute,offload",
                     .label = "with offload",
                     .least = -1}};
    sr[1].rq.allow = BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD;
    sr[1].rq.want = 0;
    int nsr = w.both ? 2 : 1;
    int status = run_series(&w, sr, nsr);
    for (int i = 0; i < nsr; i++) free(sr[i].pt);
    budget_result_free(&res2);
    return status;
}
