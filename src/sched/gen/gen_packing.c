/* gen_packing.c: placement problems with a known optimum: a capacity x time
 * rectangle cut into random pieces by guillotine cuts, each piece a buffer.
 * Exports gen_packing. */
#include <stdio.h>
#include <stdlib.h>
#include "gen.h"
#include "gen_internal.h"
#include "sched/place/problem.h"

typedef struct piece {
    int64_t t0, t1; /* its time span [t0, t1) */
    int64_t y0, h;  /* its bottom and height */
} piece;

static int64_t rng_in(uint64_t *s, int64_t lo, int64_t hi) /* lo..hi inclusive */
{
    return lo + (int64_t)(gen_rng_next(s) % (uint64_t)(hi - lo + 1));
}

static int by_place(const void *x, const void *y)
{
    const piece *a = x, *b = y;
    if (a->t0 != b->t0) return a->t0 < b->t0 ? -1 : 1;
    return (a->y0 > b->y0) - (a->y0 < b->y0);
}

/* Cuts pieces until there are n of them. Every piece of more than one cell
 * can be cut, and the rectangle has 2n x capacity >= n cells, so the scan for
 * one always ends. */
static void cut(piece *pc, uint32_t n, uint64_t *rng)
{
    for (uint32_t count = 1; count < n; count++) {
        uint32_t k = (uint32_t)(gen_rng_next(rng) % count);
        while (pc[k].t1 - pc[k].t0 < 2 && pc[k].h < 2) k = (k + 1) % count;
        piece *a = &pc[k], *b = &pc[count];
        *b = *a;
        int in_time = a->t1 - a->t0 >= 2 && (a->h < 2 || (gen_rng_next(rng) & 1));
        if (in_time) {
            a->t1 = b->t0 = rng_in(rng, a->t0 + 1, a->t1 - 1);
        } else {
            int64_t h = rng_in(rng, 1, a->h - 1);
            b->y0 = a->y0 + h;
            b->h = a->h - h;
            a->h = h;
        }
    }
}

problem *gen_packing(uint32_t buffers, int64_t capacity, uint64_t seed, char *err, size_t errcap)
{
    if (buffers == 0 || buffers > GEN_MAX_NODES / 2) {
        snprintf(err, errcap, "kind '%s' needs from 1 to %u buffers, not %u", GEN_PACKING_NAME,
                 GEN_MAX_NODES / 2, buffers);
        return NULL;
    }
    if (capacity < 1 || capacity > GRAPH_MAX_SIZE) {
        snprintf(err, errcap, "the capacity must be from 1 to 2^53-1 bytes");
        return NULL;
    }
    size_t n = buffers;
    piece *pc = malloc(n * sizeof *pc);
    problem *p = calloc(1, sizeof *p);
    if (p) {
        p->pool = malloc(n * 11);
        p->id = malloc(n * sizeof *p->id);
        p->lower = malloc(n * sizeof *p->lower);
        p->upper = malloc(n * sizeof *p->upper);
        p->size = malloc(n * sizeof *p->size);
        p->offset = malloc(n * sizeof *p->offset);
    }
    if (!pc || !p || !p->pool || !p->id || !p->lower || !p->upper || !p->size || !p->offset) {
        free(pc);
        problem_free(p);
        snprintf(err, errcap, "out of memory generating %u buffers", buffers);
        return NULL;
    }
    uint64_t rng = seed ^ 0x3c6ef372fe94f82bULL; /* its own stream of the seed */
    pc[0] = (piece){0, 2 * (int64_t)n, 0, capacity};
    cut(pc, buffers, &rng);
    qsort(pc, n, sizeof *pc, by_place);
    size_t plen = 0;
    for (uint32_t i = 0; i < buffers; i++) {
        p->id[i] = plen;
        plen += (size_t)snprintf(p->pool + plen, 11, "%u", i) + 1;
        p->lower[i] = pc[i].t0;
        p->upper[i] = pc[i].t1;
        p->size[i] = pc[i].h;
        p->offset[i] = pc[i].y0;
    }
    p->n = buffers;
    p->max_align = 1;
    free(pc);
    return p;
}
