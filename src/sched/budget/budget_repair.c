/* budget_repair.c: the repair solver of a memory budget: greedy along every first-run order
 * worth trying (budget_orders.c), ruin-and-recreate moves of its evictions, then a
 * large-neighbourhood search over its plan: a window of first runs freed, re-solved exactly (the
 * exact solver on the window as a graph of its own, the state at its ends fixed), kept where the
 * whole plan, checked, takes less extra time. Exports budget_repair, budget_repair_lns and
 * budget_solver_repair. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget_repair.h"
#include "sched/graph/diag.h"
#include "sched/graph/graph_build.h"

/* The states exact keeps for one window at most, and the window sizes (first runs) tried. */
#define REPAIR_WINDOW_STATES 2000
static const uint32_t window_sizes[] = {8, 12, 16};
/* The greedy walks of the ruin-and-recreate moves at most. */
#define REPAIR_WALKS 256

/* One window's work: the plan's state at its start, its nodes and buffers, the graph. */
typedef struct rwin {
    const budget_model *bm;
    const budget_goal *gl;
    uint8_t *present; /* [nbufs] at the window's start (then replayed) */
    uint8_t *ran;     /* [n] first run before the window */
    uint8_t *req;     /* [nbufs] 1: read after the window before anything makes it (present at
                       * its end); 2: not */
    uint32_t *sid;    /* [n] the node's index among the window's nodes, or GRAPH_NONE */
    uint32_t *bid;    /* [nbufs] the buffer's index among the window's buffers, or GRAPH_NONE */
    uint32_t *nodes, *bufs;
    uint32_t ns, nb;
    uint64_t states; /* exact's states, all windows together */
} rwin;

/* Whether logical buffer l's buffer is among the window's; adds it. */
static void add_buf(rwin *w, uint32_t x)
{
    if (w->bid[x] == GRAPH_NONE) {
        w->bid[x] = w->nb;
        w->bufs[w->nb++] = x;
    }
}

/* Node v's buffers (read or written), once each, into out: their count. */
static uint32_t node_bufs(const budget_model *bm, uint32_t v, uint32_t *out, uint8_t *inpl)
{
    uint32_t k = 0;
    for (int wr = 0; wr < 2; wr++) {
        const uint32_t *off = wr ? bm->wr_off : bm->rd_off, *l = wr ? bm->wr : bm->rd;
        for (uint32_t e = off[v]; e < off[v + 1]; e++) {
            uint32_t x = bm->phys[l[e]], j = 0;
            while (j < k && out[j] != x) j++;
            if (j == k) {
                out[k] = x;
                inpl[k++] = 0;
            }
            if (wr && bm->ver[l[e]]) inpl[j] = 1; /* a change in place */
        }
    }
    return k;
}

/* The edge from u to the window's k-th node where u is first run in the window too. */
static int order_edge(const rwin *w, graph_builder *b, uint32_t u, uint32_t k)
{
    if (w->sid[u] == GRAPH_NONE || w->ran[u] || w->sid[u] >= k) return 0;
    return graph_build_edge(b, w->nb + w->sid[u], w->nb + k);
}

/* The window as a memtris graph: its buffers' ALLOCs (those present at its start, or made by
 * no node of it, present from the start; the others made by their producers), its nodes in the
 * plan's order (the Edges between those first run in it), a FREE for each buffer not needed
 * after it (the others stay, as a graph's never-freed buffers). NULL out of memory. */
