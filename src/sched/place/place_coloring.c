/* place_coloring.c: greedy interval coloring (the interval graph of the
 * buffers' lifetimes colored in order of start, Golumbic 1980, "Algorithmic
 * Graph Theory and Perfect Graphs"), placer "coloring": each buffer a
 * color, offset = color x the largest buffer (man memtris, PLACERS).
 * Exports placer_coloring. */
#include "place_internal.h"
#include <stdlib.h>
#include "util/heap.h"

/* The greedy coloring: intervals by start, each given the smallest color
 * that no overlapping, already colored interval holds, a new color when all
 * are taken; offset = color x BLOCK_SIZE. Walking the schedule is that order,
 * and the colors not held by a live buffer are exactly the available ones: a
 * min-heap of them (freed colors) and the count of colors so far replace the
 * interval graph's neighbour sets. BLOCK_SIZE is the largest span, and the plan holds
 * colors x BLOCK_SIZE bytes (reserved). Zero-byte buffers hold nothing and
 * take no color. */
static int coloring_place(PLACE_ARGS)
{
    (void)lt;
    (void)c;
    int64_t block = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        int64_t span = place_span(g->buf_size[b], align);
        if (span > block) block = span;
    }
    heap freec;
    uint32_t *color = malloc(((size_t)g->nbufs + 1) * sizeof *color);
    pl->block = calloc((size_t)g->nbufs + 1, sizeof *pl->block);
    if (!color || !pl->block || heap_init(&freec, g->nbufs + 1, 0)) {
        free(color);
        return place_oom(g, err, errcap);
    }
    int64_t ncolors = 0, top;
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s], b = g->buf[u];
        if (b == GRAPH_NONE || g->kind[u] == NODE_COMPUTE || g->buf_size[b] == 0) continue;
        if (g->kind[u] == NODE_FREE) {
            heap_push(&freec, (heap_item){{color[b], 0, 0}, b});
            continue;
        }
        color[b] = freec.len ? (uint32_t)heap_pop(&freec).k[0] : (uint32_t)ncolors++;
        if (__builtin_mul_overflow((int64_t)color[b] + 1, block, &top)) {
            heap_free(&freec);
            free(color);
            return place_too_big(g, b, err, errcap);
        }
        pl->offset[b] = top - block;
        pl->block[b] = block;
    }
    pl->reserved = ncolors * block;
    heap_free(&freec);
    free(color);
    return 0;
}

const placer placer_coloring = {
    .name = "coloring",
    .in_best = 1,
    .place = coloring_place,
    .desc = "offline: interval coloring: the smallest color free over the lifetime, "
            "offset = color x the largest buffer"};
