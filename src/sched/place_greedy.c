/* place_offline.c: placers that see every lifetime first: the seed's interval
 * coloring (seed 000, 3.2), TFLite's greedy by size with XLA's second order,
 * and best (all placers, then a hill-climb). Exports place_coloring, place_greedy_size, place_best. */
#include "place.h"
#include "heap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

static int oom(const graph *g, char *err, size_t errcap)
{
    snprintf(err, errcap, "out of memory placing %u buffers", g->nbufs);
    return -1;
}

static int too_big(const graph *g, uint32_t b, char *err, size_t errcap)
{
    snprintf(err, errcap, "the arena would pass 2^63-1 bytes (buffer %lld)", (long long)g->buf_id[b]);
    return -1;
}

/* ------------------------------------------------------------ coloring */

/* The seed's pseudocode: intervals by start, each given the smallest color
 * that no overlapping, already colored interval holds, a new color when all
 * are taken; offset = color x BLOCK_SIZE. Walking the schedule is that order,
 * and the colors not held by a live buffer are exactly the available ones: a
 * min-heap of them (freed colors) and the count of colors so far replace the
 * seed's neighbour sets. BLOCK_SIZE is the largest span, and the plan holds
 * colors x BLOCK_SIZE bytes (reserved). Zero-byte buffers hold nothing and
 * take no color. */
int place_coloring(const graph *g, const run *r, const lifetimes *lt, int64_t align, placement *pl,
                   char *err, size_t errcap)
{
    (void)lt;
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
        return oom(g, err, errcap);
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
            return too_big(g, b, err, errcap);
        }
        pl->offset[b] = top - block;
        pl->block[b] = block;
    }
    pl->reserved = ncolors * block;
    heap_free(&freec);
    free(color);
    return 0;
}

/* ------------------------------------------------------------ greedy by size */

/* A set of ticks (see greedy below): a bitset with a summary level per 64
 * words, for "the next member at or after t" in a few word reads. */
typedef struct stepset {
    uint64_t *w[6];
    uint64_t nw[6];
    int levels;
} stepset;

static int stepset_init(stepset *b, uint64_t n)
{
    memset(b, 0, sizeof *b);
    uint64_t bits = n ? n : 1;
    do {
        b->nw[b->levels] = (bits + 63) / 64;
        b->w[b->levels] = calloc(b->nw[b->levels], sizeof(uint64_t));
        if (!b->w[b->levels]) return -1;
        bits = b->nw[b->levels++];
    } while (bits > 1);
    return 0;
}

static void stepset_free(stepset *b)
{
    for (int l = 0; l < b->levels; l++) free(b->w[l]);
    memset(b, 0, sizeof *b);
}

static void stepset_clear(stepset *b)
{
    for (int l = 0; l < b->levels; l++) memset(b->w[l], 0, b->nw[l] * sizeof(uint64_t));
}

static void stepset_add(stepset *b, uint64_t x)
{
    for (int l = 0; l < b->levels; l++, x >>= 6) b->w[l][x >> 6] |= (uint64_t)1 << (x & 63);
}

/* The smallest member >= x, or UINT64_MAX. */
static uint64_t stepset_next(const stepset *b, uint64_t x)
{
    int l = 0;
    for (;; l++, x = (x >> 6) + 1) {
        if (l == b->levels || (x >> 6) >= b->nw[l]) return UINT64_MAX;
        uint64_t w = b->w[l][x >> 6] & (~(uint64_t)0 << (x & 63));
        if (w) { x = (x & ~(uint64_t)63) | (uint64_t)__builtin_ctzll(w); break; }
    }
    while (l-- > 0) x = (x << 6) | (uint64_t)__builtin_ctzll(b->w[l][x]);
    return x;
}

typedef struct span_item {
    int64_t off, end;
} span_item;

/* A placed buffer on the fringe of a block: its address range and lifetime. */
typedef struct seg_item {
    int64_t off, end;
    uint32_t a, f;
} seg_item;

/* One buffer to place, with what placing it reads, in the order of placing. */
typedef struct job {
    int64_t span;
    uint32_t b, a, f;    /* the buffer and its lifetime [a, f) in ticks */
} job;

/* A growable list of address ranges, replaced by their union (sorted,
 * disjoint, touching ranges joined) when a query reads it: packed buffers
 * make a short union however many they are. v[0..clean) is a union. */
typedef struct ulist {
    span_item *v;
    uint32_t n, cap, clean;
} ulist;

/* A growable list of fringe items, read through a filter. */
typedef struct flist {
    seg_item *v;
    uint32_t n, cap;
} flist;

/* Ticks go to the trees in blocks of this many, which keeps the trees small
 * enough to stay in cache. */
#define GREEDY_BLOCK_SHIFT 5
#define GREEDY_BLOCK ((uint64_t)1 << GREEDY_BLOCK_SHIFT)
/* The starts tree has a fan-out of 16: a buffer joins one union per level. */
#define GREEDY_FAN_SHIFT 4
#define GREEDY_FAN ((uint64_t)1 << GREEDY_FAN_SHIFT)
#define GREEDY_MAX_LEVELS 8

static void sort_items(span_item *a, uint32_t k);

