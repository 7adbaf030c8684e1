/* budget_bound.h: sound lower bounds for memory budgets that hold for ANY first-run order: the
 * least peak any plan reaches (the bytes forced at some compute node) and the least extra time
 * of any plan within a budget (a covering bound at each compute node). Exports budget_bound_*. */
#ifndef MEMTRIS_BUDGET_BOUND_H
#define MEMTRIS_BUDGET_BOUND_H
#include <stddef.h>
#include <stdint.h>
#include "budget.h"

/* What the bound knows of a model, for one allow (BUDGET_ALLOW_*). For each compute node v
 * (a point), in every order: v's reads and writes are present when it runs (forced); a
 * buffer whose version is made by an ancestor of v (along the Edges and the buffers read, or
 * present from the start) and read by a descendant of v (or kept to the end) is present at v,
 * or it is made again after v by rerunning its producer and the changers in place up to that
 * version (their latencies, split among the buffers that share a node), or it is forced: it
 * cannot be made again (a node of that chain may not run again, or no producer) and offload is
 * not allowed. With offload allowed nothing but v's reads and writes is forced and dropping
 * costs nothing certain (a copy may hide under compute). */
typedef struct budget_bound {
    const budget_model *bm;
    unsigned allow;
    uint32_t np;       /* points (compute nodes) worked out; 0: the graph was too large */
    uint32_t *node;    /* [np] the compute node of each point */
    int64_t *forced;   /* [np] the bytes forced at each point */
    int64_t *across;   /* [np] the bytes that may be dropped at each point */
    uint32_t *ent_off; /* [np+1] each point's droppable buffers: ent_buf[ent_off[s]..) */
    uint32_t *ent_buf; /* the (physical) buffer */
    uint32_t *ent_top; /* the highest version needed across the point (a logical buffer) */
    double *ent_cost;  /* ms: at least the reruns that make it again after the point */
    int64_t peak;      /* no plan peaks below it (at least budget_lower_bound) */
    uint32_t peak_at;  /* the point where the forced bytes reach peak, or GRAPH_NONE */
} budget_bound;

/* Works out bb for bm and allow: 0, or -1 out of memory. Past BUDGET_BOUND_MAX_WORK bits of
 * reachability or steps of the scan of buffers at each point, or past BUDGET_BOUND_MAX_ENTRIES
 * buffers over all points (16 bytes each), it works out no points (np 0; peak is
 * budget_lower_bound): about a second of work and 64 MiB at most. */
#define BUDGET_BOUND_MAX_WORK    (1ull << 27)
#define BUDGET_BOUND_MAX_ENTRIES (1u << 22)
int budget_bound_init(budget_bound *bb, const budget_model *bm, unsigned allow);
void budget_bound_free(budget_bound *bb);

/* The least extra time (ms) of any plan whose peak is at most budget: the largest covering
 * bound of a point (a fractional knapsack: the bytes over the budget dropped at the least cost
 * a byte, a buffer counted up to those bytes; at the points of the largest, the least cover by
 * whole buffers where a search of at most BOUND_KNAP_NODES nodes finds it), plus those of
 * further points whose droppable buffers' rerun nodes are disjoint from
 * the points' counted before (reruns counted twice are left out). INFINITY when some point's
 * forced bytes pass the budget (no plan fits). 0 when nothing is known. */
double budget_bound_ms(const budget_bound *bb, int64_t budget);

/* The buffers forced at point s (physical buffer indexes) into out (at most cap): their
 * count. */
size_t budget_bound_forced_at(const budget_bound *bb, uint32_t s, uint32_t *out, size_t cap);

#endif
