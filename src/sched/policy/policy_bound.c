/* policy_bound.c: the must-live bound, a proven lower bound on every
 * topological order's peak (policy_lower_bound_until). Exports it.
 *
 * Why it holds. Every FREE depends on its buffer's ALLOC (the loader checks;
 * so does this file, giving up where it fails), so the live bytes after a
 * step are the sizes of the buffers allocated and not yet freed. After node
 * v's step, a buffer whose ALLOC is v or an ancestor of v, and whose FREE is
 * a strict descendant of v (or that is never freed), is surely live: its
 * sum bounds every order's peak. Summing over a subset of the buffers still
 * bounds it, so the buffers go in blocks, the largest first, and the work
 * stops at a deadline or a cap with what the blocks done prove.
 *
 * Pairs. For two nodes v, w that no path joins, every order runs one first.
 * If v runs first, after v's step the buffers that v's ancestors (v too)
 * allocated and that v's strict descendants, or w or its descendants, free
 * are live; after w's step, those allocated by either's ancestors and freed
 * by w's strict descendants. The lesser of the two ways' greater sum bounds
 * the peak. Only on small graphs whose buffers fit one block.
 *
 * Sets (set_bound): the same for up to BOUND_SET nodes, the least over the
 * orders of the set of the most surely live; each set grows greedily from
 * one node, from every node in turn (those that need the most first) while
 * the cap and the clock allow, and the greatest bound of any set holds. */
#define _GNU_SOURCE
#include "policy_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BOUND_WORDS (1u << 22)   /* words of one buffer set array, all nodes */
#define BOUND_BLOCK (1u << 24)   /* word visits of one block, at most (then a clock check) */
#define BOUND_PAIRS 4096         /* the most nodes the pair bound looks at */
#define BOUND_PLAIN (1ull << 24) /* policy_lower_bound's cap on word visits */

#define HAS(b, j) ((b)[(j) >> 6] >> ((j)&63) & 1)
#define SET(b, j) ((b)[(j) >> 6] |= (uint64_t)1 << ((j)&63))

typedef struct bound_ws {
    const graph *g;
    uint32_t n, w, nbits;  /* nodes; words of a block's set; buffers counted */
    uint32_t *topo;        /* [n] a topological order */
    uint32_t *bit, *bufat; /* [nbufs] a buffer's place by size, descending; [nbits] inverse */
    uint64_t *anc, *dsc;   /* [n * w]: the block's buffers allocated by v or an ancestor; freed
                            * by a strict descendant, or never */
    uint64_t *fset;        /* [n * w]: those freed by v or a descendant, or never */
    int64_t *need;         /* [n] bytes surely live after v's step, the blocks so far */
    int64_t *size;         /* [nbits] by place */
} bound_ws;

static void ws_free(bound_ws *W)
{
    free(W->topo);
    free(W->bit);
    free(W->bufat);
    free(W->anc);
    free(W->dsc);
    free(W->fset);
    free(W->need);
    free(W->size);
}

static int cmp_size_desc(const void *a, const void *b, void *ctx)
{
    const int64_t *sz = ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (sz[x] != sz[y]) return sz[x] < sz[y] ? 1 : -1;
    return (x > y) - (x < y);
}

/* Kahn's order into W->topo; -1 when the graph has a cycle. */
static int topo_order(const graph *g, uint32_t *topo)
{
    uint32_t n = g->n, head = 0, tail = 0;
    uint32_t *rem = malloc(((size_t)n + 1) * sizeof *rem);
    if (!rem) return -1;
    for (uint32_t v = 0; v < n; v++)
        if (!(rem[v] = g->pred_off[v + 1] - g->pred_off[v])) topo[tail++] = v;
    while (head < tail) {
        uint32_t u = topo[head++];
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
            if (--rem[g->succ[e]] == 0) topo[tail++] = g->succ[e];
    }
    free(rem);
    return tail == n ? 0 : -1;
}

/* The buffers whose sizes count: ALLOC +size, FREE (if any) -size; else
 * the bound gives up (-1). Places them by size, the largest first. */