/* The state of one greedy placement. Time is counted in ticks: the ALLOCs
 * of the buffers with a span, numbered in schedule order, so a buffer lives
 * over the ticks [a, f) from its own ALLOC's to the first after its FREE
 * (two lifetimes meet in ticks exactly when they do in steps, and the arrays
 * are a third of the size for a schedule of ALLOC, compute and FREE).
 *
 * Greedy needs, for a new buffer, the union U of the address ranges of the
 * placed buffers whose lifetimes meet its [a, f): its gaps are the candidates
 * (TFLite's scan over those buffers sorted by offset sees exactly them). Those
 * buffers are the ones live at tick a and the ones allocated in (a, f):
 *  - live at a: a segment tree over blocks lists each placed buffer in the
 *    O(log n) nodes that its whole blocks make up (cover, as unions: all of
 *    a node's list is live over all of the node), and in the fringe list of
 *    the one or two blocks it covers in part (filtered by lifetime; a block's
 *    fringe is read only by the buffers allocated in it, so all fringe reads
 *    of a run cost O(n x block));
 *  - allocated in (a, f): the placed ticks one by one in the blocks at the
 *    ends and in up to 15 whole blocks next to each, and in between the
 *    unions of the buffers allocated in each 16 blocks, each 256 and so on
 *    (starts), at most 30 a level.
 * So a query reads O(log n) unions, a block's fringe and a few blocks of
 * ticks, and placing a buffer adds it to O(log n) lists: long-lived buffers
 * packed together cost little however many overlap. */
typedef struct greedy {
    const graph *g;
    const lifetimes *lt;
    uint32_t nb;          /* buffers with a span */
    uint32_t *bufs;       /* [nb] those buffers in tick order */
    int64_t *span;        /* [nbufs] */
    uint32_t *ta, *tf;    /* [nbufs] each buffer's lifetime in ticks */
    uint32_t nblocks, leaves;   /* blocks of ticks; leaves of the trees, a power of two >= nblocks */
    ulist *cover;         /* [2 leaves] */
    uint32_t *cmask;      /* [leaves] bit d: the node d levels above the leaf has a cover list */
    ulist *starts[GREEDY_MAX_LEVELS];   /* [level][blocks >> 4 level], from level 1 */
    uint32_t nstarts[GREEDY_MAX_LEVELS];
    int levels;
    flist *fringe;        /* [nblocks] */
    span_item *by_tick;   /* [nb] the range of the buffer allocated at a tick, once placed */
    stepset placed;       /* the placed ticks */
    span_item *tmp;       /* [nb] the ranges one query gathers */
    span_item *scratch;   /* [nb] for joining a list */
    uint64_t work;        /* ranges read, buffers placed: the cost measure of best */
    uint64_t max_work;    /* greedy_place gives up when work passes it (UINT64_MAX: never) */
} greedy;

static void greedy_free(greedy *G)
{
    for (size_t i = 0; G->cover && i < 2 * (size_t)G->leaves; i++) free(G->cover[i].v);
    for (int l = 0; l < G->levels; l++) {
        for (size_t i = 0; G->starts[l] && i < G->nstarts[l]; i++) free(G->starts[l][i].v);
        free(G->starts[l]);
    }
    for (size_t i = 0; G->fringe && i < G->nblocks; i++) free(G->fringe[i].v);
    free(G->cover);
    free(G->cmask);
    free(G->fringe);
    free(G->bufs);
    free(G->span);
    free(G->by_tick);
    free(G->ta);
    free(G->tf);
    free(G->tmp);
    free(G->scratch);
    stepset_free(&G->placed);
    memset(G, 0, sizeof *G);
}

