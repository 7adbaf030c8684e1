/* policy_piece.c: what exact's search does within one piece (see
 * policy_piece.h): running nodes with their closure, the start state, a
 * path's order, the bound on what is still to come, and the limits' clock
 * (policy_piece_tick). Exports the
 * policy_piece_* of policy_piece.h. */
#include "policy_piece.h"
#include <stdlib.h>
#include <string.h>

int policy_piece_tick(piece_limits *L, uint64_t visits)
{
    L->work += visits;
    if (L->work < PIECE_CHECK || L->stopped != SOLVE_DONE) return L->stopped != SOLVE_DONE;
    L->work = 0;
    if (solve_cancelled(L->ctx)) L->stopped = SOLVE_CANCELLED;
    else if ((L->now = solve_now(L->ctx)) > L->deadline) L->stopped = SOLVE_TIME;
    return L->stopped != SOLVE_DONE;
}

void policy_piece_run(const piece *P, uint64_t *b, uint32_t j, int64_t *mem, uint32_t *depth,
                      uint32_t *nt, uint32_t *out, uint32_t *nout)
{
    uint32_t *queue = P->touched + P->ne; /* past the undo log: the work list */
    uint32_t head = 0, tail = 0;
    queue[tail++] = j;
    while (head < tail) {
        uint32_t u = queue[head++];
        SET(b, u);
        *mem += P->change[u];
        (*depth)++;
        if (out) out[(*nout)++] = u;
        for (uint32_t e = P->soff[u]; e < P->soff[u + 1]; e++) {
            uint32_t v = P->succ[e];
            P->touched[(*nt)++] = v;
            if (--P->rem[v] == 0 && P->change[v] <= 0) queue[tail++] = v;
        }
    }
}

void policy_piece_count_rem(const piece *P, const uint64_t *b)
{
    for (uint32_t v = 0; v < P->k; v++) {
        uint32_t c = 0;
        if (!HAS(b, v))
            for (uint32_t e = P->poff[v]; e < P->poff[v + 1]; e++) c += !HAS(b, P->pred[e]);
        P->rem[v] = c;
    }
}

void policy_piece_start(const piece *P, uint64_t *b, int64_t *mem, uint32_t *depth, uint32_t *out,
                        uint32_t *nout)
{
    memset(b, 0, (size_t)P->w * sizeof *b);
    policy_piece_count_rem(P, b);
    for (uint32_t v = 0; v < P->k; v++)
        if (!HAS(b, v) && P->rem[v] == 0 && P->change[v] <= 0) {
            uint32_t nt = 0;
            policy_piece_run(P, b, v, mem, depth, &nt, out, nout);
        }
}

int64_t policy_piece_bound_after(const piece *P, const uint64_t *b, uint64_t *alloc)
{
    if (!P->na) return 0;
    memcpy(alloc, P->pre, (size_t)P->wb * sizeof *alloc);
    for (uint32_t i = 0; i < P->na; i++)
        if (HAS(b, P->anode[i])) SET(alloc, P->abuf[i]);
    int64_t most = 0;
    for (uint32_t i = 0; i < P->na; i++) {
        if (HAS(b, P->anode[i]) || P->change[P->anode[i]] <= 0) continue;
        const uint64_t *an = P->anc + (size_t)i * P->wb, *ds = P->dsc + (size_t)i * P->wb;
        int64_t sum = P->kept;
        for (uint32_t x = 0; x < P->wb; x++)
            for (uint64_t m = (alloc[x] | an[x]) & ds[x]; m; m &= m - 1)
                sum += P->bsize[x * 64 + (uint32_t)__builtin_ctzll(m)];
        if (sum > most) most = sum;
    }
    return most;
}

void policy_piece_order(const piece *P, const uint32_t *path, uint32_t npath, uint32_t *out)
{
    uint64_t *b = calloc(P->w ? P->w : 1, sizeof *b);
    if (!b) return; /* the caller checks the count */
    int64_t mem = 0;
    uint32_t depth = 0, n = 0, nt = 0;
    policy_piece_start(P, b, &mem, &depth, out, &n);
    for (uint32_t i = 0; i < npath; i++) {
        nt = 0;
        policy_piece_run(P, b, path[i], &mem, &depth, &nt, out, &n);
    }
    free(b);
}