static int ws_init(bound_ws *W, const graph *g)
{
    uint32_t n = g->n, nb = g->nbufs;
    memset(W, 0, sizeof *W);
    W->g = g;
    W->n = n;
    W->topo = malloc(((size_t)n + 1) * sizeof *W->topo);
    W->bit = malloc(((size_t)nb + 1) * sizeof *W->bit);
    W->bufat = malloc(((size_t)nb + 1) * sizeof *W->bufat);
    W->size = malloc(((size_t)nb + 1) * sizeof *W->size);
    W->need = calloc((size_t)n + 1, sizeof *W->need);
    if (!W->topo || !W->bit || !W->bufat || !W->size || !W->need || topo_order(g, W->topo))
        return -1;
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t a = g->buf_alloc[b], f = g->buf_free[b];
        if (a == GRAPH_NONE || g->change[a] != g->buf_size[b] || g->buf_size[b] < 0) return -1;
        if (f != GRAPH_NONE && g->change[f] != -g->buf_size[b]) return -1;
        W->bufat[b] = b;
    }
    for (uint32_t v = 0; v < n; v++) /* no other node changes memory */
        if (g->change[v] && (g->kind[v] == NODE_COMPUTE || g->buf[v] == GRAPH_NONE)) return -1;
    qsort_r(W->bufat, nb, sizeof *W->bufat, cmp_size_desc, g->buf_size);
    W->nbits = nb;
    for (uint32_t i = 0; i < nb; i++) {
        W->bit[W->bufat[i]] = i;
        W->size[i] = g->buf_size[W->bufat[i]];
    }
    return 0;
}

/* The place of node v's buffer within the block from bit b0, or -1. */
static int64_t in_block(const bound_ws *W, uint32_t v, uint32_t b0)
{
    uint32_t b = W->g->buf[v];
    if (W->g->kind[v] == NODE_COMPUTE || b == GRAPH_NONE) return -1;
    uint32_t i = W->bit[b];
    return i >= b0 && i - b0 < 64u * W->w ? (int64_t)(i - b0) : -1;
}

/* Fills the block's sets from bit b0. -1 when a FREE does not depend on its
 * ALLOC (the sums would not be the live bytes); 1 when cancelled or past the
 * deadline (read every 4096 nodes) before they are whole. */
static int block_sets(bound_ws *W, uint32_t b0, const solve_ctx *c, double deadline)
{
    const graph *g = W->g;
    uint32_t n = W->n, w = W->w;
    memset(W->anc, 0, (size_t)n * w * sizeof *W->anc);
    for (uint32_t i = 0; i < n; i++) {
        if (!(i & 4095) && policy_past(c, deadline)) return 1;
        uint32_t v = W->topo[i];
        uint64_t *a = W->anc + (size_t)v * w;
        for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1]; e++) {
            const uint64_t *p = W->anc + (size_t)g->pred[e] * w;
            for (uint32_t x = 0; x < w; x++) a[x] |= p[x];
        }
        int64_t j = in_block(W, v, b0);
        if (j < 0) continue;
        if (g->kind[v] == NODE_ALLOC) SET(a, (uint32_t)j);
        else if (!HAS(a, (uint32_t)j)) return -1;
    }
    for (uint32_t i = n; i-- > 0;) {
        if (!(i & 4095) && policy_past(c, deadline)) return 1;
        uint32_t v = W->topo[i];
        uint64_t *d = W->dsc + (size_t)v * w, *f = W->fset + (size_t)v * w;
        memset(d, 0, w * sizeof *d);
        for (uint32_t e = g->succ_off[v]; e < g->succ_off[v + 1]; e++) {
            const uint64_t *s = W->fset + (size_t)g->succ[e] * w;
            for (uint32_t x = 0; x < w; x++) d[x] |= s[x];
        }
        memcpy(f, d, w * sizeof *f);
        int64_t j = in_block(W, v, b0);
        if (j >= 0 && g->kind[v] == NODE_FREE) SET(f, (uint32_t)j);
    }
    for (uint32_t j = 0; j < 64u * w && b0 + j < W->nbits; j++) /* never freed: always after */
        if (g->buf_free[W->bufat[b0 + j]] == GRAPH_NONE)
            for (uint32_t v = 0; v < n; v++) {
                SET(W->dsc + (size_t)v * w, j);
                SET(W->fset + (size_t)v * w, j);
            }
    return 0;
}

