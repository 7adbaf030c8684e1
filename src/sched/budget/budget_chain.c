/* budget_chain.c: the chain solver of a memory budget, rotor's dynamic programme (Herrmann,
 * Shi, Beaumont, Eyraud-Dubois, Pallez 2019) over a training graph read as a chain of segments:
 * the forward cut where one buffer alone joins its two sides, each segment's backward a run of
 * the backward nodes; the DP picks which cut buffers to keep and which segments to run again,
 * in memory slots, and its sequence becomes run and free events (budget_chain_plan.c). Exports
 * budget_chain, budget_solver_chain and the chain_* helpers of budget_chain_internal.h. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget.h"

#include "budget_chain_internal.h"

static int why(chain *ch, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int why(chain *ch, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ch->o->why, sizeof ch->o->why, fmt, ap);
    va_end(ap);
    return 1;
}

/* A node for a message: "Id 7 (Relu)". */
static const char *nm(const chain *ch, uint32_t v, char *buf, size_t cap)
{
    snprintf(buf, cap, "Id %" PRId64 " (%.40s)", ch->g->id[v], graph_name(ch->g, v));
    return buf;
}

static int limits(chain *ch)
{
    int cancel = solve_cancelled(ch->c);
    if (!cancel && !solve_expired(ch->c) && solve_now(ch->c) - ch->start <= solve_seconds(ch->c))
        return 0;
    ch->o->stopped = cancel ? SOLVE_CANCELLED : SOLVE_TIME;
    return why(ch, "%s", cancel ? "cancelled" : "at the time limit");
}

/* The Phases in order: the rest, forward, backward, the rest; every forward node may run
 * again but those that come first (the inputs: with the rest before). 0, or 1 with the why. */
static int phases(chain *ch)
{
    const budget_model *bm = ch->bm;
    char a[64];
    int state = 0;
    ch->f0 = ch->f1 = ch->b1 = bm->m;
    for (uint32_t s = 0; s < bm->m; s++) {
        uint32_t v = bm->order[s];
        int ph = graph_phase(ch->g, v);
        if (ph == GRAPH_PHASE_FORWARD && state == 0 && !bm->rerunnable[v]) {
            continue; /* the inputs: before the chain, their outputs held through it */
        } else if (ph == GRAPH_PHASE_FORWARD) {
            if (state > 1)
                return why(ch,
                           "not a chain of segments: node %s of Phase forward comes after "
                           "the backward began",
                           nm(ch, v, a, sizeof a));
            if (!bm->rerunnable[v])
                return why(ch, "not a chain of segments: node %s of the forward cannot run again",
                           nm(ch, v, a, sizeof a));
            if (bm->rng[v]) /* its rerun needs its generator state: not in the chain's model */
                return why(ch,
                           "not a chain of segments: node %s of the forward is a random op (its "
                           "generator state is not in the chain's model)",
                           nm(ch, v, a, sizeof a));
            if (state == 0) ch->f0 = s;
            state = 1;
        } else if (ph == GRAPH_PHASE_BACKWARD) {
            if (state != 1 && state != 2)
                return why(ch, "not a chain of segments: node %s of Phase backward comes %s",
                           nm(ch, v, a, sizeof a),
                           state ? "after the backward ended" : "before any forward");
            if (state == 1) ch->f1 = s;
            state = 2;
        } else if (state == 1) {
            return why(ch,
                       "not a chain of segments: node %s, of neither Phase forward nor "
                       "backward, lies between the forward and the backward",
                       nm(ch, v, a, sizeof a));
        } else if (state == 2) {
            ch->b1 = s;
            state = 3;
        }
    }
    if (state < 2)
        return why(ch, "not a chain of segments: no compute node has Phase %s",
                   state ? "backward" : "forward");
    for (uint32_t s = ch->f0; s < ch->b1; s++) { /* the chain's buffers have one version */
        uint32_t v = bm->order[s];
        for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++)
            if (bm->ver[bm->wr[e]])
                return why(ch,
                           "not a chain of segments: node %s changes BufId %" PRId64 " in place",
                           nm(ch, v, a, sizeof a), ch->g->buf_id[bm->phys[bm->wr[e]]]);
    }
    return 0;
}

