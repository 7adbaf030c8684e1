/* budget_fit.c: the front door of memory budgets: the graph's model, budget-free plan, bound
 * and baselines, the budget in bytes, the solver's plan or why none fits, and the plan checked
 * by the independent replay. Exports budget_fit and budget_result_free. */
#define _GNU_SOURCE
#include "budget_fit.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "budget_arg.h"
#include "sched/policy/policy.h"
#include "util/check.h"

void budget_result_free(budget_result *res)
{
    budget_bound_free(&res->bb);
    if (res->bm.g) budget_model_free(&res->bm);
    budget_plan_free(&res->plan);
    memset(res, 0, sizeof *res);
}

static int fail(budget_result *res, int error, const char *why)
{
    res->error = error;
    if (why) snprintf(res->err, sizeof res->err, "%s", why);
    else snprintf(res->err, sizeof res->err, "out of memory");
    return -1;
}

/* A baseline's plan, checked: *has 1 with st filled, or 0. 0, or -1 out of memory. */
static int baseline(budget_result *res, double bw, int chen, int *has, budget_stats *st)
{
    budget_plan p = {0};
    budget_outcome o;
    char err[256];
    int r = chen ? budget_chen(&res->bm, NULL, &p, &o) : budget_cheap(&res->bm, NULL, &p, &o);
    *has = !r && o.found && !budget_check(&res->bm, &p, bw, st, err, sizeof err);
    budget_plan_free(&p);
    return r;
}

/* The bounds for rq's allow: on the peak (res->bound) and the extra time (res->bb). */
static int bound(const budget_request *rq, budget_result *res)
{
    budget_bound_free(&res->bb);
    if (budget_bound_init(&res->bb, &res->bm, rq->allow)) return fail(res, BUDGET_FIT_MEMORY, NULL);
    res->bb_allow = rq->allow;
    res->bound = res->bb.peak;
    MEMTRIS_ASSERT(res->bound <= res->order_peak);
    return 0;
}

/* The budget-free peak of the plan of bm's own order into *peak (and its figures into *st). 0,
 * or -1 with res->error. */
static int order_plan(const budget_model *bm, double bw, budget_result *res, int64_t *peak,
                      budget_stats *st)
{
    char err[512];
    budget_plan_free(&res->plan);
    if (budget_given_plan(bm, &res->plan)) return fail(res, BUDGET_FIT_MEMORY, NULL);
    if (budget_check(bm, &res->plan, bw, st, err, sizeof err))
        return fail(res, BUDGET_FIT_GIVEN, err);
    *peak = st->peak;
    return 0;
}

/* The model of g along pol's run (NULL: the given order) into bm: 0, or -1 with res->error. */
static int model(const graph *g, const policy *pol, budget_model *bm, budget_result *res)
{
    char err[512];
    if (!budget_model_init_order(bm, g, pol, err, sizeof err)) return 0;
    memset(bm, 0, sizeof *bm);
    return fail(res, strstr(err, "out of memory") ? BUDGET_FIT_MEMORY : BUDGET_FIT_MODEL, err);
}

/* What the graph alone says, once: the model (along rq->order), the budget-free plans and
 * peaks (the given order's and the order walked), the bound, the baselines. */
static int prepare(const budget_request *rq, budget_result *res)
{
    budget_stats st;
    const policy *along = rq->order == policy_find("given") ? NULL : rq->order;
    if (along) { /* the given order's peak first: a percentage's base, as memtris budget's */
        budget_model gm;
        if (model(rq->g, NULL, &gm, res)) return -1;
        int r = order_plan(&gm, rq->bandwidth, res, &res->free_peak, &st);
        budget_model_free(&gm);
        if (r) return -1;
    }
    if (model(rq->g, along, &res->bm, res) ||
        order_plan(&res->bm, rq->bandwidth, res, &res->order_peak, &st))
        return -1;
    if (!along) res->free_peak = res->order_peak;
    res->step_ms = st.makespan_ms;
    res->st = st;
    if (bound(rq, res)) return -1;
    if ((rq->want & BUDGET_WANT_BASELINES) &&
        (baseline(res, rq->bandwidth, 1, &res->chen, &res->chen_st) ||
         baseline(res, rq->bandwidth, 0, &res->cheap, &res->cheap_st)))
        return fail(res, BUDGET_FIT_MEMORY, NULL);
    return 0;
}

