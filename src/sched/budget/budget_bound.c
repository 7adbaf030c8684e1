/* budget_bound.c: lower bounds on every plan's peak and extra time under a budget, for any
 * first-run order: the bytes forced at each compute node and a covering bound there, combined
 * over points whose reruns cannot be shared. Exports budget_bound_*. */
#include "budget_bound.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void budget_bound_free(budget_bound *bb)
{
    free(bb->node);
    free(bb->forced);
    free(bb->across);
    free(bb->ent_off);
    free(bb->ent_buf);
    free(bb->ent_top);
    free(bb->ent_cost);
    memset(bb, 0, sizeof *bb);
}

/* The compute node that makes version k of buffer b, or GRAPH_NONE. */
static uint32_t maker(const budget_model *bm, uint32_t b, uint32_t k)
{
    return bm->producer[bm->vers[bm->vers_off[b] + k]];
}

#define BIT(a, i) (((a)[(i) >> 6] >> ((i)&63)) & 1)

/* anc[x * w ..]: the compute nodes (by place in order) that come before node x in every plan:
 * along the Edges (through any nodes) and from a buffer's maker to its readers. 0, 1 when the
 * relation is not a DAG the model walks (no bound then), or -1 out of memory. */
static int ancestors(const budget_model *bm, size_t w, uint64_t *anc)
{
    const graph *g = bm->g;
    uint32_t n = g->n, *indeg = calloc((size_t)n + 1, sizeof *indeg),
             *queue = malloc(((size_t)n + 1) * sizeof *queue);
    uint32_t *rdr_off = calloc((size_t)bm->nl + 1, sizeof *rdr_off), *rdr = NULL;
    int r = 0;
    if (!indeg || !queue || !rdr_off) r = -1;
    for (uint32_t x = 0; !r && x < n; x++) {
        indeg[x] = g->pred_off[x + 1] - g->pred_off[x];
        if (g->kind[x] != NODE_COMPUTE) continue;
        for (uint32_t e = bm->rd_off[x]; e < bm->rd_off[x + 1]; e++)
            if (bm->producer[bm->rd[e]] != GRAPH_NONE) {
                indeg[x]++;
                rdr_off[bm->rd[e] + 1]++;
            }
    }
    if (!r) {
        for (uint32_t l = 0; l < bm->nl; l++) rdr_off[l + 1] += rdr_off[l];
        rdr = malloc(((size_t)rdr_off[bm->nl] + 1) * sizeof *rdr);
        if (!rdr) r = -1;
    }
    for (uint32_t x = 0; !r && x < n; x++)
        if (g->kind[x] == NODE_COMPUTE)
            for (uint32_t e = bm->rd_off[x]; e < bm->rd_off[x + 1]; e++)
                if (bm->producer[bm->rd[e]] != GRAPH_NONE) rdr[rdr_off[bm->rd[e]]++] = x;
    for (uint32_t l = bm->nl; !r && l > 0; l--) rdr_off[l] = rdr_off[l - 1];
    if (!r) rdr_off[0] = 0;
    size_t head = 0, tail = 0;
    for (uint32_t x = 0; !r && x < n; x++)
        if (!indeg[x]) queue[tail++] = x;
    while (!r && head < tail) {
        uint32_t x = queue[head++];
        uint64_t *a = anc + (size_t)x * w;
        for (uint32_t e = g->pred_off[x]; e < g->pred_off[x + 1]; e++) {
            uint32_t p = g->pred[e];
            const uint64_t *b = anc + (size_t)p * w;
            for (size_t k = 0; k < w; k++) a[k] |= b[k];
            if (g->kind[p] == NODE_COMPUTE) a[bm->pos[p] >> 6] |= 1ull << (bm->pos[p] & 63);
        }
        if (g->kind[x] == NODE_COMPUTE) {
            for (uint32_t e = bm->rd_off[x]; e < bm->rd_off[x + 1]; e++) {
                uint32_t p = bm->producer[bm->rd[e]];
                if (p == GRAPH_NONE) continue;
                const uint64_t *b = anc + (size_t)p * w;
                for (size_t k = 0; k < w; k++) a[k] |= b[k];
                a[bm->pos[p] >> 6] |= 1ull << (bm->pos[p] & 63);
            }
            for (uint32_t e = bm->wr_off[x]; e < bm->wr_off[x + 1]; e++) {
                uint32_t l = bm->wr[e];
                if (bm->producer[l] != x) continue;
                for (uint32_t k = rdr_off[l]; k < rdr_off[l + 1]; k++)
                    if (--indeg[rdr[k]] == 0) queue[tail++] = rdr[k];
            }
        }
        for (uint32_t e = g->succ_off[x]; e < g->succ_off[x + 1]; e++)
            if (--indeg[g->succ[e]] == 0) queue[tail++] = g->succ[e];
    }
    if (!r && tail != n) r = 1;
    free(indeg);
    free(queue);
    free(rdr_off);
    free(rdr);
    return r;
}

