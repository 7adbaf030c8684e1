/* timeline.h: when each node of a schedule runs, on which stream, and how
 * long the whole takes (the makespan). The model, as the man page says it:
 *  - the schedule is the issue order;
 *  - a compute node runs on its Stream (0 when it has none) for its Latency
 *    in milliseconds (0 when it has none); it starts when all its
 *    predecessors have finished and the node issued before it on the same
 *    stream has finished (streams run in order, as CUDA streams do);
 *  - ALLOC and FREE take no time and no stream: each happens when its
 *    predecessors have finished and the ALLOC or FREE issued before it has
 *    happened (the allocator serves them in issue order), so live memory
 *    over time passes through exactly the step curve's values;
 *  - the makespan is the last finish; no order of the graph finishes before
 *    the critical path (the longest chain of latencies) nor before the
 *    busiest stream's total. */
#ifndef MEMTRIS_TIMELINE_H
#define MEMTRIS_TIMELINE_H
#include <stddef.h>
#include <stdint.h>
#include "sched/graph/graph.h"
#include "sched/policy/policy.h"

typedef struct timeline {
    uint32_t n;
    double *start, *finish; /* [n] ms, node index; ALLOC/FREE: start == finish */
    double makespan;        /* the last finish (0 for an empty graph) */
    uint32_t nstreams;      /* 1 + the largest stream a compute node uses (at least 1) */
    double *busy;           /* [nstreams] ms of latency run on each stream */
    double critical;        /* the longest chain of latencies along the edges */
    double bound;           /* max(critical, every busy): no order of the graph finishes sooner */
} timeline;

/* Times r's order on g. 0, or -1 with a message (out of memory). */
int timeline_run(const graph *g, const run *r, timeline *t, char *err, size_t errcap);
void timeline_free(timeline *t);
/* Marks in front[k] the points of n (peak, makespan) pairs that no other
 * point dominates (no other has both values at most this one's and one of
 * them smaller): the Pareto front. Equal points are all on it or all off. */
void timeline_pareto(uint32_t n, const int64_t *peak, const double *makespan, uint8_t *front);

#endif