/* Bytes of the block's buffers (from bit b0) in x & (y | z). */
static int64_t bytes3(const bound_ws *W, uint32_t b0, const uint64_t *x, const uint64_t *y,
                      const uint64_t *z)
{
    int64_t sum = 0;
    for (uint32_t k = 0; k < W->w; k++)
        for (uint64_t m = x[k] & (y[k] | (z ? z[k] : 0)); m; m &= m - 1) {
            int64_t s = W->size[b0 + k * 64 + (uint32_t)__builtin_ctzll(m)];
            if (__builtin_add_overflow(sum, s, &sum)) return INT64_MAX;
        }
    return sum;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Whether to stop: reads the clock once per BOUND_TICK words of work. */
#define BOUND_TICK (1ull << 26)
static int late(const solve_ctx *c, double deadline, uint64_t *since, uint64_t work)
{
    if (*since == UINT64_MAX) return 1; /* late already: no more readings */
    if ((*since += work) < BOUND_TICK) return 0;
    *since = 0;
    if (!policy_past(c, deadline)) return 0;
    *since = UINT64_MAX;
    return 1;
}

/* The pair bound (the sets of one block holding every buffer; nanc: the
 * nodes' ancestor sets, n words of (n + 63) / 64 each). */
static int64_t pair_bound(const bound_ws *W, const uint64_t *nanc, int64_t lb, const solve_ctx *c,
                          double deadline, uint64_t *since)
{
    uint32_t n = W->n, w = W->w, nw = (n + 63) / 64;
    uint64_t *uni = malloc((w ? w : 1) * sizeof *uni);
    if (!uni) return lb;
    for (uint32_t v = 0; v < n; v++) {
        if (late(c, deadline, since, (uint64_t)n * (w + 4))) break;
        const uint64_t *av = W->anc + (size_t)v * w, *dv = W->dsc + (size_t)v * w;
        const uint64_t *fv = W->fset + (size_t)v * w;
        for (uint32_t u = 0; u < n; u++) {
            if (u <= v || HAS(nanc + (size_t)v * nw, u) || HAS(nanc + (size_t)u * nw, v)) continue;
            const uint64_t *au = W->anc + (size_t)u * w, *du = W->dsc + (size_t)u * w;
            const uint64_t *fu = W->fset + (size_t)u * w;
            for (uint32_t x = 0; x < w; x++) uni[x] = av[x] | au[x];
            int64_t vfirst = max64(bytes3(W, 0, av, dv, fu), bytes3(W, 0, uni, du, NULL));
            if (vfirst <= lb) continue;
            int64_t ufirst = max64(bytes3(W, 0, au, du, fv), bytes3(W, 0, uni, dv, NULL));
            int64_t both = vfirst < ufirst ? vfirst : ufirst;
            if (both > lb) lb = both;
        }
    }
    free(uni);
    return lb;
}

/* Sets. For nodes S = set[0..k), every order runs them in some order that
 * keeps their paths; with T of them run, s the last, after s's step the
 * buffers allocated by T's ancestors and freed by s's strict descendants or
 * by the rest of S or its descendants are live. The least over the orders of
 * S of the most over their steps bounds the peak: over the subsets T by
 * dynamic programming (D: scratch for 2^k sets, the bests and 2^k sums). */
#define BOUND_SET   10 /* the most nodes in a set */
#define BOUND_STALE 8  /* sets grown in a row that raise nothing, at most */
typedef struct set_dp {
    uint64_t *at, *fu; /* [2^k * w] allocated by T's ancestors; freed by U's descendants */
    int64_t *best;     /* [2^k] */
} set_dp;

static int64_t set_bound(const bound_ws *W, const uint64_t *nanc, const uint32_t *set, uint32_t k,
                         set_dp *D)
{
    uint32_t w = W->w, nw = (W->n + 63) / 64, full = (1u << k) - 1, before[BOUND_SET];
    for (uint32_t i = 0; i < k; i++) {
        before[i] = 0;
        for (uint32_t j = 0; j < k; j++)
            if (j != i && HAS(nanc + (size_t)set[i] * nw, set[j])) before[i] |= 1u << j;
    }
    memset(D->at, 0, w * sizeof *D->at);
    memset(D->fu, 0, w * sizeof *D->fu);
    for (uint32_t t = 1; t <= full; t++) {
        uint32_t i = (uint32_t)__builtin_ctz(t), r = t & (t - 1);
        const uint64_t *a = W->anc + (size_t)set[i] * w, *f = W->fset + (size_t)set[i] * w;
        for (uint32_t x = 0; x < w; x++) {
            D->at[(size_t)t * w + x] = D->at[(size_t)r * w + x] | a[x];
            D->fu[(size_t)t * w + x] = D->fu[(size_t)r * w + x] | f[x];
        }
    }
    D->best[0] = 0;
    for (uint32_t t = 1; t <= full; t++) {
        int64_t b = INT64_MAX;
        for (uint32_t m = t; m; m &= m - 1) {
            uint32_t i = (uint32_t)__builtin_ctz(m), r = t & ~(1u << i);
            if ((before[i] & r) != before[i] || D->best[r] >= b) continue;
            int64_t c = bytes3(W, 0, D->at + (size_t)t * w, D->fu + (size_t)(full & ~t) * w,
                               W->dsc + (size_t)set[i] * w);
            c = max64(c, D->best[r]);
            if (c < b) b = c;
        }
        D->best[t] = b;
    }
    return D->best[full];
}

/* Grows a set greedily from node start: each step adds the node that
 * raises the set's bound most. Spends *budget (word visits); -1 when it or
 * the clock ran out. */
static int grow_set(const bound_ws *W, const uint64_t *nanc, int64_t *lb, const solve_ctx *c,
                    double deadline, uint64_t *budget, uint32_t start, set_dp *D, uint64_t *since)
{
    uint32_t n = W->n, w = W->w, set[BOUND_SET];
    set[0] = start;
    uint32_t k = 1;
    while (k < BOUND_SET) {
        int64_t most = INT64_MIN;
        uint32_t pick = GRAPH_NONE;
        uint64_t cost = ((uint64_t)(k + 1) << (k + 1)) * (w + 4);
        for (uint32_t v = 0; v < n; v++) {
            if (late(c, deadline, since, cost)) return -1;
            int in = 0;
            for (uint32_t i = 0; i < k && !in; i++) in = set[i] == v;
            if (in) continue;
            if (cost > *budget) return -1;
            *budget -= cost;
            set[k] = v;
            int64_t b = set_bound(W, nanc, set, k + 1, D);
            if (b > most) {
                most = b;
                pick = v;
            }
        }
        if (pick == GRAPH_NONE) break;
        set[k++] = pick;
        if (most > *lb) *lb = most;
    }
    return 0;
}

/* Grows a set greedily from each node, those that need the most first,
 * while the budget and the clock allow: each set's bound holds, so the
 * greatest does. */
static int64_t sets_bound(const bound_ws *W, const uint64_t *nanc, int64_t lb, const solve_ctx *c,
                          double deadline, uint64_t budget, uint64_t *since)
{
    uint32_t n = W->n, w = W->w;
    set_dp D = {malloc(((size_t)w << BOUND_SET) * sizeof *D.at),
                malloc(((size_t)w << BOUND_SET) * sizeof *D.fu),
                malloc(((size_t)1 << BOUND_SET) * sizeof *D.best)};
    uint32_t *by = malloc(((size_t)n + 1) * sizeof *by);
    if (!D.at || !D.fu || !D.best || !by) goto out;
    for (uint32_t v = 0; v < n; v++) by[v] = v;
    qsort_r(by, n, sizeof *by, cmp_size_desc, W->need);
    for (uint32_t i = 0, stale = 0; i < n && stale < BOUND_STALE; i++) {
        int64_t was = lb;
        if (grow_set(W, nanc, &lb, c, deadline, &budget, by[i], &D, since)) break;
        stale = lb > was ? 0 : stale + 1;
    }
out:
    free(by);
    free(D.at);
    free(D.fu);
    free(D.best);
    return lb;
}

/* Every node's ancestors (v too), n rows of (n + 63) / 64 words, or NULL. */
static uint64_t *node_ancestors(const bound_ws *W)
{
    const graph *g = W->g;
    uint32_t n = W->n, nw = (n + 63) / 64;
    uint64_t *a = calloc((size_t)n * nw + 1, sizeof *a);
    if (!a) return NULL;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = W->topo[i];
        uint64_t *r = a + (size_t)v * nw;
        for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1]; e++) {
            const uint64_t *p = a + (size_t)g->pred[e] * nw;
            for (uint32_t x = 0; x < nw; x++) r[x] |= p[x];
        }
        SET(r, v);
    }
    return a;
}