/* Entries of one point, to sort by cost a byte (forced last). */
typedef struct entry {
    uint32_t b, top;
    int64_t size;
    double cost;
} entry;

static int by_ratio(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    double ra = isinf(a->cost) ? (double)INFINITY : a->cost / (double)a->size,
           rb = isinf(b->cost) ? (double)INFINITY : b->cost / (double)b->size;
    return ra < rb ? -1 : ra > rb ? 1 : a->b < b->b ? -1 : a->b > b->b;
}

/* Whether the chain of makers of b up to version k can run again. */
static int remakable(const budget_model *bm, uint32_t b, uint32_t k)
{
    for (uint32_t j = 0; j <= k; j++) {
        uint32_t p = maker(bm, b, j);
        if (p == GRAPH_NONE || !bm->rerunnable[p]) return 0;
    }
    return 1;
}

typedef struct work {
    const budget_model *bm;
    const uint64_t *anc;
    size_t w;
    uint32_t *rdr_off, *rdr; /* every logical buffer's readers */
    int32_t *top;            /* [nbufs] the highest version across the point, or -1 */
    uint8_t *touched;        /* [nbufs] */
    uint32_t *cnt;           /* [n] droppable chains through a node */
    uint32_t *list;          /* [nbufs] the buffers met at this point */
    entry *ent;
} work;

