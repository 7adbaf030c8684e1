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
    void *all[] = {P->tw,    P->ovb,   P->size,   P->w,       P->lo,      P->hi,
                   P->s0,    P->s1,    P->bid,    P->ovs,     P->ov,      P->secs,
                   P->sec,   P->parts, P->part,   P->psec0,   P->psec1,   P->total0,
                   P->cuts0, P->off,   P->minoff, P->sol,     P->floor,   P->total,
                   P->cuts,  P->u,     P->wit,    P->pre_max, P->suf_max, P->cs};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]);
    memset(P, 0, sizeof *P);
}

/* The sweep's scratch: the ends of the lifetimes in time order, the live
 * buffers (act, and each one's place in it), and the overlap lists' fill. */
typedef struct sweep {
    point *pts;
    uint32_t *act, *where, *fill;
} sweep;

static void sweep_free(sweep *S)
{
    free(S->pts);
    free(S->act);
    free(S->where);
    free(S->fill);
}

/* Removes p.b from the live buffers; returns how many are left. */
static uint32_t sweep_drop(sweep *S, uint32_t nact, uint32_t b)
{
    uint32_t w = S->where[b];
    S->act[w] = S->act[--nact];
    S->where[S->act[w]] = w;
    return nact;
}

/* First pass: counts each buffer's overlaps with those live at its start
 * (in P->ovs), the overlaps (*nov) and the sections' lists (*nsecbuf), and
 * sets s0, s1 and nsec. XP_OK, or XP_TOO_LARGE past max_overlaps. */
static int sweep_count(xp *P, sweep *S, uint64_t max_overlaps, uint64_t *nov, uint64_t *nsecbuf)
{
    uint32_t nb = P->nb, nact = 0, nsec = 0, last_t = nb ? S->pts[0].t : 0;
    for (size_t k = 0; k < 2 * (size_t)nb; k++) {
        point p = S->pts[k];
        if (p.right) {
            if (last_t < p.t) {
                last_t = p.t;
                nsec++;
                *nsecbuf += nact;
            }
            nact = sweep_drop(S, nact, p.b);
            P->s1[p.b] = nsec;
            if (*nsecbuf > max_overlaps) return XP_TOO_LARGE;
        } else {
            P->ovs[p.b] += nact;
            *nov += 2 * (uint64_t)nact;
            if (*nov > max_overlaps) return XP_TOO_LARGE;
            S->where[p.b] = nact;
            S->act[nact++] = p.b;
            P->s0[p.b] = nsec;
        }
    }
    /* A right end always closes a section at its own time or before: a
     * buffer's last right end found last_t < t unless an earlier right end
     * at the same time did; either way s1 > s0 (its left end came first). */
    P->nsec = nsec;
    return XP_OK;
}

/* Turns P->ovs into the starts of each buffer's overlap list: the full
 * count, each overlap pair (x live, y starts) adding to both. 0, or -1 out
 * of memory. */
static int sweep_starts(xp *P, sweep *S)
{
    uint32_t nb = P->nb, nact = 0, *cnt = P->ovs;
    uint32_t *full = calloc((size_t)nb + 1, sizeof *full);
    if (!full) return -1;
    for (size_t k = 0; k < 2 * (size_t)nb; k++) {
        point p = S->pts[k];
        if (p.right) {
            nact = sweep_drop(S, nact, p.b);
        } else {
            for (uint32_t j = 0; j < nact; j++) full[S->act[j]]++;
            full[p.b] += nact;
            S->where[p.b] = nact;
            S->act[nact++] = p.b;
        }
    }
    uint32_t acc = 0;
    for (uint32_t b = 0; b < nb; b++) {
        cnt[b] = acc;
        acc += full[b];
    }
    cnt[nb] = acc;
    free(full);
    return 0;
}

