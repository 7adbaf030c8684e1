/* budget_exact.c: the exact solver of a memory budget: a best-first (A*) search over states
 * (which compute nodes have run, which buffers are present and, with offload, which have a copy
 * on the host), seeded with greedy's plan as the incumbent, with an admissible and consistent
 * bound on the reruns still to come; duplicates found by hashing states. Exports budget_exact
 * and budget_solver_exact.
 *
 * The moves, canonical so that every optimum stays reachable: a state holds only the buffers
 * that may still be needed (the others are freed at once: one no compute node still to run
 * reads, nor a rerunnable node that may have to make a needed buffer again); a move is a first
 * run, a rerun (of a node with a needed write missing) or a fetch, after evicting an
 * inclusion-minimal set of present buffers that makes room for it (none when it fits: having
 * more present is never worse, as one can free later). With offload allowed every eviction is
 * an offload (a copy on the host only adds moves; transfers cost nothing in the search), the
 * buffers present from the start start on the host where they do not fit on the device, and a
 * never-freed buffer may end on the host.
 *
 * The cost the search minimises is the sum of the reruns' latencies. With recompute alone that
 * is the plan's extra time, so the search's optimum is proven. With offload the extra time is a
 * makespan (budget_check's timeline), never below the reruns' sum, as the compute stream runs
 * every run one after another: the search's optimum is a sound lower bound, and the plan is
 * proven only when its extra time (checked) comes down to that bound. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget.h"

#include "budget_exact_internal.h"

/* Whether a limit or a cancel says stop (checked every call: the clock is cheap). */
static int limited(xs *x)
{
    if (x->stopped != SOLVE_DONE) return 1;
    if (solve_cancelled(x->c)) x->stopped = SOLVE_CANCELLED;
    else if (solve_expired(x->c) || solve_now(x->c) - x->start > x->seconds)
        x->stopped = SOLVE_TIME;
    return x->stopped != SOLVE_DONE;
}

/* need[] of state s: may be needed (kept, read by a node still to run, or by a rerunnable node
 * with a write that may be needed; a random op's generator state where its rerun may be
 * needed) and surely needed (kept, or read by a node still to run). The first two are read off
 * directly; the third is a walk back from each buffer that may be needed to its producer's reads
 * (each buffer entered once), so O(nodes + reads) a state. */
static void mark_need(xs *x, const uint64_t *s)
{
    const budget_model *bm = x->bm;
    uint32_t nq = 0;
    for (uint32_t b = 0; b < x->np; b++) x->need[b] = b < x->nb && bm->keep[b] ? 3 : 0;
    for (uint32_t i = 0; i < x->m; i++) {
        if (bit(RAN(s), i)) continue;
        uint32_t v = bm->order[i];
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) x->need[bm->rd[e]] = 3;
    }
    if (!x->recompute) return;
    for (uint32_t b = 0; b < x->nb; b++)
        if (x->need[b]) x->bq[nq++] = b;
    while (nq) {
        uint32_t p = bm->producer[x->bq[--nq]];
        if (p == GRAPH_NONE || !bm->rerunnable[p] || !bit(RAN(s), bm->pos[p])) continue;
        if (bm->rng[p]) x->need[x->sbit[p]] = 1; /* its rerun reads its state */
        for (uint32_t e = bm->rd_off[p]; e < bm->rd_off[p + 1]; e++) {
            uint32_t r = bm->rd[e];
            if (!x->need[r]) {
                x->need[r] = 1;
                x->bq[nq++] = r;
            }
        }
    }
}

/* Frees (and forgets the host copies of) what is no longer needed (need[], of s's runs), and
 * bounds the reruns to come: every surely needed buffer missing (not on the host either) whose
 * producer has run needs a rerun of that producer, and each such rerun needs its missing reads
 * made again the same way; each node counted once; with from_memory, plus the bound from
 * memory where the order is fixed (budget_exact_bound.c). -1: a dead end (such a buffer cannot
 * be made again, or what must be held passes the budget). */
