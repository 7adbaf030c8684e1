/* budget_exact_bound.c: a bound of the exact search on the reruns to come from memory, where the
 * Edges leave one order of first runs (the given one): at each place t still to come, the
 * buffer versions made by then (present now, or made by a first run up to t) and read by a
 * first run after t (or kept to the end) are present at t, or gone then and made again after
 * it by their producer's rerun. When they and the node at t pass the budget, the bytes over it
 * are gone at t: the least latency of reruns that frees them (a fractional knapsack over the
 * producers, each counted once, those the other bound counts already free) is a bound; the
 * largest over t is added to the other. Recompute alone. Exports xbound_*. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "budget_exact_internal.h"

/* Whether compute node u must run before w (an Edge, or one through an ALLOC or a FREE). */
static int before(const graph *g, uint32_t u, uint32_t w)
{
    for (uint32_t e = g->pred_off[w]; e < g->pred_off[w + 1]; e++) {
        uint32_t p = g->pred[e];
        if (p == u) return 1;
        if (g->kind[p] == NODE_COMPUTE) continue;
        for (uint32_t f = g->pred_off[p]; f < g->pred_off[p + 1]; f++)
            if (g->pred[f] == u) return 1;
    }
    return 0;
}

int xbound_setup(xs *x)
{
    const budget_model *bm = x->bm;
    x->forced = !x->offload && x->recompute && x->m > 1;
    for (uint32_t i = 0; i + 1 < x->m && x->forced; i++)
        x->forced = before(x->g, bm->order[i], bm->order[i + 1]);
    if (!x->forced) return 0;
    size_t m = (size_t)x->m + 1, n = (size_t)x->g->n + 1;
    x->tbytes = malloc(m * sizeof *x->tbytes);
    x->lend = malloc(((size_t)x->nb + 1) * sizeof *x->lend);
    x->pbytes = calloc(n, sizeof *x->pbytes);
    x->pmark = calloc(n, sizeof *x->pmark);
    x->plist = malloc(n * sizeof *x->plist);
    if (!x->tbytes || !x->lend || !x->pbytes || !x->pmark || !x->plist) return -1;
    /* a version's last place: its last reader's (or the end's), before the next version */
    for (uint32_t l = 0; l < x->nb; l++) {
        int64_t end = bm->keep[l] ? (int64_t)x->m - 1 : bm->lastread[l];
        uint32_t nx = budget_next_version(bm, l);
        if (nx != GRAPH_NONE && bm->producer[nx] != GRAPH_NONE &&
            (int64_t)bm->pos[bm->producer[nx]] - 1 < end)
            end = (int64_t)bm->pos[bm->producer[nx]] - 1;
        x->lend[l] = end;
    }
    return 0;
}

void xbound_free(xs *x)
{
    free(x->tbytes);
    free(x->lend);
    free(x->pbytes);
    free(x->pmark);
    free(x->plist);
}

/* Producers by latency a byte held, least first (ties: by index). */
static int by_ratio(const void *a, const void *b, void *arg)
{
    const xs *x = arg;
    uint32_t p = *(const uint32_t *)a, q = *(const uint32_t *)b;
    double rp = graph_latency(x->g, p) / (double)x->pbytes[p];
    double rq = graph_latency(x->g, q) / (double)x->pbytes[q];
    return rp < rq ? -1 : rp > rq ? 1 : (p > q) - (p < q);
}

/* Where state s's version l starts being held (GRAPH_NONE: not counted). */
static uint32_t start_of(const xs *x, const uint64_t *s, uint32_t l, uint32_t P)
{
    const budget_model *bm = x->bm;
    if (bit(PRES(x, s), l)) return P;
    uint32_t p = bm->producer[l];
    if (p == GRAPH_NONE || bm->pos[p] < P) return GRAPH_NONE; /* gone: the other bound's */
    return bm->pos[p];
}

/* The least latency of reruns that frees what is held at place t past the budget (over bytes),
 * in *cost; -1 where what must be held there passes the budget alone. */