/* Each buffer's class and last forward reader; the cuts where one buffer alone crosses. */
static int classify(chain *ch)
{
    const budget_model *bm = ch->bm;
    for (uint32_t b = 0; b < ch->bm->nl; b++) {
        uint32_t pr = bm->producer[b];
        uint32_t s = pr == GRAPH_NONE ? GRAPH_NONE : bm->pos[pr];
        ch->lf[b] = s == GRAPH_NONE ? -1 : (int64_t)s;
        ch->lb[b] = -1;
        ch->cls[b] = s == GRAPH_NONE || s < ch->f0 ? C_OUT : s < ch->f1 ? C_FWD : C_BWD;
        if (ch->cls[b] == C_FWD && (bm->keep[b] || bm->lastread[b] >= (int64_t)ch->b1))
            ch->cls[b] = C_KEEP;
    }
    for (uint32_t s = ch->f0; s < ch->b1; s++) {
        uint32_t v = bm->order[s];
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) {
            uint32_t b = bm->rd[e];
            if (s < ch->f1 && (int64_t)s > ch->lf[b]) ch->lf[b] = s;
            if (s >= ch->f1) ch->lb[b] = s;
        }
    }
    /* crossing[s]: forward buffers made at or before s and read after it, as a difference */
    int64_t cross = 0;
    memset(ch->cutafter, 0, bm->m);
    int64_t *delta = calloc((size_t)bm->m + 1, sizeof *delta);
    if (!delta) return -1;
    for (uint32_t b = 0; b < ch->bm->nl; b++)
        if (ch->cls[b] != C_OUT && ch->cls[b] != C_BWD &&
            ch->lf[b] > (int64_t)bm->pos[bm->producer[b]]) {
            delta[bm->pos[bm->producer[b]]]++;
            delta[ch->lf[b]]--;
        }
    for (uint32_t s = ch->f0; s + 1 < ch->f1; s++) {
        cross += delta[s];
        ch->cutafter[s] = cross == 1;
    }
    free(delta);
    return 0;
}

/* The segments of the active cuts: seg[] of the forward places. */
static uint32_t number(chain *ch)
{
    uint32_t k = 0;
    for (uint32_t s = ch->f0; s < ch->f1; s++) {
        ch->seg[s] = k;
        if (s + 1 < ch->f1 && ch->cutafter[s]) k++;
    }
    return k + 1;
}

/* Joins segments lo..hi into one: the cuts between them go. */
static void merge(chain *ch, uint32_t lo, uint32_t hi)
{
    for (uint32_t s = ch->f0; s + 1 < ch->f1; s++)
        if (ch->cutafter[s] && ch->seg[s] >= lo && ch->seg[s] < hi) ch->cutafter[s] = 0;
}

/* Whether b is the cut buffer leaving its segment (made there, read by a later segment). */
static int is_cut(const chain *ch, uint32_t b)
{
    return ch->cls[b] == C_FWD && ch->lf[b] >= 0 &&
           ch->seg[ch->lf[b]] > ch->seg[ch->bm->pos[ch->bm->producer[b]]];
}

/* One pass over the backward: each node's segment, the greatest of what it reads; merges
 * where a node reads another segment's inside, a cut from further than the next segment, or
 * the segments rise. 1 when it merged (with the first reason in first), else 0. */