static int normalize(xs *x, uint64_t *s, double *h, int64_t *mem, int from_memory)
{
    const budget_model *bm = x->bm;
    const graph *g = x->g;
    uint32_t nq = 0;
    *h = 0;
    *mem = 0;
    if (++x->stampv == 0) {
        memset(x->stamp, 0, (size_t)g->n * sizeof *x->stamp);
        x->stampv = 1;
    }
    for (uint32_t b = 0; b < x->nb; b++) {
        int pres = bit(PRES(x, s), b), host = x->offload && bit(HOST(x, s), b);
        if (!x->need[b]) {
            if (pres) set0(PRES(x, s), b);
            if (host) set0(HOST(x, s), b);
            continue;
        }
        if (pres) *mem += bm->size[b];
        if (pres || host || !(x->need[b] & 2)) continue;
        uint32_t p = bm->producer[b];
        if (p == GRAPH_NONE) return -1;
        if (!bit(RAN(s), bm->pos[p])) continue;
        if (!x->recompute || !bm->rerunnable[p]) return -1;
        if (bm->rng[p] && !bit(PRES(x, s), x->sbit[p])) return -1; /* its state is gone */
        if (x->stamp[p] != x->stampv) {
            x->stamp[p] = x->stampv;
            *h += graph_latency(g, p);
            x->hq[nq++] = p;
        }
    }
    for (uint32_t b = x->nb; b < x->np; b++) { /* the generator states */
        if (bit(PRES(x, s), b) && !x->need[b]) set0(PRES(x, s), b);
        if (bit(PRES(x, s), b)) *mem += x->sz[b];
    }
    /* a rerun certain to come needs its reads present: each one missing (not on the host
     * either) whose producer has run needs that producer rerun too (a version changed in place
     * needs its changers back to one present), and a random op's rerun its generator state */
    while (nq) {
        uint32_t p = x->hq[--nq];
        for (uint32_t e = bm->rd_off[p]; e < bm->rd_off[p + 1]; e++) {
            uint32_t b = bm->rd[e], q = bm->producer[b];
            if (bit(PRES(x, s), b) || (x->offload && bit(HOST(x, s), b))) continue;
            if (q == GRAPH_NONE) return -1;
            if (!bit(RAN(s), bm->pos[q]) || x->stamp[q] == x->stampv) continue;
            if (!bm->rerunnable[q]) return -1;
            if (bm->rng[q] && !bit(PRES(x, s), x->sbit[q])) return -1; /* its state is gone */
            x->stamp[q] = x->stampv;
            *h += graph_latency(g, q);
            x->hq[nq++] = q;
        }
    }
    double add;
    if (!from_memory) return 0;
    if (xbound_mem(x, s, &add)) return -1;
    *h += add;
    return 0;
}

/* Puts state k (its f, its first runs and its cost) on the open states: least f first; then
 * the most run, then the most spent (deeper: a goal sooner); the room doubled when full. */
static int push_open(xs *x, double f, double g, uint32_t nran, uint32_t k)
{
    if (x->open.len == x->open.cap &&
        (x->open.cap > UINT32_MAX / 2 || heap_reserve(&x->open, 2 * x->open.cap)))
        return -1;
    heap_push(&x->open, (heap_item){{heap_dkey(f), -(int64_t)nran, ~heap_dkey(g)}, k});
    return 0;
}

static int out_of_memory(xs *x)
{
    x->oom = 1;
    x->stopped = SOLVE_MEMORY;
    return -1;
}

/* Room for one more state (the states and their records doubled up to the limit); -1 at the
 * limit or out of memory, the reason in stopped. */
static int grow(xs *x)
{
    uint32_t n = x->seen.n;
    if (n >= x->limit) {
        x->stopped = x->limit < solve_max_states(x->c) ? SOLVE_MEMORY : SOLVE_STATES;
        return -1;
    }
    if (n == x->seen.cap) {
        size_t nc = n ? (size_t)n * 2 : 256;
        if (nc > x->limit) nc = x->limit;
        xrec *r = realloc(x->rec, nc * sizeof *r);
        if (r) x->rec = r;
        if (!r || stateset_reserve(&x->seen, (uint32_t)nc) || xdom_reserve(x, (uint32_t)nc))
            return out_of_memory(x);
    }
    return 0;
}

/* Adds state s (normalized, bound h) reached from parent by act at cost g, unless a copy of it
 * is known at no more cost or its f reaches the incumbent. -1 at a limit. */