/* Point s's entries into wk->ent: their count. */
static size_t point(work *wk, budget_bound *bb, uint32_t s)
{
    const budget_model *bm = wk->bm;
    const graph *g = bm->g;
    uint32_t v = bm->order[s], nmet = 0;
    const uint64_t *av = wk->anc + (size_t)v * wk->w;
    for (uint32_t l = 0; l < bm->nl; l++) {
        uint32_t p = bm->producer[l], b = bm->phys[l];
        if (p != GRAPH_NONE && (p == v || !BIT(av, bm->pos[p]))) continue;
        int later = bm->keep[l];
        for (uint32_t k = wk->rdr_off[l]; !later && k < wk->rdr_off[l + 1]; k++) {
            uint32_t r = wk->rdr[k];
            later = r != v && BIT(wk->anc + (size_t)r * wk->w, s);
        }
        if (!later) continue;
        if (wk->top[b] < 0 && !wk->touched[b]) wk->list[nmet++] = b;
        if ((int32_t)bm->ver[l] > wk->top[b]) wk->top[b] = (int32_t)bm->ver[l];
    }
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t e = pass ? bm->wr_off[v] : bm->rd_off[v];
             e < (pass ? bm->wr_off[v + 1] : bm->rd_off[v + 1]); e++) {
            uint32_t l = pass ? bm->wr[e] : bm->rd[e], b = bm->phys[l];
            /* with offload an Input node may leave what it makes on the host */
            if (pass && (bb->allow & BUDGET_ALLOW_OFFLOAD) && l < g->nbufs && bm->hostable[l])
                continue;
            if (wk->top[b] < 0 && !wk->touched[b]) wk->list[nmet++] = b;
            wk->touched[b] = 1;
        }
    size_t ne = 0;
    for (uint32_t i = 0; i < nmet; i++) {
        uint32_t b = wk->list[i];
        int64_t size = g->buf_size[b];
        if (size <= 0) continue;
        entry *en = &wk->ent[ne++];
        *en = (entry){b, wk->touched[b] ? 0 : (uint32_t)wk->top[b], size, (double)INFINITY};
        if (wk->touched[b]) continue;
        if (bb->allow & BUDGET_ALLOW_OFFLOAD) en->cost = 0;
        else if (remakable(bm, b, en->top)) {
            en->cost = 0;
            for (uint32_t j = 0; j <= en->top; j++) wk->cnt[maker(bm, b, j)]++;
        }
    }
    for (size_t i = 0; i < ne; i++) { /* a node's latency split among the chains through it */
        entry *en = &wk->ent[i];
        if (en->cost != 0 || (bb->allow & BUDGET_ALLOW_OFFLOAD)) continue;
        for (uint32_t j = 0; j <= en->top; j++) {
            uint32_t p = maker(bm, en->b, j);
            en->cost += graph_latency(g, p) / wk->cnt[p];
        }
    }
    for (size_t i = 0; i < ne; i++) {
        entry *en = &wk->ent[i];
        if (!isinf(en->cost) && !(bb->allow & BUDGET_ALLOW_OFFLOAD))
            for (uint32_t j = 0; j <= en->top; j++) wk->cnt[maker(bm, en->b, j)] = 0;
    }
    for (uint32_t i = 0; i < nmet; i++) {
        wk->top[wk->list[i]] = -1;
        wk->touched[wk->list[i]] = 0;
    }
    qsort(wk->ent, ne, sizeof *wk->ent, by_ratio);
    return ne;
}

/* Appends n entries to bb's arrays (grown as needed): 0, 1 past BUDGET_BOUND_MAX_ENTRIES, or
 * -1 out of memory. */
static int append(budget_bound *bb, size_t *cap, const entry *ent, size_t n)
{
    size_t at = bb->ent_off[bb->np];
    if (at + n > BUDGET_BOUND_MAX_ENTRIES) return 1;
    if (at + n > *cap) {
        size_t nc = (at + n) * 2 + 64;
        uint32_t *eb = realloc(bb->ent_buf, nc * sizeof *eb);
        if (eb) bb->ent_buf = eb;
        uint32_t *et = realloc(bb->ent_top, nc * sizeof *et);
        if (et) bb->ent_top = et;
        double *ec = realloc(bb->ent_cost, nc * sizeof *ec);
        if (ec) bb->ent_cost = ec;
        if (!eb || !et || !ec) return -1;
        *cap = nc;
    }
    int64_t forced = 0, across = 0;
    for (size_t i = 0; i < n; i++) {
        bb->ent_buf[at + i] = ent[i].b;
        bb->ent_top[at + i] = ent[i].top;
        bb->ent_cost[at + i] = ent[i].cost;
        if (isinf(ent[i].cost)) forced += ent[i].size;
        else across += ent[i].size;
    }
    bb->forced[bb->np] = forced;
    bb->across[bb->np] = across;
    bb->ent_off[bb->np + 1] = (uint32_t)(at + n);
    if (forced > bb->peak || (forced == bb->peak && bb->peak_at == GRAPH_NONE && forced > 0)) {
        bb->peak = forced;
        bb->peak_at = bb->np;
    }
    bb->np++;
    return 0;
}

