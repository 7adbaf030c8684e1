/* pool.h: memory pools across iterations of a schedule whose buffers change
 * size (dynamic shapes): the seeded factors, the need of each iteration, and
 * three pools (static, a size-class pool as the placer "pool" is one, an
 * elastic pool; man memtris, iterate) simulated over them. Exports pool_*. */
#ifndef MEMTRIS_POOL_H
#define MEMTRIS_POOL_H
#include <stddef.h>
#include <stdint.h>
#include "sched/graph/graph.h"
#include "sched/policy/policy.h"

/* The elastic pool's rule (man memtris, iterate): it starts at POOL_START_NUM /
 * POOL_START_DEN of the expected maximum, grows by POOL_GROW_NUM /
 * POOL_GROW_DEN, and shrinks one such step after POOL_IDLE_LIMIT idle
 * iterations. */
#define POOL_START_NUM  1
#define POOL_START_DEN  2
#define POOL_GROW_NUM   3
#define POOL_GROW_DEN   2
#define POOL_IDLE_LIMIT 10

/* The pools compared, in the order every output lists them. */
enum { POOL_STATIC, POOL_SIZECLASS, POOL_ELASTIC, POOL_NKINDS };

typedef struct pool_kind {
    const char *name; /* "static", "size-class", "elastic" */
    const char *desc;
} pool_kind;
const pool_kind *pool_kind_at(int kind); /* NULL outside 0 .. POOL_NKINDS-1 */

/* ------------------------------------------------ factors and needs */

/* The PRNG: splitmix64 (Steele, Lea, Flood 2014) seeded with the seed; the
 * i-th factor (from 0) is min + (max - min) * u, u = (the i-th output >> 11)
 * * 2^-53, uniform in [0, 1). Same seed, same factors, on every machine. */
typedef struct pool_rng {
    uint64_t s;
} pool_rng;
void pool_rng_seed(pool_rng *r, uint64_t seed);
uint64_t pool_rng_next(pool_rng *r);
double pool_rng_factor(pool_rng *r, double min, double max);

/* A buffer of `size` bytes at factor f: ceil(size * f) (0 stays 0); -1 when
 * it would pass 2^62. */
int64_t pool_scaled(int64_t size, double f);
/* The live peak of run r of g with every buffer scaled by f (max(0, the
 * largest running total), as run.peak is at f = 1). 0, or -1 with err set
 * when a size or the total would pass 2^62. */
int pool_need(const graph *g, const run *r, double f, int64_t *need, char *err, size_t errcap);

/* The size class of a request: c with 2^c >= its span at the plans' 64-byte
 * alignment (place_span), as 'plan --placer pool' and replay's pool mode
 * round it. 0 bytes: class 0. */
int pool_class(int64_t bytes);

/* ------------------------------------------------ the pools */

/* What one pool did in one iteration. */
typedef struct pool_point {
    int64_t cap;      /* bytes it holds when the iteration ends */
    uint32_t allocs;  /* device allocations it made in the iteration */
    uint32_t grow;    /* elastic: k of the grow by 1.5^k; static: 1 when it had to
                       * grow; size-class: blocks newly allocated; 0: none */
    uint32_t shrink;  /* 1: it shrank one step when the iteration ended */
    int64_t measured; /* a backend's reading after the iteration, minus its
                       * baseline; meaningful only when the sim's measured is set */
} pool_point;

/* A pool's totals over the iterations. */
typedef struct pool_total {
    int64_t peak_cap;
    double mean_waste;       /* mean of cap - need */
    uint64_t reallocs;       /* device allocations made: sum of allocs */
    uint32_t grows, shrinks; /* iterations with a grow, with a shrink */
    int64_t peak_measured;
} pool_total;

/* The elastic pool over needs[0..n) with expected maximum emax (man memtris, iterate):
 * it starts with one arena of ceil(emax / 2) bytes (the floor). When an
 * iteration needs more than it holds, it grows to ceil(cap * 1.5), again
 * until the need fits (k steps, one grow event and one allocation). An
 * iteration is idle when its need would still fit one step lower (need <=
 * cap / 1.5); after POOL_IDLE_LIMIT idle iterations in a row, the pool
 * shrinks at the end of the last one to max(ceil(cap / 1.5), floor, need)
 * (one allocation; no event when that is cap) and counts again from 0; any
 * iteration that is not idle resets the count. Capacities are whole bytes,
 * each step rounded up, at most INT64_MAX. Fills out[0..n). */