void policy_piece_free(piece *P)
{
    free(P->change);
    free(P->poff);
    free(P->soff);
    free(P->pred);
    free(P->succ);
    free(P->rem);
    free(P->touched);
    free(P->anode);
    free(P->abuf);
    free(P->bsize);
    free(P->pre);
    free(P->anc);
    free(P->dsc);
    memset(P, 0, sizeof *P);
}

int policy_piece_bound(const graph *g, piece *P, const uint32_t *rank, uint32_t s0, uint32_t *bloc)
{
    uint32_t k = P->k, nb = 0, na = 0;
    if (k > PIECE_BOUND_MAX) return 0;
    uint32_t *gbuf = malloc(((size_t)k + 1) * sizeof *gbuf); /* local buffer -> graph's */
    uint32_t *queue = malloc(((size_t)k + 1) * sizeof *queue);
    uint8_t *seen = malloc((size_t)k + 1);
    P->anode = malloc(((size_t)k + 1) * sizeof *P->anode);
    P->abuf = malloc(((size_t)k + 1) * sizeof *P->abuf);
    int rc = -1;
    if (!gbuf || !queue || !seen || !P->anode || !P->abuf) goto out;
    for (uint32_t j = 0; j < k; j++) {
        uint32_t u = P->node[j], b = g->buf[u];
        if (g->kind[u] == NODE_COMPUTE || b == GRAPH_NONE) continue;
        if (bloc[b] == GRAPH_NONE) {
            bloc[b] = nb;
            gbuf[nb++] = b;
        }
        if (g->kind[u] == NODE_ALLOC) {
            P->anode[na] = j;
            P->abuf[na++] = bloc[b];
        }
    }
    P->nb = nb;
    P->na = na;
    P->wb = (nb + 63) / 64;
    size_t wb = P->wb ? P->wb : 1;
    P->bsize = malloc(((size_t)nb + 1) * sizeof *P->bsize);
    P->pre = calloc(wb, sizeof *P->pre);
    P->anc = calloc(((size_t)na + 1) * wb, sizeof *P->anc);
    P->dsc = calloc(((size_t)na + 1) * wb, sizeof *P->dsc);
    uint64_t *always = calloc(wb, sizeof *always); /* freed after the piece, or never */
    if (!P->bsize || !P->pre || !P->anc || !P->dsc || !always) {
        free(always);
        goto out;
    }
    P->kept = P->base;
    for (uint32_t i = 0; i < nb; i++) {
        uint32_t b = gbuf[i], f = g->buf_free[b];
        P->bsize[i] = g->buf_size[b];
        if (rank[g->buf_alloc[b]] < s0) {
            SET(P->pre, i);
            P->kept -= g->buf_size[b]; /* live at the start, freed in the piece */
        }
        if (f == GRAPH_NONE || rank[f] >= s0 + k) SET(always, i);
    }
    for (uint32_t i = 0; i < na; i++) {
        uint64_t *an = P->anc + (size_t)i * wb, *ds = P->dsc + (size_t)i * wb;
        memcpy(ds, always, wb * sizeof *ds);
        for (int dir = 0; dir < 2; dir++) { /* 0: a and its ancestors, 1: its descendants */
            const uint32_t *off = dir ? P->soff : P->poff, *adj = dir ? P->succ : P->pred;
            uint32_t head = 0, tail = 0;
            memset(seen, 0, k);
            queue[tail++] = P->anode[i];
            seen[P->anode[i]] = 1;
            while (head < tail) {
                uint32_t u = queue[head++], gu = P->node[u];
                if (g->kind[gu] != NODE_COMPUTE && g->buf[gu] != GRAPH_NONE) {
                    uint32_t lb = bloc[g->buf[gu]];
                    if (!dir && g->kind[gu] == NODE_ALLOC) SET(an, lb);
                    if (dir && u != P->anode[i] && g->kind[gu] == NODE_FREE) SET(ds, lb);
                }
                for (uint32_t e = off[u]; e < off[u + 1]; e++)
                    if (!seen[adj[e]]) {
                        seen[adj[e]] = 1;
                        queue[tail++] = adj[e];
                    }
            }
        }
    }
    free(always);
    rc = 0;
out:
    for (uint32_t i = 0; i < nb; i++) bloc[gbuf[i]] = GRAPH_NONE;
    free(gbuf);
    free(queue);
    free(seen);
    return rc;
}