static int groups(chain *ch, uint32_t l, char *first, size_t cap)
{
    const budget_model *bm = ch->bm;
    char a[64];
    uint32_t prev = l - 1;
    for (uint32_t s = ch->f1; s < ch->b1; s++) {
        uint32_t v = bm->order[s], gr = GRAPH_NONE, lo = GRAPH_NONE;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) {
            uint32_t b = bm->rd[e];
            if (ch->cls[b] != C_FWD) continue;
            uint32_t k = ch->seg[bm->pos[bm->producer[b]]];
            if (gr == GRAPH_NONE || k > gr) gr = k;
        }
        if (gr == GRAPH_NONE) gr = prev;
        if (gr > prev) {
            if (!first[0])
                snprintf(first, cap,
                         "node %s of the backward needs a later segment than one before it",
                         nm(ch, v, a, sizeof a));
            merge(ch, prev, gr);
            return 1;
        }
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) {
            uint32_t b = bm->rd[e];
            if (ch->cls[b] != C_FWD) continue;
            uint32_t k = ch->seg[bm->pos[bm->producer[b]]];
            uint32_t need = is_cut(ch, b) ? k + 1 : k;
            if (need >= gr || (lo != GRAPH_NONE && need >= lo)) continue;
            lo = need;
            if (!first[0])
                snprintf(first, cap,
                         "node %s of the backward reads BufId %" PRId64 " of an earlier segment",
                         nm(ch, v, a, sizeof a), ch->g->buf_id[ch->bm->phys[b]]);
        }
        if (lo != GRAPH_NONE) {
            merge(ch, lo, gr);
            return 1;
        }
        ch->seg[s] = gr;
        prev = gr;
    }
    return 0;
}

/* The why of a forward with no cut: what its first node makes that is read further on. */
static int no_cut(chain *ch)
{
    const budget_model *bm = ch->bm;
    char a[64], list[96] = "";
    size_t n = 0, k = 0;
    uint32_t s0 = ch->f0;
    for (uint32_t b = 0; b < ch->bm->nl; b++) {
        uint32_t pr = bm->producer[b];
        if (ch->cls[b] == C_OUT || ch->cls[b] == C_BWD || bm->pos[pr] != s0 || ch->lf[b] <= s0)
            continue;
        if (n++ < 3 && k < sizeof list)
            k += (size_t)snprintf(list + k, sizeof list - k, "%sBufId %" PRId64, n > 1 ? ", " : "",
                                  ch->g->buf_id[ch->bm->phys[b]]);
    }
    if (!n)
        return why(ch,
                   "not a chain of segments: nothing node %s of the forward makes is read "
                   "further on",
                   nm(ch, bm->order[s0], a, sizeof a));
    return why(ch,
               "not a chain of segments: no single buffer joins two parts of the forward: "
               "after node %s, %s%s are read further on",
               nm(ch, bm->order[s0], a, sizeof a), list, n > 3 ? " and more" : "");
}

/* Merges where a forward buffer is read past the next segment. 1 when it merged. */
static int spans(chain *ch, char *first, size_t cap)
{
    const budget_model *bm = ch->bm;
    for (uint32_t b = 0; b < ch->bm->nl; b++) {
        if (ch->cls[b] == C_OUT || ch->cls[b] == C_BWD || ch->lf[b] < 0) continue;
        uint32_t k = ch->seg[bm->pos[bm->producer[b]]], r = ch->seg[ch->lf[b]];
        if (r <= k + 1) continue;
        if (!first[0])
            snprintf(first, cap, "BufId %" PRId64 " is read by the forward past the next segment",
                     ch->g->buf_id[ch->bm->phys[b]]);
        merge(ch, k + 1, r);
        return 1;
    }
    return 0;
}

/* The segments: the finest cuts, merged until every backward node reads its own segment's
 * buffers, the previous segment's cut and what lies outside the forward, in segments that
 * never rise. 0, or 1 with the why. */
