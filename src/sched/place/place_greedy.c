/* place_greedy.c: the greedy engine, over an index that finds the placed buffers a lifetime
 * meets in O(log n) lists, and the placers that are rows of it, each a list of ways (an order
 * and a fit): greedy-size (TFLite's), xla and greedy-conflicts (TVM's). Exports placer_greedy_size,
 * placer_xla, placer_greedy_conflicts and the engine best climbs over (place_greedy_*). */
#include "place_internal.h"
#include "util/sort.h"
#include "util/stepset.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct span_item {
    int64_t off, end;
} span_item;

/* By offset (the order among equal offsets changes neither a union nor a
 * fit: every range is at least a byte long). */
#define ITEM_LESS(x, y) ((x)->off < (y)->off)
SORT_DEFINE(sort_items, span_item, ITEM_LESS)

/* A placed buffer on the fringe of a block: its address range and lifetime. */
typedef struct seg_item {
    int64_t off, end;
    uint32_t a, f;
} seg_item;

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
#define GREEDY_BLOCK       ((uint64_t)1 << GREEDY_BLOCK_SHIFT)
/* The starts tree has a fan-out of 16: a buffer joins one union per level. */
#define GREEDY_FAN_SHIFT  4
#define GREEDY_FAN        ((uint64_t)1 << GREEDY_FAN_SHIFT)
#define GREEDY_MAX_LEVELS 8

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
    place_greedy
        pub; /* nb (buffers with a span), work, max_work; first, so a greedy is a place_greedy */
    const graph *g;
    const lifetimes *lt;
    uint32_t *bufs;           /* [nb] those buffers in tick order */
    int64_t *span;            /* [nbufs] */
    uint32_t *ta, *tf;        /* [nbufs] each buffer's lifetime in ticks */
    uint32_t nblocks, leaves; /* blocks of ticks; leaves of the trees, a power of two >= nblocks */
    ulist *cover;             /* [2 leaves] */
    uint32_t *cmask; /* [leaves] bit d: the node d levels above the leaf has a cover list */
    ulist *starts[GREEDY_MAX_LEVELS]; /* [level][blocks >> 4 level], from level 1 */
    uint32_t nstarts[GREEDY_MAX_LEVELS];
    int levels;
    flist *fringe;      /* [nblocks] */
    span_item *by_tick; /* [nb] the range of the buffer allocated at a tick, once placed */
    stepset placed;     /* the placed ticks */
    span_item *tmp;     /* [nb] the ranges one query gathers */
    span_item *scratch; /* [nb] for joining a list */
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
    free(G->pub.tick);
    free(G->tmp);
    free(G->scratch);
    stepset_free(&G->placed);
    memset(G, 0, sizeof *G);
}

