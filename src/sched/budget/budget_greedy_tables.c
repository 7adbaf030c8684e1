/* budget_greedy_tables.c: what greedy's walk works out before it starts (budget_greedy_walk.c):
 * each buffer's readers, the place after which it is no longer needed, and the chains of
 * producers that make a buffer again. Exports budget_greedy_uses, budget_greedy_dead_places,
 * budget_greedy_dead_buckets, budget_greedy_chains, budget_greedy_chains_free. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "budget_greedy_internal.h"

/* Whether every read of v that a rerun could make again may be made as late as place h. */
static int reads_last(const gs *s, uint32_t v, int64_t h)
{
    const budget_model *bm = s->bm;
    for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
        if (s->cok[bm->rd[e]] && s->cfrozen[bm->rd[e]] < h) return 0;
    return 1;
}

/* When each buffer is no longer needed: its horizon is the last place at which it may be
 * read, by its readers or by a rerun of a reader that makes again what a later place reads
 * (the readers' outputs' horizons, up to where a change in place stops the rerun); never,
 * for the kept ones. One that can be made again is freed after its last reader (made again
 * if a rerun needs it); one that cannot, after its horizon. Holds 3 and 2 count as made
 * again only what its producer may make up to the horizon; hold 1 up to the last reader
 * (bolder: a later rerun may then find it gone). */
void budget_greedy_dead_places(gs *s)
{
    const budget_model *bm = s->bm;
    int rec = (s->allow & BUDGET_ALLOW_RECOMPUTE) && s->hold;
    for (uint32_t b = 0; b < bm->nl; b++) s->dead[b] = bm->keep[b] ? INT64_MAX : bm->lastread[b];
    for (uint32_t i = bm->m; rec && i-- > 0;) {
        uint32_t v = bm->order[i];
        int64_t later = i;
        /* Holds 3 and 2: v reruns only to make again what it may make to that one's
         * horizon; 3 only where its reads could be made again as late, too (else the write
         * is kept: a gradient the optimizer reads late would hold every activation to
         * then); hold 1: anything, until a change in place stops it. */
        for (uint32_t e = bm->wr_off[v]; s->rr[v] && e < bm->wr_off[v + 1]; e++) {
            int64_t h = s->dead[bm->wr[e]];
            if (s->hold == 3 && (s->cfrozen[bm->wr[e]] < h || !reads_last(s, v, h)))
                s->nomake[bm->wr[e]] = 1;
            else if (h > later && (s->hold != 2 || s->cfrozen[bm->wr[e]] >= h)) later = h;
        }
        if (later > s->frozen[v]) later = s->frozen[v]; /* it reruns no later */
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
            if (later > s->dead[bm->rd[e]]) s->dead[bm->rd[e]] = later;
    }
    for (uint32_t b = 0; b < bm->nl; b++) {
        if (!bm->keep[b] && rec && s->cok[b] &&
            (s->hold >= 2 ? s->cfrozen[b] >= s->dead[b] && !s->nomake[b]
                          : s->cfrozen[b] > bm->lastread[b]))
            s->dead[b] = bm->lastread[b];
    }
}

/* Buckets the buffers by dead place + 1 (the kept ones in none). */
void budget_greedy_dead_buckets(gs *s)
{
    const budget_model *bm = s->bm;
    uint32_t nb = bm->nl;
    memset(s->dead_off, 0, ((size_t)bm->m + 2) * sizeof *s->dead_off);
    for (uint32_t b = 0; b < nb; b++)
        if (s->dead[b] != INT64_MAX) s->dead_off[s->dead[b] + 2]++;
    for (uint32_t k = 0; k <= bm->m; k++) s->dead_off[k + 1] += s->dead_off[k];
    for (uint32_t b = 0; b < nb; b++)
        if (s->dead[b] != INT64_MAX) s->dead_at[s->dead_off[s->dead[b] + 1]++] = b;
}

