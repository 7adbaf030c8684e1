/* policy_improve.c: exact's window re-search (policy_improve.h). Exports
 * policy_improve.
 *
 * Why it is sound. A window [s0, s0 + k) of a topological order is a piece
 * (policy_piece_make): the nodes before it have run, those after it wait, and
 * any order of the window that keeps its own edges keeps the whole order
 * topological (no edge enters the window from after it). The window holds
 * the same nodes in any of its orders, so the memory after it, and every
 * step outside it, stays as it was: a window order of lower peak lowers the
 * window's part of the curve and leaves the rest. Windows hold the peak (its
 * first and its last step), so each adoption lowers the peak or the number
 * of steps at it. The window's own bound is a bound given the steps before
 * it, not one on every order of the graph: none is kept (L->local). */
#include "policy_improve.h"
#include <stdlib.h>
#include <string.h>

#define IMPROVE_SLICE 8 /* a window gets this share of the time left */

typedef struct improve_ws {
    uint32_t *loc, *bloc, *path, *lorder;
    int64_t *mem;
    uint32_t first, last; /* the first and last step at the peak */
} improve_ws;

/* The memory after each step of order into W->mem; the peak's first and
 * last steps. */
static void fill_mem(const graph *g, const uint32_t *order, improve_ws *W)
{
    int64_t live = 0, peak = INT64_MIN;
    W->first = W->last = 0;
    for (uint32_t s = 0; s < g->n; s++) {
        live += g->change[order[s]];
        W->mem[s] = live;
        if (live > peak) {
            peak = live;
            W->first = s;
        }
        if (live == peak) W->last = s;
    }
}

/* Searches the window [s0, s0 + k) within a slice of the time to end and
 * adopts a lower order: 1 adopted, 0 not, -1 out of memory. A slice that
 * ends before end is not L's limit: L->stopped is cleared. */
static int window(const graph *g, uint32_t *order, uint32_t *rank, improve_ws *W, uint32_t s0,
                  uint32_t k, piece_limits *L, double end)
{
    int64_t ub = INT64_MIN;
    for (uint32_t s = s0; s < s0 + k; s++) ub = W->mem[s] > ub ? W->mem[s] : ub;
    piece P = {0};
    if (policy_piece_make(g, rank, order, W->mem, s0, k, ub, W->loc, W->bloc, &P)) {
        policy_piece_free(&P);
        L->stopped = SOLVE_MEMORY;
        return -1;
    }
    double slice = (end - L->now) / IMPROVE_SLICE;
    L->deadline = slice > 0 ? L->now + slice : end;
    uint32_t npath = 0;
    int64_t plb = 0;
    policy_piece_tick(L, (uint64_t)k + P.ne + (uint64_t)P.na * k);
    int64_t peak = L->stopped ? ub : policy_piece_search(&P, L, W->path, &npath, &plb);
    int rc = peak < ub &&
             !policy_piece_adopt(&P, W->path, npath, W->lorder, order, rank, s0); /* lower */
    policy_piece_free(&P);
    L->deadline = end;
    if (L->stopped == SOLVE_TIME && L->now <= end) L->stopped = SOLVE_DONE; /* the slice's end */
    return rc;
}

static void ws_free(improve_ws *W)
{
    free(W->loc);
    free(W->bloc);
    free(W->path);
    free(W->lorder);
    free(W->mem);
}

/* One round: the windows around the peak, the smallest first, until one
 * lowers it. 1 one did, 0 none, -1 out of memory, 2 at a limit. */
static int round_windows(const graph *g, uint32_t *order, uint32_t *rank, improve_ws *W,
                         piece_limits *L, improve_stats *st)
{
    static const uint32_t sizes[] = IMPROVE_SIZES, quarters[] = {2, 1, 3};
    uint32_t n = g->n, ps = UINT32_MAX, pk = 0;
    double end = L->deadline;
    for (uint32_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        uint32_t k = sizes[i] < n ? sizes[i] : n;
        for (uint32_t t = 0; t < 6; t++) {
            uint32_t at = t < 3 ? W->first : W->last, back = k * quarters[t % 3] / 4;
            if (t >= 3 && W->last == W->first) break;
            uint32_t s0 = at > back ? at - back : 0;
            if (s0 + k > n) s0 = n - k;
            if (s0 == ps && k == pk) continue; /* the window just searched */
            ps = s0;
            pk = k;
            if (policy_piece_tick(L, PIECE_CHECK)) return 2;
            int rc = window(g, order, rank, W, s0, k, L, end);
            st->windows++;
            st->better += rc == 1;
            if (rc) return rc;
            if (L->stopped) return 2;
        }
        if (k == n) break;
    }
    return 0;
}

int policy_improve(const graph *g, uint32_t *order, uint32_t *rank, piece_limits *L,
                   improve_stats *st)
{
    size_t sz = (size_t)g->n + 1;
    improve_ws W = {.loc = malloc(sz * sizeof *W.loc),
                    .bloc = malloc(((size_t)g->nbufs + 1) * sizeof *W.bloc),
                    .path = malloc(sz * sizeof *W.path),
                    .lorder = malloc(sz * sizeof *W.lorder),
                    .mem = malloc(sz * sizeof *W.mem)};
    int rc = -1, local = L->local;
    if (!W.loc || !W.bloc || !W.path || !W.lorder || !W.mem) {
        L->stopped = SOLVE_MEMORY;
        goto out;
    }
    memset(W.bloc, 0xff, ((size_t)g->nbufs + 1) * sizeof *W.bloc);
    L->local = 1;
    do {
        fill_mem(g, order, &W);
        rc = g->n ? round_windows(g, order, rank, &W, L, st) : 0;
        if (L->stopped && rc == 1) rc = 2; /* adopted, then at a limit */
    } while (rc == 1);
    rc = rc == 2 ? 1 : rc;
out:
    L->local = local;
    ws_free(&W);
    return rc;
}
