/* budget_orders.c: first-run orders for a memory budget's solvers: a model along another order
 * (a view that shares the given model's arrays), the orders worth trying (every heuristic
 * policy's run, the training orders: each optimizer update right after its gradient, the
 * backward of a branch finished before another starts; a plan's own) and greedy along each.
 * Exports budget_orders_view, budget_orders_view_free and budget_orders_search. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget_repair.h"
#include "sched/policy/policy.h"
#include "util/heap.h"

int budget_orders_view(const budget_model *bm, const uint32_t *order, budget_model *view)
{
    const graph *g = bm->g;
    budget_model v = *bm;
    v.order = malloc(((size_t)bm->m + 1) * sizeof *v.order);
    v.pos = malloc(((size_t)g->n + 1) * sizeof *v.pos);
    v.lastread = malloc(((size_t)bm->nl + 1) * sizeof *v.lastread);
    if (!v.order || !v.pos || !v.lastread) {
        budget_orders_view_free(&v);
        return -1;
    }
    for (uint32_t i = 0; i < g->n; i++) v.pos[i] = GRAPH_NONE;
    int ok = 1;
    for (uint32_t k = 0; k < bm->m && ok; k++) {
        uint32_t x = order[k];
        ok = x < g->n && g->kind[x] == NODE_COMPUTE && v.pos[x] == GRAPH_NONE;
        if (ok) {
            v.order[k] = x;
            v.pos[x] = k;
        }
    }
    /* A buffer's producer is the first compute node along the order that its ALLOC has an
     * edge to: the versions and what each node writes stay bm's only if it does not move. */
    for (uint32_t b = 0; b < g->nbufs && ok; b++) {
        uint32_t a = g->buf_alloc[b], first = GRAPH_NONE;
        for (uint32_t e = g->succ_off[a]; e < g->succ_off[a + 1]; e++) {
            uint32_t x = g->succ[e];
            if (g->kind[x] == NODE_COMPUTE && (first == GRAPH_NONE || v.pos[x] < v.pos[first]))
                first = x;
        }
        ok = first == bm->producer[b];
    }
    if (!ok) {
        budget_orders_view_free(&v);
        return 0;
    }
    for (uint32_t l = 0; l < bm->nl; l++)
        v.lastread[l] = bm->producer[l] == GRAPH_NONE ? -1 : (int64_t)v.pos[bm->producer[l]];
    for (uint32_t x = 0; x < g->n; x++)
        for (uint32_t e = bm->rd_off[x]; e < bm->rd_off[x + 1]; e++)
            if ((int64_t)v.pos[x] > v.lastread[bm->rd[e]]) v.lastread[bm->rd[e]] = v.pos[x];
    *view = v;
    return 1;
}

void budget_orders_view_free(budget_model *view)
{
    free(view->order);
    free(view->pos);
    free(view->lastread);
    view->order = view->pos = NULL;
    view->lastread = NULL;
}

/* A training order (Kahn's over the whole graph): ALLOCs and FREEs as soon as they are ready,
 * then an optimizer update (right after its gradient is complete; with early, only the nodes it
 * marks, the other updates where base puts them), then the compute node
 * first along base (positions of the compute nodes); with branches, a backward node whose
 * latest compute predecessor ran last first (a branch's backward finished before another's
 * starts). The compute nodes into out. 0, or -1 out of memory. */