static int add_state(xs *x, const uint64_t *s, double g, double h, int64_t mem, uint32_t parent,
                     uint32_t act, uint32_t nran)
{
    if (g + h >= x->ub) return 0;
    uint32_t k = stateset_find(&x->seen, s);
    if (k != UINT32_MAX) {
        if (!(g < x->rec[k].g) || xdom_pruned(x, s, g, k)) return 0;
        x->rec[k].g = g;
        x->rec[k].parent = parent;
        x->rec[k].act = act;
        xdom_add(x, k, g, 0);
    } else {
        if (xdom_pruned(x, s, g, UINT32_MAX)) return 0;
        if (grow(x)) return -1;
        k = stateset_add(&x->seen, s);
        x->rec[k] = (xrec){g, h, mem, parent, act, nran};
        xdom_add(x, k, g, 1);
    }
    if (push_open(x, g + h, g, nran, k)) return out_of_memory(x);
    return 0;
}

/* Clears, in the bit set w over logical buffers, every version of buffer b. */
static void versions0(const xs *x, uint64_t *w, uint32_t b)
{
    const budget_model *bm = x->bm;
    for (uint32_t k = bm->vers_off[b]; k < bm->vers_off[b + 1]; k++) set0(w, bm->vers[k]);
}

/* Whether some version of buffer b is present in state s. */
static int any_version(const xs *x, const uint64_t *s, uint32_t b)
{
    const budget_model *bm = x->bm;
    for (uint32_t k = bm->vers_off[b]; k < bm->vers_off[b + 1]; k++)
        if (bit(PRES(x, s), bm->vers[k])) return 1;
    return 0;
}

/* Pins every version of buffer b (what a move writes over is no candidate to evict). */
static void pin_versions(xs *x, uint32_t b)
{
    const budget_model *bm = x->bm;
    for (uint32_t k = bm->vers_off[b]; k < bm->vers_off[b + 1]; k++)
        x->pinned[bm->vers[k]] = x->pinv;
}

/* kid := cur with the npick candidates in stack (by index into cand) evicted, then act done; its
 * cost in *gc and its first runs in *nran. */
static void apply(xs *x, uint32_t from, uint32_t act, const uint32_t *pick, size_t npick,
                  double *gc, uint32_t *nran)
{
    const budget_model *bm = x->bm;
    const graph *g = x->g;
    *gc = x->rec[from].g;
    *nran = x->rec[from].nran;
    memcpy(x->kid, x->cur, x->W * 8);
    for (size_t k = 0; k < npick; k++) {
        uint32_t b = x->cand[pick[k]];
        set0(PRES(x, x->kid), b);
        if (x->offload && b < x->nb) { /* one copy of a buffer on the host: the last offloaded */
            versions0(x, HOST(x, x->kid), bm->phys[b]);
            set1(HOST(x, x->kid), b);
        }
    }
    if (act >= g->n) {
        versions0(x, PRES(x, x->kid), bm->phys[act - g->n]);
        set1(PRES(x, x->kid), act - g->n);
    } else {
        uint32_t i = bm->pos[act];
        if (bit(RAN(x->kid), i)) *gc += graph_latency(g, act);
        else ++*nran;
        if (x->with_state) set1(PRES(x, x->kid), x->sbit[act]);
        set1(RAN(x->kid), i);
        for (uint32_t e = bm->wr_off[act]; e < bm->wr_off[act + 1]; e++) {
            if (budget_exact_hosted(x, act, bm->wr[e])) {
                set1(HOST(x, x->kid), bm->wr[e]);
                continue;
            }
            versions0(x, PRES(x, x->kid), bm->phys[bm->wr[e]]); /* changed, or overwritten */
            set1(PRES(x, x->kid), bm->wr[e]);
        }
    }
}

/* The child of cur: evict the npick candidates in stack (by index into cand), then act. */
static int child(xs *x, uint32_t from, uint32_t act, const uint32_t *pick, size_t npick)
{
    double gc, h;
    uint32_t nran;
    int64_t mem;
    apply(x, from, act, pick, npick, &gc, &nran);
    if (normalize(x, x->kid, &h, &mem, 1)) return 0;
    return add_state(x, x->kid, gc, h, mem, from, act, nran);
}

/* Each inclusion-minimal set of the nc candidates (by size, descending) that frees at least
 * need bytes, one child each; with recompute alone, none whose f surely reaches the incumbent:
 * base is the f of the move's child without evictions, and evicting candidate j adds at least
 * the rerun of cprod[j] (ccost[j]; GRAPH_NONE: nothing), each node counted once. */
