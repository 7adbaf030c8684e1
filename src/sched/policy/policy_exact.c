/* policy_exact.c: policy "exact", the proven minimum peak over all topological
 * orders. Exports policy_exact.
 *
 * How. The memory after a set of executed nodes depends only on the set, so
 * the search runs over sets, from the order "best" found (the first upper
 * bound; under a tight --time-limit only its first members run).
 *  - A ready node whose change is <= 0 runs at once: running it earlier never
 *    raises a later state. So only ALLOCs branch, and each state is closed.
 *  - A node that every other node reaches or is reached from (a cut) splits
 *    any order: its ancestors run first, its descendants after, with the
 *    same live bytes between. Each piece between cuts is searched alone, the
 *    highest first; a piece whose peak is at most the bound proven so far
 *    cannot lower the peak and is left as it is.
 *  - Within a piece (policy_piece_search.c): beams of growing width for
 *    better orders, and depth-first rounds under a budget with a table of
 *    what each state is proven to cost, below the best found (a better order
 *    or the proof) and at the bound (raising it).
 *  - At --time-limit, --max-states, --max-memory or a cancel the search
 *    stops: the order is the best found, the bound what was proven (never a
 *    claim it has not proven), and search.stopped says why. */
#define _GNU_SOURCE
#include "policy_internal.h"
#include "sched/graph/solve_watch.h"
#include "policy_piece.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the graph */

/* Tells the watcher (if any) the peak of the order so far and the bound. */
static void publish(const solve_ctx *c, const int64_t *pub, uint32_t np, int64_t lb)
{
    solve_watch *ctl_now = c ? c->watch : NULL;
    if (!ctl_now) return;
    int64_t top = 0;
    for (uint32_t j = 0; j < np; j++) top = pub[j] > top ? pub[j] : top;
    atomic_store(&ctl_now->best, top);
    atomic_store(&ctl_now->bound, lb);
}

/* Pieces by their peak, highest first, then in order: whether x comes
 * before y. */
static int comes_before(const int64_t *pub, uint32_t x, uint32_t y)
{
    return pub[x] != pub[y] ? pub[x] > pub[y] : x < y;
}

/* The pieces still to search, h[0..m), are a heap whose top comes first (a
 * search lowers only its own piece's peak, so the order is fixed up front,
 * and taking them one by one costs no sort of them all): sift h[i] down. */
static void sift_down(uint32_t *h, uint32_t m, uint32_t i, const int64_t *pub)
{
    for (;;) {
        uint32_t c = 2 * i + 1, t;
        if (c >= m) return;
        if (c + 1 < m && comes_before(pub, h[c + 1], h[c])) c++;
        if (!comes_before(pub, h[c], h[i])) return;
        t = h[c];
        h[c] = h[i];
        h[i] = t;
        i = c;
    }
}

/* Takes the first piece off the heap h[0..*m) (*m > 0). */
static uint32_t take_first(uint32_t *h, uint32_t *m, const int64_t *pub)
{
    uint32_t top = h[0];
    h[0] = h[--*m];
    sift_down(h, *m, 0, pub);
    return top;
}

/* Cuts of the order (or none, L->stopped, when a limit or a cancel comes
 * first): position p is one when every node before it reaches
 * it and every node after is reached from it. The first holds when every
 * node before p has a successor at p or before (follow those edges: they
 * climb to p); the second when every node after p has a predecessor at p or
 * after. Sets cut[p]. */
