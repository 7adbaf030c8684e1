/* place_internal.h: what the placers share inside place/ (no other folder
 * includes it): the list of placers, their error messages, the greedy
 * engine of place_greedy.c and its orders and fits (place_orders.c), which
 * greedy-size, xla, greedy-conflicts and best run and best climbs over. */
#ifndef MEMTRIS_PLACE_INTERNAL_H
#define MEMTRIS_PLACE_INTERNAL_H
#include "place.h"

/* The table of placers, in its order: each is `const placer placer_NAME`,
 * defined in the file of its family (place_online.c: first-fit, best-fit,
 * pool; place_greedy.c: greedy-size, xla, greedy-conflicts, rows of one
 * engine; one file each for the others); place_table.c makes this list its
 * array. A new placer is one file and one name here (and the file in
 * src/sched/CMakeLists.txt). */
#define PLACER_LIST(X) \
    X(first_fit)       \
    X(best_fit) X(pool) X(coloring) X(greedy_size) X(xla) X(greedy_conflicts) X(best) X(exact)
#define PLACER_DECLARE(name) extern const placer placer_##name;
PLACER_LIST(PLACER_DECLARE)

/* The arguments of a placer's function (struct placer's place). */
#define PLACE_ARGS                                                                        \
    const graph *g, const run *r, const lifetimes *lt, int64_t align, const solve_ctx *c, \
        placement *pl, char *err, size_t errcap

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
    const solve_ctx *ctx; /* the placement's: a run stops when its watcher cancels */
    place_job *tick;      /* [nb] each buffer's job, in tick order (the order of its ALLOC) */
    uint32_t nb;          /* buffers with a span: the jobs of an order */
    int fit;              /* PLACE_FIT_*: what place_greedy_run uses (set by place_greedy_orders) */
    uint64_t work;        /* ranges read, buffers placed: the cost measure of best */
    uint64_t max_work; /* the runs give up when work passes it (UINT64_MAX, the default: never) */
    int expired;       /* a run met the context's deadline (solve_expired) and stacked the rest */
} place_greedy;

/* A greedy over the schedule r, watched by c; NULL: out of memory, or c's
 * watcher cancelled while it was being made (read every 65536 buffers). */
place_greedy *place_greedy_new(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                               const solve_ctx *c);
void place_greedy_free(place_greedy *G);

/* What place_greedy_run returns when it makes no plan (a plan: its arena,
 * >= 0). */
enum {
    GREEDY_TOO_BIG = -1, /* the arena would pass 2^63-1 bytes (*bad: the buffer) */
    GREEDY_OVER = -2,    /* the arena would pass the limit it was given */
    GREEDY_OOM = -3,     /* out of memory */
    GREEDY_STOPPED = -4  /* the work passed max_work, or the watcher cancelled */
};

/* Places jobs[from..nb) in turn, the first `from` keeping their offsets in
 * off (by position, like jobs). Returns the arena (the largest end), or a
 * GREEDY_* code: as soon as the arena would pass `limit`, GREEDY_OVER. */
int64_t place_greedy_run(place_greedy *G, const place_job *jobs, uint32_t from, int64_t *off,
                         int64_t limit, uint32_t *bad);

/* place_orders.c: fills jobs[nb] with G's buffers in the given order; 0, or
 * -1 out of memory, or 1 when G->ctx's watcher cancelled or its deadline
 * passed during the sort (read every few milliseconds): jobs then in tick
 * order. */
int place_greedy_order(const place_greedy *G, int order, place_job *jobs);
/* place_orders.c: how a way is named in pl->detail when its plan wins (static). */
const char *place_way_name(place_way w);

/* What place_greedy_orders returns. */
enum {
    GREEDY_ORDERS_OK = 0,
    GREEDY_ORDERS_OOM = -1,     /* out of memory (err set) */
    GREEDY_ORDERS_NO_PLAN = -2, /* no way made a plan: each would pass 2^63-1 bytes (err set) */
    GREEDY_ORDERS_CUT = -3      /* the work ran out before any way made a plan (err not set) */
};

/* Runs the greedy in each of the ways in `ways` (nways of them) until a
 * plan reaches goal (the lower bound: no plan is smaller). A plan smaller
 * than *arena (INT64_MAX: none yet) replaces it: its offsets go to
 * pl->offset, its way to *won (when not NULL), and when best_jobs is not
 * NULL its order there and its offsets by position in best_off. A way whose
 * plan would pass 2^63-1 bytes has no plan. When the work passes
 * G->max_work, the ways stop there. A GREEDY_ORDERS_* code. */
int place_greedy_orders(place_greedy *G, const place_way *ways, int nways, int64_t goal,
                        int64_t *arena, placement *pl, place_way *won, place_job *best_jobs,
                        int64_t *best_off, char *err, size_t errcap);

/* place_climb.c: best's second climb, over the order of jobs (off: their
 * offsets by position, a plan of the given arena), for graphs of modest
 * size: a late-acceptance search over the order of a first-fit greedy,
 * under a capacity lowered each time a plan fits. Stops at goal, or when
 * its work passes runs x nb x the work of one placing of all nb buffers, or
 * max_work, or when c's watcher cancels. Improves jobs and off in place
 * and returns the arena; CLIMB_OOM; CLIMB_DECLINED when the graph is too
 * large for it (too many buffers or lifetimes that meet), jobs and off
 * untouched. Deterministic. */
enum { CLIMB_OOM = -1, CLIMB_DECLINED = -2 };
int64_t place_climb(const place_greedy *G, const solve_ctx *c, place_job *jobs, int64_t *off,
                    int64_t arena, int64_t goal, uint64_t runs, uint64_t max_work);

#endif