static int greedy_init(greedy *G, const graph *g, const run *r, const lifetimes *lt, int64_t align,
                       const solve_ctx *c)
{
    memset(G, 0, sizeof *G);
    G->g = g;
    G->lt = lt;
    G->pub.ctx = c;
    G->pub.max_work = UINT64_MAX;
    size_t nbufs = (size_t)g->nbufs + 1;
    G->bufs = malloc(nbufs * sizeof *G->bufs);
    G->span = malloc(nbufs * sizeof *G->span);
    G->ta = malloc(nbufs * sizeof *G->ta);
    G->tf = malloc(nbufs * sizeof *G->tf);
    G->pub.tick = malloc(nbufs * sizeof *G->pub.tick);
    G->pub.g = g;
    G->pub.lt = lt;
    G->tmp = malloc(nbufs * sizeof *G->tmp);
    G->scratch = malloc(nbufs * sizeof *G->scratch);
    if (!G->bufs || !G->span || !G->ta || !G->tf || !G->pub.tick || !G->tmp || !G->scratch) {
        greedy_free(G);
        return -1;
    }
    for (uint32_t b = 0; b < g->nbufs; b++) {
        G->span[b] = place_span(g->buf_size[b], align);
        G->tf[b] = GRAPH_NONE;
    }
    if (solve_cancelled(c)) goto cancelled;
    /* Ticks: an ALLOC with a span starts one; a FREE ends its buffer's
     * lifetime at the next; a buffer never freed lives to the last. */
    for (uint32_t s = 0; s < r->n; s++) {
        if (!(s & 65535) && solve_cancelled(c)) goto cancelled;
        uint32_t u = r->order[s], b = g->buf[u];
        if (b == GRAPH_NONE || !G->span[b]) continue;
        if (g->kind[u] == NODE_ALLOC) {
            G->ta[b] = G->pub.nb;
            G->bufs[G->pub.nb++] = b;
        } else if (g->kind[u] == NODE_FREE) {
            G->tf[b] = G->pub.nb;
        }
    }
    for (uint32_t i = 0; i < G->pub.nb; i++)
        if (G->tf[G->bufs[i]] == GRAPH_NONE) G->tf[G->bufs[i]] = G->pub.nb;
    for (uint32_t i = 0; i < G->pub.nb; i++) {
        uint32_t b = G->bufs[i];
        G->pub.tick[i] = (place_job){G->span[b], b, G->ta[b], G->tf[b]};
    }
    if (solve_cancelled(c)) goto cancelled;
    G->nblocks = (uint32_t)(((uint64_t)G->pub.nb + GREEDY_BLOCK - 1) >> GREEDY_BLOCK_SHIFT);
    G->leaves = 1;
    while (G->leaves < G->nblocks) G->leaves *= 2;
    G->cover = calloc(2 * (size_t)G->leaves, sizeof *G->cover);
    G->cmask = calloc(G->leaves, sizeof *G->cmask);
    G->fringe = calloc((size_t)G->nblocks + 1, sizeof *G->fringe);
    G->by_tick = malloc(((size_t)G->pub.nb + 1) * sizeof *G->by_tick);
    if (!G->cover || !G->cmask || !G->fringe || !G->by_tick ||
        stepset_init(&G->placed, (uint64_t)G->pub.nb + 1)) {
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
cancelled: /* no greedy: place_run says cancelled */
    greedy_free(G);
    return -1;
}

place_greedy *place_greedy_new(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                               const solve_ctx *c)
{
    greedy *G = malloc(sizeof *G);
    if (G && greedy_init(G, g, r, lt, align, c)) {
        free(G);
        G = NULL;
    }
    return G ? &G->pub : NULL;
}

void place_greedy_free(place_greedy *G)
{
    if (!G) return;
    greedy_free((greedy *)G);
    free(G);
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
    G->pub.work += l->n;
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
static int greedy_insert(greedy *G, const place_job *j, int64_t off)
{
    uint64_t a = j->a, f = j->f;
    span_item sp = {off, off + j->span};
    uint64_t b0 = a >> GREEDY_BLOCK_SHIFT, b1 = (f - 1) >> GREEDY_BLOCK_SHIFT;
    uint64_t w0 = (a + GREEDY_BLOCK - 1) >> GREEDY_BLOCK_SHIFT,
             w1 = f >> GREEDY_BLOCK_SHIFT; /* whole blocks */
    int bad = 0;
    for (uint64_t l = w0 + G->leaves, h = w1 + G->leaves, d = 0; l < h; l >>= 1, h >>= 1, d++) {
        if (l & 1) bad |= cover_add(G, l++, d, sp);
        if (h & 1) bad |= cover_add(G, --h, d, sp);
    }
    seg_item it = {sp.off, sp.end, j->a, j->f};
    if (b0 < w0 || b0 >= w1) bad |= flist_add(&G->fringe[b0], it);
    if (b1 != b0 && (b1 < w0 || b1 >= w1)) bad |= flist_add(&G->fringe[b1], it);
    for (int l = 1; l < G->levels; l++)
        bad |= ulist_add(&G->starts[l][b0 >> (GREEDY_FAN_SHIFT * l)], sp);
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
        if (!w) {
            t = stepset_next(&G->placed, (wi + 1) << 6);
            continue;
        }
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
    G->pub.work += l->n;
    return k + l->n;
}

/* Where the fit rule G->pub.fit puts the buffer among the gaps of U (see
 * greedy); arena: the largest end so far. */
static int64_t greedy_fit(greedy *G, const place_job *j, int64_t arena)
{
    uint64_t a = j->a, f = j->f, blk = a >> GREEDY_BLOCK_SHIFT;
    uint32_t k = 0;
    /* Live at a: the fringe of a's block, then the cover of its path. */
    const flist *fr = &G->fringe[blk];
    /* An empty fringe may have no array: NULL + 0 is undefined in C (UBSan's
     * pointer-overflow check, found by tests/fuzz). */
    if (fr->n)
        for (const seg_item *it = fr->v, *e = it + fr->n; it < e;
             it++) { /* no branch: a coin toss */
            G->tmp[k] = (span_item){it->off, it->end};
            k += it->a <= a && it->f > a;
        }
    G->pub.work += fr->n / 4;
    for (uint32_t m = G->cmask[blk]; m; m &= m - 1)
        k = gather_list(G, &G->cover[(blk + G->leaves) >> __builtin_ctz(m)], k);
    /* Allocated in (a, f): ticks near the ends, unions of whole nodes between. */
    uint64_t lo = a + 1, hi = f, w0 = (lo + GREEDY_BLOCK - 1) >> GREEDY_BLOCK_SHIFT,
             w1 = hi >> GREEDY_BLOCK_SHIFT;
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
                if (level == G->levels - 1) { /* the top: all that is left */
                    for (; l < h; l++) k = gather_list(G, &st[l], k);
                    break;
                }
                for (; l < h && (l & (GREEDY_FAN - 1)); l++) k = gather_list(G, &st[l], k);
                for (; l < h && (h & (GREEDY_FAN - 1)); h--) k = gather_list(G, &st[h - 1], k);
            }
        }
    }
    /* a buffer costs a few cache misses, a range a few moves, and the sort */
    G->pub.work += k + 16 + (k > 16 ? (uint64_t)k * (uint64_t)(32 - __builtin_clz(k)) / 4 : 0);
    sort_items(G->tmp, k);
    int64_t need = j->span, prev = 0, best = -1, best_gap = INT64_MAX;
    int first = G->pub.fit == PLACE_FIT_FIRST;
    for (uint32_t i = 0; i < k; i++) {
        int64_t gap = G->tmp[i].off - prev;
        if (gap >= need && gap < best_gap) {
            if (first) return prev;
            best = prev;
            best_gap = gap;
        }
        if (G->tmp[i].end > prev) prev = G->tmp[i].end;
    }
    /* XLA: the room up to the arena is a gap too (the smaller wins; an
     * earlier gap of the same size first). */
    if (G->pub.fit == PLACE_FIT_XLA && arena - prev >= need && arena - prev < best_gap) return prev;
    return best >= 0 ? best : prev;
}

