/* budget_exact_plan.c: the exact search's answer: the events of the path to its goal (told
 * from the states' differences), the incumbent where the search found nothing better, and what
 * it proves (the optimum, a lower bound, or that no plan fits). Exports budget_exact_conclude. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget_exact_internal.h"
#include "budget_offload.h"

/* The events from state P to state C by act: the evictions and the frees of what act does not
 * touch before it (an offload where C has a new host copy), act, then the frees of what it
 * read or wrote and is no longer needed. */
static int emit_step(xs *x, const uint64_t *P, const uint64_t *C, uint32_t act, budget_plan *p)
{
    const budget_model *bm = x->bm;
    const graph *g = x->g;
    int bad = 0;
    if (++x->pinv == 0) {
        memset(x->pinned, 0, (size_t)x->np * sizeof *x->pinned);
        x->pinv = 1;
    }
    if (act >= g->n) x->pinned[act - g->n] = x->pinv; /* other versions: freed before */
    else {
        for (uint32_t e = bm->rd_off[act]; e < bm->rd_off[act + 1]; e++)
            x->pinned[bm->rd[e]] = x->pinv;
        for (uint32_t e = bm->wr_off[act]; e < bm->wr_off[act + 1]; e++) {
            uint32_t b = bm->phys[bm->wr[e]]; /* the run writes over the version present */
            for (uint32_t k = bm->vers_off[b]; k < bm->vers_off[b + 1]; k++)
                x->pinned[bm->vers[k]] = x->pinv;
        }
    }
    for (uint32_t b = 0; b < x->nb && !bad; b++)
        if (bit(PRES(x, P), b) && !bit(PRES(x, C), b) && x->pinned[b] != x->pinv) {
            int off = x->offload && bit(HOST(x, C), b) && !bit(HOST(x, P), b);
            bad = budget_plan_push(p, off ? BUDGET_OFFLOAD : BUDGET_FREE, bm->phys[b]);
        }
    if (act >= g->n) return bad || budget_plan_push(p, BUDGET_FETCH, bm->phys[act - g->n]);
    bad = bad || budget_plan_push(p, BUDGET_RUN, act);
    for (uint32_t e = bm->wr_off[act]; e < bm->wr_off[act + 1] && !bad; e++)
        if (!bit(PRES(x, C), bm->wr[e]) && !budget_exact_hosted(x, act, bm->wr[e]))
            bad = budget_plan_push(p, BUDGET_FREE, bm->phys[bm->wr[e]]);
    for (uint32_t e = bm->rd_off[act]; e < bm->rd_off[act + 1] && !bad; e++) {
        uint32_t l = bm->rd[e], gone = 0; /* a version it changed in place is gone, not freed */
        for (uint32_t f = bm->wr_off[act]; f < bm->wr_off[act + 1]; f++)
            gone |= bm->phys[bm->wr[f]] == bm->phys[l];
        if (!gone && !bit(PRES(x, C), l)) bad = budget_plan_push(p, BUDGET_FREE, bm->phys[l]);
    }
    return bad ? -1 : 0;
}

/* The plan of the path from the start to state k. */
static int build_plan(xs *x, uint32_t k, budget_plan *p)
{
    size_t len = 0;
    for (uint32_t s = k; s != GRAPH_NONE; s = x->rec[s].parent) len++;
    uint32_t *path = malloc(len * sizeof *path);
    if (!path) return -1;
    size_t t = len;
    for (uint32_t s = k; s != GRAPH_NONE; s = x->rec[s].parent) path[--t] = s;
    p->n = 0;
    int bad = 0;
    const uint64_t *root = stateset_at(&x->seen, path[0]);
    for (uint32_t b = 0; b < x->nb && !bad; b++)
        if (x->bm->producer[b] == GRAPH_NONE && (x->host_start || !bit(PRES(x, root), b)))
            bad = budget_plan_push(p, x->host_start ? BUDGET_HOST : BUDGET_FREE, x->bm->phys[b]);
        else if (x->bm->producer[b] != GRAPH_NONE && budget_exact_hosted(x, x->bm->producer[b], b))
            bad = budget_plan_push(p, BUDGET_HOST, b); /* its Input leaves it on the host */
    for (t = 1; t < len && !bad; t++)
        bad = emit_step(x, stateset_at(&x->seen, path[t - 1]), stateset_at(&x->seen, path[t]),
                        x->rec[path[t]].act, p);
    free(path);
    /* every eviction is an offload in the search: those whose copies are never read, frees */
    return bad ? -1 : x->offload ? budget_offload_tidy(x->bm, p) : 0;
}

/* What the search came to: the plan (the search's, or the incumbent), the bound, the proof. */
int budget_exact_conclude(xs *x, uint32_t goal, budget_plan *inc, double bandwidth, budget_plan *p,
                          budget_outcome *o, budget_proof *pf)
{
    double lb;
    int have = 0, had = isfinite(x->ub);
    pf->states = x->seen.n;
    pf->stopped = x->stopped;
    pf->searched = 1;
    if (goal != GRAPH_NONE) {
        budget_stats st;
        char err[160];
        lb = x->rec[goal].g;
        if (build_plan(x, goal, p)) return -1;
        if (budget_check(x->bm, p, bandwidth, &st, err, sizeof err) || st.peak > x->budget)
            snprintf(o->why, sizeof o->why, "internal error: exact's plan: %s", err);
        else if (st.extra_ms < x->ub) {
            x->ub = st.extra_ms;
            have = 1;
        }
    } else if (x->stopped == SOLVE_DONE) lb = x->ub; /* nothing left below the incumbent */
    else if (x->expanding || !x->open.len) lb = x->curf;
    else lb = open_f(&x->open.a[0]);
    if (lb > x->ub) lb = x->ub;
    if (!have && had) { /* the incumbent stands */
        budget_plan t = *p;
        *p = *inc;
        *inc = t;
        have = 1;
    }
    o->found = have;
    if (o->found) {
        /* the same sums in another order may differ in their last bits */
        if (goal != GRAPH_NONE && !x->offload && !o->why[0]) lb = x->ub;
        pf->proven = x->ub <= lb + 1e-9 * (1 + lb);
        pf->lower_bound_ms = pf->proven ? x->ub : lb;
    } else if (x->stopped == SOLVE_DONE && !o->why[0]) {
        pf->proven = 1;
        snprintf(o->why, sizeof o->why,
                 "exact's search went through every way to fit (%zu states): none does",
                 (size_t)x->seen.n);
    } else if (!o->why[0]) {
        o->stopped = x->stopped;
        pf->lower_bound_ms = isfinite(lb) ? lb : 0;
        snprintf(o->why, sizeof o->why, "exact stopped %s after %zu states without a plan",
                 x->stopped == SOLVE_TIME     ? "at the time limit"
                 : x->stopped == SOLVE_STATES ? "at the limit of states"
                 : x->stopped == SOLVE_MEMORY ? "at the limit of its memory"
                                              : "on a cancel",
                 (size_t)x->seen.n);
    }
    return 0;
}