static int greedy_init(greedy *G, const graph *g, const run *r, const lifetimes *lt, int64_t align)
{
    memset(G, 0, sizeof *G);
    G->g = g;
    G->lt = lt;
    G->max_work = UINT64_MAX;
    size_t nbufs = (size_t)g->nbufs + 1;
    G->bufs = malloc(nbufs * sizeof *G->bufs);
    G->span = malloc(nbufs * sizeof *G->span);
    G->ta = malloc(nbufs * sizeof *G->ta);
    G->tf = malloc(nbufs * sizeof *G->tf);
    G->tmp = malloc(nbufs * sizeof *G->tmp);
    G->scratch = malloc(nbufs * sizeof *G->scratch);
    if (!G->bufs || !G->span || !G->ta || !G->tf || !G->tmp || !G->scratch) {
        greedy_free(G);
        return -1;
    }
    for (uint32_t b = 0; b < g->nbufs; b++) {
        G->span[b] = place_span(g->buf_size[b], align);
        G->tf[b] = NONE;
    }
    /* Ticks: an ALLOC with a span starts one; a FREE ends its buffer's
     * lifetime at the next; a buffer never freed lives to the last. */
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s], b = g->buf[u];
        if (b == GRAPH_NONE || !G->span[b]) continue;
        if (g->kind[u] == NODE_ALLOC) {
            G->ta[b] = G->nb;
            G->bufs[G->nb++] = b;
        } else if (g->kind[u] == NODE_FREE) {
            G->tf[b] = G->nb;
        }
    }
    for (uint32_t i = 0; i < G->nb; i++)
        if (G->tf[G->bufs[i]] == NONE) G->tf[G->bufs[i]] = G->nb;
    G->nblocks = (uint32_t)(((uint64_t)G->nb + GREEDY_BLOCK - 1) >> GREEDY_BLOCK_SHIFT);
    G->leaves = 1;
    while (G->leaves < G->nblocks) G->leaves *= 2;
    G->cover = calloc(2 * (size_t)G->leaves, sizeof *G->cover);
    G->cmask = calloc(G->leaves, sizeof *G->cmask);
    G->fringe = calloc((size_t)G->nblocks + 1, sizeof *G->fringe);
    G->by_tick = malloc(((size_t)G->nb + 1) * sizeof *G->by_tick);
    if (!G->cover || !G->cmask || !G->fringe || !G->by_tick || stepset_init(&G->placed, (uint64_t)G->nb + 1)) {
        greedy_free(G);
        return -1;
    }
    /* Level 0 (single blocks) is read from by_tick; levels above keep lists. */
    uint64_t units = G->nblocks ? G->nblocks : 1;
    G->levels = 1;
    while (units > 1 && G->levels < GREEDY_MAX_LEVELS) {
        units = (units + GREEDY_FAN - 1) >> GREEDY_FAN_SHIFT;
        G->nstarts[G->levels] = (uint32_t)units;
        G->starts[G->levels] = calloc(units, sizeof **G->starts);
        if (!G->starts[G->levels++]) {
            greedy_free(G);
            return -1;
        }
    }
    return 0;
}

static void greedy_reset(greedy *G)
{
    for (size_t i = 0; i < 2 * (size_t)G->leaves; i++) G->cover[i].n = G->cover[i].clean = 0;
    memset(G->cmask, 0, G->leaves * sizeof *G->cmask);
    for (int l = 0; l < G->levels; l++)
        for (size_t i = 0; i < G->nstarts[l]; i++) G->starts[l][i].n = G->starts[l][i].clean = 0;
    for (size_t i = 0; i < G->nblocks; i++) G->fringe[i].n = 0;
    stepset_clear(&G->placed);
}

static int ulist_add(ulist *l, span_item it)
{
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 8;
        span_item *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = it;
    return 0;
}

/* Makes l a union again: sorts what was added since, merges it with the
 * union before, joining the ranges that overlap or touch. */
static void ulist_join(greedy *G, ulist *l)
{
    span_item *old = l->v, *add = l->v + l->clean, *out = G->scratch;
    uint32_t nold = l->clean, nadd = l->n - l->clean, i = 0, j = 0, m = 0;
    sort_items(add, nadd);
    G->work += l->n;
    while (i < nold || j < nadd) {
        span_item x = j == nadd || (i < nold && old[i].off <= add[j].off) ? old[i++] : add[j++];
        if (m && x.off <= out[m - 1].end) {
            if (x.end > out[m - 1].end) out[m - 1].end = x.end;
        } else {
            out[m++] = x;
        }
    }
    memcpy(l->v, out, (size_t)m * sizeof *out);
    l->n = l->clean = m;
}

static int flist_add(flist *l, seg_item it)
{
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 8;
        seg_item *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = it;
    return 0;
}

/* Adds a range to the cover list of node v, d levels above the leaves; the
 * first one marks the node in the masks of the leaves under it. */
static int cover_add(greedy *G, uint64_t v, uint64_t d, span_item sp)
{
    if (!G->cover[v].n)
        for (uint64_t leaf = (v << d) - G->leaves, e = ((v + 1) << d) - G->leaves; leaf < e; leaf++)
            G->cmask[leaf] |= (uint32_t)1 << d;
    return ulist_add(&G->cover[v], sp);
}

/* Adds a placed buffer to the structures; 0, or -1 out of memory. */
static int greedy_insert(greedy *G, const job *j, int64_t off)
{
    uint64_t a = j->a, f = j->f;
    span_item sp = {off, off + j->span};
    uint64_t b0 = a >> GREEDY_BLOCK_SHIFT, b1 = (f - 1) >> GREEDY_BLOCK_SHIFT;
    uint64_t w0 = (a + GREEDY_BLOCK - 1) >> GREEDY_BLOCK_SHIFT, w1 = f >> GREEDY_BLOCK_SHIFT;   /* whole blocks */
    int bad = 0;
    for (uint64_t l = w0 + G->leaves, h = w1 + G->leaves, d = 0; l < h; l >>= 1, h >>= 1, d++) {
        if (l & 1) bad |= cover_add(G, l++, d, sp);
        if (h & 1) bad |= cover_add(G, --h, d, sp);
    }
    seg_item it = {sp.off, sp.end, j->a, j->f};
    if (b0 < w0 || b0 >= w1) bad |= flist_add(&G->fringe[b0], it);
    if (b1 != b0 && (b1 < w0 || b1 >= w1)) bad |= flist_add(&G->fringe[b1], it);
    for (int l = 1; l < G->levels; l++) bad |= ulist_add(&G->starts[l][b0 >> (GREEDY_FAN_SHIFT * l)], sp);
    G->by_tick[a] = sp;
    stepset_add(&G->placed, a);
    return bad ? -1 : 0;
}

