/* place.c: buffer lifetimes, place_run (high-water marks), the lower bound, the
 * verifier and place_run_checked. The placers live in their own files and
 * place_table.c lists them. */
#include "place.h"
#include "util/check.h"
#include "util/gaps.h"
#include "place_internal.h"
#include "util/units.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t place_span(int64_t size, int64_t align)
{
    if (align <= 1) return size;
    int64_t r = size % align;
    return r ? size + (align - r) : size; /* sizes are at most 2^53-1: no overflow */
}

int64_t place_plan_top(const graph *g, const int64_t *off, int64_t align)
{
    int64_t top = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        int64_t span = place_span(g->buf_size[b], align);
        if (span && off[b] + span > top) top = off[b] + span;
    }
    return top;
}

int place_oom(const graph *g, char *err, size_t errcap)
{
    snprintf(err, errcap, "out of memory placing %u buffers", g->nbufs);
    return -1;
}

int place_too_big(const graph *g, uint32_t b, char *err, size_t errcap)
{
    snprintf(err, errcap, "the arena would pass 2^63-1 bytes (buffer %lld)",
             (long long)g->buf_id[b]);
    return -1;
}

/* ------------------------------------------------------------ lifetimes */

int place_lifetimes(const graph *g, const run *r, lifetimes *lt)
{
    lt->alloc_step = malloc(((size_t)g->nbufs + 1) * sizeof *lt->alloc_step);
    lt->free_step = malloc(((size_t)g->nbufs + 1) * sizeof *lt->free_step);
    if (!lt->alloc_step || !lt->free_step) {
        place_lifetimes_free(lt);
        return -1;
    }
    for (uint32_t b = 0; b < g->nbufs; b++) {
        lt->alloc_step[b] = r->pos[g->buf_alloc[b]];
        lt->free_step[b] = g->buf_free[b] == GRAPH_NONE ? r->n : r->pos[g->buf_free[b]];
    }
    return 0;
}

int64_t place_width(const graph *g, const lifetimes *lt, uint32_t b)
{
    if (g->time && g->buf_free[b] != GRAPH_NONE)
        return g->time[g->buf_free[b]] - g->time[g->buf_alloc[b]];
    return (int64_t)lt->free_step[b] - lt->alloc_step[b];
}

void place_lifetimes_free(lifetimes *lt)
{
    free(lt->alloc_step);
    free(lt->free_step);
    lt->alloc_step = lt->free_step = NULL;
}

/* ------------------------------------------------------------ running */

/* What making the answer takes after the deadline, a buffer (the greedy's
 * cut plan stacked and copied, the high-water marks, the bound, the frees:
 * 0.15-0.3 s at 10^6 buffers on this project's machine): the deadline comes
 * that much before the limit, at most a fifth of it. */
#define PLACE_TAIL_SECONDS 1.5e-7

void place_free(placement *pl)
{
    free(pl->offset);
    free(pl->hwm);
    free(pl->block);
    memset(pl, 0, sizeof *pl);
}

int place_run(const graph *g, const run *r, const placer *p, int64_t align, const solve_ctx *c,
              placement *pl, char *err, size_t errcap)
{
    memset(pl, 0, sizeof *pl);
    if (align < 1 || (align & (align - 1))) {
        snprintf(err, errcap, "alignment %lld is not a power of two", (long long)align);
        return -1;
    }
    /* The limit counts from here, the whole of the solving (the setup,
     * best's plan, the search, the answer): a deadline for a searching
     * placer (exact), and for any under --time-limit, unless the caller set
     * one. */
    solve_ctx sub = c ? *c : (solve_ctx){0};
    if (!(sub.deadline > 0) && (p->searches || (c && c->seconds > 0))) {
        double limit = solve_seconds(c), tail = PLACE_TAIL_SECONDS * (double)g->nbufs;
        sub.deadline = solve_now(c) + limit - (tail < limit / 5 ? tail : limit / 5);
        c = &sub;
    }
    pl->placer = p->name;
    pl->align = align;
    pl->offset = calloc((size_t)g->nbufs + 1, sizeof *pl->offset);
    pl->hwm = calloc((size_t)g->n + 1, sizeof *pl->hwm);
    lifetimes lt = {0};
    if (!pl->offset || !pl->hwm || place_lifetimes(g, r, &lt)) {
        place_free(pl);
        return place_oom(g, err, errcap);
    }
    solve_doing(c, p->name);
    /* Cancelled, a placer with a plan keeps it (exact: best's, or the
     * smallest its search found); one without says so. */
    if (p->place(g, r, &lt, align, c, pl, err, errcap)) {
        if (solve_cancelled(c)) snprintf(err, errcap, "cancelled");
        place_lifetimes_free(&lt);
        place_free(pl);
        return -1;
    }
    pl->placer = p->name;
    pl->align = align;
    /* hwm[s]: the largest end among buffers allocated at or before step s
     * (of their blocks, where the placer holds more than the span). */
    for (uint32_t b = 0; b < g->nbufs; b++) {
        int64_t end =
            pl->offset[b] + (pl->block ? pl->block[b] : place_span(g->buf_size[b], align));
        if (end > pl->hwm[lt.alloc_step[b]]) pl->hwm[lt.alloc_step[b]] = end;
    }
    for (uint32_t s = 1; s < g->n; s++)
        if (pl->hwm[s - 1] > pl->hwm[s]) pl->hwm[s] = pl->hwm[s - 1];
    pl->arena = g->n ? pl->hwm[g->n - 1] : 0;
    if (pl->reserved > pl->arena) pl->arena = pl->reserved;
    pl->reserved = pl->reserved ? pl->reserved : pl->arena;
    place_lifetimes_free(&lt);
    int64_t lb = place_lower_bound(g, r, align);
    if (pl->bound < lb) pl->bound = lb;
    pl->proven = pl->arena <= pl->bound;
    pl->capacity = c && c->capacity > 0 ? c->capacity : 0;
    if (pl->capacity)
        pl->fits = pl->arena <= c->capacity  ? PLACE_FITS_YES
                   : pl->bound > c->capacity ? PLACE_FITS_NO
                                             : PLACE_FITS_UNKNOWN;
    /* Every offset aligned and at or above 0 (place_verify checks overlaps). */
    for (uint32_t b = 0; MEMTRIS_CHECKING && b < g->nbufs; b++)
        MEMTRIS_ASSERT(pl->offset[b] >= 0 && pl->offset[b] % align == 0);
    return 0;
}