static int knapsack_at(xs *x, const uint64_t *s, uint32_t P, uint32_t t, int64_t over, double *cost)
{
    const budget_model *bm = x->bm;
    const graph *g = x->g;
    /* the producers whose rerun may free bytes held at t: not the node at t's own */
    uint32_t v = bm->order[t], np = 0;
    if (++x->pmarkv == 0) {
        memset(x->pmark, 0, ((size_t)g->n + 1) * sizeof *x->pmark);
        x->pmarkv = 1;
    }
    for (uint32_t l = 0; l < x->nb; l++) {
        uint32_t st = start_of(x, s, l, P), p = bm->producer[l];
        if (st == GRAPH_NONE || st > t || x->lend[l] < (int64_t)t) continue;
        if (p == GRAPH_NONE || !bm->rerunnable[p] || p == v) continue; /* v's output */
        if (bm->rng[p] && bm->pos[p] < P && !bit(PRES(x, s), x->sbit[p]))
            continue; /* a random op run without its generator state kept: never again */
        int read = 0;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1] && !read; e++) read = bm->rd[e] == l;
        if (read) continue;
        if (x->stamp[p] == x->stampv) { /* rerun already counted: free to free */
            over -= bm->size[l];
            continue;
        }
        if (x->pmark[p] != x->pmarkv) {
            x->pmark[p] = x->pmarkv;
            x->pbytes[p] = 0;
            x->plist[np++] = p;
        }
        x->pbytes[p] += bm->size[l];
    }
    if (over <= 0) return 0;
    qsort_r(x->plist, np, sizeof *x->plist, by_ratio, x);
    for (uint32_t k = 0; k < np && over > 0; k++) {
        uint32_t p = x->plist[k];
        double lat = graph_latency(g, p);
        if (x->pbytes[p] >= over) *cost += lat * (double)over / (double)x->pbytes[p];
        else *cost += lat;
        over -= x->pbytes[p];
    }
    return over > 0 ? -1 : 0; /* what must be held at t passes the budget */
}

/* The places whose bound is worked out: the XBOUND_PLACES that hold the most (a bound at
 * fewer places is still a bound), so that a state costs O(places x versions), not more. */
#define XBOUND_PLACES 8

int xbound_mem(xs *x, const uint64_t *s, double *add)
{
    const budget_model *bm = x->bm;
    *add = 0;
    if (!x->forced) return 0;
    uint32_t P = 0;
    for (size_t w = 0; w < x->wr; w++) P += (uint32_t)__builtin_popcountll(RAN(s)[w]);
    if (P >= x->m) return 0;
    memset(x->tbytes + P, 0, (size_t)(x->m + 1 - P) * sizeof *x->tbytes);
    for (uint32_t l = 0; l < x->nb; l++) {
        uint32_t st = start_of(x, s, l, P);
        if (st == GRAPH_NONE || x->lend[l] < (int64_t)st) continue;
        x->tbytes[st] += bm->size[l];
        x->tbytes[x->lend[l] + 1] -= bm->size[l];
    }
    uint32_t top[XBOUND_PLACES];
    int64_t topb[XBOUND_PLACES], held = 0;
    int nt = 0;
    for (uint32_t t = P; t < x->m; t++) {
        held += x->tbytes[t];
        if (held <= x->budget || (nt == XBOUND_PLACES && held <= topb[nt - 1])) continue;
        int k = nt < XBOUND_PLACES ? nt++ : nt - 1; /* insert by bytes, most first */
        for (; k > 0 && topb[k - 1] < held; k--) {
            top[k] = top[k - 1];
            topb[k] = topb[k - 1];
        }
        top[k] = t;
        topb[k] = held;
    }
    for (int k = 0; k < nt; k++) {
        double cost = 0;
        if (knapsack_at(x, s, P, top[k], topb[k] - x->budget, &cost)) return -1;
        if (cost > *add) *add = cost;
    }
    return 0;
}