static int training_order(const budget_model *bm, const uint32_t *base, int branches,
                          const uint8_t *early, uint32_t *out)
{
    const graph *g = bm->g;
    uint32_t *indeg = malloc(((size_t)g->n + 1) * sizeof *indeg);
    int64_t *last = malloc(((size_t)g->n + 1) * sizeof *last); /* latest compute pred's place */
    heap h;
    if (!indeg || !last || heap_init(&h, g->n + 1, 0)) {
        free(indeg);
        free(last);
        return -1;
    }
    uint32_t m = 0;
    for (uint32_t x = 0; x < g->n; x++) {
        indeg[x] = g->pred_off[x + 1] - g->pred_off[x];
        last[x] = -1;
    }
    for (uint32_t x = 0; x < g->n; x++) {
        if (indeg[x]) continue;
        heap_item it = {{0, 0, x}, x};
        if (g->kind[x] == NODE_COMPUTE) {
            it.k[0] = graph_phase(g, x) == GRAPH_PHASE_OPTIMIZER && (!early || early[x]) ? 1 : 2;
            it.k[2] = base[x];
        }
        heap_push(&h, it);
    }
    while (h.len) {
        uint32_t x = heap_pop(&h).node;
        int64_t mine = last[x];
        if (g->kind[x] == NODE_COMPUTE) {
            out[m] = x;
            mine = m++;
        }
        for (uint32_t e = g->succ_off[x]; e < g->succ_off[x + 1]; e++) {
            uint32_t y = g->succ[e];
            if (mine > last[y]) last[y] = mine;
            if (--indeg[y]) continue;
            heap_item it = {{0, 0, y}, y};
            if (g->kind[y] == NODE_COMPUTE) {
                int ph = graph_phase(g, y);
                it.k[0] = ph == GRAPH_PHASE_OPTIMIZER && (!early || early[y]) ? 1 : 2;
                it.k[1] = branches && ph == GRAPH_PHASE_BACKWARD ? -last[y] : 0;
                it.k[2] = base[y];
            }
            heap_push(&h, it);
        }
    }
    heap_free(&h);
    free(indeg);
    free(last);
    return m == bm->m ? 0 : 1; /* a cycle: no order (the model has one, so never) */
}

/* The search's state: the best plan so far and the orders already walked. */
typedef struct osearch {
    const budget_model *bm;
    const budget_goal *gl;
    budget_plan *p, cur;
    double *pe;
    uint32_t **seen;
    size_t nseen;
    uint32_t *tried;
} osearch;

/* Greedy along order (bm->m compute nodes), unless walked before or past the limits. */
static int walk_order(osearch *o, const uint32_t *order)
{
    const budget_model *bm = o->bm;
    const solve_ctx *c = o->gl->c;
    if (solve_cancelled(c) || solve_expired(c)) return 0;
    for (size_t k = 0; k < o->nseen; k++)
        if (!memcmp(o->seen[k], order, (size_t)bm->m * sizeof *order)) return 0;
    uint32_t **s = realloc(o->seen, (o->nseen + 1) * sizeof *s);
    if (!s) return -1;
    o->seen = s;
    if (!(s[o->nseen] = malloc(((size_t)bm->m + 1) * sizeof **s))) return -1;
    memcpy(s[o->nseen++], order, (size_t)bm->m * sizeof *order);
    budget_model v;
    int r = budget_orders_view(bm, order, &v);
    if (r <= 0) return r;
    r = 0;
    budget_outcome oc = {0};
    for (int fit = 0; fit < 2 && !r; fit++) { /* the rules, then repair's rule */
        o->cur.n = 0;
        memset(&oc, 0, sizeof oc);
        r = budget_greedy_along(bm, &v, o->gl, NULL, fit, &o->cur, &oc);
        (*o->tried)++;
        budget_stats st;
        char err[8];
        if (r || !oc.found || budget_check(bm, &o->cur, o->gl->bandwidth, &st, err, sizeof err) ||
            st.peak > o->gl->budget || !(st.extra_ms < *o->pe))
            continue;
        budget_plan t = *o->p;
        *o->p = o->cur;
        o->cur = t;
        *o->pe = st.extra_ms;
    }
    budget_orders_view_free(&v);
    return r;
}

/* The compute nodes of a policy's run of g into out: 0, 1 when it has none, -1 out of memory. */
static int policy_order(const budget_model *bm, const policy *pol, const solve_ctx *c,
                        uint32_t *out)
{
    const graph *g = bm->g;
    run r;
    char err[160];
    double dl = c && c->deadline > 0 ? c->deadline : 0;
    int k = policy_run_until(g, pol, c, dl, &r, err, sizeof err);
    if (k) return k < 0 && strstr(err, "out of memory") ? -1 : 1;
    uint32_t m = 0;
    for (uint32_t s = 0; s < g->n && m <= bm->m; s++)
        if (g->kind[r.order[s]] == NODE_COMPUTE) {
            if (m < bm->m) out[m] = r.order[s];
            m++;
        }
    policy_run_free(&r);
    return m == bm->m ? 0 : 1;
}