static int minimal_sets(xs *x, uint32_t from, uint32_t act, size_t nc, int64_t need, double base)
{
    /* suffix sums: whether the candidates from j on can still reach need */
    int64_t *suf = x->csize + nc + 1;
    suf[nc] = 0;
    for (size_t j = nc; j-- > 0;) suf[j] = suf[j + 1] + x->csize[j];
    size_t depth = 0, j = 0;
    int64_t sum = 0;
    double f = base;
    for (;;) {
        if (j < nc && sum + suf[j] >= need) {
            uint32_t q = x->cprod[j];
            int fresh = q != GRAPH_NONE && !x->pcount[q];
            if (fresh && f + x->ccost[j] >= x->ub) { /* every set with it reaches the incumbent */
                j++;
                continue;
            }
            if (q != GRAPH_NONE && !x->pcount[q]++) f += x->ccost[j];
            x->stack[depth++] = (uint32_t)j;
            sum += x->csize[j];
            if (sum >= need) {
                if (child(x, from, act, x->stack, depth)) return -1;
                if ((++x->work & 255) == 0 && limited(x)) return -1;
                sum -= x->csize[j];
                if (q != GRAPH_NONE && !--x->pcount[q]) f -= x->ccost[j];
                depth--;
            }
            j++;
            continue;
        }
        if (!depth) return 0;
        size_t k = x->stack[--depth];
        sum -= x->csize[k];
        uint32_t q = x->cprod[k];
        if (q != GRAPH_NONE && !--x->pcount[q]) f -= x->ccost[k];
        j = k + 1;
    }
}

static int by_size_desc(const void *a, const void *b, void *arg)
{
    const int64_t *sz = arg;
    int64_t x = sz[*(const uint32_t *)a], y = sz[*(const uint32_t *)b];
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The children of move act (a run, or n + b: fetch b) from state from (in cur); a first run of
 * a random op that may run again saves its generator state or not (with_state). */
static int try_move1(xs *x, uint32_t from, uint32_t act)
{
    const budget_model *bm = x->bm;
    const graph *g = x->g;
    int64_t more = x->with_state ? BUDGET_RNG_BYTES : 0;
    if (++x->pinv == 0) {
        memset(x->pinned, 0, (size_t)x->np * sizeof *x->pinned);
        x->pinv = 1;
    }
    if (act >= g->n) {
        uint32_t l = act - g->n;
        if (!any_version(x, x->cur, bm->phys[l])) more = bm->size[l];
        pin_versions(x, bm->phys[l]);
    } else {
        for (uint32_t e = bm->rd_off[act]; e < bm->rd_off[act + 1]; e++)
            x->pinned[bm->rd[e]] = x->pinv;
        if (bm->rng[act]) x->pinned[x->sbit[act]] = x->pinv; /* a rerun reads it */
        for (uint32_t e = bm->wr_off[act]; e < bm->wr_off[act + 1]; e++) {
            uint32_t l = bm->wr[e];
            if (budget_exact_hosted(x, act, l)) continue;
            if (!any_version(x, x->cur, bm->phys[l])) more += bm->size[l];
            pin_versions(x, bm->phys[l]);
        }
    }
    /* need[] depends on the runs alone: the same for every child of this move */
    memcpy(RAN(x->kid), RAN(x->cur), x->wr * 8);
    if (act < g->n) set1(RAN(x->kid), bm->pos[act]);
    mark_need(x, x->kid);
    int64_t over = x->rec[from].mem + more - x->budget;
    if (over <= 0) return child(x, from, act, NULL, 0);
    /* the child without evictions: its f, and the reruns its bound counts (stamped) */
    double gc, h, base = 0;
    uint32_t nran;
    int64_t mem;
    apply(x, from, act, NULL, 0, &gc, &nran);
    /* without the bound from memory, which evicting may lower: the rest only grows with it */
    if (normalize(x, x->kid, &h, &mem, 0)) return 0; /* evicting more only makes it worse */
    base = gc + h;
    if (base >= x->ub) return 0;
    size_t nc = 0;
    for (uint32_t b = 0; b < x->np; b++) {
        if (!bit(PRES(x, x->cur), b) || x->pinned[b] == x->pinv || x->sz[b] <= 0) continue;
        /* with recompute alone, a surely needed buffer that cannot come back is no candidate
         * (evicting it is a dead end); one that can adds its producer's rerun to the bound,
         * unless the bound counts that rerun already (a generator state is never surely
         * needed: evicting it adds no rerun, and normalize finds where it ends a plan) */
        uint32_t p = b < x->nb ? bm->producer[b] : GRAPH_NONE;
        if (!x->offload && x->need[b] & 2 &&
            (p == GRAPH_NONE || !x->recompute || !bm->rerunnable[p]))
            continue;
        x->cand[nc++] = b;
    }
    qsort_r(x->cand, nc, sizeof *x->cand, by_size_desc, (void *)x->sz);
    for (size_t k = 0; k < nc; k++) {
        uint32_t b = x->cand[k];
        x->csize[k] = x->sz[b];
        x->cprod[k] = GRAPH_NONE;
        if (!x->offload && x->need[b] & 2 && x->stamp[bm->producer[b]] != x->stampv) {
            x->cprod[k] = bm->producer[b];
            x->ccost[k] = graph_latency(g, bm->producer[b]);
        }
    }
    return minimal_sets(x, from, act, nc, over, base);
}

static int try_move(xs *x, uint32_t from, uint32_t act)
{
    const budget_model *bm = x->bm;
    x->with_state = 0;
    if (try_move1(x, from, act)) return -1;
    if (act >= x->g->n || !bm->rng[act] || !x->recompute || bit(RAN(x->cur), bm->pos[act]))
        return 0;
    x->with_state = 1;
    int r = try_move1(x, from, act);
    x->with_state = 0;
    return r;
}

/* done[] of cur: a compute node's first run made, an ALLOC's or FREE's predecessors done. */
static void mark_done(xs *x)
{
    const graph *g = x->g;
    for (uint32_t k = 0; k < g->n; k++) {
        uint32_t v = x->topo[k];
        uint8_t d = 1;
        if (g->kind[v] == NODE_COMPUTE) d = (uint8_t)bit(RAN(x->cur), x->bm->pos[v]);
        else
            for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1] && d; e++)
                d = x->done[g->pred[e]];
        x->done[v] = d;
    }
}