static graph *window_graph(rwin *w)
{
    const budget_model *bm = w->bm;
    const graph *g = bm->g;
    diag d;
    graph_builder b;
    diag_init(&d, "window");
    graph_build_init(&b, &d, GRAPH_MAX_NODES);
    uint32_t *xs = malloc(((size_t)w->nb + 1) * sizeof *xs);
    uint8_t *inpl = malloc((size_t)w->nb + 1);
    int bad = !xs || !inpl;
    uint32_t id, dup, other;
    int64_t *in;
    for (uint32_t k = 0; k < w->nb && !bad; k++) {
        graph_node_spec s = {.id = k,
                             .kind = NODE_ALLOC,
                             .op = "ALLOC",
                             .size = g->buf_size[w->bufs[k]],
                             .bufid = k,
                             .stream = -1};
        id = graph_build_node(&b, &s, k, &dup, &in);
        bad = id == GRAPH_NONE || graph_build_buffer(&b, id, k, s.size, &other) != GRAPH_BUILD_OK;
    }
    for (uint32_t k = 0; k < w->ns && !bad; k++) {
        uint32_t v = w->nodes[k], nx = node_bufs(bm, v, xs, inpl);
        graph_node_spec s = {.id = w->nb + k,
                             .kind = NODE_COMPUTE,
                             .op = graph_op(g, v),
                             .has_latency = 1,
                             .latency = graph_latency(g, v),
                             .stream = -1,
                             .tag = graph_phase(g, v),
                             .rerun = graph_rerun(g, v),
                             .ninputs = nx};
        id = graph_build_node(&b, &s, w->nb + k, &dup, &in);
        bad = id == GRAPH_NONE;
        for (uint32_t j = 0; j < nx && !bad; j++) {
            in[j] = w->bid[xs[j]];
            bad = inpl[j] && graph_build_inplace(&b, b.in_off[id] + j);
        }
        for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1] && !bad && !w->ran[v]; e++) {
            uint32_t y = g->pred[e];
            if (g->kind[y] == NODE_COMPUTE) bad = order_edge(w, &b, y, k);
            for (uint32_t f = g->pred_off[y];
                 g->kind[y] != NODE_COMPUTE && f < g->pred_off[y + 1] && !bad; f++)
                if (g->kind[g->pred[f]] == NODE_COMPUTE) bad = order_edge(w, &b, g->pred[f], k);
        }
    }
    uint32_t next = w->nb + w->ns;
    for (uint32_t k = 0; k < w->nb && !bad; k++) {
        uint32_t x = w->bufs[k], p0 = bm->producer[x];
        if (p0 != GRAPH_NONE && w->sid[p0] != GRAPH_NONE && !w->present[x])
            bad = graph_build_edge(&b, k, w->nb + w->sid[p0]);
        if (bad || w->req[x] == 1) continue;
        graph_node_spec s = {
            .id = next, .kind = NODE_FREE, .op = "FREE", .size = -1, .bufid = k, .stream = -1};
        id = graph_build_node(&b, &s, next, &dup, &in);
        bad = id == GRAPH_NONE || graph_build_buffer(&b, id, k, -1, &other) != GRAPH_BUILD_OK ||
              graph_build_edge(&b, k, next);
        for (uint32_t j = 0; j < w->ns && !bad; j++) {
            uint32_t v = w->nodes[j], nx = node_bufs(bm, v, xs, inpl);
            for (uint32_t q = 0; q < nx && !bad; q++)
                if (xs[q] == x) bad = graph_build_edge(&b, w->nb + j, next);
        }
        next++;
    }
    graph *out = bad || b.oom ? NULL : graph_build_take(&b, "window");
    if (out) {
        graph_build_free_changes(out);
        if (graph_build_edges(&b, out) || b.oom || d.nerrors) {
            graph_free(out);
            out = NULL;
        }
    }
    graph_build_free(&b);
    diag_free(&d);
    free(xs);
    free(inpl);
    return out;
}

/* Event ev's effect on pres (each buffer present) and ran (may be NULL). */
static void apply(const budget_model *bm, uint8_t *pres, uint8_t *ran, budget_event ev)
{
    if (ev.op == BUDGET_RUN) {
        if (ran) ran[ev.x] = 1;
        for (uint32_t e = bm->wr_off[ev.x]; e < bm->wr_off[ev.x + 1]; e++)
            pres[bm->phys[bm->wr[e]]] = 1;
    } else pres[ev.x] = ev.op == BUDGET_FETCH;
}

static int put(const budget_model *bm, budget_plan *q, uint8_t *pres, budget_event ev)
{
    apply(bm, pres, NULL, ev);
    return budget_plan_push(q, ev.op, ev.x);
}