static int points(budget_bound *bb, size_t w, uint64_t *anc)
{
    const budget_model *bm = bb->bm;
    const graph *g = bm->g;
    work wk = {bm,
               anc,
               w,
               calloc((size_t)bm->nl + 1, sizeof(uint32_t)),
               NULL,
               malloc(((size_t)g->nbufs + 1) * sizeof(int32_t)),
               calloc((size_t)g->nbufs + 1, 1),
               calloc((size_t)g->n + 1, sizeof(uint32_t)),
               malloc(((size_t)g->nbufs + 1) * sizeof(uint32_t)),
               malloc(((size_t)g->nbufs + 1) * sizeof(entry))};
    size_t cap = 0;
    int r = !wk.rdr_off || !wk.top || !wk.touched || !wk.cnt || !wk.list || !wk.ent ? -1 : 0;
    if (!r) { /* every logical buffer's readers */
        for (uint32_t s = 0; s < bm->m; s++)
            for (uint32_t e = bm->rd_off[bm->order[s]]; e < bm->rd_off[bm->order[s] + 1]; e++)
                wk.rdr_off[bm->rd[e] + 1]++;
        for (uint32_t l = 0; l < bm->nl; l++) wk.rdr_off[l + 1] += wk.rdr_off[l];
        wk.rdr = malloc(((size_t)wk.rdr_off[bm->nl] + 1) * sizeof *wk.rdr);
        if (!wk.rdr) r = -1;
    }
    if (!r) {
        uint32_t *at = malloc(((size_t)bm->nl + 1) * sizeof *at);
        if (!at) r = -1;
        else {
            memcpy(at, wk.rdr_off, (size_t)bm->nl * sizeof *at);
            for (uint32_t s = 0; s < bm->m; s++) {
                uint32_t v = bm->order[s];
                for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
                    wk.rdr[at[bm->rd[e]]++] = v;
            }
            free(at);
        }
    }
    if (!r)
        for (uint32_t b = 0; b < g->nbufs; b++) wk.top[b] = -1;
    for (uint32_t s = 0; !r && s < bm->m; s++) {
        size_t ne = point(&wk, bb, s);
        bb->node[s] = bm->order[s];
        r = append(bb, &cap, wk.ent, ne);
    }
    free(wk.rdr_off);
    free(wk.rdr);
    free(wk.top);
    free(wk.touched);
    free(wk.cnt);
    free(wk.list);
    free(wk.ent);
    return r;
}

int budget_bound_init(budget_bound *bb, const budget_model *bm, unsigned allow)
{
    memset(bb, 0, sizeof *bb);
    bb->bm = bm;
    bb->allow = allow;
    bb->peak = budget_lower_bound_allow(bm, allow);
    bb->peak_at = GRAPH_NONE;
    const graph *g = bm->g;
    size_t w = ((size_t)bm->m + 63) / 64;
    /* the reachability bits, and the scan of every logical buffer and its readers per point */
    uint64_t reads = bm->rd_off[g->n];
    if ((uint64_t)g->n * w * 64 > BUDGET_BOUND_MAX_WORK ||
        (uint64_t)bm->m * ((uint64_t)bm->nl + reads) > BUDGET_BOUND_MAX_WORK)
        return 0;
    uint64_t *anc = calloc((size_t)g->n * w + 1, sizeof *anc);
    if (!anc) return -1;
    int r = ancestors(bm, w, anc);
    if (r) {
        free(anc);
        return r < 0 ? -1 : 0;
    }
    bb->node = malloc(((size_t)bm->m + 1) * sizeof *bb->node);
    bb->forced = malloc(((size_t)bm->m + 1) * sizeof *bb->forced);
    bb->across = malloc(((size_t)bm->m + 1) * sizeof *bb->across);
    bb->ent_off = calloc((size_t)bm->m + 2, sizeof *bb->ent_off);
    r = !bb->node || !bb->forced || !bb->across || !bb->ent_off ? -1 : points(bb, w, anc);
    free(anc);
    if (r) { /* out of memory, or too many entries: no points */
        budget_bound_free(bb);
        bb->bm = bm;
        bb->allow = allow;
        bb->peak = budget_lower_bound_allow(bm, allow);
        bb->peak_at = GRAPH_NONE;
    }
    return r < 0 ? -1 : 0;
}

typedef struct item {
    double ratio, cost;
    int64_t size;
} item;

static int by_item(const void *x, const void *y)
{
    const item *a = x, *b = y;
    return a->ratio < b->ratio ? -1 : a->ratio > b->ratio;
}