/* Whether compute node v (place i) may run in cur: its reads present; a first run after the
 * nodes before it along the Edges; a rerun only of a rerunnable node with a needed write
 * missing (and, with offload, not on the host: fetching it costs nothing here). */
static int may_run(xs *x, uint32_t v, uint32_t i)
{
    const budget_model *bm = x->bm;
    const graph *g = x->g;
    for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
        if (!bit(PRES(x, x->cur), bm->rd[e])) return 0;
    if (!bit(RAN(x->cur), i)) {
        for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1]; e++)
            if (!x->done[g->pred[e]]) return 0;
        return 1;
    }
    if (!x->recompute || !bm->rerunnable[v]) return 0;
    if (bm->rng[v] && !bit(PRES(x, x->cur), x->sbit[v])) return 0; /* no state, no rerun */
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) {
        uint32_t b = bm->wr[e];
        if (x->need[b] && !bit(PRES(x, x->cur), b) && !(x->offload && bit(HOST(x, x->cur), b)))
            return 1;
    }
    return 0;
}

static int expand(xs *x, uint32_t k)
{
    const budget_model *bm = x->bm;
    memcpy(x->cur, stateset_at(&x->seen, k), x->W * 8);
    mark_done(x);
    mark_need(x, x->cur);
    /* need[] is cur's only until a child is made: the moves are listed first */
    uint32_t nmov = 0;
    for (uint32_t i = 0; i < x->m; i++)
        if (may_run(x, bm->order[i], i)) x->stack[x->np + nmov++] = bm->order[i];
    for (uint32_t b = 0; x->offload && b < x->nb; b++)
        if (x->need[b] && !bit(PRES(x, x->cur), b) && bit(HOST(x, x->cur), b))
            x->stack[x->np + nmov++] = x->g->n + b;
    for (uint32_t q = 0; q < nmov; q++)
        if (try_move(x, k, x->stack[x->np + q])) return -1;
    return 0;
}

/* Every node in an order of the Edges (Kahn's). */
static int topo_order(xs *x)
{
    const graph *g = x->g;
    uint32_t *indeg = malloc(((size_t)g->n + 1) * sizeof *indeg);
    if (!indeg) return -1;
    size_t head = 0, tail = 0;
    for (uint32_t v = 0; v < g->n; v++) {
        indeg[v] = g->pred_off[v + 1] - g->pred_off[v];
        if (!indeg[v]) x->topo[tail++] = v;
    }
    while (head < tail) {
        uint32_t v = x->topo[head++];
        for (uint32_t e = g->succ_off[v]; e < g->succ_off[v + 1]; e++)
            if (--indeg[g->succ[e]] == 0) x->topo[tail++] = g->succ[e];
    }
    free(indeg);
    return tail == g->n ? 0 : -1;
}