static int find_cuts(const graph *g, const uint32_t *order, const uint32_t *rank, uint8_t *cut,
                     piece_limits *L)
{
    uint32_t n = g->n;
    int64_t *sufmin = malloc(((size_t)n + 1) * sizeof *sufmin);
    if (!sufmin) return -1;
    int64_t lo = INT64_MAX; /* least last-predecessor position over q > p */
    for (uint32_t q = n; q-- > 0;) {
        if (!(q & 4095) && policy_piece_tick(L, PIECE_CHECK)) break;
        sufmin[q] = lo;
        int64_t last = -1; /* a root: reached from nothing */
        for (uint32_t e = g->pred_off[order[q]]; e < g->pred_off[order[q] + 1]; e++)
            if ((int64_t)rank[g->pred[e]] > last) last = rank[g->pred[e]];
        if (last < lo) lo = last;
    }
    int64_t hi = -1; /* greatest first-successor position over q < p */
    for (uint32_t p = 0; p < n && !L->stopped; p++) {
        if (!(p & 4095) && policy_piece_tick(L, PIECE_CHECK)) break;
        cut[p] = (uint8_t)(hi <= (int64_t)p && sufmin[p] >= (int64_t)p);
        int64_t first = INT64_MAX; /* a sink reaches nothing */
        for (uint32_t e = g->succ_off[order[p]]; e < g->succ_off[order[p] + 1]; e++)
            if ((int64_t)rank[g->succ[e]] < first) first = rank[g->succ[e]];
        if (first > hi) hi = first;
    }
    free(sufmin);
    return 0;
}

/* Makes P the local graph of the nodes at positions [s0, s0 + k) of order
 * (mem: the live bytes after each step; ub: the piece's peak there), with
 * its bound; loc maps a node to its place in the piece, bloc is
 * policy_piece_bound's map. 0, or -1 out of memory (policy_piece_free frees
 * what it made either way). */
static int piece_make(const graph *g, const run *r, const uint32_t *order, const int64_t *mem,
                      uint32_t s0, uint32_t k, int64_t ub, uint32_t *loc, uint32_t *bloc, piece *P)
{
    P->k = k;
    P->w = (k + 63) / 64;
    P->node = order + s0;
    P->base = s0 ? mem[s0 - 1] : 0;
    P->ub = ub;
    for (uint32_t j = 0; j < k; j++) loc[order[s0 + j]] = j;
    uint32_t ne = 0;
    for (uint32_t j = 0; j < k; j++)
        ne += g->pred_off[order[s0 + j] + 1] - g->pred_off[order[s0 + j]];
    P->change = malloc(((size_t)k + 1) * sizeof *P->change);
    P->poff = calloc((size_t)k + 1, sizeof *P->poff);
    P->soff = calloc((size_t)k + 2, sizeof *P->soff);
    P->pred = malloc(((size_t)ne + 1) * sizeof *P->pred);
    P->succ = malloc(((size_t)ne + 1) * sizeof *P->succ);
    P->rem = malloc(((size_t)k + 1) * sizeof *P->rem);
    P->touched = malloc(((size_t)ne + k + 1) * sizeof *P->touched);
    if (!P->change || !P->poff || !P->soff || !P->pred || !P->succ || !P->rem || !P->touched)
        return -1;
    P->ne = ne;
    ne = 0;
    for (uint32_t j = 0; j < k; j++) {
        uint32_t u = order[s0 + j];
        P->change[j] = g->change[u];
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++) {
            uint32_t p = g->pred[e];
            if (r->rank[p] < s0) continue; /* before the piece: done */
            P->pred[ne++] = loc[p];
            P->soff[loc[p] + 2]++;
        }
        P->poff[j + 1] = ne;
    }
    for (uint32_t j = 0; j < k; j++) P->soff[j + 2] += P->soff[j + 1];
    for (uint32_t j = 0; j < k; j++)
        for (uint32_t e = P->poff[j]; e < P->poff[j + 1]; e++)
            P->succ[P->soff[P->pred[e] + 1]++] = j;
    return policy_piece_bound(g, P, r->rank, s0, bloc) ? -1 : 0;
}

/* Puts the piece's better order, from the ALLOCs path[0..npath) its search
 * chose, into order and r->rank (lorder: room for P->k, path too, as
 * scratch). 0, or -1 when the order does not cover the piece. */
static int piece_adopt(const piece *P, uint32_t *path, uint32_t npath, uint32_t *lorder,
                       uint32_t *order, uint32_t s0, run *r)
{
    uint32_t k = P->k, cnt = 0;
    for (uint32_t j = 0; j < k; j++) lorder[j] = UINT32_MAX;
    policy_piece_order(P, path, npath, lorder);
    for (uint32_t j = 0; j < k && lorder[j] != UINT32_MAX; j++) cnt++;
    if (cnt != k) return -1;
    for (uint32_t j = 0; j < k; j++) path[j] = P->node[lorder[j]]; /* P->node is order */
    for (uint32_t j = 0; j < k; j++) {
        order[s0 + j] = path[j];
        r->rank[path[j]] = s0 + j;
    }
    return 0;
}

