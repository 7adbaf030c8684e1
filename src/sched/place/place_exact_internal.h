/* place_exact_internal.h: the problem exact's search works on (place_exact.c)
 * and its building from a schedule's lifetimes (place_exact_build.c), for the
 * search and placer "exact" (place_exact_placer.c). */
#ifndef MEMTRIS_PLACE_EXACT_INTERNAL_H
#define MEMTRIS_PLACE_EXACT_INTERNAL_H
#include "place_internal.h"

/* A candidate: its lowest offset now, and its place in the static order. */
typedef struct cand {
    int64_t off;
    uint32_t pre;
} cand;

/* A candidate with its key in the dynamic order (place_exact_order.c). */
typedef struct dkey {
    int64_t k;
    cand c;
} dkey;

/* A buffer with its three keys in a static order. */
typedef struct prekey {
    int64_t k[3];
    uint32_t b;
} prekey;

typedef struct undo {
    uint32_t idx, kind;
    int64_t old;
} undo;

/* A probe's answer: no plan fits, a plan fits (P->sol), or neither (its
 * budget ran out, or P->stopped: a limit, a cancel, the memory). */
enum { X_NOTFOUND = 0, X_FOUND = 1, X_STOP = -1 };

typedef struct xp {
    /* The problem: buffers with a span, their time and sections. */
    uint32_t nb, nsec, npart;
    int64_t *size;           /* [nb] the span */
    int64_t *w;              /* [nb] the lifetime's width in canonical time */
    int64_t *tw;             /* [nb] its width in the problem's own times (a CSV's), or 0 */
    int64_t *ovb;            /* [nb] the bytes of the buffers it overlaps (the order's O) */
    int has_time;            /* the problem has times of its own (g->time) */
    uint32_t *lo, *hi;       /* [nb] the lifetime [lo, hi) in canonical time (xp_build) */
    uint32_t *s0, *s1;       /* [nb] its sections [s0, s1) */
    uint32_t *bid;           /* [nb] the graph's buffer */
    uint32_t *ovs, *ov;      /* overlaps: ov[ovs[i] .. ovs[i+1]) */
    uint32_t *secs, *sec;    /* the buffers of each section, same layout */
    uint32_t *parts, *part;  /* the buffers of each partition, same layout */
    uint32_t *psec0, *psec1; /* [npart] a partition's sections */
    int64_t *total0;         /* [nsec] bytes in each section */
    uint32_t *cuts0;         /* [nsec] buffers crossing from s to s+1 */
    /* The search. */
    int64_t cap;
    int64_t *off, *minoff, *sol; /* [nb]; off -1: not placed */
    int64_t *floor, *total;      /* [nsec] */
    uint32_t *cuts;              /* [nsec] */
    uint32_t *wit;               /* [nsec] where a section's floor scan starts (place_exact.c) */
    uint32_t dlo, dhi;           /* the sections the last buffer placed touched */
    cand *cs;                    /* [nb] the candidates that moved (place_exact.c) */
    int64_t *pre_max, *suf_max;  /* [nsec] the largest totals each side (place_exact.c) */
    undo *u;
    size_t nu, capu;
    const char *heur;      /* the static order's keys, MiniMalloc's letters */
    int dyn;               /* candidates at one offset: the tightest section first (heur's '+') */
    const char *one_order; /* fits: this order alone, one run (NULL: the round robin) */
    int coarse;            /* the capacity search probes no capacity within 0.1% below its plan */
    uint64_t nodes, node_left, node_cap, last_check;
    uint64_t work, last_work; /* the search's work (candidates, shifts), to read the clock by */
    uint64_t work_cap;        /* the search stops (SOLVE_STATES) past this work; 0: never */
    int64_t best, bound;      /* the capacity search's, for the watcher */
    double deadline;          /* on the context's clock */
    const solve_ctx *ctx;     /* the placement's: its clock, its watcher */
    solve_stop stopped; /* SOLVE_DONE, or SOLVE_TIME, SOLVE_STATES, SOLVE_MEMORY, SOLVE_CANCELLED */
    size_t mem, mem_cap; /* bytes the problem and the search hold; the most they may */
} xp;

/* The key c (one of P->heur's letters) of buffer b in a static order,
 * larger first; xp_prekey_cmp sorts by the three keys, then the buffer. */
int64_t xp_key(const xp *P, uint32_t b, char c);
int xp_prekey_cmp(const void *x, const void *y);

/* The dynamic order: copies the candidates at ord[i0]'s offset (ord is
 * sorted by offset) into grp[i0..), the least slack of its tightest section
 * first, then the static order; returns the end of that group.
 * xp_dyn_before_later: whether a candidate of that group still to try after
 * grp[i] (before g1) comes before it in the static order and is not
 * canonically excluded (min_off, min_pre). */
uint32_t xp_dyn_group(xp *P, const uint32_t *pre, const cand *ord, uint32_t n, uint32_t i0,
                      dkey *grp);
int xp_dyn_before_later(const dkey *grp, uint32_t i, uint32_t g1, int64_t min_off,
                        uint32_t min_pre);

/* Beyond these the search does not start (best's plan, search.stopped =
 * SOLVE_TOO_LARGE):
 * its recursion is as deep as the buffers (its stack 2 KiB a buffer), each
 * level keeps the candidates still unplaced (n^2 / 2 of 16 bytes in all at
 * worst: 0.5 GB at 8000; 40 bytes, 1.3 GB, in the dynamic order, within
 * --max-memory all the same), and overlaps and sections' lists take 4 bytes
 * an entry. */
#define EXACT_MAX_BUFFERS  8000u
#define EXACT_MAX_OVERLAPS 40000000u

/* What xp_build returns. */
enum { XP_OK = 0, XP_OOM = -1, XP_TOO_LARGE = -2, XP_MEMORY = -3 };

/* Builds the problem from the buffers with a span: sections (the sets of
 * buffers live just before some buffer dies), partitions (runs of time no
 * buffer crosses out of) and overlaps. XP_OK, or XP_OOM, or XP_TOO_LARGE
 * when the buffers with a span pass max_buffers, or the overlaps or the
 * sections' lists pass max_overlaps entries, or XP_MEMORY when its arrays
 * would pass max_bytes (P->mem: the bytes they take). xp_free after any. */
int xp_build(xp *P, const graph *g, const lifetimes *lt, int64_t align, uint32_t max_buffers,
             uint64_t max_overlaps, size_t max_bytes);
void xp_free(xp *P);

/* The capacity search (place_exact.c) on a built problem: lo is proven (no plan is smaller), hi
 * the smallest plan found, whose offsets it writes into pl; asked a capacity (c->capacity), it
 * probes that alone. Stops at lo == hi or at P's limits (P->stopped says which). */
void xp_capacity_search(xp *P, const solve_ctx *c, int64_t align, int64_t *lo, int64_t *hi,
                        placement *pl);

#endif