/* The bytes a state is counted to take against --max-memory: its words, its record, an open
 * entry and two slots of the table (with recompute alone, dominance's link, flag and two
 * slots too). The open entry counts 24 bytes, what it took before the open states were util's
 * heap (whose entries take 32), so that a limit of memory still makes the same limit of
 * states. */
#define OPEN_ENTRY_BYTES 24

static int setup(xs *x)
{
    const budget_model *bm = x->bm;
    const graph *g = x->g;
    x->m = bm->m;
    x->nb = x->np = bm->nl;
    for (uint32_t v = 0; v < g->n; v++) x->np += bm->rng[v];
    x->wr = ((size_t)x->m + 63) / 64;
    x->wp = ((size_t)x->np + 63) / 64;
    x->W = x->wr + x->wp * (x->offload ? 2 : 1);
    if (!x->W) x->W = 1;
    size_t per = x->W * 8 + sizeof(xrec) + OPEN_ENTRY_BYTES + 2 * sizeof(uint32_t);
    if (!x->offload) per += 3 * sizeof(uint32_t) + 1; /* dominance: its link, flag, 2 slots */
    uint64_t lim = (uint64_t)solve_max_memory(x->c) / per, ms = solve_max_states(x->c);
    x->limit = (size_t)(lim < ms ? lim : ms);
    if (x->limit > GRAPH_NONE - 1) x->limit = GRAPH_NONE - 1;
    size_t nb = (size_t)x->np + 1, n = (size_t)g->n + 1;
    x->cur = calloc(x->W, 8);
    x->kid = calloc(x->W, 8);
    x->done = malloc(n);
    x->need = malloc(nb);
    x->stamp = calloc(n, sizeof *x->stamp);
    x->pinned = calloc(nb, sizeof *x->pinned);
    x->topo = malloc(n * sizeof *x->topo);
    x->csize = malloc(2 * (nb + 1) * sizeof *x->csize);
    x->cand = malloc(nb * sizeof *x->cand);
    x->stack = malloc((nb + n + nb) * sizeof *x->stack);
    x->sbit = malloc(n * sizeof *x->sbit);
    x->sz = malloc(nb * sizeof *x->sz);
    x->bq = malloc(nb * sizeof *x->bq);
    x->hq = malloc(n * sizeof *x->hq);
    x->cprod = malloc(nb * sizeof *x->cprod);
    x->ccost = malloc(nb * sizeof *x->ccost);
    x->pcount = calloc(n, sizeof *x->pcount);
    stateset_init(&x->seen, (uint32_t)x->W);
    if (heap_init(&x->open, 1024, 0) || !x->cur || !x->kid || !x->done || !x->need || !x->stamp ||
        !x->pinned || !x->topo || !x->csize || !x->cand || !x->stack || !x->sbit || !x->sz ||
        !x->bq || !x->hq || !x->cprod || !x->ccost || !x->pcount)
        return -1;
    memcpy(x->sz, bm->size, (size_t)x->nb * sizeof *x->sz);
    for (uint32_t v = 0, j = x->nb; v < g->n; v++) {
        x->sbit[v] = bm->rng[v] ? j : GRAPH_NONE;
        if (bm->rng[v]) x->sz[j++] = BUDGET_RNG_BYTES;
    }
    if (xbound_setup(x)) return -1;
    return topo_order(x) ? -2 : 0;
}

static void teardown(xs *x)
{
    stateset_free(&x->seen);
    free(x->rec);
    heap_free(&x->open);
    free(x->cur);
    free(x->kid);
    free(x->done);
    free(x->need);
    free(x->stamp);
    free(x->pinned);
    free(x->topo);
    free(x->csize);
    free(x->cand);
    free(x->stack);
    free(x->sbit);
    free(x->sz);
    free(x->bq);
    free(x->hq);
    free(x->cprod);
    free(x->ccost);
    free(x->pcount);
    xdom_free(x);
    xbound_free(x);
}

static int is_goal(const xs *x, uint32_t k)
{
    if (x->rec[k].nran != x->m) return 0;
    const uint64_t *s = stateset_at(&x->seen, k);
    for (uint32_t b = 0; b < x->nb; b++) /* with offload, kept on the host will do */
        if (x->bm->keep[b] && !bit(PRES(x, s), b) && !(x->offload && bit(HOST(x, s), b))) return 0;
    return 1;
}