/* What exact works with: the order and its memory, the cuts and pieces,
 * and scratch for a piece (all of n or nbufs). */
typedef struct exact_ws {
    uint32_t *order, *loc, *bloc, *starts, *byub, *path, *lorder;
    int64_t *mem, *pub;
    uint8_t *cut;
} exact_ws;

static int ws_alloc(exact_ws *W, uint32_t n, uint32_t nbufs)
{
    size_t sz = (size_t)n + 2;
    W->order = malloc(sz * sizeof *W->order);
    W->loc = malloc(sz * sizeof *W->loc);
    W->bloc = malloc(((size_t)nbufs + 1) * sizeof *W->bloc);
    W->starts = malloc(sz * sizeof *W->starts);
    W->byub = malloc(sz * sizeof *W->byub);
    W->path = malloc(sz * sizeof *W->path);
    W->lorder = malloc(sz * sizeof *W->lorder);
    W->mem = malloc(sz * sizeof *W->mem);
    W->pub = malloc(sz * sizeof *W->pub);
    W->cut = malloc(sz);
    if (!W->order || !W->loc || !W->bloc || !W->starts || !W->byub || !W->path || !W->lorder ||
        !W->mem || !W->pub || !W->cut)
        return -1;
    memset(W->bloc, 0xff, ((size_t)nbufs + 1) * sizeof *W->bloc);
    return 0;
}

static void ws_free(exact_ws *W)
{
    free(W->order);
    free(W->loc);
    free(W->bloc);
    free(W->starts);
    free(W->byub);
    free(W->path);
    free(W->lorder);
    free(W->mem);
    free(W->pub);
    free(W->cut);
}

/* Splits the order at its cuts: the pieces' starts and peaks, and those
 * whose peak is above lb (only they may lower the peak) in the heap
 * byub[0..*nheap). Returns how many pieces, or 0 out of memory or stopped
 * (L->stopped). */
static uint32_t split(const graph *g, const run *r, exact_ws *W, int64_t lb, piece_limits *L,
                      uint32_t *nheap)
{
    uint32_t n = g->n, np = 0, m = 0;
    if (find_cuts(g, W->order, r->rank, W->cut, L) || L->stopped) return 0;
    for (uint32_t s = 0; s < n; s++)
        if (s == 0 || W->cut[s - 1]) W->starts[np++] = s;
    W->starts[np] = n;
    for (uint32_t i = 0; i < np; i++) {
        W->pub[i] = W->starts[i] ? W->mem[W->starts[i] - 1] : 0;
        for (uint32_t s = W->starts[i]; s < W->starts[i + 1]; s++)
            if (W->mem[s] > W->pub[i]) W->pub[i] = W->mem[s];
        if (W->pub[i] > lb) W->byub[m++] = i;
    }
    for (uint32_t i = m / 2; i-- > 0;) sift_down(W->byub, m, i, W->pub);
    *nheap = m;
    return np;
}

/* Searches the pieces, the highest first, while one may lower the peak
 * (its peak above the bound *lb) and the limits allow; adopts each better
 * order found and raises *lb by what each proves. */