static int segments(chain *ch)
{
    char first[160] = "", a[64];
    if (ch->f1 - ch->f0 < 2)
        return why(ch, "not a chain of segments: the forward is one node, %s",
                   nm(ch, ch->bm->order[ch->f0], a, sizeof a));
    if (classify(ch)) {
        ch->oom = 1;
        return 1;
    }
    uint32_t l = number(ch);
    if (l < 2) return no_cut(ch);
    for (;;) {
        if (limits(ch)) return 1;
        int merged = spans(ch, first, sizeof first) || groups(ch, l, first, sizeof first);
        l = number(ch);
        if (l < 2) return why(ch, "not a chain of segments: %s", first[0] ? first : "one segment");
        if (!merged) break;
    }
    ch->l = l;
    return 0;
}

/* The place after which a buffer goes in the plan (INT64_MAX: never by this rule; -1: at
 * the start): a forward buffer inside its segment after its last forward reader; the others
 * after their last reader, but those from outside the chain read within it: after the
 * backward (emit). */
static int64_t death(const chain *ch, uint32_t b)
{
    const budget_model *bm = ch->bm;
    if (bm->keep[b]) return INT64_MAX;
    int64_t last = bm->lastread[b];
    switch (ch->cls[b]) {
    case C_FWD: return is_cut(ch, b) ? INT64_MAX : ch->lf[b];
    case C_OUT: return last >= (int64_t)ch->f0 && last < (int64_t)ch->b1 ? INT64_MAX : last;
    default: return last;
    }
}

/* dies: the buffers by the place after which they go (bucket s + 1; 0: at the start). */
static int deaths(chain *ch)
{
    size_t m = ch->bm->m;
    uint32_t *off = ch->off = calloc(m + 3, sizeof *off);
    uint32_t *at = ch->at = malloc(((size_t)ch->bm->nl + 1) * sizeof *at);
    if (!off || !at) return -1;
    for (uint32_t b = 0; b < ch->bm->nl; b++) {
        int64_t d = death(ch, b);
        if (d != INT64_MAX) off[d + 2]++;
    }
    for (size_t s = 0; s < m + 2; s++) off[s + 1] += off[s];
    for (uint32_t b = 0; b < ch->bm->nl; b++) {
        int64_t d = death(ch, b);
        if (d != INT64_MAX) at[off[d + 1]++] = b;
    }
    return 0; /* bucket s + 1 now spans [off[s], off[s + 1]) */
}

/* Bytes, per segment: forward peaks without and with the tape, the tape, the cut, the
 * backward's need, the bytes in flight before its backward; W. */
static void measure(chain *ch)
{
    const budget_model *bm = ch->bm;
    const uint32_t *off = ch->off, *at = ch->at;
    const graph *g = ch->g;
    uint32_t l = ch->l;
    for (uint32_t b = 0; b < ch->bm->nl; b++) {
        if (ch->cls[b] == C_KEEP || (ch->cls[b] == C_OUT && death(ch, b) >= (int64_t)ch->f0))
            ch->W += ch->bm->size[b];
        if (ch->cls[b] != C_FWD) continue;
        uint32_t k = ch->seg[bm->pos[bm->producer[b]]];
        if (is_cut(ch, b)) ch->cut[k] = b;
        if (is_cut(ch, b)) ch->A[k] = ch->bm->size[b];
        else if (ch->lb[b] >= 0) ch->T[k] += ch->bm->size[b];
    }
    for (uint32_t k = 0; k < l; k++) {
        int64_t mn = 0, ma = 0;
        for (uint32_t s = ch->fs[k]; s < ch->fs[k + 1]; s++) {
            uint32_t v = bm->order[s];
            ch->lat[k] += graph_latency(g, v);
            int64_t made = 0;
            for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++)
                made += ch->cls[bm->wr[e]] == C_FWD ? ch->bm->size[bm->wr[e]] : 0;
            if ((mn += made) > ch->fn[k]) ch->fn[k] = mn;
            if ((ma += made) > ch->fa[k]) ch->fa[k] = ma;
            for (uint32_t i = off[s]; i < off[s + 1]; i++) {
                uint32_t b = at[i];
                if (ch->cls[b] != C_FWD) continue;
                mn -= ch->bm->size[b];
                if (ch->lb[b] < 0) ma -= ch->bm->size[b];
            }
        }
    }
    int64_t mem = 0;
    for (uint32_t k = l; k-- > 0;) { /* the tape and cut go after their last readers */
        int own = ch->cut[k] != GRAPH_NONE && ch->lb[ch->cut[k]] >= (int64_t)ch->gs[k];
        int64_t rem = ch->T[k] + (own ? ch->A[k] : 0), peak = rem + (ch->D[k] = mem);
        for (uint32_t s = ch->gs[k]; s < chain_group_end(ch, k); s++) {
            uint32_t v = bm->order[s];
            for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++)
                mem += ch->bm->size[bm->wr[e]];
            if (rem + mem > peak) peak = rem + mem;
            for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) {
                uint32_t b = bm->rd[e];
                ch->reads_cut[k] |= (uint8_t)((b == ch->cut[k]) | (k && b == ch->cut[k - 1]) << 1);
                if (ch->cls[b] == C_FWD && ch->lb[b] == s && ch->seg[bm->pos[bm->producer[b]]] == k)
                    rem -= ch->bm->size[b];
            }
            for (uint32_t i = off[s]; i < off[s + 1]; i++)
                if (ch->cls[at[i]] == C_BWD) mem -= ch->bm->size[at[i]];
        }
        ch->Bn[k] = peak;
    }
}

