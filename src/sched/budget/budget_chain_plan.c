/* budget_chain_plan.c: the chain solver's plan: the DP's sequence (budget_chain.c) replayed as
 * run and free events, what comes before the forward and after the backward around it; and
 * the helpers both read the segments and the table with. Exports chain_emit, chain_group_end,
 * chain_at3, chain_spare_cut and chain_idle (budget_chain_internal.h). */
#define _GNU_SOURCE
#include <stdint.h>
#include "budget_chain_internal.h"

uint32_t chain_group_end(const chain *ch, uint32_t k) { return k ? ch->gs[k - 1] : ch->b1; }

size_t chain_at3(const chain *ch, uint32_t a, uint32_t b, int64_t m)
{
    return ((size_t)b * (b + 1) / 2 + a) * (size_t)(ch->M + 1) + (size_t)m;
}

/* The slots of the cut before a that a's backward may use: it goes before that backward
 * when neither that backward nor the one of the segment before reads it (that one runs after,
 * when a caller kept the cut with its tape). */
int chain_spare_cut(const chain *ch, uint32_t a)
{
    return a > 0 && !(ch->reads_cut[a] & 2) && !(ch->reads_cut[a - 1] & 1);
}

/* Whether segment k, not the last, has no backward and no tape: once its first run is done
 * (before any backward: only the last segment's may be due), it need not run again. */
int chain_idle(const chain *ch, uint32_t k)
{
    return k + 1 < ch->l && ch->gs[k] == chain_group_end(ch, k) && !ch->T[k];
}

static void ev(chain *ch, uint32_t op, uint32_t x)
{
    if (!ch->oom && budget_plan_push(ch->p, op, x)) ch->oom = 1;
}

static void drop(chain *ch, uint32_t b)
{
    if (b == GRAPH_NONE || !ch->present[b]) return;
    ch->present[b] = 0;
    ev(ch, BUDGET_FREE, ch->bm->phys[b]);
}

/* Runs the node at place s; then frees what goes after it (forward: the forward buffers of
 * its segment but the tape when tape). */
static void step(chain *ch, uint32_t s, int fwd, int tape)
{
    const budget_model *bm = ch->bm;
    const uint32_t *off = ch->off, *at = ch->at;
    uint32_t v = bm->order[s];
    ev(ch, BUDGET_RUN, v);
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) {
        uint32_t l = bm->wr[e], b = bm->phys[l];
        for (uint32_t k = bm->vers_off[b]; k < bm->vers_off[b + 1]; k++) /* changed in place */
            ch->present[bm->vers[k]] = 0;
        ch->present[l] = 1;
    }
    for (uint32_t i = off[s]; i < off[s + 1]; i++) {
        uint32_t b = at[i];
        if (!fwd || (ch->cls[b] == C_FWD && !(tape && ch->lb[b] >= 0))) drop(ch, b);
    }
    for (uint32_t e = bm->rd_off[v]; !fwd && e < bm->rd_off[v + 1]; e++) /* a tape's last */
        if (ch->cls[bm->rd[e]] == C_FWD && ch->lb[bm->rd[e]] == (int64_t)s) drop(ch, bm->rd[e]);
}

static void forward(chain *ch, uint32_t k, int tape)
{
    for (uint32_t s = ch->fs[k]; s < ch->fs[k + 1]; s++) step(ch, s, 1, tape);
}

/* Segment k's backward, then its forward buffers go. */
static void backward(chain *ch, uint32_t k)
{
    const budget_model *bm = ch->bm;
    if (!(ch->reads_cut[k] & 1)) drop(ch, ch->cut[k]);
    for (uint32_t s = ch->gs[k]; s < chain_group_end(ch, k); s++) step(ch, s, 0, 0);
    for (uint32_t s = ch->fs[k]; s < ch->fs[k + 1]; s++) {
        uint32_t v = bm->order[s];
        for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++)
            if (ch->cls[bm->wr[e]] == C_FWD) drop(ch, bm->wr[e]);
    }
}

/* The DP's sequence for segments a..b with m slots. */
static void replay_dp(chain *ch, uint32_t a, uint32_t b, int64_t m)
{
    int32_t how = ch->how[chain_at3(ch, a, b, m)];
    uint32_t k = (uint32_t)how / 2; /* the segment with its tape, or the one after the cut kept */
    if (a == b && chain_idle(ch, a)) return;
    for (uint32_t i = a; i < k; i++) {
        forward(ch, i, 0);
        if (i > a) drop(ch, ch->cut[i - 1]);
    }
    if (how & 1) {
        forward(ch, k, 1);
        if (k > a) drop(ch, ch->cut[k - 1]);
        if (k < b) replay_dp(ch, k + 1, b, m - ch->sA[k] - ch->sT[k]);
        if (k == a && chain_spare_cut(ch, a)) drop(ch, ch->cut[a - 1]);
        backward(ch, k);
        if (k > a) replay_dp(ch, a, k - 1, m);
        return;
    }
    replay_dp(ch, k, b, m - ch->sA[k - 1]);
    drop(ch, ch->cut[k - 1]);
    replay_dp(ch, a, k - 1, m);
}

/* The whole plan: what comes before the forward, the DP's, what comes after the backward. */
void chain_emit(chain *ch)
{
    const budget_model *bm = ch->bm;
    for (uint32_t i = 0; i < ch->off[0]; i++) drop(ch, ch->at[i]);
    for (uint32_t s = 0; s < ch->f0; s++) step(ch, s, 0, 0);
    replay_dp(ch, 0, ch->l - 1, ch->M);
    for (uint32_t b = 0; b < ch->bm->nl; b++)
        if (ch->cls[b] == C_OUT && !bm->keep[b] && bm->lastread[b] >= (int64_t)ch->f0 &&
            bm->lastread[b] < (int64_t)ch->b1)
            drop(ch, b);
    for (uint32_t s = ch->b1; s < bm->m; s++) step(ch, s, 0, 0);
}