static void search_pieces(const graph *g, run *r, exact_ws *W, uint32_t np, uint32_t nheap,
                          piece_limits *L, int64_t *lb)
{
    while (nheap) {
        uint32_t pi = take_first(W->byub, &nheap, W->pub);
        uint32_t s0 = W->starts[pi], k = W->starts[pi + 1] - s0;
        if (W->pub[pi] <= *lb) break; /* this piece and the rest cannot lower the peak */
        r->search.ran = 1;            /* needed, even when a limit ends it at once */
        if (policy_piece_tick(L, PIECE_CHECK)) break;
        piece P = {0};
        if (piece_make(g, r, W->order, W->mem, s0, k, W->pub[pi], W->loc, W->bloc, &P)) {
            policy_piece_free(&P);
            L->stopped = SOLVE_MEMORY;
            break;
        }
        L->lb = *lb;
        L->others = 0;
        for (uint32_t j = 0; j < np; j++)
            if (j != pi && W->pub[j] > L->others) L->others = W->pub[j];
        uint32_t npath = 0;
        int64_t plb = *lb;
        policy_piece_tick(L, (uint64_t)k + P.ne + (uint64_t)P.na * k);
        int64_t peak = L->stopped ? W->pub[pi] : policy_piece_search(&P, L, W->path, &npath, &plb);
        if (peak < W->pub[pi] &&
            !piece_adopt(&P, W->path, npath, W->lorder, W->order, s0, r)) { /* a better order */
            W->pub[pi] = peak;
            r->plan_ran = 0; /* best's run is not this order's: policy_run makes it */
        }
        if (plb >= W->pub[pi]) r->search.solved++;
        if (plb > *lb) *lb = plb;
        publish(L->ctx, W->pub, np, *lb);
        policy_piece_free(&P);
    }
}

/* The order best's plan wrote as ranks, and its live bytes after each step,
 * into W. 0, or -1 when they pass 2^63-1 (with a message). */
static int exact_order(const graph *g, const run *r, exact_ws *W, char *err, size_t errcap)
{
    uint32_t n = g->n;
    for (uint32_t i = 0; i < n; i++) W->order[r->rank[i]] = i;
    int64_t live = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (__builtin_add_overflow(live, g->change[W->order[s]], &live)) {
            snprintf(err, errcap, "exact: live memory passes 2^63-1 bytes at step %u (node %lld)",
                     s + 1, (long long)g->id[W->order[s]]);
            return -1;
        }
        W->mem[s] = live;
    }
    return 0;
}

static int exact_plan(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap)
{
    uint32_t n = g->n, nheap = 0;
    double t0 = solve_now(c), first = 0;
    piece_limits L = {.ctx = c,
                      .deadline = t0 + solve_seconds(c),
                      .max_states = solve_max_states(c),
                      .max_bytes = solve_max_memory(c)};
    if (policy_best_until(g, c, r, L.deadline, &first, err, errcap)) return -1;
    L.stopped = r->search.stopped; /* best's first member cut short: its order, finished */
    r->found_by = NULL;
    memset(&r->search, 0, sizeof r->search);
    L.deadline -= first; /* making the run of the order takes about one member's time */
    /* the bound checks the clock and the watcher itself; cut short, it is what it proved */
    int64_t lb =
        policy_lower_bound_until(g, c, L.stopped ? -HUGE_VAL : L.deadline, POLICY_BOUND_CAP);
    exact_ws W = {0};
    int rc = 0;
    if (L.stopped || policy_piece_tick(&L, PIECE_CHECK)) {
        r->search.ran = 1; /* a limit came before it knew what was needed */
        goto done;
    }
    if (ws_alloc(&W, n, g->nbufs)) {
        L.stopped = SOLVE_MEMORY; /* best's order, and the bound as it is */
        goto done;
    }
    if (exact_order(g, r, &W, err, errcap)) {
        rc = -1;
        goto done;
    }
    uint32_t np = n ? split(g, r, &W, lb, &L, &nheap) : 0;
    if (n && !np) {
        r->search.ran = 1;
        if (!L.stopped) L.stopped = SOLVE_MEMORY;
    }
    r->search.pieces = np;
    publish(c, W.pub, np, lb);
    policy_piece_tick(&L, PIECE_CHECK + (uint64_t)n);
    search_pieces(g, r, &W, np, nheap, &L, &lb); /* at a limit already: says so */
done:
    r->search.stopped = L.stopped;
    r->search.states = L.states;
    r->lower_bound = lb;
    ws_free(&W);
    return rc;
}

static void exact_why(POLICY_WHY_ARGS)
{
    policy_why_rank(r->optimal ? "the proven-optimal order" : "the best order the search found", g,
                    r, u, v, nready, out, cap);
}

const policy policy_exact = {
    .name = "exact",
    .desc = "the proven minimum peak: a best-first search over the sets of nodes run, within "
            "--time-limit and --max-states",
    .plan = exact_plan,
    .kind = POLICY_EXACT,
    RANK_KEYS,
    .why = exact_why};