/* At the deadline: jobs[i..nb) go on top of the plan, one on another, so
 * the run still ends with a plan, at once (G->pub.expired says so). */
static int64_t stack_rest(greedy *G, const place_job *jobs, uint32_t i, int64_t *off, int64_t arena,
                          int64_t limit, uint32_t *bad)
{
    G->pub.expired = 1;
    for (; i < G->pub.nb; i++) {
        off[i] = arena;
        if (__builtin_add_overflow(arena, jobs[i].span, &arena)) {
            *bad = jobs[i].b;
            return GREEDY_TOO_BIG;
        }
    }
    return arena > limit ? GREEDY_OVER : arena;
}

/* place_greedy_run (place_internal.h says what it returns). */
static int64_t greedy_place(greedy *G, const place_job *jobs, uint32_t from, int64_t *off,
                            int64_t limit, uint32_t *bad)
{
    greedy_reset(G);
    G->pub.work += G->leaves / 2 + G->nblocks / 4 + 8;
    int64_t arena = 0;
    for (uint32_t i = 0; i < from; i++) {
        if (greedy_insert(G, &jobs[i], off[i])) return GREEDY_OOM;
        if (off[i] + jobs[i].span > arena) arena = off[i] + jobs[i].span;
    }
    G->pub.work += from;
    for (uint32_t i = from; i < G->pub.nb; i++) {
        /* What the next queries read is all over memory: ask for it early. */
        if (i + 2 < G->pub.nb) __builtin_prefetch(&G->fringe[jobs[i + 2].a >> GREEDY_BLOCK_SHIFT]);
        if (i + 1 < G->pub.nb) {
            uint32_t na = jobs[i + 1].a;
            __builtin_prefetch(G->fringe[na >> GREEDY_BLOCK_SHIFT].v);
            __builtin_prefetch(&G->cmask[na >> GREEDY_BLOCK_SHIFT]);
            __builtin_prefetch(&G->by_tick[na + 1]);
            __builtin_prefetch(&G->placed.w[0][(na + 1) >> 6]);
        }
        if (G->pub.work > G->pub.max_work || solve_cancelled(G->pub.ctx)) return GREEDY_STOPPED;
        if (!(i & 1023) && solve_expired(G->pub.ctx))
            return stack_rest(G, jobs, i, off, arena, limit, bad);
        int64_t at = greedy_fit(G, &jobs[i], arena), end;
        if (__builtin_add_overflow(at, jobs[i].span, &end)) {
            *bad = jobs[i].b;
            return GREEDY_TOO_BIG;
        }
        if (end > arena) {
            arena = end;
            if (arena > limit) return GREEDY_OVER;
        }
        off[i] = at;
        if (greedy_insert(G, &jobs[i], at)) return GREEDY_OOM;
    }
    return arena;
}