/* Makes P the local graph of the nodes at positions [s0, s0 + k) of order
 * (mem: the live bytes after each step; ub: the piece's peak there), with
 * its bound; loc maps a node to its place in the piece, bloc is
 * policy_piece_bound's map. 0, or -1 out of memory (policy_piece_free frees
 * what it made either way). */
int policy_piece_make(const graph *g, const uint32_t *rank, const uint32_t *order,
                      const int64_t *mem, uint32_t s0, uint32_t k, int64_t ub, uint32_t *loc,
                      uint32_t *bloc, piece *P)
{
    P->k = k;
    P->w = (k + 63) / 64;
    P->node = order + s0;
    P->base = s0 ? mem[s0 - 1] : 0;
    P->ub = ub;
    for (uint32_t j = 0; j < k; j++) loc[order[s0 + j]] = j;
    uint32_t ne = 0;
    for (uint32_t j = 0; j < k; j++)
        ne += g->pred_off[order[s0 + j] + 1] - g->pred_off[order[s0 + j]];
    P->change = malloc(((size_t)k + 1) * sizeof *P->change);
    P->poff = calloc((size_t)k + 1, sizeof *P->poff);
    P->soff = calloc((size_t)k + 2, sizeof *P->soff);
    P->pred = malloc(((size_t)ne + 1) * sizeof *P->pred);
    P->succ = malloc(((size_t)ne + 1) * sizeof *P->succ);
    P->rem = malloc(((size_t)k + 1) * sizeof *P->rem);
    P->touched = malloc(((size_t)ne + k + 1) * sizeof *P->touched);
    if (!P->change || !P->poff || !P->soff || !P->pred || !P->succ || !P->rem || !P->touched)
        return -1;
    P->ne = ne;
    ne = 0;
    for (uint32_t j = 0; j < k; j++) {
        uint32_t u = order[s0 + j];
        P->change[j] = g->change[u];
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++) {
            uint32_t p = g->pred[e];
            if (rank[p] < s0) continue; /* before the piece: done */
            P->pred[ne++] = loc[p];
            P->soff[loc[p] + 2]++;
        }
        P->poff[j + 1] = ne;
    }
    for (uint32_t j = 0; j < k; j++) P->soff[j + 2] += P->soff[j + 1];
    for (uint32_t j = 0; j < k; j++)
        for (uint32_t e = P->poff[j]; e < P->poff[j + 1]; e++)
            P->succ[P->soff[P->pred[e] + 1]++] = j;
    return policy_piece_bound(g, P, rank, s0, bloc) ? -1 : 0;
}

/* Puts the piece's better order, from the ALLOCs path[0..npath) its search
 * chose, into order and r->rank (lorder: room for P->k, path too, as
 * scratch). 0, or -1 when the order does not cover the piece. */
int policy_piece_adopt(const piece *P, uint32_t *path, uint32_t npath, uint32_t *lorder,
                       uint32_t *order, uint32_t *rank, uint32_t s0)
{
    uint32_t k = P->k, cnt = 0;
    for (uint32_t j = 0; j < k; j++) lorder[j] = UINT32_MAX;
    policy_piece_order(P, path, npath, lorder);
    for (uint32_t j = 0; j < k && lorder[j] != UINT32_MAX; j++) cnt++;
    if (cnt != k) return -1;
    for (uint32_t j = 0; j < k; j++) path[j] = P->node[lorder[j]]; /* P->node is order */
    for (uint32_t j = 0; j < k; j++) {
        order[s0 + j] = path[j];
        rank[path[j]] = s0 + j;
    }
    return 0;
}