/* The search from the start: *goal the first goal state (GRAPH_NONE: none before the frontier
 * emptied or a limit). -1 out of memory. */
static int search(xs *x, uint32_t *goal)
{
    *goal = GRAPH_NONE;
    memset(x->cur, 0, x->W * 8);
    /* With offload, what is present from the start and does not fit starts on the host: every
     * state with some of it on the device is a fetch (costing nothing here) away. */
    x->host_start = x->offload && x->bm->initial > x->budget;
    for (uint32_t b = 0; b < x->nb; b++)
        if (x->bm->producer[b] == GRAPH_NONE)
            set1(x->host_start ? HOST(x, x->cur) : PRES(x, x->cur), b);
    double h;
    int64_t mem;
    mark_need(x, x->cur);
    if ((!x->host_start && x->bm->initial > x->budget) || normalize(x, x->cur, &h, &mem, 1))
        return 0;
    if (add_state(x, x->cur, 0, h, mem, GRAPH_NONE, GRAPH_NONE, 0)) return x->oom ? -1 : 0;
    while (x->open.len) {
        if (limited(x)) return 0;
        heap_item it = heap_pop(&x->open);
        uint32_t k = it.node;
        if (heap_dkey_value(~it.k[2]) > x->rec[k].g)
            continue;                        /* a copy reached since at less cost */
        if (x->dead && x->dead[k]) continue; /* dominated by a state kept since */
        x->curf = open_f(&it);
        if (x->curf >= x->ub) {
            heap_clear(&x->open);
            break;
        }
        if (is_goal(x, k)) {
            *goal = k;
            return 0;
        }
        x->expanding = 1;
        if (expand(x, k)) return x->oom ? -1 : 0;
        x->expanding = 0;
    }
    return 0;
}

/* The incumbent: seed's plan, else greedy's; its extra time in *ub (HUGE_VAL: none). */
static int incumbent(const budget_model *bm, const budget_goal *gl, const budget_plan *seed,
                     budget_plan *inc, double *ub)
{
    budget_outcome io;
    budget_stats st;
    char err[8];
    *ub = HUGE_VAL;
    if (seed && seed->n) {
        for (size_t k = 0; k < seed->n; k++)
            if (budget_plan_push(inc, seed->ev[k].op, seed->ev[k].x)) return -1;
    } else if (!seed) {
        if (budget_greedy(bm, gl, NULL, inc, &io, NULL)) return -1;
        if (!io.found) inc->n = 0;
    }
    if (inc->n && !budget_check(bm, inc, gl->bandwidth, &st, err, sizeof err) &&
        st.peak <= gl->budget)
        *ub = st.extra_ms;
    else inc->n = 0;
    return 0;
}

int budget_exact(BUDGET_SOLVER_ARGS)
{
    budget_proof none;
    if (!pf) pf = &none;
    memset(o, 0, sizeof *o);
    memset(pf, 0, sizeof *pf);
    p->n = 0;
    const solve_ctx *c = gl->c;
    xs x = {.bm = bm,
            .g = bm->g,
            .budget = gl->budget,
            .c = c,
            .offload = (gl->allow & BUDGET_ALLOW_OFFLOAD) != 0,
            .recompute = (gl->allow & BUDGET_ALLOW_RECOMPUTE) != 0};
    x.start = solve_now(c);
    x.seconds = solve_seconds(c);
    budget_plan inc = {0};
    int r = incumbent(bm, gl, seed, &inc, &x.ub);
    if (!r) r = setup(&x);
    uint32_t goal = GRAPH_NONE;
    if (!r) r = search(&x, &goal);
    if (!r) r = budget_exact_conclude(&x, goal, &inc, gl->bandwidth, p, o, pf);
    if (r == -2) { /* the Edges have a cycle: the model refuses such graphs first */
        snprintf(o->why, sizeof o->why, "the Edges have a cycle");
        r = 0;
    }
    teardown(&x);
    budget_plan_free(&inc);
    if (!o->found) p->n = 0;
    return r;
}

const budget_solver budget_solver_exact = {
    "exact",
    "an A* search over states from greedy's plan: proven optimal, or a gap to its lower bound "
    "past a limit",
    1,
    BUDGET_BEST_EXACT_NODES,
    budget_exact,
    1};
