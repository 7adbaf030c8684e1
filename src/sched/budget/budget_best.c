/* budget_best.c: the best solver of a memory budget, the least extra time of the solvers the
 * list marks in_best (each after the one before, with the best plan so far as its seed), with
 * the lower bound that exact proves. Exports budget_best and budget_solver_best. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "budget.h"

/* One solver's turn: its plan in cur, taken into p when of less extra time than *best. */
static int one(const budget_solver *s, const budget_model *bm, const budget_goal *gl,
               budget_plan *p, budget_plan *cur, double *best, budget_outcome *so, budget_proof *sp)
{
    memset(sp, 0, sizeof *sp);
    cur->n = 0;
    if (s->solve(bm, gl, p, cur, so, sp)) return -1;
    double e = so->found ? budget_plan_extra(bm, cur, gl->budget, gl->bandwidth) : HUGE_VAL;
    if (e < *best) {
        budget_plan t = *p;
        *p = *cur;
        *cur = t;
        *best = e;
    }
    return 0;
}

/* What the solvers proved together into *o and *pf, the best plan's extra time best. */
static void conclude(double best, double lb, int none, const budget_outcome *so, budget_outcome *o,
                     budget_proof *pf)
{
    o->found = isfinite(best);
    if (o->found) {
        pf->proven = best <= lb + 1e-9 * (1 + lb); /* sums in another order: the last bits */
        pf->lower_bound_ms = pf->proven || lb > best ? best : lb;
        o->stopped = SOLVE_DONE;
        o->why[0] = 0;
    } else if (none) {
        pf->proven = 1;
        o->stopped = SOLVE_DONE;
        memcpy(o->why, so->why, sizeof o->why);
    }
}

int budget_best(BUDGET_SOLVER_ARGS)
{
    budget_proof unused;
    if (!pf) pf = &unused;
    memset(o, 0, sizeof *o);
    memset(pf, 0, sizeof *pf);
    p->n = 0;
    solve_ctx cc = gl->c ? *gl->c : (solve_ctx){0};
    if (!(cc.deadline > 0)) cc.deadline = solve_now(gl->c) + solve_seconds(gl->c);
    budget_goal g = *gl;
    g.c = &cc;
    double best = HUGE_VAL, lb = 0;
    for (size_t k = 0; seed && k < seed->n; k++)
        if (budget_plan_push(p, seed->ev[k].op, seed->ev[k].x)) return -1;
    if (p->n) best = budget_plan_extra(bm, p, gl->budget, gl->bandwidth);
    if (!isfinite(best)) p->n = 0;
    budget_plan cur = {0};
    budget_outcome so = {0};
    int none = 0; /* a solver proved that no plan fits */
    for (size_t i = 0; i < budget_solver_count(); i++) {
        const budget_solver *s = budget_solver_at(i);
        budget_proof sp;
        if (!s->in_best) continue;
        if (s->best_max && bm->m > s->best_max) {
            pf->stopped = SOLVE_TOO_LARGE;
            continue;
        }
        if (one(s, bm, &g, p, &cur, &best, &so, &sp)) {
            budget_plan_free(&cur);
            return -1;
        }
        if (sp.lower_bound_ms > lb) lb = sp.lower_bound_ms;
        none |= !so.found && sp.proven;
        if (sp.stopped != SOLVE_DONE) pf->stopped = sp.stopped;
        pf->states += sp.states;
        pf->searched |= sp.searched;
        if (!so.found) { /* the last one's words: exact's, when it ran */
            memcpy(o->why, so.why, sizeof o->why);
            o->stopped = so.stopped;
        }
        if (none) break;
    }
    budget_plan_free(&cur);
    conclude(best, lb, none, &so, o, pf);
    return 0;
}

const budget_solver budget_solver_best = {
    "best",
    "the least extra time of greedy's, chain's, repair's and exact's plans, each from the best "
    "so far (chain, repair and exact on graphs of at most 20000 compute nodes)",
    0,
    0,
    budget_best,
    0};
