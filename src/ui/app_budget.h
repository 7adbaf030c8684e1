/* app_budget.h: the budget view's state (m: the budget asked, the plan the budget solver found,
 * that plan as a graph that the app steps through under policy given, the bytes on the host at
 * each step) and what is worked out from it (the solve, the rerun the cursor is at and why it
 * was needed), knowing nothing of the app. Exports app_budget*. */
#ifndef MEMTRIS_APP_BUDGET_H
#define MEMTRIS_APP_BUDGET_H
#include <stddef.h>
#include <stdint.h>
#include "sched/budget/budget.h"
#include "sched/graph/graph.h"
#include "sched/graph/solve.h"
#include "sched/policy/policy.h"

typedef struct app_budget {
    int on;            /* the view shows the plan: the app's graph is pg */
    const graph *g;    /* the input graph (the app's again when the budget goes) */
    const policy *pol; /* the stepped policy before the budget (back with the input graph) */
    int64_t budget;    /* bytes */
    int64_t free_peak; /* the budget-free peak (the given order's plan) */
    int64_t pct_micro; /* > 0: the budget was asked as pct_micro millionths of a percent of
                          free_peak (budget_arg.h) */
    unsigned allow;    /* BUDGET_ALLOW_* */
    double bandwidth;  /* bytes a second each way (offload) */
    budget_model bm;   /* g's model */
    budget_plan plan;  /* the plan (events over g) */
    budget_stats st;   /* the plan's figures, from budget_check */
    double lb_ms;      /* every plan within the budget takes at least this much extra time */
    int proven;        /* none takes less than the plan (lb_ms meets st.extra_ms) */
    int timeless;      /* no compute node of g takes time: every rerun costs 0 ms */
    graph *pg;         /* the plan as a graph (budget_plan_graph) */
    budget_graph_map map;
    int64_t *host;     /* [pg->n + 1]: bytes on the host after t steps (app_budget_host) */
    int64_t host_peak; /* their most; 0: nothing offloaded */
    /* The order planned from, the stepped policy's (NULL: the given order); its budget-free
     * peak; whether its own plan fits the budget as it is (no rerun, no offload). */
    const policy *order;
    int64_t order_peak;
    int as_is;
} app_budget;

/* The prompt's answer: "SIZE [ALLOW]", SIZE as memtris budget's --budget takes it (8MiB, or
 * 60% of the budget-free peak) and ALLOW as its --allow (recompute, the default; offload;
 * recompute,offload). 0, or -1 with the reason in msg. */
int app_budget_read(const char *text, int64_t *bytes, int64_t *pct, unsigned *allow, char *msg,
                    size_t cap);
/* Solves g under the budget (bytes, or pct millionths of a percent of the given order's
 * budget-free peak, budget_arg.h) with what
 * allow allows, walking order's run (NULL: the given order; its own plan where that fits),
 * within c's limits, and makes the plan graph: 0 with b filled (b->on still 0; b's old contents
 * are not looked at), or -1 with b empty and why in msg ("no plan fits in 6.0 MiB; the least
 * budget any plan fits in is 7.5 MiB"). */
int app_budget_solve(app_budget *b, const graph *g, const policy *order, int64_t bytes, int64_t pct,
                     unsigned allow, const solve_ctx *c, char *msg, size_t cap);
/* b->g's model and budget-free peak into b->bm and b->free_peak (b->bandwidth set): 0, or -1
 * with why in msg. */
int app_budget_peak(app_budget *b, char *msg, size_t cap);
/* Fills b->host and b->host_peak for r, the run of b->pg that the app steps. 0, or -1 out of
 * memory (no host lane). */
int app_budget_host(app_budget *b, const run *r);
void app_budget_free(app_budget *b);

/* Whether plan-graph node i is a rerun. */
static inline int app_budget_is_rerun(const app_budget *b, uint32_t i)
{
    return b->on && b->map.kind && b->map.kind[i] == BPG_RERUN;
}

/* The rerun w explains at step k of r: the last rerun popped at or before k, else the first
 * after it; GRAPH_NONE when the plan has none. */
uint32_t app_budget_rerun_near(const app_budget *b, const run *r, uint32_t k);

/* Why rerun v (a node of b->pg) was needed, in figures: the buffer of the input graph it makes
 * again (the largest of those freed before it), the plan-graph steps of that buffer's last FREE
 * before v and of v, and the peak the plan would have had keeping it: the plan graph's live
 * bytes over the steps it was away, plus its size. */
typedef struct app_budget_why {
    uint32_t buf; /* input graph's buffer; GRAPH_NONE: none of v's writes was freed before it */
    uint32_t freed_step, rerun_step;
    int64_t would_peak;
} app_budget_why;
app_budget_why app_budget_why_of(const app_budget *b, const run *r, uint32_t v);
/* Between the forms of a message (app.msg), longest first: the why line shows the first that
 * fits. */
#define APP_MSG_ALT '\x1f'
/* "b12 freed at step 40, rerun at step 310: keeping it would have peaked at 9.1 MiB over the
 * 8.0 MiB budget (b12 is relu1)", then, after APP_MSG_ALT, shorter forms of it. Returns out. */
const char *app_budget_explain(const app_budget *b, const run *r, uint32_t v, char *out,
                               size_t cap);

#endif