int budget_orders_search(const budget_model *bm, const budget_goal *gl, const budget_plan *seed,
                         budget_plan *p, double *pe, uint32_t *tried)
{
    const graph *g = bm->g;
    osearch o = {.bm = bm, .gl = gl, .p = p, .pe = pe, .tried = tried};
    uint32_t *order = malloc(((size_t)bm->m + 1) * sizeof *order);
    uint32_t *base = malloc(((size_t)g->n + 1) * sizeof *base);
    uint8_t *ran = calloc((size_t)g->n + 1, 1);
    int r = !order || !base || !ran ? -1 : 0;
    /* The given order and priority's are greedy's own: walked first, so not again. */
    if (!r) r = walk_order(&o, bm->order);
    /* The seed's first runs, in its order (exact's, or any solver's). */
    uint32_t m = 0;
    for (size_t k = 0; !r && seed && k < seed->n && m < bm->m; k++)
        if (seed->ev[k].op == BUDGET_RUN && seed->ev[k].x < g->n && !ran[seed->ev[k].x]) {
            ran[seed->ev[k].x] = 1;
            order[m++] = seed->ev[k].x;
        }
    if (!r && m == bm->m) r = walk_order(&o, order);
    /* Every heuristic policy's run; the training orders from the given order and from
     * priority's. */
    for (size_t i = 0; !r && i < policy_count(); i++) {
        const policy *pol = policy_at(i);
        if (pol->kind != POLICY_HEURISTIC && pol->kind != POLICY_TIMED) continue;
        int k = policy_order(bm, pol, gl->c, order);
        r = k < 0 ? -1 : k ? 0 : walk_order(&o, order);
        if (r || k || strcmp(pol->name, "priority")) continue;
        for (uint32_t x = 0; x < g->n; x++) base[x] = 0;
        for (uint32_t q = 0; q < bm->m; q++) base[order[q]] = q;
        for (int br = 0; br < 2 && !r; br++) {
            int t = training_order(bm, base, br, NULL, order);
            r = t < 0 ? -1 : t ? 0 : walk_order(&o, order);
        }
    }
    for (uint32_t x = 0; !r && x < g->n; x++) base[x] = bm->pos[x] == GRAPH_NONE ? 0 : bm->pos[x];
    for (int br = 0; br < 2 && !r; br++) {
        int t = training_order(bm, base, br, NULL, order);
        r = t < 0 ? -1 : t ? 0 : walk_order(&o, order);
    }
    /* The first k updates (in the order their gradients complete) right after them, the rest
     * where the given order puts them: at most 64 values of k, evenly spread. */
    uint8_t *early = r ? NULL : calloc((size_t)g->n + 1, 1);
    uint32_t *ups = r ? NULL : malloc(((size_t)bm->m + 1) * sizeof *ups), nu = 0;
    if (!r && (!early || !ups)) r = -1;
    if (!r && training_order(bm, base, 0, NULL, order) == 0)
        for (uint32_t q = 0; q < bm->m; q++)
            if (graph_phase(g, order[q]) == GRAPH_PHASE_OPTIMIZER) ups[nu++] = order[q];
    for (uint32_t s = 1, done = 0; !r && s <= 64 && nu > 1; s++) {
        uint32_t k = (uint32_t)((uint64_t)(nu - 1) * s / 65) + 1;
        for (; done < k; done++) early[ups[done]] = 1;
        if (k < nu && (s == 1 || k != (uint32_t)((uint64_t)(nu - 1) * (s - 1) / 65) + 1)) {
            int t = training_order(bm, base, 0, early, order);
            r = t < 0 ? -1 : t ? 0 : walk_order(&o, order);
        }
    }
    free(early);
    free(ups);
    for (size_t k = 0; k < o.nseen; k++) free(o.seen[k]);
    free(o.seen);
    budget_plan_free(&o.cur);
    free(order);
    free(base);
    free(ran);
    return r;
}