int64_t place_greedy_run(place_greedy *G, const place_job *jobs, uint32_t from, int64_t *off,
                         int64_t limit, uint32_t *bad)
{
    return greedy_place((greedy *)G, jobs, from, off, limit, bad);
}

/* ------------------------------------------------------------ the greedy placers */

int place_greedy_orders(place_greedy *pub, const place_way *ways, int nways, int64_t goal,
                        int64_t *arena, placement *pl, place_way *won, place_job *best_jobs,
                        int64_t *best_off, char *err, size_t errcap)
{
    greedy *G = (greedy *)pub;
    const graph *g = G->g;
    uint32_t nb = G->pub.nb;
    place_job *jobs = malloc(((size_t)nb + 1) * sizeof *jobs);
    int64_t *off = malloc(((size_t)nb + 1) * sizeof *off);
    int rc = GREEDY_ORDERS_OK;
    if (!jobs || !off) {
        place_oom(g, err, errcap);
        rc = GREEDY_ORDERS_OOM;
        goto out;
    }
    int64_t best = *arena;
    uint32_t bad =
        GRAPH_NONE; /* the buffer that passed 2^63-1 bytes in the first way that failed */
    int gave_up = 0;
    for (int w = 0; w < nways && (best == INT64_MAX || best > goal); w++) {
        if (best != INT64_MAX && solve_expired(G->pub.ctx)) break; /* keep the plan it has */
        int orc = place_greedy_order(&G->pub, ways[w].order, jobs);
        if (orc < 0) {
            place_oom(g, err, errcap);
            rc = GREEDY_ORDERS_OOM;
            goto out;
        }
        if (orc && (solve_cancelled(G->pub.ctx) || best != INT64_MAX)) { /* keep what it has */
            gave_up = solve_cancelled(G->pub.ctx);
            break;
        } /* past the deadline with no plan yet: the jobs in tick order, stacked at once */
        G->pub.fit = ways[w].fit;
        uint32_t b = GRAPH_NONE;
        int was_cut = G->pub.expired;
        int64_t a = greedy_place(G, jobs, 0, off, best == INT64_MAX ? INT64_MAX : best - 1, &b);
        int cut = G->pub.expired && !was_cut; /* this run met the deadline */
        if (a == GREEDY_OOM) {
            place_oom(g, err, errcap);
            rc = GREEDY_ORDERS_OOM;
            goto out;
        }
        if (a == GREEDY_STOPPED) {
            gave_up = 1;
            break;
        }
        if (a == GREEDY_TOO_BIG && bad == GRAPH_NONE) bad = b;
        if (a >= 0 && a < best) {
            best = a;
            for (uint32_t i = 0; i < nb; i++) pl->offset[jobs[i].b] = off[i];
            if (best_jobs && !cut) { /* cut: past the deadline, nothing climbs from it */
                memcpy(best_jobs, jobs, nb * sizeof *jobs);
                memcpy(best_off, off, nb * sizeof *off);
            }
            if (won) *won = ways[w];
            pl->detail = cut ? "a greedy cut at the time limit: the buffers it had not placed "
                               "stacked on top"
                             : place_way_name(ways[w]);
        }
    }
    if (best == INT64_MAX && nb && gave_up) rc = GREEDY_ORDERS_CUT;
    else if (best == INT64_MAX && nb) {
        place_too_big(g, bad, err, errcap);
        rc = GREEDY_ORDERS_NO_PLAN;
    } else *arena = best == INT64_MAX ? 0 : best;
out:
    free(jobs);
    free(off);
    return rc;
}