/* Appends the ranges of the placed buffers allocated at ticks [lo, hi) to
 * tmp, a word of the tick set at a time. */
static uint32_t gather_ticks(const greedy *G, uint64_t lo, uint64_t hi, uint32_t k)
{
    for (uint64_t t = lo; t < hi;) {
        uint64_t wi = t >> 6, w = G->placed.w[0][wi] & (~(uint64_t)0 << (t & 63));
        if (!w) { t = stepset_next(&G->placed, (wi + 1) << 6); continue; }
        for (; w; w &= w - 1) {
            uint64_t x = (wi << 6) | (uint64_t)__builtin_ctzll(w);
            if (x >= hi) return k;
            G->tmp[k++] = G->by_tick[x];
        }
        t = (wi + 1) << 6;
    }
    return k;
}

static uint32_t gather_list(greedy *G, ulist *l, uint32_t k)
{
    if (!l->n) return k;
    if (l->n > l->clean) ulist_join(G, l);
    memcpy(G->tmp + k, l->v, (size_t)l->n * sizeof *l->v);
    G->work += l->n;
    return k + l->n;
}

/* The lowest offset of the smallest gap in U (see greedy) that holds the
 * buffer, else the top of U (TFLite's rule). */
static int64_t greedy_fit(greedy *G, const job *j)
{
    uint64_t a = j->a, f = j->f, blk = a >> GREEDY_BLOCK_SHIFT;
    uint32_t k = 0;
    /* Live at a: the fringe of a's block, then the cover of its path. */
    const flist *fr = &G->fringe[blk];
    /* An empty fringe may have no array: NULL + 0 is undefined in C (UBSan's
     * pointer-overflow check, found by tests/fuzz). */
    if (fr->n)
        for (const seg_item *it = fr->v, *e = it + fr->n; it < e; it++) {   /* no branch: a coin toss */
            G->tmp[k] = (span_item){it->off, it->end};
            k += it->a <= a && it->f > a;
        }
    G->work += fr->n / 4;
    for (uint32_t m = G->cmask[blk]; m; m &= m - 1)
        k = gather_list(G, &G->cover[(blk + G->leaves) >> __builtin_ctz(m)], k);
    /* Allocated in (a, f): ticks near the ends, unions of whole nodes between. */
    uint64_t lo = a + 1, hi = f, w0 = (lo + GREEDY_BLOCK - 1) >> GREEDY_BLOCK_SHIFT, w1 = hi >> GREEDY_BLOCK_SHIFT;
    if (w0 >= w1) {
        k = gather_ticks(G, lo, hi, k);
    } else {
        k = gather_ticks(G, lo, w0 << GREEDY_BLOCK_SHIFT, k);
        k = gather_ticks(G, w1 << GREEDY_BLOCK_SHIFT, hi, k);
        /* whole blocks [w0, w1): up to 15 at each end read tick by tick,
         * then units of 16^level blocks, at most 15 at each end of a level */
        uint64_t l = w0, h = w1;
        if (G->levels == 1) {
            k = gather_ticks(G, l << GREEDY_BLOCK_SHIFT, h << GREEDY_BLOCK_SHIFT, k);
        } else {
            uint64_t l1 = (l + GREEDY_FAN - 1) & ~(GREEDY_FAN - 1), h1 = h & ~(GREEDY_FAN - 1);
            if (l1 >= h1) {
                k = gather_ticks(G, l << GREEDY_BLOCK_SHIFT, h << GREEDY_BLOCK_SHIFT, k);
                l = h;
            } else {
                k = gather_ticks(G, l << GREEDY_BLOCK_SHIFT, l1 << GREEDY_BLOCK_SHIFT, k);
                k = gather_ticks(G, h1 << GREEDY_BLOCK_SHIFT, h << GREEDY_BLOCK_SHIFT, k);
                l = l1 >> GREEDY_FAN_SHIFT;
                h = h1 >> GREEDY_FAN_SHIFT;
            }
            for (int level = 1; l < h; level++, l >>= GREEDY_FAN_SHIFT, h >>= GREEDY_FAN_SHIFT) {
                ulist *st = G->starts[level];
                if (level == G->levels - 1) {   /* the top: all that is left */
                    for (; l < h; l++) k = gather_list(G, &st[l], k);
                    break;
                }
                for (; l < h && (l & (GREEDY_FAN - 1)); l++) k = gather_list(G, &st[l], k);
                for (; l < h && (h & (GREEDY_FAN - 1)); h--) k = gather_list(G, &st[h - 1], k);
            }
        }
    }
    /* a buffer costs a few cache misses, a range a few moves, and the sort */
    G->work += k + 16 + (k > 16 ? (uint64_t)k * (uint64_t)(32 - __builtin_clz(k)) / 4 : 0);
    sort_items(G->tmp, k);
    int64_t need = j->span, prev = 0, best = -1, best_gap = INT64_MAX;
    for (uint32_t i = 0; i < k; i++) {
        int64_t gap = G->tmp[i].off - prev;
        if (gap >= need && gap < best_gap) { best = prev; best_gap = gap; }
        if (G->tmp[i].end > prev) prev = G->tmp[i].end;
    }
    return best >= 0 ? best : prev;
}

