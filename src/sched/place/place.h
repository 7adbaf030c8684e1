/* place.h: where each buffer lives in one arena for a given schedule: buffer
 * lifetimes, the placers (a table of objects: name, description and
 * function), the verifier and the figures derived from a plan. Exports
 * place_* and placer_*. A new placer is its `const placer placer_NAME` (in
 * a file of its own or of its family) and one name in place_internal.h's
 * PLACER_LIST. */
#ifndef MEMTRIS_PLACE_H
#define MEMTRIS_PLACE_H
#include <stddef.h>
#include <stdint.h>
#include "defaults.h"
#include "sched/graph/graph.h"
#include "sched/policy/policy.h"

#define PLACE_ALIGN_DEFAULT DEFAULT_ALIGN

/* Steps are 0-based positions in the schedule: a buffer is live from the step
 * of its ALLOC (inclusive) to the step of its FREE (exclusive); a buffer never
 * freed has free_step = n. */
typedef struct lifetimes {
    uint32_t *alloc_step; /* [nbufs] */
    uint32_t *free_step;  /* [nbufs] */
} lifetimes;

int place_lifetimes(const graph *g, const run *r, lifetimes *lt); /* 0, or -1 out of memory */
/* A buffer's lifetime length, as the placers' orders measure it: in g->time
 * when the graph has times (a placement CSV's), else in steps. */
int64_t place_width(const graph *g, const lifetimes *lt, uint32_t b);
void place_lifetimes_free(lifetimes *lt);

/* What exact's search did. */
typedef struct place_search {
    int ran;            /* it searched (best's plan was not already at the bound) */
    solve_stop stopped; /* SOLVE_DONE; SOLVE_TIME or SOLVE_STATES at --time-limit or
                         * --max-states; SOLVE_CANCELLED; SOLVE_TOO_LARGE to search */
    uint64_t states;    /* nodes of the search, over every capacity tried */
    uint32_t probes;    /* capacities tried */
} place_search;

/* Does the plan fit the capacity asked (solve_ctx.capacity)? */
typedef enum place_fits {
    PLACE_FITS_NA,      /* no capacity asked */
    PLACE_FITS_YES,     /* the plan's arena is within it */
    PLACE_FITS_NO,      /* proven: no plan for this schedule is within it (bound > capacity) */
    PLACE_FITS_UNKNOWN, /* neither: the plan is larger, and no proof (a limit stopped it) */
} place_fits;

typedef struct placement {
    const char *placer; /* the placer's name */
    int64_t align;
    int64_t *offset;    /* [nbufs] byte offset of each buffer */
    int64_t *hwm;       /* [n] arena high-water mark after step s: the largest end of any
                         * buffer allocated at or before s (for pool: reserved bytes) */
    int64_t arena;      /* bytes the plan needs: the final high-water mark */
    int64_t reserved;   /* pool: bytes taken from the system and kept; others: arena */
    int64_t *block;     /* [nbufs] or NULL: bytes held for each buffer where a placer holds
                         * more than its span (pool: its size class; coloring: BLOCK_SIZE);
                         * set by the placer, freed by place_free */
    const char *detail; /* static text: how the plan was found (e.g. the order that won), or NULL */
    int64_t bound;      /* a proven lower bound on the arena of any plan for this schedule and
                         * alignment: place_lower_bound, or more where exact proved more */
    int proven;         /* arena == bound: no plan is smaller */
    place_search search; /* exact's search (zeros for the other placers) */
    int64_t capacity;    /* solve_ctx.capacity: the capacity asked, or 0 */
    place_fits fits;     /* the answer to its question (PLACE_FITS_NA without) */
} placement;

typedef struct placer {
    const char *name;
    const char *desc;
    int online;       /* replays the schedule as an allocator would */
    int keeps_memory; /* what it takes from the system it keeps: plan reports it even when it is the
                         arena */
    int in_best;  /* best tries it as it is (best runs the greedy orders itself, and is not its own
                     member) */
    int searches; /* may run until --time-limit (exact): the TUI always runs it in the background */
    /* Fills pl->offset (allocated by place_run) and pl->reserved, within
     * c's limits and watched by c's watcher (NULL: the defaults); 0 or -1
     * with err. */
    int (*place)(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                 const solve_ctx *c, placement *pl, char *err, size_t errcap);
} placer;

