/* cli_budget.h: what "memtris budget" writes beside the plan itself (cli_budget_sweep.c): the
 * plan as a graph file (-o) and the trade-off of memory against time (--sweep) as a table,
 * JSON and an SVG curve. The sweep solves through the command's own solver dispatch, handed in
 * as a function. Exports cli_budget_*. */
#ifndef MEMTRIS_CLI_BUDGET_H
#define MEMTRIS_CLI_BUDGET_H
#include <stdint.h>
#include "sched/budget/budget.h"

/* The most points of a sweep (--points). */
#define CLI_BUDGET_MAX_POINTS 1000

/* Writes plan p of bm as a memtris graph (budget_plan_graph) to path ("-": standard output)
 * through the atomic writer: whole or absent. EXIT_OK, or EXIT_BAD after a message. */
int cli_budget_write_graph(const budget_model *bm, const budget_plan *p, double bandwidth,
                           const char *path);

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
} cli_budget_point;

/* Solves at pt->budget, filling found, stopped and st (the plan checked): EXIT_OK, or
 * EXIT_BAD after a message. */
typedef int (*cli_budget_solve_fn)(void *ctx, cli_budget_point *pt);

typedef struct cli_budget_sweep {
    const budget_model *bm;
    const char *solver; /* its name, as --solver takes it */
    const char *allow;  /* "recompute", "offload" or "recompute,offload" */
    int64_t free_peak;  /* the budget-free peak: the last budget */
    int64_t bound;      /* budget_lower_bound: the first budget */
    double step_ms;     /* the budget-free plan's makespan */
    int chen;           /* Chen's sqrt(n) baseline has a plan: chen_st */
    budget_stats chen_st;
    uint32_t points; /* budgets from bound to free_peak, evenly spaced (2 or more) */
    int format;      /* CLI_TEXT or CLI_JSON */
    const char *svg; /* --svg's path, or NULL */
    cli_budget_solve_fn solve;
    void *ctx;
} cli_budget_sweep;

/* Runs the sweep and writes it (the table or JSON to standard output, the SVG to s->svg; with
 * --svg -, the SVG alone): EXIT_OK, or EXIT_BAD after a message (a solver interrupted, out of
 * memory, a write failed). */
int cli_budget_sweep_run(const cli_budget_sweep *s);

#endif
