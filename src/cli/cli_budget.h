/* cli_budget.h: what "memtris budget" writes beside the plan itself (cli_budget_sweep.c): the
 * plan as a graph file (-o), budget_fit's failures in the command's words, and the trade-off
 * of memory against time (--sweep, a loop over budget_fit) as a table, JSON and an SVG curve.
 * Exports cli_budget_*. */
#ifndef MEMTRIS_CLI_BUDGET_H
#define MEMTRIS_CLI_BUDGET_H
#include <stdint.h>
#include "sched/budget/budget_fit.h"

/* The most points of a sweep (--points). */
#define CLI_BUDGET_MAX_POINTS 1000

/* Writes plan p of bm as a memtris graph (budget_plan_graph) to path ("-": standard output)
 * through the atomic writer: whole or absent. EXIT_OK, or EXIT_BAD after a message. */
int cli_budget_write_graph(const budget_model *bm, const budget_plan *p, double bandwidth,
                           const char *path);

/* budget_fit's failure (res->error) said on standard error; at_budget: a sweep's point, named
 * by its budget. Returns EXIT_BAD. */
int cli_budget_fit_failed(const budget_request *rq, const budget_result *res, int at_budget);

/* One budget of a sweep. */
typedef struct cli_budget_point {
    int64_t budget;
    int found;          /* the solver found a plan at this budget: st is its */
    solve_stop stopped; /* not found: SOLVE_DONE, or the limit that stopped the solver */
    budget_stats st;
    /* What the sweep reports: the plan of least extra time found at this budget or a smaller
     * one (a plan within a budget is within every larger one). */
    int feasible;
    int64_t from; /* the budget whose plan it is */
    budget_stats best;
    int none_fits; /* not feasible, and none can be: under the series' bound, or proven */
    double lb_ms;  /* every plan within this budget takes at least this much extra time: the
                      solver's bound or budget_bound_ms, whichever is larger */
} cli_budget_point;

typedef struct cli_budget_sweep {
    budget_request *rq; /* the graph, solver, allow, bandwidth and limits; its budget is set at
                           each point */
    budget_result *res; /* budget_fit's, kept from one point to the next */
    const char *allow;  /* "recompute", "offload" or "recompute,offload" */
    uint32_t points;    /* budgets from the bound to the budget-free peak, evenly spaced (2+) */
    int format;         /* CLI_TEXT or CLI_JSON */
    const char *svg;    /* --svg's path, or NULL */
    int both;           /* two series: rq's allow (recompute only) and recompute + offload
                           beside it, over budgets from the lower of their bounds */
    /* Filled by cli_budget_sweep_run from res after the first fit: */
    const budget_model *bm;
    const char *solver; /* its name, as --solver takes it */
    int64_t free_peak;  /* the budget-free peak: the last budget */
    int64_t bound;      /* no plan of rq's allow peaks below it (the first budget of one series) */
    double step_ms;     /* the budget-free plan's makespan */
    int chen;           /* Chen's sqrt(n) baseline has a plan: chen_st */
    budget_stats chen_st;
} cli_budget_sweep;

/* Runs the sweep (budget_fit at each budget of each series, after one at the budget-free
 * peak for the graph's figures) and writes it (the table or JSON to standard output, the SVG
 * to s->svg; with --svg -, the SVG alone): EXIT_OK, or EXIT_BAD after a message (a solver
 * interrupted, out of memory, a write failed). */
int cli_budget_sweep_run(const cli_budget_sweep *s);

#endif