/* Point s's covering bound at budget: the least cost of dropping the bytes over it (need),
 * fractionally, cheapest a byte first, with each buffer's bytes counted up to need (no whole
 * plan drops less of a buffer than all of it); INFINITY when its forced bytes pass it. it
 * holds the point's entries (scratch). */
static double cover(const budget_bound *bb, uint32_t s, int64_t budget, item *it)
{
    if (bb->forced[s] > budget) return (double)INFINITY;
    int64_t need = bb->forced[s] + bb->across[s] - budget;
    if (need <= 0) return 0;
    const graph *g = bb->bm->g;
    size_t n = 0;
    for (uint32_t e = bb->ent_off[s]; e < bb->ent_off[s + 1] && !isinf(bb->ent_cost[e]); e++) {
        int64_t size = g->buf_size[bb->ent_buf[e]];
        if (size > need) size = need;
        it[n++] = (item){bb->ent_cost[e] / (double)size, bb->ent_cost[e], size};
    }
    qsort(it, n, sizeof *it, by_item);
    double c = 0;
    for (size_t k = 0; need > 0 && k < n; k++) {
        int64_t take = it[k].size < need ? it[k].size : need;
        c += it[k].cost * ((double)take / (double)it[k].size);
        need -= take;
    }
    return c;
}

/* The least cost of a whole-buffer cover of need (branch and bound over the items sorted by
 * cost a byte, pruned by the fractional bound from prefix sums), when found within
 * BOUND_KNAP_NODES nodes; else -1. */
#define BOUND_KNAP_NODES 4000
#define BOUND_REFINED    32 /* points refined at most */
typedef struct knap {
    const item *it;
    size_t n;
    const int64_t *psize; /* [n+1] prefix sums of sizes */
    const double *pcost;  /* [n+1] prefix sums of costs */
    double best;
    long nodes;
} knap;

/* The fractional cost of covering need with items k.. (INFINITY: they cannot). */
static double frac(const knap *kn, size_t k, int64_t need)
{
    if (kn->psize[kn->n] - kn->psize[k] < need) return (double)INFINITY;
    size_t lo = k, hi = kn->n; /* the least j with psize[j] - psize[k] >= need */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (kn->psize[mid] - kn->psize[k] >= need) hi = mid;
        else lo = mid + 1;
    }
    int64_t before = kn->psize[lo - 1] - kn->psize[k];
    const item *last = &kn->it[lo - 1];
    return kn->pcost[lo - 1] - kn->pcost[k] +
           last->cost * ((double)(need - before) / (double)last->size);
}

static void dfs(knap *kn, size_t k, int64_t need, double cost)
{
    if (need <= 0) {
        if (cost < kn->best) kn->best = cost;
        return;
    }
    if (k == kn->n || ++kn->nodes > BOUND_KNAP_NODES) return;
    if (cost + frac(kn, k, need) >= kn->best) return;
    dfs(kn, k + 1, need - kn->it[k].size, cost + kn->it[k].cost);
    dfs(kn, k + 1, need, cost);
}

static double whole_cover(item *it, size_t n, int64_t need)
{
    for (size_t k = 0; k < n; k++) it[k].ratio = it[k].cost / (double)it[k].size;
    qsort(it, n, sizeof *it, by_item);
    int64_t *psize = malloc((n + 1) * sizeof *psize);
    double *pcost = malloc((n + 1) * sizeof *pcost);
    double r = -1;
    if (psize && pcost) {
        psize[0] = 0;
        pcost[0] = 0;
        for (size_t k = 0; k < n; k++) {
            psize[k + 1] = psize[k] + it[k].size;
            pcost[k + 1] = pcost[k] + it[k].cost;
        }
        knap kn = {it, n, psize, pcost, (double)INFINITY, 0};
        dfs(&kn, 0, need, 0);
        if (kn.nodes <= BOUND_KNAP_NODES && !isinf(kn.best)) r = kn.best;
    }
    free(psize);
    free(pcost);
    return r;
}