/* What the window's events cost (the latencies of their reruns) into *cost, and of them those of
 * nodes first run before it (the window's graph runs them once, whatever it does) into *fixed;
 * the window's nodes and buffers, and which buffers the rest of p needs present. */
static void gather(rwin *w, const budget_plan *p, size_t a, size_t e, double *cost, double *fixed)
{
    const budget_model *bm = w->bm;
    const graph *g = bm->g;
    *cost = *fixed = 0;
    for (size_t k = a; k < e; k++) {
        uint32_t v = p->ev[k].x;
        if (p->ev[k].op != BUDGET_RUN) continue;
        double lat = graph_latency(g, v);
        if (w->sid[v] == GRAPH_NONE) {
            w->sid[v] = w->ns;
            w->nodes[w->ns++] = v;
            if (w->ran[v]) *fixed += lat;
            else continue;
        }
        *cost += lat;
    }
    for (uint32_t k = 0; k < w->ns; k++) {
        uint32_t v = w->nodes[k];
        for (uint32_t f = bm->rd_off[v]; f < bm->rd_off[v + 1]; f++)
            add_buf(w, bm->phys[bm->rd[f]]);
        for (uint32_t f = bm->wr_off[v]; f < bm->wr_off[v + 1]; f++)
            add_buf(w, bm->phys[bm->wr[f]]);
    }
    for (size_t k = e; k < p->n; k++) {
        budget_event ev = p->ev[k];
        if (ev.op != BUDGET_RUN) {
            if (!w->req[ev.x]) w->req[ev.x] = 2;
            continue;
        }
        for (uint32_t f = bm->rd_off[ev.x]; f < bm->rd_off[ev.x + 1]; f++)
            if (!w->req[bm->phys[bm->rd[f]]]) w->req[bm->phys[bm->rd[f]]] = 1;
        for (uint32_t f = bm->wr_off[ev.x]; f < bm->wr_off[ev.x + 1]; f++)
            if (!w->req[bm->phys[bm->wr[f]]]) w->req[bm->phys[bm->wr[f]]] = 2;
    }
    for (uint32_t l = 0; l < bm->nl; l++)
        if (bm->keep[l] && !w->req[bm->phys[l]]) w->req[bm->phys[l]] = 1;
}

/* p with events [a, e) replaced by the window's plan sp (of graph sg) into q. 0, 1 when sp names
 * what the window does not have, -1 out of memory. */
static int splice(rwin *w, const budget_plan *p, size_t a, size_t e, const graph *sg,
                  const budget_plan *sp, uint8_t *pres, budget_plan *q)
{
    const budget_model *bm = w->bm;
    const graph *g = bm->g;
    int r = 0;
    for (size_t k = 0; k < a && !r; k++) r = budget_plan_push(q, p->ev[k].op, p->ev[k].x);
    memcpy(pres, w->present, g->nbufs);
    for (uint32_t x = 0; x < g->nbufs && !r; x++) /* what the window does not need goes first */
        if (pres[x] && w->bid[x] == GRAPH_NONE && w->req[x] != 1)
            r = put(bm, q, pres, (budget_event){BUDGET_FREE, x});
    for (size_t k = 0; k < sp->n && !r; k++) {
        budget_event ev = sp->ev[k];
        if (ev.op == BUDGET_RUN) {
            if (ev.x < w->nb || ev.x >= w->nb + w->ns) return 1;
            ev.x = w->nodes[ev.x - w->nb];
        } else {
            int64_t k2 = ev.x < sg->nbufs ? sg->buf_id[ev.x] : -1;
            if (k2 < 0 || k2 >= (int64_t)w->nb) return 1;
            ev.x = w->bufs[k2];
        }
        r = put(bm, q, pres, ev);
    }
    for (uint32_t k = 0; k < w->nb && !r; k++) /* what the rest does not need present */
        if (pres[w->bufs[k]] && w->req[w->bufs[k]] != 1)
            r = put(bm, q, pres, (budget_event){BUDGET_FREE, w->bufs[k]});
    for (size_t k = e; k < p->n && !r; k++) {
        budget_event ev = p->ev[k];
        if ((ev.op == BUDGET_FREE || ev.op == BUDGET_OFFLOAD) && !pres[ev.x]) continue;
        r = put(bm, q, pres, ev);
    }
    return r;
}

