/* place_internal.h: what the placers share inside src/sched (no other layer
 * includes it): their error messages, and the greedy engine of
 * place_greedy.c that greedy-size runs and best climbs over. */
#ifndef MEMTRIS_PLACE_INTERNAL_H
#define MEMTRIS_PLACE_INTERNAL_H
#include "place.h"

/* "out of memory placing N buffers" in err; returns -1. */
int place_oom(const graph *g, char *err, size_t errcap);
/* "the arena would pass 2^63-1 bytes (buffer B)" in err; returns -1. */
int place_too_big(const graph *g, uint32_t b, char *err, size_t errcap);

/* One buffer to place, with what placing it reads, in the order of placing. */
typedef struct place_job {
    int64_t span;
    uint32_t b, a, f; /* the buffer and its lifetime [a, f) in ticks (see place_greedy.c) */
} place_job;

/* The orders of the greedy: keys compared in turn, smaller first, each
 * ending with the alloc step (so no two buffers tie). */
enum {
    PLACE_ORDER_SIZE,     /* TFLite's: size, then first use */
    PLACE_ORDER_LIFETIME, /* XLA's temporal: lifetime length, then size */
    PLACE_ORDER_SPATIAL,  /* XLA's spatial: size, then lifetime length */
    PLACE_ORDER_AREA,     /* size x lifetime */
    PLACE_ORDER_START,    /* first use */
    PLACE_NORDERS
};

/* A greedy placement in progress. These fields are what best reads and
 * steers; the rest of the state is place_greedy.c's own. */
typedef struct place_greedy {
    uint32_t nb;       /* buffers with a span: the jobs of an order */
    uint64_t work;     /* ranges read, buffers placed: the cost measure of best */
    uint64_t max_work; /* the runs give up when work passes it (UINT64_MAX, the default: never) */
} place_greedy;

/* NULL: out of memory. */
place_greedy *place_greedy_new(const graph *g, const run *r, const lifetimes *lt, int64_t align);
void place_greedy_free(place_greedy *G);

/* Places jobs[from..nb) in turn, the first `from` keeping their offsets in
 * off (by position, like jobs). Returns the arena (the largest end), or -1
 * if it would pass 2^63-1 (*bad = the buffer), -2 as soon as the arena
 * would pass `limit`, -3 out of memory, -4 when the work passes max_work. */
int64_t place_greedy_run(place_greedy *G, const place_job *jobs, uint32_t from, int64_t *off,
                         int64_t limit, uint32_t *bad);

/* Runs the greedy in each of the orders in `which` (nwhich of them) until a
 * plan reaches goal (the lower bound: no plan is smaller). A plan smaller
 * than *arena (INT64_MAX: none yet) replaces it: its offsets go to
 * pl->offset, and when best_jobs is not NULL its order there and its offsets
 * by position in best_off. An order whose plan would pass 2^63-1 bytes has
 * no plan. When the work passes G->max_work, the orders stop there. 0, or
 * with err set -1 out of memory, -2 when no order made a plan; -3 (err not
 * set) when the work ran out before any order made a plan. */
int place_greedy_orders(place_greedy *G, const int *which, int nwhich, int64_t goal, int64_t *arena,
                        placement *pl, place_job *best_jobs, int64_t *best_off, char *err,
                        size_t errcap);

#endif
