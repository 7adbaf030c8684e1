/* policy_after.c: the least peak of an order that begins with given steps, by exact's search of
 * the window after them (a window of a topological order is a piece: policy_improve.c says why).
 * Exports policy_best_after. */
#include <stdlib.h>
#include <string.h>
#include "policy_piece.h"
#include "policy_internal.h"

int policy_best_after(const graph *g, const uint32_t *order, uint32_t s, const solve_ctx *c,
                      int64_t *peak, int *proven)
{
    uint32_t n = g->n, s0 = s + 1, k = n > s0 ? n - s0 : 0;
    size_t sz = (size_t)n + 1;
    uint32_t *rank = malloc(sz * sizeof *rank), *loc = malloc(sz * sizeof *loc);
    uint32_t *path = malloc(sz * sizeof *path);
    uint32_t *bloc = malloc(((size_t)g->nbufs + 1) * sizeof *bloc);
    int64_t *mem = malloc(sz * sizeof *mem), live = 0, pre = 0, ub = 0;
    int rc = -1;
    piece P = {0};
    if (!rank || !loc || !path || !bloc || !mem) goto out;
    memset(bloc, 0xff, ((size_t)g->nbufs + 1) * sizeof *bloc);
    for (uint32_t t = 0; t < n; t++) {
        rank[order[t]] = t;
        live += g->change[order[t]];
        mem[t] = live;
        if (t < s0 && live > pre) pre = live;
        if (t >= s0 && (t == s0 || live > ub)) ub = live;
    }
    *peak = pre;
    *proven = 1;
    rc = 0;
    if (!k) goto out;
    if (policy_piece_make(g, rank, order, mem, s0, k, ub, loc, bloc, &P)) {
        rc = -1;
        goto out;
    }
    double now = solve_now(c);
    piece_limits L = {.ctx = c,
                      .deadline = now + solve_seconds(c),
                      .max_states = solve_max_states(c),
                      .max_bytes = solve_max_memory(c),
                      .now = now,
                      .local = 1}; /* a bound given the steps before, not on the graph */
    uint32_t npath = 0;
    int64_t lb = 0;
    policy_piece_tick(&L, (uint64_t)k + P.ne + (uint64_t)P.na * k);
    int64_t best = L.stopped ? ub : policy_piece_search(&P, &L, path, &npath, &lb);
    if (best > *peak) *peak = best;
    *proven = lb >= best || pre >= best;
out:
    policy_piece_free(&P);
    free(rank);
    free(loc);
    free(path);
    free(bloc);
    free(mem);
    return rc;
}
