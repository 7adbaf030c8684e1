/* pool.c: memory pools over iterations of a schedule with scaled buffers:
 * the seeded factors, each iteration's need (the scaled live peak), and the
 * static, size-class and elastic pools simulated over them. Exports the
 * pool_* of pool.h. */
#include "pool.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/place/place.h"
#include "util/clock.h"

static const pool_kind kinds[POOL_NKINDS] = {
    {"static", "the expected maximum, reserved once"},
    {"size-class", "2^n blocks, freed ones reused, never given back (seed 2.1)"},
    {"elastic", "50% of the expected maximum, x1.5 on demand, /1.5 after 10 idle (seed 4.2)"},
};

const pool_kind *pool_kind_at(int kind)
{
    return kind >= 0 && kind < POOL_NKINDS ? &kinds[kind] : NULL;
}

void pool_rng_seed(pool_rng *r, uint64_t seed) { r->s = seed; }

uint64_t pool_rng_next(pool_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double pool_rng_factor(pool_rng *r, double min, double max)
{
    double u = (double)(pool_rng_next(r) >> 11) * 0x1.0p-53;
    double f = min + (max - min) * u;
    if (f < max || min == max) return f;
    return nextafter(max, min); /* rounding reached max: keep [min, max) */
}

#define POOL_SIZE_MAX ((int64_t)1 << 62)

int64_t pool_scaled(int64_t size, double f)
{
    if (size <= 0) return 0;
    double v = ceil((double)size * f);
    if (!(v < (double)POOL_SIZE_MAX)) return -1;
    return (int64_t)v;
}

int pool_need(const graph *g, const run *r, double f, int64_t *need, char *err, size_t errcap)
{
    int64_t mem = 0, peak = 0;
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s];
        int64_t c = g->change[u];
        if (c == 0) continue;
        int64_t v = pool_scaled(c > 0 ? c : -c, f);
        if (v < 0) {
            snprintf(err, errcap, "a buffer of %lld bytes at factor %g passes 2^62 bytes",
                     (long long)(c > 0 ? c : -c), f);
            return -1;
        }
        if (__builtin_add_overflow(mem, c > 0 ? v : -v, &mem) || mem > POOL_SIZE_MAX) {
            snprintf(err, errcap, "live memory passes 2^62 bytes at step %u at factor %g", s + 1,
                     f);
            return -1;
        }
        if (mem > peak) peak = mem;
    }
    *need = peak;
    return 0;
}

int pool_class(int64_t bytes)
{
    int64_t span = place_span(bytes, PLACE_ALIGN_DEFAULT);
    int c = 0;
    while (c < 62 && ((int64_t)1 << c) < span) c++;
    return c;
}

/* ceil(cap * 3 / 2) and ceil(cap * 2 / 3), at most INT64_MAX, without overflow. */
static int64_t grow_step(int64_t cap)
{
    int64_t half = cap / 2 + cap % 2;
    return cap > INT64_MAX - half ? INT64_MAX : cap + half;
}

static int64_t shrink_step(int64_t cap) { return cap / 3 * 2 + (cap % 3 * 2 + 2) / 3; }

/* need <= cap / 1.5, exactly: need <= floor(2 cap / 3). */
static int fits_lower(int64_t need, int64_t cap) { return need <= cap / 3 * 2 + cap % 3 * 2 / 3; }

void pool_elastic(const int64_t *need, uint32_t n, int64_t emax, pool_point *out)
{
    int64_t floor_ = emax / 2 + emax % 2, cap = floor_;
    int idle = 0;
    for (uint32_t i = 0; i < n; i++) {
        pool_point *p = &out[i];
        memset(p, 0, sizeof *p);
        p->allocs = i == 0; /* the first arena */
        if (need[i] > cap) {
            uint32_t k = 0;
            if (cap == 0) { /* nothing to multiply: the need itself */
                cap = need[i];
                k = 1;
            }
            while (cap < need[i]) {
                cap = grow_step(cap);
                k++;
            }
            p->grow = k;
            p->allocs++;
            idle = 0;
        } else if (fits_lower(need[i], cap)) {
            if (++idle >= POOL_IDLE_LIMIT) {
                int64_t to = shrink_step(cap);
                if (to < floor_) to = floor_;
                if (to < need[i]) to = need[i];
                if (to < cap) {
                    cap = to;
                    p->shrink = 1;
                    p->allocs++;
                }
                idle = 0;
            }
        } else {
            idle = 0;
        }
        p->cap = cap;
    }
}

