/* place.c: first-fit placement. Live blocks are kept sorted by address, so
 * the gaps between them are the coalesced free list; an ALLOC takes the
 * lowest gap that fits, else the end of the last block. */
#include "place.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t place_span(int64_t size, int64_t align)
{
    if (align <= 1) return size;
    int64_t r = size % align;
    return r ? size + (align - r) : size;
}

void place_free(placement *pl)
{
    free(pl->offset);
    free(pl->hwm);
    memset(pl, 0, sizeof *pl);
}

int place_first_fit(const graph *g, const run *r, int64_t align, placement *pl, char *err, size_t errcap)
{
    memset(pl, 0, sizeof *pl);
    pl->align = align;
    pl->offset = calloc((size_t)g->nbufs + 1, sizeof *pl->offset);
    pl->hwm = malloc(((size_t)g->n + 1) * sizeof *pl->hwm);
    uint32_t *live = malloc(((size_t)g->nbufs + 1) * sizeof *live);   /* sorted by offset */
    if (!pl->offset || !pl->hwm || !live) {
        free(live);
        place_free(pl);
        snprintf(err, errcap, "out of memory placing %u buffers", g->nbufs);
        return -1;
    }
    uint32_t nlive = 0;
    int64_t top = 0;
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s], b = g->buf[u];
        if (g->kind[u] == NODE_ALLOC) {
            int64_t span = place_span(g->buf_size[b], align), at = 0;
            uint32_t i = 0;
            for (; i < nlive; i++) {           /* first gap [at, offset of live[i]) that fits */
                int64_t o = pl->offset[live[i]];
                if (o - at >= span) break;
                at = o + place_span(g->buf_size[live[i]], align);
            }
            memmove(live + i + 1, live + i, (nlive - i) * sizeof *live);
            live[i] = b;
            nlive++;
            pl->offset[b] = at;
            if (at + span > top) top = at + span;
        } else if (g->kind[u] == NODE_FREE) {
            uint32_t i = 0;
            while (i < nlive && live[i] != b) i++;
            if (i < nlive) {
                memmove(live + i, live + i + 1, (nlive - i - 1) * sizeof *live);
                nlive--;
            }
        }
        pl->hwm[s] = top;
    }
    pl->arena = top;
    free(live);
    return 0;
}
