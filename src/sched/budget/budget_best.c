/* budget_best.c: the table of a memory budget's solvers and best, the least extra time of them
 * all (each after the one before, with the best plan so far as exact's incumbent), with the
 * lower bound that exact proves. Exports budget_solvers, budget_solver_find and budget_best. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "budget.h"

/* In the order best runs them: the fast ones first, exact last (it starts from the best plan
 * the others found). A solver more is one line here. */
const budget_solver budget_solvers[] = {
    {"greedy", budget_greedy, NULL},
    {"chain", budget_chain, NULL},
    {"exact", NULL, budget_exact},
    {NULL, NULL, NULL},
};

static const budget_solver solver_best = {"best", NULL, budget_best};

const budget_solver *budget_solver_find(const char *name)
{
    if (!strcmp(name, solver_best.name)) return &solver_best;
    for (const budget_solver *s = budget_solvers; s->name; s++)
        if (!strcmp(name, s->name)) return s;
    return NULL;
}

/* The extra time of plan p when it is whole and within budget, else HUGE_VAL. */
static double extra_of(const budget_model *bm, const budget_plan *p, int64_t budget, double bw)
{
    budget_stats st;
    char err[8];
    if (budget_check(bm, p, bw, &st, err, sizeof err) || st.peak > budget) return HUGE_VAL;
    return st.extra_ms;
}

/* One solver's turn: its plan in cur, taken into p when of less extra time than *best. */
static int one(const budget_solver *s, const budget_model *bm, int64_t budget, unsigned allow,
               double bw, const solve_ctx *c, budget_plan *p, budget_plan *cur, double *best,
               budget_outcome *so, budget_proof *sp)
{
    memset(sp, 0, sizeof *sp);
    cur->n = 0;
    int r = s->plain ? s->plain(bm, budget, allow, bw, c, cur, so)
                     : s->seeded(bm, budget, allow, bw, c, p, cur, so, sp);
    if (r) return -1;
    if (s->plain) sp->stopped = so->stopped;
    double e = so->found ? extra_of(bm, cur, budget, bw) : HUGE_VAL;
    if (e < *best) {
        budget_plan t = *p;
        *p = *cur;
        *cur = t;
        *best = e;
    }
    return 0;
}

int budget_best(const budget_model *bm, int64_t budget, unsigned allow, double bandwidth,
                const solve_ctx *c, const budget_plan *seed, budget_plan *p, budget_outcome *o,
                budget_proof *pf)
{
    memset(o, 0, sizeof *o);
    memset(pf, 0, sizeof *pf);
    p->n = 0;
    solve_ctx cc = c ? *c : (solve_ctx){0};
    if (!(cc.deadline > 0)) cc.deadline = solve_now(c) + solve_seconds(c);
    double best = HUGE_VAL, lb = 0;
    for (size_t k = 0; seed && k < seed->n; k++)
        if (budget_plan_push(p, seed->ev[k].op, seed->ev[k].x)) return -1;
    if (p->n) best = extra_of(bm, p, budget, bandwidth);
    if (!isfinite(best)) p->n = 0;
    budget_plan cur = {0};
    budget_outcome so = {0};
    int none = 0; /* a solver proved that no plan fits */
    for (const budget_solver *s = budget_solvers; s->name; s++) {
        budget_proof sp;
        if ((s->seeded == budget_exact || s->plain == budget_chain) &&
            bm->m > BUDGET_BEST_EXACT_NODES) {
            pf->stopped = SOLVE_TOO_LARGE;
            continue;
        }
        if (one(s, bm, budget, allow, bandwidth, &cc, p, &cur, &best, &so, &sp)) {
            budget_plan_free(&cur);
            return -1;
        }
        if (sp.lower_bound_ms > lb) lb = sp.lower_bound_ms;
        none |= !so.found && sp.proven;
        if (sp.stopped != SOLVE_DONE) pf->stopped = sp.stopped;
        pf->states += sp.states;
        if (!so.found) { /* the last one's words: exact's, when it ran */
            memcpy(o->why, so.why, sizeof o->why);
            o->stopped = so.stopped;
        }
        if (none) break;
    }
    budget_plan_free(&cur);
    o->found = isfinite(best);
    if (o->found) {
        pf->proven = best <= lb + 1e-9 * (1 + lb); /* sums in another order: the last bits */
        pf->lower_bound_ms = pf->proven || lb > best ? best : lb;
        o->stopped = SOLVE_DONE;
        o->why[0] = 0;
    } else if (none) {
        pf->proven = 1;
        o->stopped = SOLVE_DONE;
        memcpy(o->why, so.why, sizeof o->why);
    }
    return 0;
}