/* Re-solves events [a, e) of p; keeps the whole plan when it takes less extra time than *pe.
 * 1 kept, 0 not, -1 out of memory. */
static int window(rwin *w, budget_plan *p, size_t a, size_t e, double *pe)
{
    const budget_model *bm = w->bm;
    const graph *g = bm->g;
    const budget_goal *gl = w->gl;
    for (uint32_t k = 0; k < w->ns; k++) w->sid[w->nodes[k]] = GRAPH_NONE;
    for (uint32_t k = 0; k < w->nb; k++) w->bid[w->bufs[k]] = GRAPH_NONE;
    w->ns = w->nb = 0;
    memset(w->ran, 0, g->n);
    memset(w->req, 0, g->nbufs);
    for (uint32_t x = 0; x < g->nbufs; x++) w->present[x] = bm->producer[x] == GRAPH_NONE;
    for (size_t k = 0; k < a; k++) apply(bm, w->present, w->ran, p->ev[k]);
    double cost, fixed;
    gather(w, p, a, e, &cost, &fixed);
    if (!(cost - fixed > 1e-12)) return 0; /* no rerun the window could save */
    int64_t held = 0;                      /* present through the window, untouched by it */
    for (uint32_t x = 0; x < g->nbufs; x++)
        if (w->present[x] && w->bid[x] == GRAPH_NONE && w->req[x] == 1) held += g->buf_size[x];
    graph *sg = window_graph(w);
    if (!sg) return 0;
    budget_model sbm;
    char err[160];
    int r = 0;
    if (budget_model_init(&sbm, sg, err, sizeof err)) {
        graph_free(sg);
        return strstr(err, "out of memory") ? -1 : 0;
    }
    solve_ctx sc = gl->c ? *gl->c : (solve_ctx){0};
    sc.max_states = REPAIR_WINDOW_STATES;
    budget_goal sgl = {gl->budget - held, BUDGET_ALLOW_RECOMPUTE, gl->bandwidth, &sc};
    budget_plan sp = {0}, q = {0};
    budget_outcome so;
    budget_proof spf = {0};
    r = budget_solver_find("exact")->solve(&sbm, &sgl, NULL, &sp, &so, &spf);
    w->states += spf.states;
    double sx = !r && so.found ? budget_plan_extra(&sbm, &sp, sgl.budget, gl->bandwidth) : HUGE_VAL;
    if (!r && fixed + sx < cost - 1e-9 * (1 + cost)) {
        uint8_t *pres = malloc((size_t)g->nbufs + 1);
        r = pres ? splice(w, p, a, e, sg, &sp, pres, &q) : -1;
        free(pres);
        double qe = r ? HUGE_VAL : budget_plan_extra(bm, &q, gl->budget, gl->bandwidth);
        if (r > 0) r = 0;
        if (qe < *pe - 1e-9 * (1 + *pe)) {
            budget_plan t = *p;
            *p = q;
            q = t;
            *pe = qe;
            r = 1;
        }
    }
    budget_plan_free(&sp);
    budget_plan_free(&q);
    budget_model_free(&sbm);
    graph_free(sg);
    return r;
}

/* Whether c's limits end the search. */
static int limited(const solve_ctx *c) { return solve_cancelled(c) || solve_expired(c); }