/* By offset: insertion sort for short runs, else quicksort (median of
 * three) on the larger side in a loop and recursion on the smaller. */
static void sort_items(span_item *a, uint32_t k)
{
    while (k > 16) {
        span_item *m = a + k / 2, *z = a + k - 1, t;
        if (m->off < a->off) { t = *m; *m = *a; *a = t; }
        if (z->off < m->off) { t = *z; *z = *m; *m = t; if (m->off < a->off) { t = *m; *m = *a; *a = t; } }
        int64_t pv = m->off;
        uint32_t i = 0, j = k - 1;
        for (;;) {
            while (a[i].off < pv) i++;
            while (a[j].off > pv) j--;
            if (i >= j) break;
            t = a[i]; a[i] = a[j]; a[j] = t;
            i++; j--;
        }
        /* a[0..j] <= pv <= a[j+1..k) */
        uint32_t left = j + 1, right = k - j - 1;
        if (left < right) { sort_items(a, left); a += left; k = right; }
        else { sort_items(a + left, right); k = left; }
    }
    for (uint32_t i = 1; i < k; i++) {
        span_item x = a[i];
        uint32_t j = i;
        for (; j > 0 && a[j - 1].off > x.off; j--) a[j] = a[j - 1];
        a[j] = x;
    }
}

/* Places jobs[from..nb) in turn, the first `from` keeping their offsets in
 * off (by position, like jobs). Returns the arena (the largest end), or -1
 * if it would pass 2^63-1 (*bad = the buffer), -2 as soon as the arena
 * would pass `limit`, -3 out of memory, -4 when the work passes max_work. */
static int64_t greedy_place(greedy *G, const job *jobs, uint32_t from, int64_t *off, int64_t limit, uint32_t *bad)
{
    greedy_reset(G);
    G->work += G->leaves / 2 + G->nblocks / 4 + 8;
    int64_t arena = 0;
    for (uint32_t i = 0; i < from; i++) {
        if (greedy_insert(G, &jobs[i], off[i])) return -3;
        if (off[i] + jobs[i].span > arena) arena = off[i] + jobs[i].span;
    }
    G->work += from;
    for (uint32_t i = from; i < G->nb; i++) {
        /* What the next queries read is all over memory: ask for it early. */
        if (i + 2 < G->nb) __builtin_prefetch(&G->fringe[jobs[i + 2].a >> GREEDY_BLOCK_SHIFT]);
        if (i + 1 < G->nb) {
            uint32_t na = jobs[i + 1].a;
            __builtin_prefetch(G->fringe[na >> GREEDY_BLOCK_SHIFT].v);
            __builtin_prefetch(&G->cmask[na >> GREEDY_BLOCK_SHIFT]);
            __builtin_prefetch(&G->by_tick[na + 1]);
            __builtin_prefetch(&G->placed.w[0][(na + 1) >> 6]);
        }
        if (G->work > G->max_work) return -4;
        int64_t at = greedy_fit(G, &jobs[i]), end;
        if (__builtin_add_overflow(at, jobs[i].span, &end)) { *bad = jobs[i].b; return -1; }
        if (end > arena) {
            arena = end;
            if (arena > limit) return -2;
        }
        off[i] = at;
        if (greedy_insert(G, &jobs[i], at)) return -3;
    }
    return arena;
}

/* Orders: keys compared in turn, smaller first. Each ends with the alloc
 * step, unique to a buffer, so no two keys are equal. */
enum { ORDER_SIZE, ORDER_LIFETIME, ORDER_SPATIAL, ORDER_AREA, ORDER_START, NORDERS };
static const char *const order_names[NORDERS] = {
    "greedy by size (TFLite's order: size, then first use)",
    "greedy by size in XLA's temporal order (lifetime length, then size)",
    "greedy by size in XLA's spatial order (size, then lifetime length)",
    "greedy by size in order of size x lifetime",
    "greedy by size in order of first use",
};

typedef struct order_key {
    int64_t k[3];
    job j;
} order_key;

static int key_less(const order_key *x, const order_key *y)
{
    if (x->k[0] != y->k[0]) return x->k[0] < y->k[0];
    if (x->k[1] != y->k[1]) return x->k[1] < y->k[1];
    return x->k[2] < y->k[2];
}

/* Insertion sort for short runs, else quicksort (median of three), looping
 * on the larger side. */
static void sort_keys(order_key *a, uint32_t k)
{
    order_key t;
    while (k > 16) {
        order_key *m = a + k / 2, *z = a + k - 1;
        if (key_less(m, a)) { t = *m; *m = *a; *a = t; }
        if (key_less(z, m)) { t = *z; *z = *m; *m = t; if (key_less(m, a)) { t = *m; *m = *a; *a = t; } }
        order_key pv = *m;
        uint32_t i = 0, j = k - 1;
        for (;;) {
            while (key_less(&a[i], &pv)) i++;
            while (key_less(&pv, &a[j])) j--;
            if (i >= j) break;
            t = a[i]; a[i] = a[j]; a[j] = t;
            i++; j--;
        }
        uint32_t left = j + 1, right = k - j - 1;
        if (left < right) { sort_keys(a, left); a += left; k = right; }
        else { sort_keys(a + left, right); k = left; }
    }
    for (uint32_t i = 1; i < k; i++) {
        t = a[i];
        uint32_t j = i;
        for (; j > 0 && key_less(&t, &a[j - 1]); j--) a[j] = a[j - 1];
        a[j] = t;
    }
}