/* Point s's bound refined: the least whole-buffer cover when the search ends, else lp. */
static double refine(const budget_bound *bb, uint32_t s, int64_t budget, item *it, double lp)
{
    int64_t need = bb->forced[s] + bb->across[s] - budget;
    const graph *g = bb->bm->g;
    size_t n = 0;
    for (uint32_t e = bb->ent_off[s]; e < bb->ent_off[s + 1] && !isinf(bb->ent_cost[e]); e++)
        it[n++] = (item){0, bb->ent_cost[e], g->buf_size[bb->ent_buf[e]]};
    double w = whole_cover(it, n, need);
    return w > lp ? w : lp;
}

typedef struct scored {
    double c;
    uint32_t s;
} scored;

static int by_cover(const void *x, const void *y)
{
    const scored *a = x, *b = y;
    return a->c > b->c ? -1 : a->c < b->c ? 1 : a->s < b->s ? -1 : a->s > b->s;
}

double budget_bound_ms(const budget_bound *bb, int64_t budget)
{
    if (bb->peak > budget) return (double)INFINITY;
    if (!bb->np) return 0;
    uint32_t most = 0;
    for (uint32_t s = 0; s < bb->np; s++)
        if (bb->ent_off[s + 1] - bb->ent_off[s] > most) most = bb->ent_off[s + 1] - bb->ent_off[s];
    scored *sc = malloc((size_t)bb->np * sizeof *sc);
    uint8_t *used = calloc((size_t)bb->bm->g->n + 1, 1);
    item *it = malloc(((size_t)most + 1) * sizeof *it);
    double best = 0, sum = 0;
    uint32_t ns = 0;
    for (uint32_t s = 0; it && sc && s < bb->np; s++) {
        double c = cover(bb, s, budget, it);
        if (c > best) best = c;
        if (sc && c > 0) sc[ns++] = (scored){c, s};
    }
    if (!sc || !used || !it || isinf(best)) { /* out of memory: what is known so far */
        free(it);
        free(sc);
        free(used);
        return best;
    }
    /* the points of the largest fractional bounds, refined by whole buffers, while they can
     * pass the largest refined bound */
    qsort(sc, ns, sizeof *sc, by_cover);
    double whole = 0;
    for (uint32_t i = 0; i < ns && i < BOUND_REFINED && sc[i].c > whole; i++) {
        sc[i].c = refine(bb, sc[i].s, budget, it, sc[i].c);
        if (sc[i].c > whole) whole = sc[i].c;
    }
    if (whole > best) best = whole;
    free(it);
    /* points whose droppable chains meet no node counted before: their reruns are distinct */
    qsort(sc, ns, sizeof *sc, by_cover);
    const budget_model *bm = bb->bm;
    for (uint32_t i = 0; i < ns; i++) {
        uint32_t s = sc[i].s, clear = 1;
        for (uint32_t e = bb->ent_off[s]; clear && e < bb->ent_off[s + 1]; e++)
            for (uint32_t j = 0; clear && !isinf(bb->ent_cost[e]) && j <= bb->ent_top[e]; j++)
                clear = !used[maker(bm, bb->ent_buf[e], j)];
        if (!clear) continue;
        sum += sc[i].c;
        for (uint32_t e = bb->ent_off[s]; e < bb->ent_off[s + 1]; e++)
            for (uint32_t j = 0; !isinf(bb->ent_cost[e]) && j <= bb->ent_top[e]; j++)
                used[maker(bm, bb->ent_buf[e], j)] = 1;
    }
    free(sc);
    free(used);
    return sum > best ? sum : best;
}

size_t budget_bound_forced_at(const budget_bound *bb, uint32_t s, uint32_t *out, size_t cap)
{
    size_t k = 0;
    if (s >= bb->np) return 0;
    for (uint32_t e = bb->ent_off[s]; e < bb->ent_off[s + 1]; e++)
        if (isinf(bb->ent_cost[e]) && k < cap) out[k++] = bb->ent_buf[e];
    return k;
}