int budget_repair_lns(const budget_model *bm, const budget_goal *gl, budget_plan *p, double *pe,
                      uint32_t *windows, uint32_t *kept)
{
    const graph *g = bm->g;
    *windows = *kept = 0;
    if (!(gl->allow & BUDGET_ALLOW_RECOMPUTE) || !(*pe > 0) || !isfinite(*pe)) return 0;
    for (size_t k = 0; k < p->n; k++)
        if (p->ev[k].op == BUDGET_OFFLOAD || p->ev[k].op == BUDGET_FETCH) return 0;
    rwin w = {.bm = bm, .gl = gl};
    w.present = malloc((size_t)g->nbufs + 1);
    w.req = malloc((size_t)g->nbufs + 1);
    w.ran = malloc((size_t)g->n + 1);
    w.sid = malloc(((size_t)g->n + 1) * sizeof *w.sid);
    w.bid = malloc(((size_t)g->nbufs + 1) * sizeof *w.bid);
    w.nodes = malloc(((size_t)g->n + 1) * sizeof *w.nodes);
    w.bufs = malloc(((size_t)g->nbufs + 1) * sizeof *w.bufs);
    size_t *fr = malloc(((size_t)bm->m + 1) * sizeof *fr);
    uint8_t *seen = malloc((size_t)g->n + 1);
    int r =
        !w.present || !w.req || !w.ran || !w.sid || !w.bid || !w.nodes || !w.bufs || !fr || !seen
            ? -1
            : 0;
    for (uint32_t v = 0; !r && v < g->n; v++) w.sid[v] = GRAPH_NONE;
    for (uint32_t x = 0; !r && x < g->nbufs; x++) w.bid[x] = GRAPH_NONE;
    uint64_t cap = solve_max_states(gl->c);
    int dirty = 1, stop = 0;
    for (size_t si = 0; si < sizeof window_sizes / sizeof *window_sizes && !r && !stop; si++) {
        uint32_t ws = window_sizes[si];
        for (int pass = 0; pass < 4 && !r && !stop; pass++) {
            int any = 0;
            for (uint32_t i = 0; i < bm->m && !r && !stop; i += ws / 2) {
                if (dirty) { /* the places of the first runs */
                    uint32_t nf = 0;
                    memset(seen, 0, g->n);
                    for (size_t k = 0; k < p->n; k++)
                        if (p->ev[k].op == BUDGET_RUN && !seen[p->ev[k].x]) {
                            seen[p->ev[k].x] = 1;
                            fr[nf++] = k;
                        }
                    dirty = 0;
                }
                size_t a = fr[i], e = i + ws < bm->m ? fr[i + ws] : p->n;
                int k = window(&w, p, a, e, pe);
                r = k < 0 ? -1 : 0;
                (*windows)++;
                if (k > 0) {
                    (*kept)++;
                    any = dirty = 1;
                }
                stop = limited(gl->c) || w.states >= cap || !(*pe > 0);
                if (i + ws >= bm->m) break;
            }
            if (!any) break;
        }
    }
    free(w.present);
    free(w.req);
    free(w.ran);
    free(w.sid);
    free(w.bid);
    free(w.nodes);
    free(w.bufs);
    free(fr);
    free(seen);
    return r;
}

/* The ruin-and-recreate moves: greedy walked again along p's first-run order, with one more
 * of the buffers that p's reruns make kept from eviction (those kept before stay kept); the
 * first move whose plan, checked, takes less extra time is taken, and the moves start again
 * from it, until none improves, or after REPAIR_WALKS walks. 0, or -1 out of memory. */