/* Fills jobs[nb] with G's buffers in the given order; keys is scratch [nb]. */
static void make_order(const greedy *G, int which, order_key *keys, job *jobs)
{
    for (uint32_t i = 0; i < G->nb; i++) {
        uint32_t b = G->bufs[i];
        int64_t a = G->lt->alloc_step[b], len = (int64_t)G->lt->free_step[b] - a, sz = G->span[b];
        order_key *k = &keys[i];
        k->j = (job){sz, b, G->ta[b], G->tf[b]};
        switch (which) {
        case ORDER_SIZE: k->k[0] = -sz; k->k[1] = a; k->k[2] = 0; break;
        case ORDER_LIFETIME: k->k[0] = -len; k->k[1] = -sz; k->k[2] = a; break;
        case ORDER_SPATIAL: k->k[0] = -sz; k->k[1] = -len; k->k[2] = a; break;
        case ORDER_AREA: {
            /* size x length, as a double: exact enough for an order */
            double ar = (double)sz * (double)len;
            k->k[0] = ar >= 9.2e18 ? INT64_MIN : -(int64_t)ar;
            k->k[1] = -sz;
            k->k[2] = a;
            break;
        }
        default: k->k[0] = a; k->k[1] = 0; k->k[2] = 0; break;
        }
    }
    sort_keys(keys, G->nb);
    for (uint32_t i = 0; i < G->nb; i++) jobs[i] = keys[i].j;
}

/* Runs the greedy in each of the orders in `which` (nwhich of them) until a
 * plan reaches goal (the lower bound: no plan is smaller). A plan smaller
 * than *arena (INT64_MAX: none yet) replaces it: its offsets go to
 * pl->offset, and when best_jobs is not NULL its order there and its offsets
 * by position in best_off. An order whose plan would pass 2^63-1 bytes has
 * no plan. When the work passes G->max_work, the orders stop there. 0, or
 * with err set -1 out of memory, -2 when no order made a plan; -3 (err not
 * set) when the work ran out before any order made a plan. */
static int greedy_orders(greedy *G, const int *which, int nwhich, int64_t goal, int64_t *arena, placement *pl,
                         job *best_jobs, int64_t *best_off, char *err, size_t errcap)
{
    const graph *g = G->g;
    order_key *keys = malloc(((size_t)G->nb + 1) * sizeof *keys);
    job *jobs = malloc(((size_t)G->nb + 1) * sizeof *jobs);
    int64_t *off = malloc(((size_t)G->nb + 1) * sizeof *off);
    if (!keys || !jobs || !off) {
        free(keys); free(jobs); free(off);
        return oom(g, err, errcap);
    }
    int64_t best = *arena;
    uint32_t bad = NONE;          /* the buffer that passed 2^63-1 bytes in the first order that failed */
    int gave_up = 0;
    for (int w = 0; w < nwhich && (best == INT64_MAX || best > goal); w++) {
        make_order(G, which[w], keys, jobs);
        uint32_t b = NONE;
        int64_t a = greedy_place(G, jobs, 0, off, best == INT64_MAX ? INT64_MAX : best - 1, &b);
        if (a == -3) {
            free(keys); free(jobs); free(off);
            return oom(g, err, errcap);
        }
        if (a == -4) {
            gave_up = 1;
            break;
        }
        if (a == -1 && bad == NONE) bad = b;
        if (a >= 0 && a < best) {
            best = a;
            for (uint32_t i = 0; i < G->nb; i++) pl->offset[jobs[i].b] = off[i];
            if (best_jobs) {
                memcpy(best_jobs, jobs, G->nb * sizeof *jobs);
                memcpy(best_off, off, G->nb * sizeof *off);
            }
            pl->detail = order_names[which[w]];
        }
    }
    free(keys); free(jobs); free(off);
    if (best == INT64_MAX && G->nb && gave_up) return -3;
    if (best == INT64_MAX && G->nb) return too_big(g, bad, err, errcap) - 1;
    *arena = best == INT64_MAX ? 0 : best;
    return 0;
}

/* TFLite's greedy by size (arXiv 2001.03288): buffers by size, largest
 * first, each at the lowest offset of the smallest gap left by the placed
 * buffers whose lifetimes overlap it. XLA's GlobalDecreasingSizeBestFitHeap
 * runs the same in order of lifetime length too and keeps the smaller plan;
 * so does this. Time per order: O(n log n) plus the overlaps found, times
 * the log of their number for sorting them. */
int place_greedy_size(const graph *g, const run *r, const lifetimes *lt, int64_t align, placement *pl,
                      char *err, size_t errcap)
{
    greedy G;
    if (greedy_init(&G, g, r, lt, align)) return oom(g, err, errcap);
    static const int which[] = {ORDER_SIZE, ORDER_LIFETIME};
    int64_t arena = INT64_MAX;
    int rc = greedy_orders(&G, which, 2, place_lower_bound(g, r, align), &arena, pl, NULL, NULL, err, errcap);
    greedy_free(&G);
    pl->reserved = 0;
    return rc ? -1 : 0;
}