/* Each segment's first forward place and its backward's first place. */
static void bounds(chain *ch)
{
    uint32_t l = ch->l;
    for (uint32_t s = ch->f1; s-- > ch->f0;) ch->fs[ch->seg[s]] = s;
    ch->fs[l] = ch->f1;
    uint32_t s = ch->f1; /* gs[k]: the first backward place of a segment <= k (they descend) */
    for (uint32_t k = l; k-- > 0; ch->gs[k] = s, ch->cut[k] = GRAPH_NONE)
        while (s < ch->b1 && ch->seg[s] > k) s++;
}

static int64_t gcd64(int64_t a, int64_t b) { return b ? gcd64(b, a % b) : a; }

static int64_t up(int64_t x, int64_t q) { return (x + q - 1) / q; }

/* The slot: the greatest common divisor of every size the DP adds when the budget then needs
 * at most CHAIN_SLOTS of them (exact), else budget / CHAIN_SLOTS rounded up (each size
 * rounded up to whole slots: lossy). The sizes in slots. */
static void slots(chain *ch, int64_t room)
{
    int64_t *v[] = {ch->A, ch->fn, ch->fa, ch->T, ch->Bn, ch->D};
    int64_t *sv[] = {ch->sA, ch->sfn, ch->sfa, ch->sT, ch->sBn, ch->sD};
    int64_t gd = 0;
    for (int i = 0; i < 6; i++)
        for (uint32_t k = 0; k < ch->l; k++) gd = gcd64(gd, v[i][k]);
    ch->q = gd ? gd : 1;
    if (room / ch->q > CHAIN_SLOTS) ch->q = up(room, CHAIN_SLOTS);
    for (int i = 0; i < 6; i++)
        for (uint32_t k = 0; k < ch->l; k++) {
            sv[i][k] = up(v[i][k], ch->q);
            ch->lossy |= v[i][k] % ch->q != 0;
        }
    ch->M = room / ch->q;
}

static double get(const chain *ch, uint32_t a, uint32_t b, int64_t m)
{
    return m < 0 ? HUGE_VAL : ch->opt[chain_at3(ch, a, b, m)];
}

static int64_t spare(const chain *ch, uint32_t a)
{
    return chain_spare_cut(ch, a) ? ch->sA[a - 1] : 0;
}

/* One entry: the least forward time that runs the backward of segments a..b, the cut before
 * a held outside m, with m slots. Its moves (how): run a..k-1 without their tapes and k with
 * its tape, drop the cut before k, keep k's cut and tape while k+1..b go, run k's backward,
 * then a..k-1 (2k + 1; k = a: rotor's chain checkpoint); or run a..j-1 without tapes, keep
 * the cut before j while j..b go, then a..j-1 (2j; rotor's leaf checkpoint). */
