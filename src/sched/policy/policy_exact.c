/* policy_exact.c: policy "exact", the proven minimum peak over all topological
 * orders. Exports policy_exact.
 *
 * How. The memory after a set of executed nodes depends only on the set, so
 * the search runs over sets, from the order "best" found (the first upper
 * bound; under a tight --time-limit only its first members run).
 *  - The lower bound: the closure bound (policy_closure.c, a minimum cut a
 *    node), then the must-live sets (policy_bound.c) from it.
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
 *  - With PIECES_SHARE of the time spent and no proof: windows of the order
 *    around its peak are re-searched with the rest fixed (policy_improve.c),
 *    each lower window order adopted; then the pieces again with the time
 *    left, so the search still ends at a limit or with a proof.
 *  - At --time-limit, --max-states, --max-memory or a cancel the search
 *    stops: the order is the best found, the bound what was proven (never a
 *    claim it has not proven), and search.stopped says why. */
#define _GNU_SOURCE
#include "policy_internal.h"
#include "sched/graph/solve_watch.h"
#include "policy_piece.h"
#include "policy_improve.h"
#include "util/heap.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The piece search's share of the time; the window re-search
 * (policy_improve.c) gets the rest, then the pieces what it leaves. */
#define PIECES_SHARE 0.8
/* The lower bound's share of the time (policy_bound.c: its sets of nodes
 * grow from as many nodes as this leaves time for). */
#define BOUND_SHARE 0.3
/* The bound's word visits a state of --max-states allows: POLICY_BOUND_CAP
 * at the default limit, less under a lower one. */
#define BOUND_PER_STATE (POLICY_BOUND_CAP / SOLVE_MAX_STATES)

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

/* What exact works with: the order and its memory, the cuts and pieces,
 * and scratch for a piece (all of n or nbufs). */
typedef struct exact_ws {
    uint32_t *order, *loc, *bloc, *starts, *path, *lorder;
    int64_t *mem, *pub;
    uint8_t *cut;
    heap byub; /* the pieces still to search: by their peak, highest first, then in order (a
                * search lowers only its own piece's peak, so the order is fixed up front) */
} exact_ws;

static int ws_alloc(exact_ws *W, uint32_t n, uint32_t nbufs)
{
    size_t sz = (size_t)n + 2;
    W->order = malloc(sz * sizeof *W->order);
    W->loc = malloc(sz * sizeof *W->loc);
    W->bloc = malloc(((size_t)nbufs + 1) * sizeof *W->bloc);
    W->starts = malloc(sz * sizeof *W->starts);
    W->path = malloc(sz * sizeof *W->path);
    W->lorder = malloc(sz * sizeof *W->lorder);
    W->mem = malloc(sz * sizeof *W->mem);
    W->pub = malloc(sz * sizeof *W->pub);
    W->cut = malloc(sz);
    if (!W->order || !W->loc || !W->bloc || !W->starts || !W->path || !W->lorder || !W->mem ||
        !W->pub || !W->cut)
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
    heap_free(&W->byub);
    free(W->path);
    free(W->lorder);
    free(W->mem);
    free(W->pub);
    free(W->cut);
}

/* Splits the order at its cuts: the pieces' starts and peaks, and those
 * whose peak is above lb (only they may lower the peak) in the heap
 * W->byub. Returns how many pieces, or 0 out of memory or stopped
 * (L->stopped). */
static uint32_t split(const graph *g, const run *r, exact_ws *W, int64_t lb, piece_limits *L)
{
    uint32_t n = g->n, np = 0;
    heap_free(&W->byub);
    if (find_cuts(g, W->order, r->rank, W->cut, L) || L->stopped) return 0;
    for (uint32_t s = 0; s < n; s++)
        if (s == 0 || W->cut[s - 1]) W->starts[np++] = s;
    W->starts[np] = n;
    if (heap_init(&W->byub, np, 0)) return 0;
    for (uint32_t i = 0; i < np; i++) {
        W->pub[i] = W->starts[i] ? W->mem[W->starts[i] - 1] : 0;
        for (uint32_t s = W->starts[i]; s < W->starts[i + 1]; s++)
            if (W->mem[s] > W->pub[i]) W->pub[i] = W->mem[s];
        if (W->pub[i] > lb) heap_push(&W->byub, (heap_item){{~W->pub[i], i, 0}, i});
    }
    return np;
}

/* Searches the pieces, the highest first, while one may lower the peak
 * (its peak above the bound *lb) and the limits allow; adopts each better
 * order found and raises *lb by what each proves. */