/* ------------------------------------------------------------ best */

/* The largest end of any buffer's span: the arena of a plan as best reports it. */
static int64_t plan_top(const graph *g, const int64_t *off, int64_t align)
{
    int64_t top = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        int64_t span = place_span(g->buf_size[b], align);
        if (span && off[b] + span > top) top = off[b] + span;
    }
    return top;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Hill-climb over a greedy order (TVM USMP's idea): take a buffer at the top
 * of the plan, move it to an earlier place in the order, swap it with an
 * earlier buffer, or swap two neighbours before it; place again from the
 * first changed position; keep the change when the arena does not grow
 * (equal plans let the walk cross plateaus). Deterministic: a fixed seed, and
 * the work (buffers placed plus overlaps scanned) is bounded, not the time.
 * Improves jobs and off (by position) in place; returns the arena, or -1 out
 * of memory. */
static int64_t hill_climb(greedy *G, job *jobs, int64_t *off, int64_t arena, int64_t goal, uint64_t budget)
{
    uint32_t nb = G->nb;
    if (nb < 2 || arena <= goal) return arena;
    job *jobs2 = malloc((size_t)nb * sizeof *jobs2);
    uint32_t *top = malloc((size_t)nb * sizeof *top);
    int64_t *off2 = malloc((size_t)nb * sizeof *off2);
    if (!jobs2 || !top || !off2) {
        free(jobs2); free(top); free(off2);
        return -1;
    }
    memcpy(jobs2, jobs, (size_t)nb * sizeof *jobs);
    memcpy(off2, off, (size_t)nb * sizeof *off);
    uint64_t seed = 0x2545F4914F6CDD1DULL;
    while (G->work < budget && arena > goal) {
        /* The positions of the buffers at the top. */
        uint32_t ntop = 0;
        for (uint32_t i = 0; i < nb; i++)
            if (off[i] + jobs[i].span == arena) top[ntop++] = i;
        G->work += nb / 8 + 1;
        uint32_t pt = top[xorshift(&seed) % ntop];
        uint64_t move = xorshift(&seed) % 3;
        if (pt == 0) {                       /* the first buffer: move a later one up instead */
            pt = 1 + (uint32_t)(xorshift(&seed) % (nb - 1));
            move = 1;
        }
        uint32_t p = (uint32_t)(xorshift(&seed) % pt);
        job t;
        if (move == 0) {                     /* move the top buffer to position p */
            t = jobs2[pt];
            memmove(jobs2 + p + 1, jobs2 + p, (size_t)(pt - p) * sizeof *jobs2);
            jobs2[p] = t;
        } else if (move == 1) {              /* swap it with the buffer at p */
            t = jobs2[pt]; jobs2[pt] = jobs2[p]; jobs2[p] = t;
        } else {                             /* swap the neighbours p, p+1 */
            t = jobs2[p]; jobs2[p] = jobs2[p + 1]; jobs2[p + 1] = t;
        }
        uint32_t bad;
        int64_t a = greedy_place(G, jobs2, p, off2, arena, &bad);
        if (a == -3) {
            arena = -1;
            break;
        }
        size_t rest = (size_t)(nb - p);
        if (a >= 0) {                        /* accepted: not larger */
            arena = a;
            memcpy(jobs + p, jobs2 + p, rest * sizeof *jobs);
            memcpy(off + p, off2 + p, rest * sizeof *off);
        } else {                             /* rejected: undo */
            memcpy(jobs2 + p, jobs + p, rest * sizeof *jobs);
            memcpy(off2 + p, off + p, rest * sizeof *off);
        }
        G->work += rest / 8;
    }
    free(jobs2); free(top); free(off2);
    return arena;
}

/* The work a hill-climb may do, in buffers placed plus overlaps scanned, as
 * a number of whole greedy runs: up to BEST_SMALL_RUNS for small graphs
 * (a model's few hundred buffers take well under a second) while that stays
 * under BEST_MIN_WORK, and at least BEST_RUNS for large ones (a few seconds
 * for a million nodes). */
#define BEST_RUNS 3u
#define BEST_SMALL_RUNS 1000u
#define BEST_MIN_WORK 50000000u
/* The climb has at most this much; the three extra orders are tried only
 * when the first two cost less than BEST_EXTRA_WORK (the climb does more
 * for large graphs). */
#define BEST_MAX_WORK 100000000u
#define BEST_EXTRA_WORK 10000000u
/* The greedy runs of best have at most BEST_GREEDY_NLOGN x n log2 n work
 * (n buffers), or BEST_GREEDY_MIN_WORK when that is more: a few times what
 * any graph of the benchmarks but randwire needs; on graphs where hundreds
 * of thousands of buffers overlap the greedy is quadratic (as TFLite's and
 * XLA's are), and best gives up on it rather than run for minutes. */
#define BEST_GREEDY_NLOGN 32u
#define BEST_GREEDY_MIN_WORK 50000000u

/* How best's plan was found when the greedy gave up and placer `name` won. */
static const char *cut_detail(const char *name)
{
    static const char *const text[][2] = {
        {"first-fit", "first-fit (greedy by size passed its work limit and was stopped)"},
        {"best-fit", "best-fit (greedy by size passed its work limit and was stopped)"},
        {"pool", "pool (greedy by size passed its work limit and was stopped)"},
        {"coloring", "coloring (greedy by size passed its work limit and was stopped)"},
    };
    for (size_t i = 0; i < sizeof text / sizeof *text; i++)
        if (!strcmp(text[i][0], name)) return text[i][1];
    return "the smallest other placer (greedy by size passed its work limit and was stopped)";
}

uint64_t place_best_greedy_budget(uint32_t nbufs)
{
    uint64_t lg = 1;
    while (lg < 63 && ((uint64_t)1 << lg) < nbufs) lg++;
    uint64_t w = (uint64_t)BEST_GREEDY_NLOGN * nbufs * lg;
    return w > BEST_GREEDY_MIN_WORK ? w : BEST_GREEDY_MIN_WORK;
}

/* Best: every other placer of the table and the greedy in greedy-size's two
 * orders, then in three more (XLA's spatial order, size x lifetime, first
 * use) for graphs of modest size; the smallest plan wins, then a
 * hill-climb over the best greedy order tries to shrink it further. Stops
 * early at the lower bound (the largest sum of live spans), which no plan
 * can beat; so best is never larger than any placer. */
int place_best(const graph *g, const run *r, const lifetimes *lt, int64_t align, placement *pl, char *err,
               size_t errcap)
{
    return place_best_limited(g, r, lt, align, place_best_greedy_budget(g->nbufs), pl, err, errcap);
}

int place_best_limited(const graph *g, const run *r, const lifetimes *lt, int64_t align, uint64_t greedy_work,
                       placement *pl, char *err, size_t errcap)
{
    int64_t goal = place_lower_bound(g, r, align);
    greedy G;
    if (greedy_init(&G, g, r, lt, align)) return oom(g, err, errcap);
    G.max_work = greedy_work;
    job *order = malloc(((size_t)G.nb + 1) * sizeof *order);
    int64_t *off = malloc(((size_t)G.nb + 1) * sizeof *off), *other = NULL;
    int rc = -1;
    if (!order || !off) { oom(g, err, errcap); goto out; }
    static const int which[] = {ORDER_SIZE, ORDER_LIFETIME, ORDER_SPATIAL, ORDER_AREA, ORDER_START};
    /* A plan that would pass 2^63-1 bytes is no plan: another may fit. */
    int64_t greedy_arena = INT64_MAX;
    int grc = greedy_orders(&G, which, 2, goal, &greedy_arena, pl, order, off, err, errcap);
    uint64_t one_run = G.work / 2;
    int greedy_cut = G.work > G.max_work;
    if (grc == -1) goto out;
    if (!grc && G.work < BEST_EXTRA_WORK && greedy_orders(&G, which + 2, NORDERS - 2, goal, &greedy_arena, pl, order,
                                                        off, err, errcap) == -1)
        goto out;
    int64_t arena = greedy_arena;
    /* The other placers of the table. */
    for (size_t i = 0; arena > goal && placer_at(i); i++) {
        const placer *p = placer_at(i);
        if (p->place == place_best || p->place == place_greedy_size) continue;
        placement o = {0};
        o.align = align;
        o.offset = other = calloc((size_t)g->nbufs + 1, sizeof *o.offset);
        if (!other) { oom(g, err, errcap); goto out; }
        int64_t a = p->place(g, r, lt, align, &o, err, errcap) ? INT64_MAX : plan_top(g, o.offset, align);
        free(o.block);
        if (a < arena) {
            arena = a;
            memcpy(pl->offset, other, ((size_t)g->nbufs + 1) * sizeof *other);
            pl->detail = greedy_cut ? cut_detail(p->name) : p->name;
        }
        free(other);
        other = NULL;
    }
    if (arena == INT64_MAX) goto out;     /* err says why the last placer failed */
    /* The hill-climb, from the best greedy plan. */
    if (arena > goal && greedy_arena < INT64_MAX && !greedy_cut) {
        uint64_t budget = one_run * BEST_SMALL_RUNS;
        if (budget > BEST_MIN_WORK) budget = BEST_MIN_WORK;
        if (budget < one_run * BEST_RUNS) budget = one_run * BEST_RUNS;
        if (budget > BEST_MAX_WORK) budget = BEST_MAX_WORK;
        G.work = 0;
        G.max_work = UINT64_MAX;   /* a step costs at most one greedy run, under the limit above */
        int64_t a = hill_climb(&G, order, off, greedy_arena, goal, budget);
        if (a == -1) { oom(g, err, errcap); goto out; }
        if (a < arena) {
            for (uint32_t i = 0; i < G.nb; i++) pl->offset[order[i].b] = off[i];
            pl->detail = "greedy by size, improved by the hill-climb over its order";
        }
    }
    pl->reserved = 0;
    rc = 0;
out:
    free(order);
    free(off);
    free(other);
    greedy_free(&G);
    return rc;
}
