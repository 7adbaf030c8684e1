/* budget_exact_internal.h: what budget_exact.c (the search) and budget_exact_plan.c (its plan
 * and what it proves) share: the search's state and its bit sets. Exports nothing outside the
 * budget folder. */
#ifndef MEMTRIS_BUDGET_EXACT_INTERNAL_H
#define MEMTRIS_BUDGET_EXACT_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "budget.h"

#define NONE UINT32_MAX

typedef struct xrec {
    double g;        /* the reruns' latencies so far (the least found) */
    double h;        /* the bound on those to come */
    int64_t mem;     /* bytes present */
    uint32_t parent; /* NONE: the start */
    uint32_t act;    /* a compute node (run), or n + buffer (fetch) */
    uint32_t nran;
} xrec;

typedef struct xitem {
    double f, g;
    uint32_t nran, idx;
} xitem;

typedef struct xs {
    const budget_model *bm;
    const graph *g;
    int64_t budget;
    const solve_ctx *c;
    double start, seconds;
    uint32_t m, nb;   /* nb: logical buffers (every version of every buffer) */
    size_t wr, wp, W; /* words: ran [0, wr), present [wr, wr + wp), host after */
    int offload, recompute, ordered;
    uint64_t *bits;
    xrec *rec;
    size_t n, cap, limit;
    uint32_t *tab;
    size_t tabcap;
    xitem *heap;
    size_t hn, hcap;
    uint64_t *cur, *kid;
    uint8_t *done, *need; /* need: 1 may be needed, 2 surely needed (a run to come reads it) */
    uint32_t *stamp, stampv, *pinned, pinv;
    uint32_t *topo;
    int64_t *csize;
    uint32_t *cand, *stack;
    double ub;     /* the incumbent's extra time, HUGE_VAL without one */
    double curf;   /* the f of the state being expanded */
    int expanding; /* a limit met while a state's moves were being made */
    uint64_t work;
    solve_stop stopped;
    int oom;
} xs;

static inline int bit(const uint64_t *w, size_t i) { return (int)(w[i >> 6] >> (i & 63) & 1); }
static inline void set1(uint64_t *w, size_t i) { w[i >> 6] |= 1ull << (i & 63); }
static inline void set0(uint64_t *w, size_t i) { w[i >> 6] &= ~(1ull << (i & 63)); }
#define RAN(s)     (s)
#define PRES(x, s) ((s) + (x)->wr)
#define HOST(x, s) ((s) + (x)->wr + (x)->wp)

/* The plan of the search's goal state (NONE: none found), or the incumbent inc, with the lower
 * bound and the proof in *pf and *o. 0, or -1 out of memory. */
int budget_exact_conclude(xs *x, uint32_t goal, budget_plan *inc, double bandwidth, budget_plan *p,
                          budget_outcome *o, budget_proof *pf);

#endif