static int keep_search(const budget_model *bm, const budget_goal *gl, budget_plan *p, double *pe,
                       uint32_t *walks, uint32_t *kept)
{
    const graph *g = bm->g;
    uint32_t *order = malloc(((size_t)bm->m + 1) * sizeof *order);
    uint8_t *keep = calloc((size_t)bm->nl + 1, 1), *cand = malloc((size_t)bm->nl + 1);
    uint8_t *ran = malloc((size_t)g->n + 1);
    budget_plan q = {0};
    int r = !order || !keep || !cand || !ran ? -1 : 0, improved = 1;
    while (!r && improved && *pe > 0 && *walks < REPAIR_WALKS && !limited(gl->c)) {
        improved = 0;
        uint32_t m = 0;
        memset(ran, 0, g->n);
        memset(cand, 0, bm->nl);
        for (size_t k = 0; k < p->n; k++) {
            uint32_t v = p->ev[k].x;
            if (p->ev[k].op != BUDGET_RUN) continue;
            if (!ran[v] && m < bm->m) order[m++] = v;
            else
                for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) cand[bm->wr[e]] = 1;
            ran[v] = 1;
        }
        /* Along p's first-run order, then along the given one. */
        for (int along = 0; along < 4 && !r && !improved && m == bm->m; along++) {
            budget_model view;
            int k = budget_orders_view(bm, along & 1 ? bm->order : order, &view);
            if (k <= 0) {
                r = k;
                continue;
            }
            /* Keep what a rerun makes; else evict first what could be made again. */
            for (uint32_t t = 0; t < 2 * bm->nl && !r && !improved; t++) {
                uint32_t l = t % bm->nl, want = t < bm->nl ? 1 : 2, pr = bm->producer[l];
                if (keep[l] || (want == 1 ? !cand[l] : pr == GRAPH_NONE || !bm->rerunnable[pr]))
                    continue;
                if (*walks >= REPAIR_WALKS || limited(gl->c)) break;
                budget_outcome oc = {0};
                keep[l] = (uint8_t)want;
                q.n = 0;
                r = budget_greedy_along(bm, &view, gl, keep, along < 2, &q, &oc);
                (*walks)++;
                double qe = !r && oc.found ? budget_plan_extra(bm, &q, gl->budget, gl->bandwidth)
                                           : HUGE_VAL;
                if (qe < *pe - 1e-9 * (1 + *pe)) {
                    budget_plan tp = *p;
                    *p = q;
                    q = tp;
                    *pe = qe;
                    improved = 1;
                    (*kept)++;
                } else keep[l] = 0;
            }
            budget_orders_view_free(&view);
        }
    }
    budget_plan_free(&q);
    free(order);
    free(keep);
    free(cand);
    free(ran);
    return r;
}

int budget_repair(BUDGET_SOLVER_ARGS)
{
    budget_proof unused;
    if (!pf) pf = &unused;
    memset(o, 0, sizeof *o);
    memset(pf, 0, sizeof *pf);
    p->n = 0;
    /* Half the time limit at most, so that exact, after it in best, keeps the rest. */
    solve_ctx cc = gl->c ? *gl->c : (solve_ctx){0};
    double half = solve_now(gl->c) + 0.5 * solve_seconds(gl->c);
    if (!(cc.deadline > 0) || cc.deadline > half) cc.deadline = half;
    budget_goal g = *gl;
    g.c = &cc;
    double pe = HUGE_VAL;
    for (size_t k = 0; seed && k < seed->n; k++)
        if (budget_plan_push(p, seed->ev[k].op, seed->ev[k].x)) return -1;
    if (p->n) pe = budget_plan_extra(bm, p, gl->budget, gl->bandwidth);
    if (!isfinite(pe)) { /* greedy's plan to start from */
        p->n = 0;
        if (budget_greedy(bm, &g, NULL, p, o, NULL)) return -1;
        pe = o->found ? budget_plan_extra(bm, p, gl->budget, gl->bandwidth) : HUGE_VAL;
    }
    uint32_t tried = 0, windows = 0, kept = 0, walks = 0, moved = 0;
    if ((pe > 0 && budget_orders_search(bm, &g, seed, p, &pe, &tried)) ||
        keep_search(bm, &g, p, &pe, &walks, &moved) ||
        budget_repair_lns(bm, &g, p, &pe, &windows, &kept))
        return -1;
    pf->stopped = solve_cancelled(&cc) ? SOLVE_CANCELLED
                  : solve_expired(&cc) ? SOLVE_TIME
                                       : SOLVE_DONE;
    if (!isfinite(pe)) { /* greedy's words stand */
        p->n = 0;
        o->found = 0;
        if (pf->stopped != SOLVE_DONE) o->stopped = pf->stopped;
        return 0;
    }
    o->found = 1;
    o->stopped = SOLVE_DONE;
    snprintf(o->why, sizeof o->why,
             "%u orders and %u moves walked (%u kept), %u windows re-solved (%u kept)", tried,
             walks, moved, windows, kept);
    return 0;
}

const budget_solver budget_solver_repair = {
    "repair",
    "greedy along every policy's order and the training orders, its evictions moved one at a "
    "time, then windows of the plan re-solved exactly (large-neighbourhood search), recompute "
    "only",
    1,
    BUDGET_BEST_EXACT_NODES,
    budget_repair,
    0};