void pool_elastic(const int64_t *need, uint32_t n, int64_t emax, pool_point *out);
/* The static pool: one arena of emax bytes from the first iteration, never
 * given back; an iteration needing more (impossible with factors up to the
 * expected maximum's) grows it to that need (grow 1, one allocation). */
void pool_static(const int64_t *need, uint32_t n, int64_t emax, pool_point *out);

/* The size-class pool (segregated free lists, Wilson et al. 1995): a request takes the most
 * recently freed block of its class, else a new block of 2^c bytes; a freed block goes back on its
 * class's list; nothing is given back. Blocks are numbered from 0 in the order they are made (a
 * replay's slots). */
typedef struct pool_sc {
    uint32_t head[64]; /* per class, the top of its free stack (a block), or GRAPH_NONE */
    uint32_t *next;    /* [cap] a free block's link in its stack */
    uint8_t *cls;      /* [cap] each block's class */
    uint32_t nblocks, cap;
    int64_t held;   /* bytes of every block */
    uint32_t worst; /* overflow: the buffer whose block would take held past 2^63-1 */
    int overflow;
} pool_sc;
void pool_sc_init(pool_sc *p);
void pool_sc_free(pool_sc *p);
/* Room for n blocks now (no allocation until there are more). 0, or -1. */
int pool_sc_reserve(pool_sc *p, uint32_t n);
/* A block for `bytes` (> 0): its number, *fresh = 1 when it is new; or
 * GRAPH_NONE when out of memory, or with overflow set when a new block
 * would take held past 2^63-1 bytes. */
uint32_t pool_sc_take(pool_sc *p, int64_t bytes, int *fresh);
void pool_sc_give(pool_sc *p, uint32_t block);

/* One ALLOC or FREE of an iteration of run r at factor f, as a pool sees
 * it: what pool_sc_walk calls. */
typedef struct pool_walk {
    const graph *g;
    const run *r;
    double f;
    uint32_t *slot; /* [nbufs] the block buffer b holds, GRAPH_NONE: none; all
                     * GRAPH_NONE before and after a walk */
} pool_walk;
/* Runs one iteration of w's run through p: every ALLOC takes a block of its
 * scaled size (0 bytes: none), every FREE gives it back, and buffers the
 * schedule never frees are given back at its end. Calls on_fresh(ctx, block,
 * bytes) for each new block (NULL: none); a nonzero return stops it.
 * Returns the new blocks, or -1 (out of memory, or on_fresh failed). */
int64_t pool_sc_walk(pool_sc *p, pool_walk *w,
                     int (*on_fresh)(void *ctx, uint32_t block, int64_t bytes), void *ctx);

/* ------------------------------------------------ iterations */

typedef struct pool_params {
    uint32_t iterations;
    double min, max; /* factors drawn in [min, max) */
    uint64_t seed;
} pool_params;
/* The most iterations one simulation runs. */
#define POOL_MAX_ITERATIONS 10000000u

typedef struct pool_sim {
    pool_params pp;
    uint32_t n;
    int64_t expected_max;        /* the need at factor max */
    double *factor;              /* [n] */
    int64_t *need;               /* [n] */
    pool_point *pt[POOL_NKINDS]; /* [n] each */
    pool_total tot[POOL_NKINDS];
    int measured;   /* pt[].measured holds a backend's readings */
    double seconds; /* the simulation's time */
} pool_sim;

/* Draws the factors, computes each iteration's need and runs the three
 * pools over them, for run r of g. 0, or -1 with err set. */
int pool_simulate(const graph *g, const run *r, const pool_params *pp, pool_sim *s, char *err,
                  size_t errcap);
/* pool_simulate calling tick(ctx, i, n) after iteration i (from 1) of n:
 * a nonzero return stops it there (-1, err "stopped after iteration i of
 * n"), as a caller's progress line or its estimate of the time wants. */
typedef int (*pool_tick_fn)(void *ctx, uint32_t done, uint32_t total);
int pool_simulate_ticked(const graph *g, const run *r, const pool_params *pp, pool_sim *s,
                         char *err, size_t errcap, pool_tick_fn tick, void *ctx);
/* Recomputes s->tot from the points (after a backend filled measured). */
void pool_totals(pool_sim *s);
void pool_sim_free(pool_sim *s);

#endif
