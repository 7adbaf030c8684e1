/* budget_exact_internal.h: what budget_exact.c (the search) and budget_exact_plan.c (its plan
 * and what it proves) share: the search's state and its bit sets. Exports nothing outside the
 * budget folder. */
#ifndef MEMTRIS_BUDGET_EXACT_INTERNAL_H
#define MEMTRIS_BUDGET_EXACT_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "budget.h"
#include "util/heap.h"
#include "util/stateset.h"

typedef struct xrec {
    double g;        /* the reruns' latencies so far (the least found) */
    double h;        /* the bound on those to come */
    int64_t mem;     /* bytes present */
    uint32_t parent; /* GRAPH_NONE: the start */
    uint32_t act;    /* a compute node (run), or n + buffer (fetch) */
    uint32_t nran;
} xrec;

typedef struct xs {
    const budget_model *bm;
    const graph *g;
    int64_t budget;
    const solve_ctx *c;
    double start, seconds;
    uint32_t m, nb;   /* nb: logical buffers (every version of every buffer) */
    uint32_t np;      /* present bits: the nb buffers, then a random op's generator state each */
    uint32_t *sbit;   /* [n] a random op's state's bit (nb + its index), or GRAPH_NONE */
    int64_t *sz;      /* [np] each present bit's bytes */
    int with_state;   /* the first run being made saves its random op's generator state */
    size_t wr, wp, W; /* words: ran [0, wr), present [wr, wr + wp), host after */
    int offload, recompute;
    int host_start; /* the buffers present from the start start on the host */
    /* With offload, an Input node leaves what it makes on the host (each a BUDGET_HOST event):
     * every state with it on the device is a fetch (costing nothing here) away. */
    stateset seen; /* the states found, W words each; rec[k] what is known of state k */
    xrec *rec;
    size_t limit; /* the most states */
    heap open;    /* states to expand: f, the most run, the most spent (budget_exact.c) */
    uint64_t *cur, *kid;
    uint8_t *done, *need; /* need: 1 may be needed, 2 surely needed (a run to come reads it) */
    uint32_t *stamp, stampv, *pinned, pinv;
    uint32_t *topo;
    int64_t *csize;
    uint32_t *cand, *stack;
    uint32_t *bq;             /* [nb] buffers to visit (mark_need) */
    uint32_t *hq;             /* [n] reruns certain to come, to visit (normalize) */
    uint32_t *cprod, *pcount; /* an eviction's rerun to come (GRAPH_NONE: none), and how many
                                 evictions of the set being made count each node's */
    double *ccost;            /* the latency of cprod */
    uint32_t *dslot, *dnext;  /* dominance (budget_exact_dom.c): the newest state of each group
                                 of the same runs, hashed; the one before it in its group */
    size_t dcap;
    uint8_t *dead; /* [state] dominated by a state kept since: not expanded */
    int forced;    /* one order of first runs (budget_exact_bound.c) */
    int64_t *tbytes, *lend, *pbytes;
    uint32_t *pmark, pmarkv, *plist;
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

/* Whether run act leaves l, which it makes, on the host: an Input's making, with offload. */
static inline int budget_exact_hosted(const xs *x, uint32_t act, uint32_t l)
{
    const budget_model *bm = x->bm;
    return x->offload && l < bm->g->nbufs && bm->hostable[l] && bm->producer[l] == act;
}

/* The f of an entry of the open states. */
static inline double open_f(const heap_item *it) { return heap_dkey_value(it->k[0]); }

/* Dominance, with recompute alone (budget_exact_dom.c): room for that many states; whether a
 * state kept (other than self) with the same runs holds every version s holds at cost at most
 * g; state k (fresh: just added) kept at cost g, the states it dominates marked dead. */
int xdom_reserve(xs *x, uint32_t states);
int xdom_pruned(xs *x, const uint64_t *s, double g, uint32_t self);
void xdom_add(xs *x, uint32_t k, double g, int fresh);
void xdom_free(xs *x);

/* The bound from memory where the Edges leave one order of first runs, recompute alone
 * (budget_exact_bound.c): setup (0, or -1 out of memory); for state s, normalized (its counted
 * reruns stamped), *add to its bound, or -1 where no plan can go on from it. */
int xbound_setup(xs *x);
int xbound_mem(xs *x, const uint64_t *s, double *add);
void xbound_free(xs *x);

/* The plan of the search's goal state (GRAPH_NONE: none found), or the incumbent inc, with the
 * lower bound and the proof in *pf and *o. 0, or -1 out of memory. */
int budget_exact_conclude(xs *x, uint32_t goal, budget_plan *inc, double bandwidth, budget_plan *p,
                          budget_outcome *o, budget_proof *pf);

#endif
