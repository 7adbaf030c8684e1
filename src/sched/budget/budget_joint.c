/* budget_joint.c: a solver's answer that never gets worse for allowing more: with recompute and
 * offload both allowed, the solver's plans for each alone, then the joint search from the best
 * of them; the plan of least extra time, with what the joint search proved. Exports
 * budget_solve. */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>
#include "budget.h"

/* The plans so far: the best one and its outcome, and what it costs. */
typedef struct kept {
    budget_plan plan;
    budget_outcome o;
    double extra; /* checked; HUGE_VAL: none yet */
} kept;

/* q (found by a run that said *qo) into k when it takes less extra time: q then holds k's old
 * plan (the caller's to reuse). */
static void keep(const budget_model *bm, const budget_goal *gl, kept *k, budget_plan *q,
                 const budget_outcome *qo)
{
    double e = qo->found ? budget_plan_extra(bm, q, gl->budget, gl->bandwidth) : HUGE_VAL;
    if (!(e < k->extra)) return;
    budget_plan t = k->plan;
    k->plan = *q;
    *q = t;
    k->o = *qo;
    k->extra = e;
}

/* The caller's seed into k, when it is a whole plan within the budget: 0, or -1 out of memory. */
static int take_seed(const budget_model *bm, const budget_goal *gl, const budget_plan *seed,
                     kept *k)
{
    budget_plan q = {0};
    budget_outcome so = {.found = 1};
    for (size_t i = 0; seed && i < seed->n; i++)
        if (budget_plan_push(&q, seed->ev[i].op, seed->ev[i].x)) {
            budget_plan_free(&q);
            return -1;
        }
    if (q.n) keep(bm, gl, k, &q, &so);
    budget_plan_free(&q);
    return 0;
}

/* s on allow a (one alone, or greedy on both for a seed), for secs seconds from now and at
 * most to the end: its plan into k where it costs less. 0, or -1 out of memory. */
static int one_run(const budget_solver *s, const budget_model *bm, const budget_goal *gl,
                   unsigned a, double secs, double end, kept *k)
{
    solve_ctx cc = gl->c ? *gl->c : (solve_ctx){0};
    double now = solve_now(gl->c);
    cc.seconds = secs;
    cc.deadline = now + secs < end ? now + secs : end;
    budget_goal g = *gl;
    g.allow = a;
    g.c = &cc;
    budget_plan q = {0};
    budget_outcome qo;
    budget_proof qp;
    int r = s->solve(bm, &g, NULL, &q, &qo, &qp);
    if (!r) keep(bm, gl, k, &q, &qo);
    budget_plan_free(&q);
    return r;
}

/* What the joint search said (*jo) and proved (*pf; its plan's extra time je), said of the plan
 * kept (k's) into *o and *pf. */
static void conclude(const kept *k, const budget_outcome *jo, budget_proof *pf, double je,
                     budget_outcome *o)
{
    if (!isfinite(k->extra)) { /* no plan at all: the joint search's words stand */
        *o = *jo;
        return;
    }
    double best = k->extra;
    /* the joint problem's bound: its optimum where it proved one, else its bound; never above a
     * plan it holds (a restricted plan is a plan of the joint problem too) */
    double lb = jo->found && pf->proven ? je : pf->lower_bound_ms;
    if (!jo->found && pf->proven) lb = 0;      /* "none fits" beside a plan: the claim is dropped */
    if (lb > best + 1e-9 * (1 + best)) lb = 0; /* a plan beats the bound: it is dropped too */
    if (!(lb <= best)) lb = best;              /* within the last bits */
    *o = k->o;
    pf->proven = best <= lb + 1e-9 * (1 + lb); /* sums in another order: the last bits */
    pf->lower_bound_ms = pf->proven ? best : lb;
}

int budget_solve(const budget_solver *s, BUDGET_SOLVER_ARGS)
{
    const unsigned both = BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD;
    if (gl->allow != both) return s->solve(bm, gl, seed, p, o, pf);
    budget_proof unused;
    if (!pf) pf = &unused;
    const solve_ctx *c = gl->c;
    double secs = solve_seconds(c), end = solve_now(c) + secs;
    if (c && c->deadline > 0 && c->deadline < end) end = c->deadline;
    kept k = {{0}, {0}, HUGE_VAL};
    int r = take_seed(bm, gl, seed, &k);
    static const unsigned alone[2] = {BUDGET_ALLOW_RECOMPUTE, BUDGET_ALLOW_OFFLOAD};
    for (int i = 0; i < 2 && !r && !solve_cancelled(c); i++)
        if (gl->budget >= budget_lower_bound_allow(bm, alone[i])) /* else none fits */
            r = one_run(s, bm, gl, alone[i], secs / 4, end, &k);
    if (!r && s->seed_alone && isfinite(k.extra)) /* greedy's joint plan too */
        r = one_run(&budget_solver_greedy, bm, gl, both, secs, end, &k);
    /* the joint search, for the rest of the time, from the best plan so far */
    solve_ctx cc = c ? *c : (solve_ctx){0};
    cc.seconds = secs;
    cc.deadline = end;
    budget_goal g = *gl;
    g.c = &cc;
    budget_outcome jo = {0};
    memset(pf, 0, sizeof *pf);
    p->n = 0;
    if (!r) r = s->solve(bm, &g, isfinite(k.extra) ? &k.plan : seed, p, &jo, pf);
    if (!r) {
        double je = jo.found ? budget_plan_extra(bm, p, gl->budget, gl->bandwidth) : HUGE_VAL;
        keep(bm, gl, &k, p, &jo);
        budget_plan t = *p; /* the plan kept into p */
        *p = k.plan;
        k.plan = t;
        if (!isfinite(k.extra)) p->n = 0;
        conclude(&k, &jo, pf, je, o);
        if (jo.stopped == SOLVE_CANCELLED) o->stopped = SOLVE_CANCELLED; /* the caller stops */
    }
    budget_plan_free(&k.plan);
    return r;
}