/* Each buffer's readers' places, ascending (the given order's). */
void budget_greedy_uses(gs *s)
{
    const budget_model *bm = s->bm;
    uint32_t nb = bm->nl;
    for (uint32_t e = 0; e < bm->rd_off[s->g->n]; e++) s->use_off[bm->rd[e] + 1]++;
    for (uint32_t b = 0; b < nb; b++) s->use_off[b + 1] += s->use_off[b];
    memcpy(s->ucur, s->use_off, (size_t)nb * sizeof *s->ucur);
    for (uint32_t i = 0; i < bm->m; i++) {
        uint32_t v = bm->order[i];
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
            s->use[s->ucur[bm->rd[e]]++] = i;
    }
    memcpy(s->ucur, s->use_off, (size_t)nb * sizeof *s->ucur);
}

void budget_greedy_chains_free(gs *s)
{
    free(s->frozen);
    free(s->cfrozen);
    free(s->cok);
    free(s->remake);
    free(s->rr);
    s->rr = s->cok = NULL;
    s->frozen = s->cfrozen = NULL;
    s->remake = NULL;
}

/* rr, frozen, cfrozen, cok and remake of bm with s->frozen_versions (the same at every hold):
 * 0, or -1 out of memory (chains_free frees them either way). */
int budget_greedy_chains(gs *s)
{
    const budget_model *bm = s->bm;
    const graph *g = s->g;
    s->frozen = malloc(((size_t)g->n + 1) * sizeof *s->frozen);
    s->cfrozen = malloc(((size_t)bm->nl + 1) * sizeof *s->cfrozen);
    s->cok = malloc((size_t)bm->nl + 1);
    s->remake = malloc(((size_t)bm->nl + 1) * sizeof *s->remake);
    s->rr = malloc((size_t)g->n + 1);
    if (!s->frozen || !s->cfrozen || !s->cok || !s->remake || !s->rr) return -1;
    memcpy(s->rr, bm->rerunnable, g->n);
    for (uint32_t l = g->nbufs; s->frozen_versions && l < bm->nl; l++) s->rr[bm->producer[l]] = 0;
    for (uint32_t v = 0; v < g->n; v++) {
        s->frozen[v] = INT64_MAX;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) {
            uint32_t nx = budget_next_version(bm, bm->rd[e]);
            if (nx != GRAPH_NONE && bm->producer[nx] != v &&
                (int64_t)bm->pos[bm->producer[nx]] < s->frozen[v])
                s->frozen[v] = bm->pos[bm->producer[nx]];
        }
        for (uint32_t e = bm->wr_off[v]; s->frozen_versions && e < bm->wr_off[v + 1]; e++) {
            uint32_t nx = budget_next_version(bm, bm->wr[e]);
            if (nx != GRAPH_NONE && (int64_t)bm->pos[bm->producer[nx]] < s->frozen[v])
                s->frozen[v] = bm->pos[bm->producer[nx]];
        }
    }
    for (uint32_t b = 0; b < g->nbufs; b++)
        for (uint32_t k = bm->vers_off[b]; k < bm->vers_off[b + 1]; k++) {
            uint32_t l = bm->vers[k], p = bm->producer[l];
            if (s->frozen_versions && k > bm->vers_off[b]) { /* one buffer, as version 0 */
                s->cok[l] = s->cok[bm->vers[k - 1]];
                s->cfrozen[l] = s->cfrozen[bm->vers[k - 1]];
                s->remake[l] = s->remake[bm->vers[k - 1]];
                continue;
            }
            int ok = p != GRAPH_NONE && s->rr[p];
            int64_t fr = ok ? s->frozen[p] : -1;
            double lat = p != GRAPH_NONE ? graph_latency(g, p) : 0;
            if (k > bm->vers_off[b]) { /* a change in place: the versions before, first */
                uint32_t q = bm->vers[k - 1];
                ok &= s->cok[q];
                if (s->cfrozen[q] < fr) fr = s->cfrozen[q];
                lat += s->remake[q];
            }
            s->cok[l] = (uint8_t)ok;
            s->cfrozen[l] = ok ? fr : -1;
            s->remake[l] = lat;
        }
    return 0;
}
