/* place_exact_build.c: exact's problem from a schedule's lifetimes: the
 * buffers with a span, the sections (MiniMalloc's sweep), the partitions and
 * the overlaps. Exports xp_build, xp_free (place_exact_internal.h). */
#include "place_exact_internal.h"
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the sweep */

typedef struct point {
    uint32_t t, right, b; /* right ends sort before left ends at one time */
} point;

static int point_cmp(const void *x, const void *y)
{
    const point *a = x, *b = y;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    if (a->right != b->right) return a->right ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

void xp_free(xp *P)
{
    void *all[] = {P->size,  P->w,    P->lo,     P->hi,    P->s0,    P->s1,    P->bid,   P->ovs,
                   P->ov,    P->secs, P->sec,    P->parts, P->part,  P->psec0, P->psec1, P->total0,
                   P->cuts0, P->off,  P->minoff, P->sol,   P->floor, P->total, P->cuts,  P->u};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]);
    memset(P, 0, sizeof *P);
}

int xp_build(xp *P, const graph *g, const lifetimes *lt, int64_t align, uint32_t max_buffers,
             uint64_t max_overlaps)
{
    memset(P, 0, sizeof *P);
    uint32_t nb = 0;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (place_span(g->buf_size[b], align) > 0) nb++;
    if (nb > max_buffers) return -2;
    P->nb = nb;
    size_t n1 = (size_t)nb + 1;
    P->size = malloc(n1 * sizeof *P->size);
    P->w = malloc(n1 * sizeof *P->w);
    P->lo = malloc(n1 * sizeof *P->lo);
    P->hi = malloc(n1 * sizeof *P->hi);
    P->s0 = malloc(n1 * sizeof *P->s0);
    P->s1 = malloc(n1 * sizeof *P->s1);
    P->bid = malloc(n1 * sizeof *P->bid);
    P->ovs = calloc(n1, sizeof *P->ovs);
    P->parts = calloc(n1 + 1, sizeof *P->parts);
    P->part = malloc(n1 * sizeof *P->part);
    P->psec0 = malloc(n1 * sizeof *P->psec0);
    P->psec1 = malloc(n1 * sizeof *P->psec1);
    point *pts = malloc(2 * n1 * sizeof *pts);
    uint32_t *act = malloc(n1 * sizeof *act), *where = malloc(n1 * sizeof *where);
    if (!P->size || !P->w || !P->lo || !P->hi || !P->s0 || !P->s1 || !P->bid || !P->ovs ||
        !P->parts || !P->part || !P->psec0 || !P->psec1 || !pts || !act || !where) {
        free(pts);
        free(act);
        free(where);
        return -1;
    }
    uint32_t i = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        int64_t span = place_span(g->buf_size[b], align);
        if (span <= 0) continue;
        P->size[i] = span;
        P->lo[i] = lt->alloc_step[b];
        P->hi[i] = lt->free_step[b] > lt->alloc_step[b] ? lt->free_step[b] : lt->alloc_step[b] + 1;
        P->bid[i] = b;
        P->w[i] = place_width(g, lt, b);
        pts[2 * i] = (point){P->lo[i], 0, i};
        pts[2 * i + 1] = (point){P->hi[i], 1, i};
        i++;
    }
    qsort(pts, 2 * (size_t)nb, sizeof *pts, point_cmp);
    /* First pass: count overlaps and section sizes, and set s0, s1. */
    uint32_t nact = 0, nsec = 0, last_t = nb ? pts[0].t : 0;
    uint64_t nov = 0, nsecbuf = 0;
    for (size_t k = 0; k < 2 * (size_t)nb; k++) {
        point p = pts[k];
        if (p.right) {
            if (last_t < p.t) {
                last_t = p.t;
                nsec++;
                nsecbuf += nact;
            }
            uint32_t w = where[p.b];
            act[w] = act[--nact];
            where[act[w]] = w;
            P->s1[p.b] = nsec;
            if (nsecbuf > max_overlaps) {
                free(pts);
                free(act);
                free(where);
                return -2;
            }
        } else {
            P->ovs[p.b] += nact;
            nov += 2 * (uint64_t)nact;
            if (nov > max_overlaps) {
                free(pts);
                free(act);
                free(where);
                return -2;
            }
            where[p.b] = nact;
            act[nact++] = p.b;
            P->s0[p.b] = nsec;
        }
    }
    /* A right end always closes a section at its own time or before: a
     * buffer's last right end found last_t < t unless an earlier right end
     * at the same time did; either way s1 > s0 (its left end came first). */
    P->nsec = nsec;
    size_t ns1 = (size_t)nsec + 1;
    P->ov = malloc(((size_t)nov + 1) * sizeof *P->ov);
    P->secs = calloc(ns1 + 1, sizeof *P->secs);
    P->sec = malloc(((size_t)nsecbuf + 1) * sizeof *P->sec);
    P->total0 = calloc(ns1, sizeof *P->total0);
    P->cuts0 = calloc(ns1, sizeof *P->cuts0);
    P->floor = calloc(ns1, sizeof *P->floor);
    P->total = calloc(ns1, sizeof *P->total);
    P->cuts = calloc(ns1, sizeof *P->cuts);
    P->off = malloc(n1 * sizeof *P->off);
    P->minoff = malloc(n1 * sizeof *P->minoff);
    P->sol = malloc(n1 * sizeof *P->sol);
    uint32_t *fill = calloc(n1, sizeof *fill);
    if (!P->ov || !P->secs || !P->sec || !P->total0 || !P->cuts0 || !P->floor || !P->total ||
        !P->cuts || !P->off || !P->minoff || !P->sol || !fill) {
        free(pts);
        free(act);
        free(where);
        free(fill);
        return -1;
    }
    /* Overlap lists: each buffer's count so far is those live at its start;
     * it gains the later ones as they start. */
    uint32_t *cnt = P->ovs; /* reuse: turn counts into starts below */
    for (uint32_t b = 0; b < nb; b++) fill[b] = 0;
    {
        /* The full count: each overlap pair (x live, y starts) adds to both. */
        uint32_t *full = calloc(n1, sizeof *full);
        if (!full) {
            free(pts);
            free(act);
            free(where);
            free(fill);
            return -1;
        }
        nact = 0;
        for (size_t k = 0; k < 2 * (size_t)nb; k++) {
            point p = pts[k];
            if (p.right) {
                uint32_t w = where[p.b];
                act[w] = act[--nact];
                where[act[w]] = w;
            } else {
                for (uint32_t j = 0; j < nact; j++) full[act[j]]++;
                full[p.b] += nact;
                where[p.b] = nact;
                act[nact++] = p.b;
            }
        }
        uint32_t acc = 0;
        for (uint32_t b = 0; b < nb; b++) {
            cnt[b] = acc;
            acc += full[b];
        }
        cnt[nb] = acc;
        free(full);
    }
    /* Second pass: fill overlaps, sections and partitions. */
    nact = 0;
    nsec = 0;
    last_t = nb ? pts[0].t : 0;
    uint32_t npart = 0, nsb = 0, last_sec = 0;
    for (size_t k = 0; k < 2 * (size_t)nb; k++) {
        point p = pts[k];
        if (p.right) {
            if (last_t < p.t) {
                last_t = p.t;
                P->secs[nsec] = nsb;
                for (uint32_t j = 0; j < nact; j++) {
                    P->sec[nsb++] = act[j];
                    P->total0[nsec] += P->size[act[j]];
                }
                nsec++;
                P->secs[nsec] = nsb;
            }
            uint32_t w = where[p.b];
            act[w] = act[--nact];
            where[act[w]] = w;
            if (nact == 0) {
                P->psec0[npart - 1] = last_sec;
                P->psec1[npart - 1] = nsec;
                last_sec = nsec;
            }
        } else {
            if (nact == 0) {
                npart++;
                P->parts[npart] = P->parts[npart - 1];
            }
            P->part[P->parts[npart]++] = p.b;
            for (uint32_t j = 0; j < nact; j++) {
                uint32_t x = act[j];
                P->ov[cnt[x] + fill[x]++] = p.b;
                P->ov[cnt[p.b] + fill[p.b]++] = x;
            }
            where[p.b] = nact;
            act[nact++] = p.b;
        }
    }
    P->npart = npart;
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t s = P->s0[b]; s + 1 < P->s1[b]; s++) P->cuts0[s]++;
    free(pts);
    free(act);
    free(where);
    free(fill);
    return 0;
}