const placer *placer_find(const char *name); /* NULL if unknown */
const placer *placer_at(size_t i);           /* NULL past the end */
size_t placer_count(void);

/* Runs a placer: allocates pl's arrays, places, then fills hwm and arena.
 * align must be a power of two >= 1; c: the limits, the watcher (NULL: the
 * defaults). 0, or -1 with a message in err. */
int place_run(const graph *g, const run *r, const placer *p, int64_t align, const solve_ctx *c,
              placement *pl, char *err, size_t errcap);
void place_free(placement *pl);

/* Checks a plan: every offset aligned, and no two buffers live at the same
 * step overlap in address. 0, or -1 naming the buffers (or offset) in err. */
int place_verify(const graph *g, const run *r, const placement *pl, char *err, size_t errcap);

/* What place_run_checked returns: a plan, checked; no plan (err says why,
 * as place_run's); a plan that place_verify refused, which is a bug in the
 * placer: err says "internal error: placer NAME made an invalid plan for
 * SOURCE: " and what is wrong with it. */
enum { PLACE_OK = 0, PLACE_FAILED = -1, PLACE_INVALID = -2 };

/* place_verify, and on a refusal the internal error above in err, naming the
 * placer pname: 0, or -1. */
int place_check(const graph *g, const run *r, const placement *pl, const char *pname, char *err,
                size_t errcap);

/* place_run, then place_check on its plan. On PLACE_FAILED and PLACE_INVALID
 * pl holds no plan (place_free on it is harmless). */
int place_run_checked(const graph *g, const run *r, const placer *p, int64_t align,
                      const solve_ctx *c, placement *pl, char *err, size_t errcap);

/* Bytes a buffer occupies: its size rounded up to the alignment. */
int64_t place_span(int64_t size, int64_t align);
/* (arena - live_peak) / arena, 0 for an empty arena or none above the peak:
 * the fragmentation (util/optimal.h's optimal_frag) as plan's JSON
 * "fragmentation", a share of the arena. */
double place_fragmentation(const placement *pl, int64_t live_peak);

/* The lower bound of any plan with this alignment: the largest sum of the
 * spans of the buffers live at one step (with align 1, the schedule's peak). */
int64_t place_lower_bound(const graph *g, const run *r, int64_t align);

/* Placer "exact" starting from every buffer stacked on the one before
 * instead of best's plan, so that the search itself finds every plan (for
 * tests; the table does not list it). */
int place_exact_cold(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                     const solve_ctx *c, placement *pl, char *err, size_t errcap);
/* Placer "best" with its greedy runs given at most greedy_work units of
 * work (ranges read plus buffers placed); past it, best stops the greedy and
 * keeps the smallest plan of the other placers, saying so in pl->detail.
 * "best" uses place_best_greedy_budget(nbufs): 32 n log2 n, at least 5e7.
 * Its last step, place_exact_improve, has exact_nodes search nodes a buffer
 * ("best": PLACE_BEST_EXACT_NODES; 0: no search). */
int place_best_limited(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                       const solve_ctx *c, uint64_t greedy_work, uint64_t exact_nodes,
                       placement *pl, char *err, size_t errcap);
uint64_t place_best_greedy_budget(uint32_t nbufs);
#define PLACE_BEST_EXACT_NODES 384u

/* Best's last step, a bounded run of exact's search seeded with the plan
 * in pl->offset as its incumbent: half the nodes probe the lower bound in
 * the order of the buffers in the heaviest sections first (one run; without
 * own times a third of that half each in TWA, TXW and TWs's dynamic order), the
 * rest go to exact's capacity search from the plan's arena down. At most
 * max_nodes search nodes in all, within c's deadline and cancel; no
 * capacity is asked of it (c->capacity is ignored: a plan found is only
 * smaller). A smaller plan replaces pl's offsets and detail; the plan
 * stands when the problem is too large for exact or its memory is short.
 * Returns the arena of pl's plan (its largest end); *nodes (when not
 * NULL): the nodes searched. */
int64_t place_exact_improve(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                            const solve_ctx *c, uint64_t max_nodes, placement *pl, uint64_t *nodes);

#endif
