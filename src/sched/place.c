/* place.c: first-fit placement, replaying the schedule as an allocator
 * would: free gaps below the highest live block, coalesced, in address order
 * (gaps.c); an ALLOC takes the lowest gap that fits, else the top. */
#include "place.h"
#include "gaps.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t place_span(int64_t size, int64_t align)
{
    if (align <= 1) return size;
    int64_t r = size % align;
    return r ? size + (align - r) : size;   /* sizes are at most 2^53-1: no overflow */
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
    gaps t;
    if (!pl->offset || !pl->hwm || gaps_init(&t, g->nbufs + 1)) {
        place_free(pl);
        snprintf(err, errcap, "out of memory placing %u buffers", g->nbufs);
        return -1;
    }
    int64_t tail = 0, top = 0;   /* tail: end of the highest live block; all above is free */
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s], b = g->buf[u];
        int64_t span = b == GRAPH_NONE ? 0 : place_span(g->buf_size[b], align);
        if (g->kind[u] == NODE_ALLOC) {
            uint32_t gi = gaps_first_fit(&t, span);
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
                snprintf(err, errcap, "the arena would pass 2^63-1 bytes at step %u (buffer %lld)", s + 1,
                         (long long)g->buf_id[b]);
                gaps_free(&t);
                place_free(pl);
                return -1;
            }
            if (end > tail) tail = end;
            if (end > top) top = end;
            pl->offset[b] = at;
        } else if (g->kind[u] == NODE_FREE && span > 0) {
            /* Coalesce with the gaps that touch the block, or give it back to the tail. */
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
        pl->hwm[s] = top;
    }
    pl->arena = top;
    gaps_free(&t);
    return 0;
}