/* Second pass: fills the overlaps, sections and partitions. */
static void sweep_fill(xp *P, sweep *S)
{
    uint32_t nb = P->nb, nact = 0, nsec = 0, last_t = nb ? S->pts[0].t : 0;
    uint32_t npart = 0, nsb = 0, last_sec = 0, *act = S->act, *fill = S->fill, *cnt = P->ovs;
    for (size_t k = 0; k < 2 * (size_t)nb; k++) {
        point p = S->pts[k];
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
            nact = sweep_drop(S, nact, p.b);
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
            S->where[p.b] = nact;
            act[nact++] = p.b;
        }
    }
    P->npart = npart;
    for (uint32_t b = 0; b < nb; b++) {
        for (uint32_t s = P->s0[b]; s + 1 < P->s1[b]; s++) P->cuts0[s]++;
        int64_t o = 0;
        for (uint32_t k = cnt[b]; k < cnt[b + 1]; k++)
            if (__builtin_add_overflow(o, P->size[P->ov[k]], &o)) o = INT64_MAX;
        P->ovb[b] = o;
    }
}

/* Brings the lifetimes to their canonical form: only the order of starts
 * and ends matters to a plan, so time is counted in the coarsest way that
 * keeps it. A time is a run of ends, then a run of starts (the ends first:
 * [a, b) and [b, c) do not meet), and a new one begins where an end follows
 * a start. A buffer's width (the static orders' W) is its span in these
 * times. The CSV with MiniMalloc's times, the CSV with one event a step
 * and the chain graph of ALLOC and FREE nodes are then one problem,
 * searched the same way. */
static void canonical_times(xp *P, sweep *S)
{
    uint32_t t = 0;
    for (size_t k = 0; k < 2 * (size_t)P->nb; k++) {
        point *p = &S->pts[k];
        if (k && p->right && !S->pts[k - 1].right) t++;
        p->t = t;
        if (p->right) P->hi[p->b] = t;
        else P->lo[p->b] = t;
    }
    for (uint32_t b = 0; b < P->nb; b++) P->w[b] = (int64_t)P->hi[b] - P->lo[b];
}

/* Whether the problem's own times say more than the order of its events:
 * not where each start and end has a time of its own, one apart (what
 * `plan -f minimalloc` writes of a schedule's steps), so that every width
 * counts the events within (P->lo and P->hi: scratch, canonical_times
 * sets them). Where they do not, the search takes the orders of a problem
 * without times, and searches such a CSV as it does the graph. */
static void own_times(xp *P, const sweep *S)
{
    if (!P->has_time) return;
    for (size_t k = 0; k < 2 * (size_t)P->nb; k++) {
        const point *p = &S->pts[k];
        if (p->right) P->hi[p->b] = (uint32_t)k;
        else P->lo[p->b] = (uint32_t)k;
    }
    for (uint32_t b = 0; b < P->nb; b++)
        if (P->tw[b] != (int64_t)P->hi[b] - P->lo[b]) return;
    P->has_time = 0;
}

/* The arrays of the buffers and the ends of their lifetimes, sorted. 0, or
 * -1 out of memory. */
static int xp_buffers(xp *P, sweep *S, const graph *g, const lifetimes *lt, int64_t align)
{
    size_t n1 = (size_t)P->nb + 1;
    P->size = malloc(n1 * sizeof *P->size);
    P->w = malloc(n1 * sizeof *P->w);
    P->tw = malloc(n1 * sizeof *P->tw);
    P->ovb = malloc(n1 * sizeof *P->ovb);
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
    S->pts = malloc(2 * n1 * sizeof *S->pts);
    S->act = malloc(n1 * sizeof *S->act);
    S->where = malloc(n1 * sizeof *S->where);
    if (!P->size || !P->w || !P->tw || !P->ovb || !P->lo || !P->hi || !P->s0 || !P->s1 || !P->bid ||
        !P->ovs || !P->parts || !P->part || !P->psec0 || !P->psec1 || !S->pts || !S->act ||
        !S->where)
        return -1;
    uint32_t i = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        int64_t span = place_span(g->buf_size[b], align);
        if (span <= 0) continue;
        P->size[i] = span;
        P->lo[i] = lt->alloc_step[b];
        P->hi[i] = lt->free_step[b] > lt->alloc_step[b] ? lt->free_step[b] : lt->alloc_step[b] + 1;
        P->bid[i] = b;
        P->tw[i] = g->time ? place_width(g, lt, b) : 0;
        S->pts[2 * i] = (point){P->lo[i], 0, i};
        S->pts[2 * i + 1] = (point){P->hi[i], 1, i};
        i++;
    }
    qsort(S->pts, 2 * (size_t)P->nb, sizeof *S->pts, point_cmp);
    own_times(P, S);
    canonical_times(P, S);
    return 0;
}