/* The must-live sums, block by block while the cap and the clock allow;
 * then, when one block held every buffer, the pairs and the sets. */
static int64_t must_live(bound_ws *W, const solve_ctx *c, double deadline, uint64_t cap, int64_t lb)
{
    const graph *g = W->g;
    uint32_t n = W->n, wall = (W->nbits + 63) / 64;
    uint64_t edges = 2 * ((uint64_t)n + g->nedges), work = 0; /* the sums too: about twice */
    uint64_t w = wall, lim = BOUND_WORDS / n, blk = BOUND_BLOCK / edges;
    if (lim < w) w = lim;
    if (blk < w) w = blk;
    if (cap / edges < w) w = cap / edges; /* one block within the cap, where it can */
    W->w = (uint32_t)(w ? w : 1);
    size_t words = (size_t)n * W->w + 1;
    W->anc = malloc(words * sizeof *W->anc);
    W->dsc = malloc(words * sizeof *W->dsc);
    W->fset = malloc(words * sizeof *W->fset);
    if (!W->anc || !W->dsc || !W->fset) return 0;
    uint32_t b0 = 0;
    uint64_t since = 0;
    for (; b0 < W->nbits; b0 += 64u * W->w) {
        if (work + edges * W->w > cap || policy_past(c, deadline)) break;
        int cut = block_sets(W, b0, c, deadline);
        if (cut > 0) break; /* a block cut short proves nothing: the blocks before it */
        if (cut) return 0;  /* not live bytes: no bound */
        work += edges * W->w;
        for (uint32_t v = 0; v < n; v++) {
            const uint64_t *a = W->anc + (size_t)v * W->w, *d = W->dsc + (size_t)v * W->w;
            int64_t s = bytes3(W, b0, a, d, NULL);
            if (__builtin_add_overflow(W->need[v], s, &W->need[v])) W->need[v] = INT64_MAX;
        }
    }
    for (uint32_t v = 0; v < n; v++) lb = max64(lb, W->need[v]);
    if (W->w < wall || b0 == 0 || n > BOUND_PAIRS ||
        work + (uint64_t)n * n * (W->w + 4) > cap) /* the pairs: about n^2 (w + 4) */
        return lb;
    uint64_t *nanc = node_ancestors(W);
    work += (uint64_t)n * n * (W->w + 4);
    if (nanc) lb = pair_bound(W, nanc, lb, c, deadline, &since);
    if (nanc) lb = sets_bound(W, nanc, lb, c, deadline, cap - work, &since);
    free(nanc);
    return lb;
}

int64_t policy_lower_bound_from(const graph *g, const solve_ctx *c, double deadline, uint64_t cap,
                                int64_t lb)
{
    lb = max64(lb, policy_lower_bound_plain_until(g, c, deadline));
    bound_ws W = {0};
    if (g->n && g->nbufs && !policy_past(c, deadline) && !ws_init(&W, g))
        lb = max64(lb, must_live(&W, c, deadline, cap, lb));
    ws_free(&W);
    return lb;
}

int64_t policy_lower_bound_until(const graph *g, const solve_ctx *c, double deadline, uint64_t cap)
{
    return policy_lower_bound_from(g, c, deadline, cap, 0);
}

int64_t policy_lower_bound(const graph *g)
{
    return policy_lower_bound_until(g, NULL, HUGE_VAL, BOUND_PLAIN);
}