static void entry(chain *ch, uint32_t a, uint32_t b, int64_t m)
{
    double best = a == b && chain_idle(ch, a) ? 0 : HUGE_VAL, fw = 0;
    int32_t how = best == 0 ? 1 : -1;
    int64_t D = ch->sD[b], need = 0; /* the most the forwards of a..k-1 need */
    for (uint32_t k = a; k <= b; k++) {
        int64_t in = k > a ? ch->sA[k - 1] : 0; /* the cut before k, unless held outside */
        int64_t room = m + (k == a ? spare(ch, a) : 0);
        if (ch->sfa[k] + D + in <= m && ch->sBn[k] <= room && (k == a || !(ch->reads_cut[k] & 2))) {
            double r = fw + ch->lat[k] +
                       ((k < b ? get(ch, k + 1, b, m - ch->sA[k] - ch->sT[k]) : 0) +
                        (k > a ? get(ch, a, k - 1, m) : 0));
            how = r < best ? 2 * (int32_t)k + 1 : how;
            best = r < best ? r : best;
        }
        if (k == b) break;
        if (ch->sfn[k] + D + in > need) need = ch->sfn[k] + D + in;
        if (need > m) break;
        fw += ch->lat[k];
        double r = fw + get(ch, k + 1, b, m - ch->sA[k]) + get(ch, a, k, m);
        how = r < best ? 2 * (int32_t)(k + 1) : how;
        best = r < best ? r : best;
    }
    ch->opt[chain_at3(ch, a, b, m)] = best;
    ch->how[chain_at3(ch, a, b, m)] = how;
}

/* The table, by the length of the stretch; 0, or 1 stopped (with the why). */
static int table(chain *ch)
{
    size_t n = (size_t)ch->l * (ch->l + 1) / 2 * (size_t)(ch->M + 1);
    double bytes =
        (double)ch->l * (ch->l + 1) / 2 * (double)(ch->M + 1) * (sizeof *ch->opt + sizeof *ch->how);
    if (bytes > (double)solve_max_memory(ch->c)) {
        ch->o->stopped = SOLVE_MEMORY;
        return why(ch,
                   "the DP's table for %u segments and %" PRId64 " slots needs %.0f bytes, "
                   "over its cap of %" PRId64,
                   ch->l, ch->M + 1, bytes, solve_max_memory(ch->c));
    }
    ch->opt = malloc(n * sizeof *ch->opt);
    ch->how = malloc(n * sizeof *ch->how);
    if (!ch->opt || !ch->how) return ch->oom = 1;
    for (uint32_t d = 0; d < ch->l; d++)
        for (uint32_t a = 0; a + d < ch->l; a++) {
            if (limits(ch)) return 1;
            for (int64_t m = 0; m <= ch->M; m++) entry(ch, a, a + d, m);
        }
    return 0;
}

/* ------------------------------------------------------------ the solver */

static void chain_free(chain *ch)
{
    void *all[] = {ch->cutafter, ch->seg,       ch->cls, ch->lf,      ch->lb,  ch->fs, ch->gs,
                   ch->cut,      ch->reads_cut, ch->lat, ch->A,       ch->fn,  ch->fa, ch->T,
                   ch->Bn,       ch->D,         ch->sA,  ch->sfn,     ch->sfa, ch->sT, ch->sBn,
                   ch->sD,       ch->opt,       ch->how, ch->present, ch->off, ch->at};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]);
}

static int chain_alloc(chain *ch)
{
    size_t m = (size_t)ch->bm->m + 1, nb = (size_t)ch->bm->nl + 1;
    ch->cutafter = calloc(m, 1);
    ch->seg = calloc(m, sizeof *ch->seg);
    ch->cls = calloc(nb, 1);
    ch->lf = calloc(nb, sizeof *ch->lf);
    ch->lb = malloc(nb * sizeof *ch->lb);
    ch->present = calloc(nb, 1);
    return ch->cutafter && ch->seg && ch->cls && ch->lf && ch->lb && ch->present ? 0 : -1;
}

