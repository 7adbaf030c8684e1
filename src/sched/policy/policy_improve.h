/* policy_improve.h: exact's window re-search (policy_improve.c): windows of
 * the incumbent order around its peak, each re-searched as a piece with the
 * rest of the order fixed, each better window order adopted. Internal to
 * sched. */
#ifndef MEMTRIS_POLICY_IMPROVE_H
#define MEMTRIS_POLICY_IMPROVE_H
#include <stdint.h>
#include "sched/graph/graph.h"
#include "policy_piece.h"

/* What a re-search did. */
typedef struct improve_stats {
    uint32_t windows; /* windows searched */
    uint32_t better;  /* windows whose order was adopted */
} improve_stats;

/* The window sizes, the smallest first (nodes). */
#define IMPROVE_SIZES             \
    {                             \
        16, 32, 64, 128, 256, 512 \
    }

/* Re-searches windows of order (a topological order of g's n nodes; rank:
 * its inverse) that hold its peak, the smallest first, each within a slice
 * of the time to L's deadline, and adopts each window order whose peak is
 * lower. The peak of the order never rises and the order stays
 * topological; a window's bound proves nothing for the graph, so none is
 * kept. Returns 0 when no window lowers the peak any more (the windows ran
 * out), 1 at one of L's limits (L->stopped says which), -1 out of memory
 * (order and rank still a valid order, the best found). */
int policy_improve(const graph *g, uint32_t *order, uint32_t *rank, piece_limits *L,
                   improve_stats *st);

#endif