int64_t place_lower_bound(const graph *g, const run *r, int64_t align)
{
    int64_t live = 0, peak = 0; /* saturates at INT64_MAX */
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s], b = g->buf[u];
        if (b == GRAPH_NONE) continue;
        int64_t span = place_span(g->buf_size[b], align);
        if (g->kind[u] == NODE_ALLOC) {
            if (__builtin_add_overflow(live, span, &live)) return INT64_MAX;
            if (live > peak) peak = live;
        } else if (g->kind[u] == NODE_FREE) {
            live -= span;
        }
    }
    return peak;
}

int place_check(const graph *g, const run *r, const placement *pl, const char *pname, char *err,
                size_t errcap)
{
    char why[512];
    if (place_verify(g, r, pl, why, sizeof why) == 0) return 0;
    snprintf(err, errcap, "internal error: placer %s made an invalid plan for %s: %s", pname,
             g->source ? g->source : "the graph", why);
    return -1;
}

int place_run_checked(const graph *g, const run *r, const placer *p, int64_t align,
                      const solve_ctx *c, placement *pl, char *err, size_t errcap)
{
    if (place_run(g, r, p, align, c, pl, err, errcap)) return PLACE_FAILED;
    if (place_check(g, r, pl, p->name, err, errcap) == 0) return PLACE_OK;
    place_free(pl);
    return PLACE_INVALID;
}

double place_fragmentation(const placement *pl, int64_t live_peak)
{
    return pl->arena > 0 && pl->arena > live_peak
               ? (double)(pl->arena - live_peak) / (double)pl->arena
               : 0.0;
}

/* ------------------------------------------------------------ verifier */

int place_verify(const graph *g, const run *r, const placement *pl, char *err, size_t errcap)
{
    lifetimes lt = {0};
    gaps live; /* live blocks, keyed by offset */
    uint32_t *at_off = malloc(((size_t)g->nbufs + 1) * sizeof *at_off);
    if (place_lifetimes(g, r, &lt) || !at_off || gaps_init(&live, g->nbufs + 1)) {
        place_lifetimes_free(&lt);
        free(at_off);
        snprintf(err, errcap, "out of memory verifying %u buffers", g->nbufs);
        return -1;
    }
    int bad = 0;
    for (uint32_t b = 0; b < g->nbufs && !bad; b++)
        if (pl->offset[b] < 0 || pl->offset[b] % pl->align) {
            if (pl->offset[b] < 0)
                snprintf(err, errcap, "buffer %lld is at offset %lld, below 0",
                         (long long)g->buf_id[b], (long long)pl->offset[b]);
            else
                snprintf(err, errcap, "buffer %lld is at offset %lld, not a multiple of %lld",
                         (long long)g->buf_id[b], (long long)pl->offset[b], (long long)pl->align);
            bad = 1;
        }
    /* Sweep the steps: remove blocks as they are freed, check each new block
     * against its neighbours in address. */
    for (uint32_t s = 0; s < r->n && !bad; s++) {
        uint32_t u = r->order[s], b = g->buf[u];
        if (b == GRAPH_NONE) continue;
        int64_t off = pl->offset[b], span = place_span(g->buf_size[b], pl->align);
        if (span == 0) continue;
        if (g->kind[u] == NODE_FREE) {
            gaps_remove(&live, off);
            continue;
        }
        if (g->kind[u] != NODE_ALLOC) continue;
        uint32_t p, q; /* the live blocks at or below off, and above it */
        gaps_around(&live, off, &p, &q);
        uint32_t hit = p != GAPS_NONE && live.n[p].off + live.n[p].len > off ? p
                       : q != GAPS_NONE && live.n[q].off < off + span        ? q
                                                                             : GAPS_NONE;
        if (hit != GAPS_NONE) {
            uint32_t other = at_off[hit];
            snprintf(err, errcap,
                     "buffers %lld [%lld, %lld) and %lld [%lld, %lld) are live together at step %u "
                     "and overlap",
                     (long long)g->buf_id[other], (long long)pl->offset[other],
                     (long long)(pl->offset[other] + place_span(g->buf_size[other], pl->align)),
                     (long long)g->buf_id[b], (long long)off, (long long)(off + span), s + 1);
            bad = 1;
            break;
        }
        at_off[gaps_insert(&live, off, span)] = b;
    }
    gaps_free(&live);
    free(at_off);
    place_lifetimes_free(&lt);
    return bad ? -1 : 0;
}