void pool_static(const int64_t *need, uint32_t n, int64_t emax, pool_point *out)
{
    int64_t cap = emax;
    for (uint32_t i = 0; i < n; i++) {
        pool_point *p = &out[i];
        memset(p, 0, sizeof *p);
        p->allocs = i == 0;
        if (need[i] > cap) {
            cap = need[i];
            p->grow = 1;
            p->allocs++;
        }
        p->cap = cap;
    }
}

void pool_sc_init(pool_sc *p)
{
    memset(p, 0, sizeof *p);
    for (int c = 0; c < 64; c++) p->head[c] = GRAPH_NONE;
}

void pool_sc_free(pool_sc *p)
{
    free(p->next);
    free(p->cls);
    pool_sc_init(p);
}

int pool_sc_reserve(pool_sc *p, uint32_t n)
{
    if (n <= p->cap) return 0;
    uint32_t *nx = realloc(p->next, (size_t)n * sizeof *nx);
    if (!nx) return -1;
    p->next = nx;
    uint8_t *cl = realloc(p->cls, n);
    if (!cl) return -1;
    p->cls = cl;
    p->cap = n;
    return 0;
}

uint32_t pool_sc_take(pool_sc *p, int64_t bytes, int *fresh)
{
    int c = pool_class(bytes);
    *fresh = 0;
    if (p->head[c] != GRAPH_NONE) {
        uint32_t b = p->head[c];
        p->head[c] = p->next[b];
        return b;
    }
    int64_t held;
    if (__builtin_add_overflow(p->held, (int64_t)1 << c, &held)) {
        p->overflow = 1;
        return GRAPH_NONE;
    }
    if (p->nblocks == p->cap &&
        (p->cap >= GRAPH_NONE / 2 || pool_sc_reserve(p, p->cap ? p->cap * 2 : 64)))
        return GRAPH_NONE;
    uint32_t b = p->nblocks++;
    p->cls[b] = (uint8_t)c;
    p->held = held;
    *fresh = 1;
    return b;
}

void pool_sc_give(pool_sc *p, uint32_t block)
{
    int c = p->cls[block];
    p->next[block] = p->head[c];
    p->head[c] = block;
}

int64_t pool_sc_walk(pool_sc *p, pool_walk *w,
                     int (*on_fresh)(void *ctx, uint32_t block, int64_t bytes), void *ctx)
{
    const graph *g = w->g;
    int64_t fresh_n = 0;
    int rc = 0;
    for (uint32_t s = 0; s < w->r->n && !rc; s++) {
        uint32_t u = w->r->order[s], b = g->buf[u];
        if (b == GRAPH_NONE || g->kind[u] == NODE_COMPUTE) continue;
        if (g->kind[u] == NODE_FREE) {
            if (w->slot[b] != GRAPH_NONE) pool_sc_give(p, w->slot[b]);
            w->slot[b] = GRAPH_NONE;
            continue;
        }
        int64_t bytes = pool_scaled(g->buf_size[b], w->f);
        if (bytes <= 0 || w->slot[b] != GRAPH_NONE) continue; /* pool_need refused < 0 */
        int fresh;
        uint32_t k = pool_sc_take(p, bytes, &fresh);
        if (k == GRAPH_NONE) {
            p->worst = u;
            rc = -1;
        } else {
            w->slot[b] = k;
            fresh_n += fresh;
            if (fresh && on_fresh && on_fresh(ctx, k, (int64_t)1 << p->cls[k])) rc = -1;
        }
    }
    for (uint32_t b = 0; b < g->nbufs; b++) /* what the schedule never frees, at its end */
        if (w->slot[b] != GRAPH_NONE) {
            pool_sc_give(p, w->slot[b]);
            w->slot[b] = GRAPH_NONE;
        }
    return rc ? -1 : fresh_n;
}