/* A greedy placer: the engine in each of its ways, the smallest plan. */
static int greedy_row(PLACE_ARGS, const place_way *ways, int nways)
{
    place_greedy *G = place_greedy_new(g, r, lt, align, c);
    if (!G) return solve_cancelled(c) ? -1 : place_oom(g, err, errcap);
    int64_t arena = INT64_MAX;
    int rc = place_greedy_orders(G, ways, nways, place_lower_bound(g, r, align), &arena, pl, NULL,
                                 NULL, NULL, err, errcap);
    place_greedy_free(G);
    pl->reserved = 0;
    return rc == GREEDY_ORDERS_OK ? 0 : -1;
}

/* TFLite's greedy by size (arXiv 2001.03288): buffers by size, largest
 * first, each at the lowest offset of the smallest gap left by the placed
 * buffers whose lifetimes overlap it. XLA's GlobalDecreasingSizeBestFitHeap
 * runs the same in order of lifetime length too and keeps the smaller plan;
 * so does this. Time per order: O(n log n) plus the overlaps found, times
 * the log of their number for sorting them. */
static const place_way size_ways[] = {{PLACE_ORDER_SIZE, PLACE_FIT_BEST},
                                      {PLACE_ORDER_LIFETIME, PLACE_FIT_BEST}};

/* XLA's GlobalDecreasingSizeBestFitHeap in its spatial and temporal orders,
 * the smaller plan (as XLA's ChooseBestHeapAlgorithm keeps): largest first
 * (spatial: size, then lifetime length; temporal: lifetime length, then
 * size), each in the smallest free chunk left by the placed buffers whose
 * lifetimes meet its own; unlike TFLite's rule the room between their top
 * and the heap so far is such a chunk too, so a buffer may go above them
 * without growing the heap rather than into a larger hole below. */
static const place_way xla_ways[] = {{PLACE_ORDER_SPATIAL, PLACE_FIT_XLA},
                                     {PLACE_ORDER_LIFETIME, PLACE_FIT_XLA}};

/* TVM's USMP (src/tir/usmp/algo/greedy.cc) orders the buffers by the number
 * of others whose lifetimes meet theirs, most first, then by size, and puts
 * each at the lowest offset where it meets none of the placed buffers that
 * live with it (first fit, not best fit: the plans MiniMalloc calls
 * canonical). */
static const place_way conflicts_ways[] = {{PLACE_ORDER_CONFLICTS, PLACE_FIT_FIRST}};

#define NWAYS(w) ((int)(sizeof w / sizeof *w))

static int greedy_size_place(PLACE_ARGS)
{
    return greedy_row(g, r, lt, align, c, pl, err, errcap, size_ways, NWAYS(size_ways));
}

static int xla_place(PLACE_ARGS)
{
    return greedy_row(g, r, lt, align, c, pl, err, errcap, xla_ways, NWAYS(xla_ways));
}

static int greedy_conflicts_place(PLACE_ARGS)
{
    return greedy_row(g, r, lt, align, c, pl, err, errcap, conflicts_ways, NWAYS(conflicts_ways));
}

const placer placer_greedy_size = {
    .name = "greedy-size",
    .place = greedy_size_place,
    .desc = "offline: TFLite's greedy by size (best-fitting gap among overlapping buffers), "
            "also in XLA's lifetime order; the smaller plan"};

const placer placer_xla = {
    .name = "xla",
    .place = xla_place,
    .desc = "offline: XLA's decreasing-size best fit (the room up to the heap so far counts as a "
            "gap), in its spatial and temporal orders; the smaller plan"};

const placer placer_greedy_conflicts = {
    .name = "greedy-conflicts",
    .place = greedy_conflicts_place,
    .desc = "offline: TVM's greedy by conflicts: the buffers whose lifetimes meet the most others "
            "first, each at the lowest offset that fits"};