static int chain_alloc_segments(chain *ch)
{
    size_t l = (size_t)ch->l + 1;
    int64_t **v[] = {&ch->A,  &ch->fn,  &ch->fa,  &ch->T,  &ch->Bn,  &ch->D,
                     &ch->sA, &ch->sfn, &ch->sfa, &ch->sT, &ch->sBn, &ch->sD};
    uint32_t **u[] = {&ch->fs, &ch->gs, &ch->cut};
    int bad = !(ch->reads_cut = calloc(l, 1)) || !(ch->lat = calloc(l, sizeof *ch->lat));
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) bad |= !(*v[i] = calloc(l, sizeof **v[i]));
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) bad |= !(*u[i] = calloc(l, sizeof **u[i]));
    return bad ? -1 : 0;
}

/* Detects the chain, measures it, fills the table: 0 ready, 1 with o said. */
static int prepare(chain *ch, int64_t budget)
{
    if (chain_alloc(ch)) return ch->oom = 1;
    if (phases(ch) || segments(ch)) return 1;
    if (chain_alloc_segments(ch)) return ch->oom = 1;
    bounds(ch);
    if (deaths(ch)) return ch->oom = 1;
    measure(ch);
    if (budget < ch->W)
        return why(ch,
                   "the buffers held through the chain outside its %u segments take %" PRId64
                   " bytes, over the budget",
                   ch->l, ch->W);
    slots(ch, budget - ch->W);
    if (table(ch)) return 1;
    if (get(ch, 0, ch->l - 1, ch->M) == HUGE_VAL)
        return why(ch, "no plan of the chain model (%u segments) fits in %" PRId64 " bytes", ch->l,
                   budget);
    return 0;
}

int budget_chain(BUDGET_SOLVER_ARGS)
{
    (void)seed;
    int64_t budget = gl->budget;
    memset(o, 0, sizeof *o);
    if (pf) memset(pf, 0, sizeof *pf);
    if (!(gl->allow & BUDGET_ALLOW_RECOMPUTE)) {
        snprintf(o->why, sizeof o->why, "chain only recomputes: --allow recompute");
        return 0;
    }
    chain ch = {.bm = bm, .g = bm->g, .c = gl->c, .o = o, .p = p};
    ch.start = solve_now(gl->c);
    int r = prepare(&ch, budget);
    if (!r) {
        for (uint32_t b = 0; b < bm->nl; b++) ch.present[b] = bm->producer[b] == GRAPH_NONE;
        chain_emit(&ch);
    }
    if (!r && !ch.oom) {
        budget_stats st;
        char err[160];
        if (budget_check(bm, p, gl->bandwidth, &st, err, sizeof err))
            snprintf(o->why, sizeof o->why, "the chain plan's replay: %s", err);
        else if (st.peak > budget)
            snprintf(o->why, sizeof o->why, "the chain plan peaks at %" PRId64 " bytes", st.peak);
        else {
            o->found = 1;
            snprintf(o->why, sizeof o->why,
                     "a chain of %u segments, memory in slots of %" PRId64 " bytes%s", ch.l, ch.q,
                     ch.lossy ? " (sizes rounded up to slots: optimal only at that grain)" : "");
        }
    }
    int oom = ch.oom;
    chain_free(&ch);
    if (!o->found) p->n = 0;
    if (pf) pf->stopped = o->stopped;
    return oom ? -1 : 0;
}

const budget_solver budget_solver_chain = {
    "chain",
    "rotor's dynamic programme where the graph is a chain of segments, recompute only; else it "
    "says what breaks it",
    1,
    BUDGET_BEST_EXACT_NODES,
    budget_chain,
    0};
