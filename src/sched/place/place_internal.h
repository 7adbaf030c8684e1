/* place_internal.h: what the placers share inside src/sched (no other layer
 * includes it): their error messages, the greedy engine of place_greedy.c
 * and its orders and fits (place_orders.c), which greedy-size, xla,
 * greedy-conflicts and best run and best climbs over. */
#ifndef MEMTRIS_PLACE_INTERNAL_H
#define MEMTRIS_PLACE_INTERNAL_H
#include "place.h"

/* The largest end of any buffer's span at the offsets off: the arena of a
 * plan as best and exact compare them. */
int64_t place_plan_top(const graph *g, const int64_t *off, int64_t align);

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
    PLACE_ORDER_SIZE,      /* TFLite's: size, then first use */
    PLACE_ORDER_LIFETIME,  /* XLA's temporal: lifetime length, then size */
    PLACE_ORDER_SPATIAL,   /* XLA's spatial: size, then lifetime length */
    PLACE_ORDER_AREA,      /* size x lifetime */
    PLACE_ORDER_START,     /* first use */
    PLACE_ORDER_CONFLICTS, /* TVM USMP's: lifetimes met, then size */
    PLACE_NORDERS
};

/* Where the greedy puts a buffer among the gaps that the placed buffers
 * whose lifetimes meet its own leave (U: their address ranges). */
enum {
    PLACE_FIT_BEST,  /* TFLite's: the smallest gap that holds it, else the top of U */
    PLACE_FIT_XLA,   /* XLA's: the same, the room between the top of U and the
                      * arena so far counting as a gap */
    PLACE_FIT_FIRST, /* TVM's (and MiniMalloc's canonical plans): the lowest offset */
    PLACE_NFITS
};

/* A way to run the greedy: an order and a fit. */
typedef struct place_way {
    int order, fit;
} place_way;

/* A greedy placement in progress. These fields are what best reads and
 * steers; the rest of the state is place_greedy.c's own. */
typedef struct place_greedy {
    const graph *g;
    const lifetimes *lt;
    place_job *tick;   /* [nb] each buffer's job, in tick order (the order of its ALLOC) */
    uint32_t nb;       /* buffers with a span: the jobs of an order */
    int fit;           /* PLACE_FIT_*: what place_greedy_run uses (set by place_greedy_orders) */
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

/* place_orders.c: fills jobs[nb] with G's buffers in the given order; 0, or
 * -1 out of memory. */
int place_greedy_order(place_greedy *G, int order, place_job *jobs);

/* Runs the greedy in each of the ways in `ways` (nways of them) until a
 * plan reaches goal (the lower bound: no plan is smaller). A plan smaller
 * than *arena (INT64_MAX: none yet) replaces it: its offsets go to
 * pl->offset, its way to *won (when not NULL), and when best_jobs is not
 * NULL its order there and its offsets by position in best_off. A way whose
 * plan would pass 2^63-1 bytes has no plan. When the work passes
 * G->max_work, the ways stop there. 0, or with err set -1 out of memory, -2
 * when no way made a plan; -3 (err not set) when the work ran out before any
 * way made a plan. */
int place_greedy_orders(place_greedy *G, const place_way *ways, int nways, int64_t goal,
                        int64_t *arena, placement *pl, place_way *won, place_job *best_jobs,
                        int64_t *best_off, char *err, size_t errcap);

/* place_climb.c: best's second climb, over the order of jobs (off: their
 * offsets by position, a plan of the given arena), for graphs of modest
 * size: a late-acceptance search over the order of a first-fit greedy,
 * under a capacity lowered each time a plan fits. Stops at goal, or when
 * its work passes runs x nb x the work of one placing of all nb buffers, or
 * max_work. Improves jobs and off in place and returns the arena; -1 out
 * of memory; -2 when the graph is too large for it (too many buffers or
 * lifetimes that meet), jobs and off untouched. Deterministic. */
int64_t place_climb(const place_greedy *G, place_job *jobs, int64_t *off, int64_t arena,
                    int64_t goal, uint64_t runs, uint64_t max_work);

#endif
