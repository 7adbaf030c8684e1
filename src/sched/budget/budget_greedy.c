/* budget_greedy.c: the greedy solver of a memory budget: its rules (cost a byte, over
 * staleness, recompute alone) walked (budget_greedy_walk.c) along the given order and policy
 * priority's, the plan of least extra time. Exports budget_greedy and budget_solver_greedy. */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget_greedy_internal.h"
#include "budget_repair.h"
#include "sched/policy/policy.h"

/* The checked extra time of plan p on bm (the given order's model); HUGE_VAL when it fails. */
static double extra(const budget_model *bm, double bw, const budget_plan *p)
{
    budget_stats st;
    char err[8];
    return budget_check(bm, p, bw, &st, err, sizeof err) ? HUGE_VAL : st.extra_ms;
}

/* The plan of less extra time of p (*pe its extra time, NAN: not known yet) and q into p. */
static void keep_cheaper(const budget_model *bm, double bw, budget_plan *p, budget_outcome *o,
                         double *pe, budget_plan *q, const budget_outcome *oq)
{
    if (!oq->found) return;
    if (o->found && isnan(*pe)) *pe = extra(bm, bw, p);
    double qe = extra(bm, bw, q);
    if (qe == HUGE_VAL || (o->found && !(qe < *pe))) return; /* the checker's word is final */
    budget_plan t = *p;
    *p = *q;
    *q = t;
    *o = *oq;
    *pe = qe;
}

/* Every rule along bm's order: two rules, cost a byte and cost a byte over staleness, and with
 * offload allowed both again by recompute alone (an offload's copies may queue up where reruns
 * would not); the plan of least extra time (checked on given) in p. */
static int rules(gs s, const budget_model *given, double *pe)
{
    budget_plan other = {0};
    budget_outcome oo;
    memset(s.o, 0, sizeof *s.o);
    s.p->n = 0;
    *pe = (double)NAN;
    if (budget_greedy_walks(&s)) return -1;
    for (int k = 1; k < 4 && s.o->stopped == SOLVE_DONE; k++) {
        if (k >= 2 && s.allow != (BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD)) break;
        gs t = s;
        t.p = &other;
        t.o = &oo;
        t.staleness = k & 1;
        t.allow = k >= 2 ? BUDGET_ALLOW_RECOMPUTE : s.allow;
        memset(&oo, 0, sizeof oo);
        if (budget_greedy_walks(&t)) {
            budget_plan_free(&other);
            return -1;
        }
        keep_cheaper(given, s.bw, s.p, s.o, pe, &other, &oo);
    }
    budget_plan_free(&other);
    return 0;
}

/* The model along policy priority's order (memory-aware: it runs an optimizer's update as soon
 * as its gradient is made, where the given order may hold every gradient to the end), when
 * that order differs from the given one and keeps its producers; else *ok 0. */
static int priority_model(const budget_model *bm, budget_model *pm, int *ok)
{
    char err[160];
    *ok = 0;
    if (budget_model_init_order(pm, bm->g, policy_find("priority"), err, sizeof err))
        return strstr(err, "out of memory") ? -1 : 0;
    int same = 1;
    for (uint32_t i = 0; i < bm->m; i++) same &= pm->order[i] == bm->order[i];
    int prod = pm->nl == bm->nl;
    for (uint32_t b = 0; prod && b < bm->nl; b++) prod &= pm->producer[b] == bm->producer[b];
    *ok = !same && prod;
    if (!*ok) budget_model_free(pm);
    return 0;
}

/* s's walk along priority's order (when it differs from the given one), its plan taken into
 * s.p where it costs less than *pe (s.p's extra time). 0, or -1 out of memory. */
static int along_priority(gs s, double *pe)
{
    const budget_model *bm = s.bm;
    budget_model pm;
    int ok;
    if (priority_model(bm, &pm, &ok)) return -1;
    if (!ok) return 0;
    budget_plan other = {0};
    budget_outcome oo;
    double oe;
    budget_outcome *o = s.o;
    budget_plan *p = s.p;
    s.bm = &pm;
    s.p = &other;
    s.o = &oo;
    int r = rules(s, bm, &oe);
    budget_model_free(&pm);
    if (!r) {
        if (oo.stopped != SOLVE_DONE && !o->found) *o = oo;
        keep_cheaper(bm, s.bw, p, o, pe, &other, &oo);
    }
    budget_plan_free(&other);
    return r;
}

int budget_greedy_along(const budget_model *given, const budget_model *along, const budget_goal *gl,
                        const uint8_t *keepers, int fit, budget_plan *p, budget_outcome *o)
{
    gs s = {.bm = along,
            .g = along->g,
            .budget = gl->budget,
            .allow = gl->allow,
            .c = gl->c,
            .p = p,
            .o = o,
            .bw = gl->bandwidth,
            .keepers = keepers,
            .fit = fit};
    s.start = solve_now(gl->c);
    double pe;
    if (rules(s, given, &pe)) return -1;
    if (!o->found) p->n = 0;
    return 0;
}

int budget_greedy(BUDGET_SOLVER_ARGS)
{
    (void)seed;
    const solve_ctx *c = gl->c;
    gs s = {.bm = bm,
            .g = bm->g,
            .budget = gl->budget,
            .allow = gl->allow,
            .c = c,
            .p = p,
            .o = o,
            .bw = gl->bandwidth};
    s.start = solve_now(c);
    /* Along the given order, then along priority's: the plan of less extra time. */
    double pe;
    if (pf) memset(pf, 0, sizeof *pf);
    if (rules(s, bm, &pe)) return -1;
    if (o->found && isnan(pe)) pe = extra(bm, gl->bandwidth, p);
    if (o->stopped == SOLVE_DONE && !(o->found && pe <= 0) && along_priority(s, &pe)) return -1;
    if (!o->found) p->n = 0;
    if (pf) pf->stopped = o->stopped;
    return 0;
}

const budget_solver budget_solver_greedy = {
    "greedy",
    "DTR's eviction by rerun time a byte, along the given order and priority's",
    1,
    0,
    budget_greedy,
    0};
