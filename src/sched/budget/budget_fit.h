/* budget_fit.h: the front door of memory budgets: one request (the graph, the budget in bytes or
 * as a percentage of the budget-free peak, what may be used, the solver) answered whole: the
 * model, the budget-free plan and peak, the bound every plan needs, the baselines, the plan the
 * solver finds or why there is none (proven or not), and the plan checked by the independent
 * replay (budget_check). memtris budget (one budget, and --sweep: a loop over budget_fit), the
 * TUI's budget view and what-if's checkpointing all ask through it. Exports budget_fit,
 * budget_result_free. */
#ifndef MEMTRIS_BUDGET_FIT_H
#define MEMTRIS_BUDGET_FIT_H
#include <stddef.h>
#include <stdint.h>
#include "budget.h"
#include "budget_bound.h"

/* What budget_fit works out beside the plan (budget_request.want). */
enum {
    BUDGET_WANT_BASELINES = 1, /* Chen's sqrt(n) and recompute-every-cheap-op, checked */
    BUDGET_WANT_LEAST = 2,     /* under the bound: whether a plan fits at the bound itself
                                  (greedy's plan there) */
};

typedef struct budget_request {
    const graph *g;
    int64_t budget;    /* bytes, when pct_micro is 0 */
    int64_t pct_micro; /* > 0: the budget is pct_micro millionths of a percent of the
                          budget-free peak, rounded down (budget_arg_of_pct) */
    unsigned allow;    /* BUDGET_ALLOW_* */
    double bandwidth;
    const budget_solver *solver;
    const solve_ctx *c; /* the solver's limits, watcher and clock (NULL: the defaults) */
    unsigned want;      /* BUDGET_WANT_* */
    /* The order walked: NULL (or given) the given order, else the model follows this policy's
     * run (budget_model_init_order): the TUI's budget view plans from the order it steps. */
    const struct policy *order;
} budget_request;

/* Why budget_fit failed (budget_result.error). */
enum {
    BUDGET_FIT_OK,
    BUDGET_FIT_MODEL,   /* the graph has no budget model (err: why, as budget_model_init says) */
    BUDGET_FIT_GIVEN,   /* the given order's plan fails the check (err: the checker's words) */
    BUDGET_FIT_MEMORY,  /* out of memory */
    BUDGET_FIT_INVALID, /* the solver's plan fails the check or passes the budget (err) */
    BUDGET_FIT_RANGE,   /* the percentage of the peak is past 2^63-1 bytes (err says it) */
};

typedef struct budget_result {
    /* Of the graph, worked out on the first fit and kept for the next fits of the same graph
     * (the sweep's points): */
    budget_model bm;
    int64_t free_peak; /* the budget-free peak: the given order's plan's (pct's base) */
    double step_ms;    /* the budget-free plan's makespan */
    int64_t bound;     /* no plan peaks below it: budget_lower_bound, or the bytes forced at
                          a compute node (budget_bound, for allow) */
    budget_bound bb;   /* the bound on extra time for any order (budget_bound.h), for allow */
    unsigned bb_allow; /* the allow bb and bound were worked out for */
    int chen, cheap;   /* the baselines have plans (BUDGET_WANT_BASELINES): their figures */
    budget_stats chen_st, cheap_st;
    /* The budget-free peak of the order walked (rq->order's; free_peak for the given order): a
     * budget at or above it is met by that order's own plan, with no rerun. */
    int64_t order_peak;
    /* Of this budget: */
    int64_t budget; /* in bytes */
    int found;      /* plan is a whole plan within budget, checked: st its figures */
    budget_plan plan;
    budget_stats st;
    budget_outcome out;    /* the solver's words (no plan: why) */
    budget_proof proof;    /* what the solver proved, with lower_bound_ms the larger of the
                              solver's and budget_bound_ms's (proven when the plan meets it) */
    double bound_ms;       /* budget_bound_ms at this budget (INFINITY: none fits): every plan
                              within it takes at least this much extra time */
    int proven_infeasible; /* no plan fits: the budget is under the bound, or exact's search */
    int exact_none;        /* exact's search (or best's) proved that none fits */
    int64_t least;         /* under the bound (BUDGET_WANT_LEAST): the bound when a plan fits
                              there, else -1 */
    int error;             /* BUDGET_FIT_* */
    char err[512];
} budget_result;

/* Answers rq into res. res is zeroed memory, or the result of an earlier budget_fit of the same
 * graph (its model, peak, bound and baselines are reused, the rest made again). A budget at or
 * above the order's budget-free peak is met by that order's own plan (the given order's, or
 * rq->order's); one under the bound has no plan
 * (proven_infeasible; with BUDGET_WANT_LEAST, least says whether the bound itself is met);
 * else rq->solver's plan (budget_solve: with recompute and offload, never worse than either
 * alone). A plan found is replayed by budget_check before it is given. 0 (a
 * plan or not: found says), or -1 with res->error and res->err. */
int budget_fit(const budget_request *rq, budget_result *res);
void budget_result_free(budget_result *res);

#endif
