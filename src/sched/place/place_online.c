/* place_online.c: online placers that replay the schedule as an allocator
 * would: first fit and best fit over the coalescing free list of gaps.c, and
 * a size-class pool (segregated free lists of power-of-two classes, Wilson
 * et al. 1995, "Dynamic Storage Allocation: A Survey and Critical Review";
 * man memtris, PLACERS). Exports placer_first_fit, placer_best_fit,
 * placer_pool. */
#include "place.h"
#include "util/gaps.h"
#include "place_internal.h"
#include <stdio.h>
#include <stdlib.h>

static int arena_overflow(const graph *g, uint32_t b, uint32_t s, char *err, size_t errcap)
{
    snprintf(err, errcap, "the arena would pass 2^63-1 bytes at step %u (buffer %lld)", s + 1,
             (long long)g->buf_id[b]);
    return -1;
}

/* First fit and best fit replay the schedule over the free gaps below the
 * highest live block, coalesced, in address order (gaps.c): an ALLOC takes the
 * gap that pick() chooses, else the top; a FREE merges its block with the
 * gaps that touch it, or gives it back to the top. */
static int replay(const graph *g, const run *r, int64_t align, placement *pl, char *err,
                  size_t errcap, int best)
{
    gaps t;
    if (best ? gaps_init_sized(&t, g->nbufs + 1) : gaps_init(&t, g->nbufs + 1))
        return place_oom(g, err, errcap);
    int64_t tail = 0; /* the end of the highest live block; all above is free */
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s], b = g->buf[u];
        int64_t span = b == GRAPH_NONE ? 0 : place_span(g->buf_size[b], align);
        if (g->kind[u] == NODE_ALLOC) {
            uint32_t gi = best ? gaps_best_fit(&t, span) : gaps_first_fit(&t, span);
            int64_t at, end;
            if (gi != GAPS_NONE) {
                gap_node gp = t.n[gi];
                at = gp.off;
                gaps_remove(&t, gp.off);
                if (gp.len > span) gaps_insert(&t, gp.off + span, gp.len - span);
            } else {
                at = tail;
            }
            if (__builtin_add_overflow(at, span, &end)) {
                gaps_free(&t);
                return arena_overflow(g, b, s, err, errcap);
            }
            if (end > tail) tail = end;
            pl->offset[b] = at;
        } else if (g->kind[u] == NODE_FREE && span > 0) {
            int64_t lo = pl->offset[b], hi = lo + span;
            uint32_t p = gaps_pred(&t, lo);
            if (p != GAPS_NONE && t.n[p].off + t.n[p].len == lo) {
                lo = t.n[p].off;
                gaps_remove(&t, lo);
            }
            uint32_t q = gaps_succ(&t, hi - 1);
            if (q != GAPS_NONE && t.n[q].off == hi) {
                hi += t.n[q].len;
                gaps_remove(&t, t.n[q].off);
            }
            if (hi >= tail) tail = lo;
            else gaps_insert(&t, lo, hi - lo);
        }
    }
    pl->reserved = 0;
    gaps_free(&t);
    return 0;
}

static int first_fit_place(PLACE_ARGS)
{
    (void)lt;
    (void)c;
    return replay(g, r, align, pl, err, errcap, 0);
}

static int best_fit_place(PLACE_ARGS)
{
    (void)lt;
    (void)c;
    return replay(g, r, align, pl, err, errcap, 1);
}

/* The size-class pool: a block's class is its span rounded up to a power of
 * two (spans are already multiples of the alignment, so classes are too). An
 * ALLOC pops the most recently freed block of its class (each class's free
 * list a stack), else carves a new block at the end of the
 * reserved bytes; a FREE pushes its block back on its class's list. Nothing
 * is ever returned, so reserved only grows. Zero-byte buffers take no block. */
static int pool_place(PLACE_ARGS)
{
    (void)lt;
    (void)c;
    enum { NCLASS = 64 };
    uint32_t head[NCLASS]; /* per class: the top of its free stack (a buffer index) */
    uint32_t *next = malloc(((size_t)g->nbufs + 1) * sizeof *next); /* stack links, by buffer */
    pl->block = calloc((size_t)g->nbufs + 1, sizeof *pl->block);
    if (!next || !pl->block) {
        free(next);
        return place_oom(g, err, errcap);
    }
    for (int cls = 0; cls < NCLASS; cls++) head[cls] = GRAPH_NONE;
    int64_t reserved = 0;
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s], b = g->buf[u];
        if (b == GRAPH_NONE || g->kind[u] == NODE_COMPUTE) continue;
        int64_t span = place_span(g->buf_size[b], align);
        if (span == 0) continue;
        int cls = 0;
        while (((int64_t)1 << cls) < span) cls++; /* span <= 2^62: cls <= 62 */
        if (g->kind[u] == NODE_ALLOC) {
            pl->block[b] = (int64_t)1 << cls;
            if (head[cls] != GRAPH_NONE) {
                uint32_t f = head[cls];
                head[cls] = next[f];
                pl->offset[b] = pl->offset[f];
            } else {
                pl->offset[b] = reserved;
                if (__builtin_add_overflow(reserved, pl->block[b], &reserved)) {
                    free(next);
                    return arena_overflow(g, b, s, err, errcap);
                }
            }
        } else {
            next[b] = head[cls];
            head[cls] = b;
        }
    }
    free(next);
    pl->reserved = reserved;
    return 0;
}

const placer placer_first_fit = {
    .name = "first-fit",
    .online = 1,
    .in_best = 1,
    .place = first_fit_place,
    .desc = "online: the lowest free gap that fits, over an address-ordered free list that "
            "coalesces neighbours"};

const placer placer_best_fit = {
    .name = "best-fit",
    .online = 1,
    .in_best = 1,
    .place = best_fit_place,
    .desc = "online: the smallest free gap that fits (the lowest among equals), same free list"};

const placer placer_pool = {
    .name = "pool",
    .online = 1,
    .keeps_memory = 1,
    .in_best = 1,
    .place = pool_place,
    .desc = "online: a size-class pool: sizes rounded up to 2^n, a free list per class, "
            "freed blocks kept for their class and never returned"};