void pool_totals(pool_sim *s)
{
    for (int k = 0; k < POOL_NKINDS; k++) {
        pool_total *t = &s->tot[k];
        memset(t, 0, sizeof *t);
        double waste = 0;
        for (uint32_t i = 0; i < s->n; i++) {
            const pool_point *p = &s->pt[k][i];
            if (p->cap > t->peak_cap) t->peak_cap = p->cap;
            waste += (double)(p->cap - s->need[i]);
            t->reallocs += p->allocs;
            t->grows += p->grow > 0;
            t->shrinks += p->shrink;
            if (s->measured && p->measured > t->peak_measured) t->peak_measured = p->measured;
        }
        t->mean_waste = s->n ? waste / s->n : 0;
    }
}

void pool_sim_free(pool_sim *s)
{
    free(s->factor);
    free(s->need);
    for (int k = 0; k < POOL_NKINDS; k++) free(s->pt[k]);
    memset(s, 0, sizeof *s);
}

int pool_simulate(const graph *g, const run *r, const pool_params *pp, pool_sim *s, char *err,
                  size_t errcap)
{
    return pool_simulate_ticked(g, r, pp, s, err, errcap, NULL, NULL);
}

int pool_simulate_ticked(const graph *g, const run *r, const pool_params *pp, pool_sim *s,
                         char *err, size_t errcap, pool_tick_fn tick, void *ctx)
{
    memset(s, 0, sizeof *s);
    double t0 = clock_seconds();
    s->pp = *pp;
    s->n = pp->iterations;
    size_t n = s->n ? s->n : 1;
    s->factor = malloc(n * sizeof *s->factor);
    s->need = malloc(n * sizeof *s->need);
    for (int k = 0; k < POOL_NKINDS; k++) s->pt[k] = calloc(n, sizeof *s->pt[k]);
    pool_sc sc;
    pool_sc_init(&sc);
    pool_walk w = {g, r, 0, malloc(((size_t)g->nbufs + 1) * sizeof *w.slot)};
    int rc = -1;
    if (!s->factor || !s->need || !s->pt[0] || !s->pt[1] || !s->pt[2] || !w.slot) {
        snprintf(err, errcap, "out of memory for %u iterations", s->n);
        goto out;
    }
    for (uint32_t b = 0; b <= g->nbufs; b++) w.slot[b] = GRAPH_NONE;
    if (pool_need(g, r, pp->max, &s->expected_max, err, errcap)) goto out;
    pool_rng rng;
    pool_rng_seed(&rng, pp->seed);
    for (uint32_t i = 0; i < s->n; i++) {
        s->factor[i] = pool_rng_factor(&rng, pp->min, pp->max);
        if (pool_need(g, r, s->factor[i], &s->need[i], err, errcap)) goto out;
        w.f = s->factor[i];
        pool_point *p = &s->pt[POOL_SIZECLASS][i];
        int64_t fresh = pool_sc_walk(&sc, &w, NULL, NULL);
        if (fresh < 0 && sc.overflow) {
            uint32_t u = sc.worst;
            snprintf(err, errcap,
                     "iteration %u (factor %g): the size-class pool passes 2^63-1 bytes at "
                     "Nodes[%u] (Id %lld), a block of 2^%d bytes",
                     i + 1, s->factor[i], u, (long long)g->id[u],
                     pool_class(pool_scaled(g->buf_size[g->buf[u]], w.f)));
            goto out;
        }
        if (fresh < 0) {
            snprintf(err, errcap, "out of memory simulating the size-class pool");
            goto out;
        }
        p->grow = p->allocs = (uint32_t)fresh;
        p->cap = sc.held;
        if (tick && tick(ctx, i + 1, s->n)) {
            snprintf(err, errcap, "stopped after iteration %u of %u", i + 1, s->n);
            goto out;
        }
    }
    pool_static(s->need, s->n, s->expected_max, s->pt[POOL_STATIC]);
    pool_elastic(s->need, s->n, s->expected_max, s->pt[POOL_ELASTIC]);
    pool_totals(s);
    rc = 0;
out:
    free(w.slot);
    pool_sc_free(&sc);
    if (rc) pool_sim_free(s);
    else s->seconds = clock_seconds() - t0;
    return rc;
}