static void search_pieces(const graph *g, run *r, exact_ws *W, uint32_t np, piece_limits *L,
                          int64_t *lb)
{
    while (W->byub.len) {
        uint32_t pi = heap_pop(&W->byub).node;
        uint32_t s0 = W->starts[pi], k = W->starts[pi + 1] - s0;
        if (W->pub[pi] <= *lb) break; /* this piece and the rest cannot lower the peak */
        r->search.ran = 1;            /* needed, even when a limit ends it at once */
        if (policy_piece_tick(L, PIECE_CHECK)) break;
        piece P = {0};
        if (policy_piece_make(g, r->rank, W->order, W->mem, s0, k, W->pub[pi], W->loc, W->bloc,
                              &P)) {
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
        if (peak < W->pub[pi] && !policy_piece_adopt(&P, W->path, npath, W->lorder, W->order,
                                                     r->rank, s0)) { /* a better order */
            W->pub[pi] = peak;
            r->plan_ran = 0; /* best's run is not this order's: policy_run makes it */
        }
        if (plb >= W->pub[pi]) r->search.solved++;
        if (plb > *lb) *lb = plb;
        publish(L->ctx, W->pub, np, *lb);
        policy_piece_free(&P);
    }
}

/* The memory after each step of W->order into W->mem: 0, or -1 when it
 * passes 2^63-1 bytes (err says where). */
static int fill_mem(const graph *g, exact_ws *W, char *err, size_t errcap)
{
    int64_t live = 0;
    for (uint32_t s = 0; s < g->n; s++) {
        if (__builtin_add_overflow(live, g->change[W->order[s]], &live)) {
            snprintf(err, errcap, "exact: live memory passes 2^63-1 bytes at step %u (node %lld)",
                     s + 1, (long long)g->id[W->order[s]]);
            return -1;
        }
        W->mem[s] = live;
    }
    return 0;
}

/* After the pieces' share of the time: the windows around the peak
 * (policy_improve.c), then the pieces again with the time left (a better
 * order, or the proof), so that the search ends at a limit or a proof as
 * before, never at the windows' end. */
static void improve_then_pieces(const graph *g, run *r, exact_ws *W, piece_limits *L, double end,
                                int64_t *lb)
{
    L->stopped = SOLVE_DONE; /* the share's end, not a limit */
    L->deadline = end;
    improve_stats st = {0};
    policy_improve(g, W->order, r->rank, L, &st); /* out of memory: L->stopped says so */
    if (st.better) r->plan_ran = 0; /* best's run is not this order's: policy_run makes it */
    char err[128];
    uint32_t np = fill_mem(g, W, err, sizeof err) ? 0 : split(g, r, W, *lb, L);
    publish(L->ctx, W->pub, np, *lb);
    if (L->stopped || !np) return;
    search_pieces(g, r, W, np, L, lb);
}

static int exact_plan(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap)
{
    uint32_t n = g->n;
    double t0 = solve_now(c), first = 0;
    piece_limits L = {.ctx = c,
                      .deadline = t0 + solve_seconds(c),
                      .max_states = solve_max_states(c),
                      .max_bytes = solve_max_memory(c),
                      .now = t0};
    if (policy_best_until(g, c, r, L.deadline, &first, err, errcap)) return -1;
    L.stopped = r->search.stopped; /* best's first member cut short: its order, finished */
    r->found_by = NULL;
    memset(&r->search, 0, sizeof r->search);
    L.deadline -= first; /* making the run of the order takes about one member's time */
    double end = L.deadline, until = t0 + BOUND_SHARE * (end - t0);
    /* --max-states limits the bound's work too */
    uint64_t cap = L.max_states < POLICY_BOUND_CAP / BOUND_PER_STATE
                       ? L.max_states * BOUND_PER_STATE
                       : POLICY_BOUND_CAP;
    /* the bounds check the clock and the watcher themselves; cut short, each is what it
     * proved: the closure bound first (the stronger, a cut a node) within half of the
     * bound's share, then the must-live sets from it, with a third of what is left (they
     * add little to it: the search gets the rest), none once it meets best's peak */
    double bdl = L.stopped ? -HUGE_VAL : until < end ? until : end;
    int64_t lb = 0;
    if (!L.stopped && n <= POLICY_CLOSURE_MAX) {
        lb = policy_closure_bound(g, c, t0 + (bdl - t0) / 2, cap, 0, r->peak);
        double t1 = solve_now(c);
        bdl = t1 + (bdl - t1) / 3;
    }
    if (lb < r->peak || L.stopped) lb = policy_lower_bound_from(g, c, bdl, cap, lb);
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
    for (uint32_t i = 0; i < n; i++) W.order[r->rank[i]] = i;
    if (fill_mem(g, &W, err, errcap)) {
        rc = -1;
        goto done;
    }
    uint32_t np = n ? split(g, r, &W, lb, &L) : 0;
    if (n && !np) {
        r->search.ran = 1;
        if (!L.stopped) L.stopped = SOLVE_MEMORY;
    }
    r->search.pieces = np;
    publish(c, W.pub, np, lb);
    policy_piece_tick(&L, PIECE_CHECK + (uint64_t)n);
    if (end > t0) L.deadline = t0 + PIECES_SHARE * (end - t0);
    search_pieces(g, r, &W, np, &L, &lb); /* at a limit already: says so */
    if (L.stopped == SOLVE_TIME && L.now <= end) improve_then_pieces(g, r, &W, &L, end, &lb);
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