/* Under the bound: no plan, proven; whether one fits at the bound itself (greedy's plan). */
static int under_bound(const budget_request *rq, budget_result *res)
{
    res->proven_infeasible = 1;
    if (rq->want & BUDGET_WANT_LEAST) {
        budget_outcome o = {.found = res->bound >= res->order_peak}; /* the order's plan */
        budget_plan p = {0};
        budget_goal gl = {res->bound, rq->allow, rq->bandwidth, rq->c};
        int r = !o.found && budget_greedy(&res->bm, &gl, NULL, &p, &o, NULL);
        budget_plan_free(&p);
        if (r) return fail(res, BUDGET_FIT_MEMORY, NULL);
        if (o.found) res->least = res->bound;
    }
    snprintf(res->out.why, sizeof res->out.why, "%s%s%s", "a node's reads and writes",
             rq->allow & BUDGET_ALLOW_OFFLOAD /* the rest may start and end on the host */
                 ? ""
                 : res->bb.peak_at != GRAPH_NONE ? " with the buffers that must stay across it"
                                                 : "",
             rq->allow & BUDGET_ALLOW_OFFLOAD
                 ? " need more"
                 : ", the buffers present at the start or those that end present need more");
    return 0;
}

/* The plan for res->budget into res->plan (res->found), or why not. */
static int solve(const budget_request *rq, budget_result *res)
{
    budget_plan_free(&res->plan);
    if (res->budget >= res->order_peak) { /* the order's own plan */
        if (budget_given_plan(&res->bm, &res->plan)) return fail(res, BUDGET_FIT_MEMORY, NULL);
        res->found = 1;
        return 0;
    }
    if (res->budget < res->bound) return under_bound(rq, res);
    budget_goal gl = {res->budget, rq->allow, rq->bandwidth, rq->c};
    if (budget_solve(rq->solver, &res->bm, &gl, NULL, &res->plan, &res->out, &res->proof))
        return fail(res, BUDGET_FIT_MEMORY, NULL);
    res->found = res->out.found;
    res->exact_none = !res->found && res->proof.proven;
    res->proven_infeasible |= res->exact_none;
    return 0;
}

int budget_fit(const budget_request *rq, budget_result *res)
{
    if (!res->bm.g && prepare(rq, res)) return -1;
    MEMTRIS_ASSERT(res->bm.g == rq->g);
    if (res->bb_allow != rq->allow && bound(rq, res)) return -1;
    res->found = res->proven_infeasible = res->exact_none = 0;
    res->least = -1;
    res->error = BUDGET_FIT_OK;
    res->err[0] = 0;
    memset(&res->out, 0, sizeof res->out);
    memset(&res->proof, 0, sizeof res->proof);
    res->budget = rq->budget;
    if (rq->pct_micro > 0 && budget_arg_of_pct(res->free_peak, rq->pct_micro, &res->budget)) {
        char pc[32];
        snprintf(res->err, sizeof res->err,
                 "%s of the budget-free peak (%" PRId64 " bytes) is past 2^63-1 bytes",
                 budget_arg_pct_words(pc, sizeof pc, rq->pct_micro), res->free_peak);
        res->error = BUDGET_FIT_RANGE;
        return -1;
    }
    if (solve(rq, res)) return -1;
    res->bound_ms = budget_bound_ms(&res->bb, res->budget);
    if (!res->found) return 0;
    /* The independent check: the solver's word is not taken. */
    char err[480];
    if (budget_check(&res->bm, &res->plan, rq->bandwidth, &res->st, err, sizeof err))
        return fail(res, BUDGET_FIT_INVALID, err);
    if (res->st.peak > res->budget)
        return fail(res, BUDGET_FIT_INVALID, "its peak passes the budget");
    /* the bound for any order beside the solver's; float sums meet within a rounding */
    double lb = res->bound_ms < res->st.extra_ms ? res->bound_ms : res->st.extra_ms;
    if (lb > res->proof.lower_bound_ms) res->proof.lower_bound_ms = lb;
    if (res->proof.lower_bound_ms >= res->st.extra_ms * (1 - 1e-9)) res->proof.proven = 1;
    return 0;
}