/* The arrays sized by the first pass: overlaps, sections, the search's. 0,
 * or -1 out of memory. */
static int xp_sections(xp *P, sweep *S, uint64_t nov, uint64_t nsecbuf)
{
    size_t n1 = (size_t)P->nb + 1, ns1 = (size_t)P->nsec + 1;
    P->ov = malloc(((size_t)nov + 1) * sizeof *P->ov);
    P->secs = calloc(ns1 + 1, sizeof *P->secs);
    P->sec = malloc(((size_t)nsecbuf + 1) * sizeof *P->sec);
    P->total0 = calloc(ns1, sizeof *P->total0);
    P->cuts0 = calloc(ns1, sizeof *P->cuts0);
    P->floor = calloc(ns1, sizeof *P->floor);
    P->total = calloc(ns1, sizeof *P->total);
    P->cuts = calloc(ns1, sizeof *P->cuts);
    P->wit = calloc(ns1, sizeof *P->wit);
    P->pre_max = calloc(ns1, sizeof *P->pre_max);
    P->cs = malloc(n1 * sizeof *P->cs);
    P->suf_max = calloc(ns1, sizeof *P->suf_max);
    P->off = malloc(n1 * sizeof *P->off);
    P->minoff = malloc(n1 * sizeof *P->minoff);
    P->sol = malloc(n1 * sizeof *P->sol);
    S->fill = calloc(n1, sizeof *S->fill);
    return P->ov && P->secs && P->sec && P->total0 && P->cuts0 && P->floor && P->total && P->cuts &&
                   P->wit && P->pre_max && P->suf_max && P->cs && P->off && P->minoff && P->sol &&
                   S->fill
               ? 0
               : -1;
}

int xp_build(xp *P, const graph *g, const lifetimes *lt, int64_t align, uint32_t max_buffers,
             uint64_t max_overlaps, size_t max_bytes)
{
    memset(P, 0, sizeof *P);
    uint32_t nb = 0;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (place_span(g->buf_size[b], align) > 0) nb++;
    if (nb > max_buffers) return XP_TOO_LARGE;
    P->nb = nb;
    P->has_time = g->time != NULL;
    sweep S = {0};
    uint64_t nov = 0, nsecbuf = 0;
    int rc = XP_OOM;
    if (xp_buffers(P, &S, g, lt, align)) goto out;
    rc = sweep_count(P, &S, max_overlaps, &nov, &nsecbuf);
    if (rc != XP_OK) goto out;
    /* the arrays by buffer (about 17 of 4 to 16 bytes), by section (9),
     * the overlaps and the sections' lists, and the sweep's */
    P->mem = (size_t)(nov + nsecbuf) * 4 + ((size_t)nb + 1) * 160 + ((size_t)P->nsec + 1) * 68;
    rc = XP_MEMORY;
    if (P->mem > max_bytes) goto out;
    rc = XP_OOM;
    if (xp_sections(P, &S, nov, nsecbuf) || sweep_starts(P, &S)) goto out;
    sweep_fill(P, &S);
    rc = XP_OK;
out:
    sweep_free(&S);
    return rc;
}
