/* budget_chen.c: Chen et al.'s sqrt(n) checkpointing (2016) as published, the baseline a memory
 * budget's plan is shown beside: the forward cut into segments, their boundaries kept, one
 * segment run again at a time in the backward. Exports budget_chen.
 *
 * The plan follows the given order and the budget-free plan's frees, but for what a segment
 * drops: an output of a forward node, not a segment's last node (a boundary), that a later
 * segment's forward does not read and the backward does, is freed after its segment's last
 * forward reader; just before the first backward node that reads one of them, the segment's
 * nodes that made them run again in order (what they read from outside the segment is held to
 * then), what only the rerun reads is freed after its last reader there, and the rest after its
 * last reader, as in the budget-free plan. A segment's rerun adds its transient bytes to what
 * the budget-free plan holds then, less the dropped outputs of the segments before it: usually
 * far under the peak, which comes at the end of the forward, but not by proof; so the plan is
 * replayed, and a segment at whose rerun (or hold) it passes the budget-free peak keeps its
 * outputs instead (with none dropped the plan is the budget-free plan): never above it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget.h"

typedef struct chen {
    const budget_model *bm;
    const graph *g;
    uint32_t m, nseg, k, nf;
    uint32_t *fwd; /* [nf] the forward nodes in order: segment s is fwd[s * k, (s + 1) * k) */
    int64_t last_fwd, last_bwd;
    uint32_t *seg;    /* [n] a forward node's segment, else GRAPH_NONE */
    uint8_t *elig;    /* [n] a forward node, not a boundary, that may run again (see eligible) */
    uint8_t *off;     /* [nseg] segments that keep their outputs (dropped none) */
    uint8_t *drop;    /* [nbufs] dropped in the forward, made again in the backward */
    uint8_t *inr;     /* [n] run again with its segment (it made something dropped) */
    int64_t *fwdlast; /* [nbufs] its last forward reader's place (else its producer's) */
    int64_t *firstb;  /* [nbufs] its first reader's place past the forward, or -1 */
    int64_t *endp;    /* [nbufs] the place after which the budget-free plan frees it, or -2 */
    int64_t *hold;    /* [nbufs] a rerun at this place reads it (-1: none) */
    int64_t *t;       /* [nseg] the place before which the segment runs again (-1: never) */
    uint32_t *lastr;  /* [nbufs] scratch: the last rerun node that reads it */
    uint8_t *pres;    /* [nbufs] present, while the plan is written */
    int32_t *blame;   /* [events] the segment whose rerun or hold the event belongs to, or -1 */
    size_t blamecap;
    budget_plan *p;
} chen;

/* Whether forward node v may drop what it writes: it may run again, writes buffers that no
 * node changes in place (a rerun would write over a later version), and reads none that a node
 * changes in place before the backward ends (its rerun would read another version). */
static int eligible(const chen *c, uint32_t v)
{
    const budget_model *bm = c->bm;
    if (!bm->rerunnable[v]) return 0;
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) {
        uint32_t l = bm->wr[e];
        if (l >= c->g->nbufs || bm->vers_off[l + 1] - bm->vers_off[l] != 1) return 0;
    }
    for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) {
        uint32_t nx = budget_next_version(bm, bm->rd[e]);
        if (nx != GRAPH_NONE && (int64_t)bm->pos[bm->producer[nx]] <= c->last_bwd) return 0;
    }
    return 1;
}

/* Segments, eligibility, and what each buffer's readers say: fwdlast, firstb, endp; whether
 * the cut lets it drop (no reader before the backward but its own segment's forward nodes). */
static void setup(chen *c, uint8_t *cross)
{
    const budget_model *bm = c->bm;
    const graph *g = c->g;
    uint32_t f = 0;
    for (uint32_t i = 0; i < c->m; i++) {
        uint32_t v = bm->order[i];
        c->seg[v] = GRAPH_NONE;
        if (graph_phase(g, v) != GRAPH_PHASE_FORWARD) continue;
        c->fwd[f] = v;
        c->seg[v] = f / c->k;
        /* every k-th forward node is a segment's boundary: its outputs stay */
        c->elig[v] = ++f % c->k != 0 && eligible(c, v);
    }
    for (uint32_t b = 0; b < g->nbufs; b++) {
        uint32_t p = bm->producer[b];
        c->fwdlast[b] = p == GRAPH_NONE ? -1 : (int64_t)bm->pos[p];
        c->firstb[b] = -1;
        c->hold[b] = -1;
        cross[b] = 0;
        c->endp[b] = g->buf_free[b] == GRAPH_NONE ? -2 : bm->lastread[budget_last_version(bm, b)];
    }
    for (uint32_t i = 0; i < c->m; i++) {
        uint32_t v = bm->order[i];
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) {
            uint32_t l = bm->rd[e], p = bm->producer[l];
            if (l >= g->nbufs) continue;
            if ((int64_t)i > c->last_fwd) {
                if (c->firstb[l] < 0) c->firstb[l] = i;
            } else {
                if ((int64_t)i > c->fwdlast[l]) c->fwdlast[l] = i;
                if (p == GRAPH_NONE || c->seg[v] == GRAPH_NONE || c->seg[v] != c->seg[p])
                    cross[l] = 1;
            }
        }
    }
}

/* The dropped buffers, the nodes that run again, each segment's place and the holds, with the
 * segments in off keeping theirs. */
static void choose(chen *c, const uint8_t *cross)
{
    const budget_model *bm = c->bm;
    const graph *g = c->g;
    for (uint32_t s = 0; s < c->nseg; s++) c->t[s] = -1;
    memset(c->inr, 0, g->n);
    for (uint32_t b = 0; b < g->nbufs; b++) {
        uint32_t p = bm->producer[b];
        c->hold[b] = -1;
        c->drop[b] = p != GRAPH_NONE && c->seg[p] != GRAPH_NONE && c->elig[p] &&
                     !c->off[c->seg[p]] && !cross[b] && c->endp[b] > c->last_fwd &&
                     c->firstb[b] >= 0;
        if (!c->drop[b]) continue;
        c->inr[p] = 1;
        if (c->t[c->seg[p]] < 0 || c->firstb[b] < c->t[c->seg[p]]) c->t[c->seg[p]] = c->firstb[b];
    }
    /* what a rerun reads and does not make again itself is held to it */
    for (uint32_t i = 0; i < c->m; i++) {
        uint32_t v = bm->order[i];
        if (!c->inr[v]) continue;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) {
            uint32_t b = bm->phys[bm->rd[e]], p = bm->producer[bm->rd[e]];
            if ((p == GRAPH_NONE || !c->inr[p] || c->seg[p] != c->seg[v]) &&
                c->t[c->seg[v]] > c->hold[b])
                c->hold[b] = c->t[c->seg[v]];
        }
    }
}

static int emit(chen *c, uint32_t op, uint32_t x, int32_t seg)
{
    if (c->p->n == c->blamecap) {
        size_t nc = c->blamecap ? 2 * c->blamecap : 1024;
        int32_t *q = realloc(c->blame, nc * sizeof *q);
        if (!q) return -1;
        c->blame = q;
        c->blamecap = nc;
    }
    c->blame[c->p->n] = seg;
    if (budget_plan_push(c->p, op, x)) return -1;
    if (op == BUDGET_FREE) c->pres[x] = 0;
    return 0;
}

static int run(chen *c, uint32_t v, int32_t seg)
{
    const budget_model *bm = c->bm;
    if (emit(c, BUDGET_RUN, v, seg)) return -1;
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) c->pres[bm->phys[bm->wr[e]]] = 1;
    return 0;
}

/* Segment s runs again before place at: its nodes that made something dropped, in order; what
 * the rerun makes that is neither present before nor needed from place at on goes after its
 * last reader in the rerun (or at once). */
static int rerun(chen *c, uint32_t s, int64_t at, uint8_t *was)
{
    const budget_model *bm = c->bm;
    uint32_t lo = s * c->k, hi = lo + c->k < c->nf ? lo + c->k : c->nf;
    for (uint32_t i = lo; i < hi; i++) {
        uint32_t v = c->fwd[i];
        if (!c->inr[v]) continue;
        for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) {
            uint32_t b = bm->wr[e];
            was[b] = c->pres[b];
            c->lastr[b] = v;
        }
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
            c->lastr[bm->phys[bm->rd[e]]] = v;
    }
    for (uint32_t i = lo; i < hi; i++) {
        uint32_t v = c->fwd[i];
        if (!c->inr[v]) continue;
        if (run(c, v, (int32_t)s)) return -1;
        /* what this rerun made, nothing needs from place at on and v read last goes now */
        for (int w = 0; w < 2; w++) {
            const uint32_t *off = w ? bm->wr_off : bm->rd_off, *buf = w ? bm->wr : bm->rd;
            for (uint32_t e = off[v]; e < off[v + 1]; e++) {
                uint32_t b = bm->phys[buf[e]], p = bm->producer[buf[e]];
                if (p == GRAPH_NONE || !c->inr[p] || c->seg[p] != s) continue;
                if (c->pres[b] && !was[b] && c->lastr[b] == v && !c->drop[b] && c->endp[b] != -2 &&
                    c->endp[b] < at && c->hold[b] < at && emit(c, BUDGET_FREE, b, (int32_t)s))
                    return -1;
            }
        }
    }
    return 0;
}

/* Frees what goes after place i (-1: the start) when present: the buffers whose last reader it
 * is (dropped ones: their last forward reader in the forward, their last reader past it). */
static int frees(chen *c, int64_t i, const uint32_t *off, const uint32_t *at)
{
    for (uint32_t k = off[i + 1]; k < off[i + 2]; k++)
        if (c->pres[at[k]] && emit(c, BUDGET_FREE, at[k], -1)) return -1;
    return 0;
}

/* Buckets by place + 1: each buffer where the plan frees it after a place's run (post) and
 * after a rerun before a place (pre). */
static void buckets(chen *c, uint32_t *poff, uint32_t *pat, uint32_t *qoff, uint32_t *qat)
{
    const graph *g = c->g;
    memset(poff, 0, ((size_t)c->m + 3) * sizeof *poff);
    memset(qoff, 0, ((size_t)c->m + 3) * sizeof *qoff);
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t b = 0; b < g->nbufs; b++) {
            if (c->endp[b] == -2) continue;
            int64_t post[2] = {-2, -2}, pre = -2;
            if (c->drop[b]) {
                post[0] = c->fwdlast[b];
                post[1] = c->endp[b];
            } else if (c->hold[b] > c->endp[b]) pre = c->hold[b];
            else post[0] = c->endp[b];
            for (int q = 0; q < 2; q++)
                if (post[q] != -2) {
                    if (pass) pat[poff[post[q] + 2]++] = b;
                    else poff[post[q] + 3]++;
                }
            if (pre != -2) {
                if (pass) qat[qoff[pre + 2]++] = b;
                else qoff[pre + 3]++;
            }
        }
        if (!pass)
            for (uint32_t k = 0; k < c->m; k++) {
                poff[k + 3] += poff[k + 2];
                qoff[k + 3] += qoff[k + 2];
            }
    }
}

/* The plan with the segments in off keeping their outputs. 0, or -1 out of memory. */
static int write(chen *c, const uint8_t *cross, uint8_t *was, uint32_t *poff, uint32_t *pat,
                 uint32_t *qoff, uint32_t *qat, uint32_t *byt, uint32_t *tat)
{
    const budget_model *bm = c->bm;
    const graph *g = c->g;
    choose(c, cross);
    buckets(c, poff, pat, qoff, qat);
    /* the segments by their place, latest segment first at a tie (the backward's order) */
    memset(byt, 0, ((size_t)c->m + 1) * sizeof *byt);
    for (uint32_t s = 0; s < c->nseg; s++)
        if (c->t[s] >= 0) byt[c->t[s] + 1]++;
    for (uint32_t k = 0; k < c->m; k++) byt[k + 1] += byt[k];
    for (uint32_t s = c->nseg; s-- > 0;)
        if (c->t[s] >= 0) tat[byt[c->t[s]]++] = s;
    /* byt[i] now ends place i's segments; they begin where place i - 1's end */
    c->p->n = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) c->pres[b] = bm->producer[b] == GRAPH_NONE;
    if (frees(c, -1, poff, pat)) return -1;
    for (uint32_t i = 0; i < c->m; i++) {
        for (uint32_t k = i ? byt[i - 1] : 0; k < byt[i]; k++)
            if (rerun(c, tat[k], i, was)) return -1;
        for (uint32_t k = qoff[i + 1]; k < qoff[i + 2]; k++)
            if (c->pres[qat[k]] && emit(c, BUDGET_FREE, qat[k], -1)) return -1;
        if (run(c, bm->order[i], -1) || frees(c, i, poff, pat)) return -1;
    }
    return 0;
}

/* The segment to blame for the bytes after event k: the rerun it is part of, else the one
 * whose hold covers the most bytes then (-1: none). */
static int32_t culprit(const chen *c, size_t k)
{
    if (c->blame[k] >= 0) return c->blame[k];
    const budget_model *bm = c->bm;
    int64_t best = 0;
    int32_t who = -1;
    /* bytes present then only for a hold: a rerun at a later place reads them */
    int64_t *by = calloc((size_t)c->nseg + 1, sizeof *by);
    if (!by) return -1;
    for (uint32_t i = 0; i < c->m; i++) {
        uint32_t v = bm->order[i];
        if (!c->inr[v]) continue;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) {
            uint32_t b = bm->phys[bm->rd[e]];
            if (c->hold[b] > c->endp[b] && c->pres[b]) by[c->seg[v]] += c->g->buf_size[b];
        }
    }
    for (uint32_t s = 0; s < c->nseg; s++)
        if (by[s] > best) {
            best = by[s];
            who = (int32_t)s;
        }
    free(by);
    return who;
}

int budget_chen(const budget_model *bm, const solve_ctx *sc, budget_plan *p, budget_outcome *o)
{
    (void)sc;
    const graph *g = bm->g;
    memset(o, 0, sizeof *o);
    p->n = 0;
    chen c = {.bm = bm, .g = g, .m = bm->m, .p = p, .last_fwd = -1, .last_bwd = -1};
    uint32_t nf = 0;
    for (uint32_t i = 0; i < bm->m; i++) {
        int ph = graph_phase(g, bm->order[i]);
        nf += ph == GRAPH_PHASE_FORWARD;
        if (ph == GRAPH_PHASE_FORWARD) c.last_fwd = i;
        if (ph == GRAPH_PHASE_BACKWARD) c.last_bwd = i;
    }
    if (!nf) {
        snprintf(o->why, sizeof o->why, "no compute node has Phase forward");
        return 0;
    }
    c.k = 1;
    while ((uint64_t)c.k * c.k < nf) c.k++;
    c.nseg = (nf + c.k - 1) / c.k;
    c.nf = nf;
    size_t n = (size_t)g->n + 1, nb = (size_t)g->nbufs + 1, m = (size_t)bm->m + 3;
    c.seg = malloc(n * sizeof *c.seg);
    c.fwd = malloc(((size_t)nf + 1) * sizeof *c.fwd);
    c.elig = calloc(n, 1);
    c.inr = calloc(n, 1);
    c.off = calloc((size_t)c.nseg + 1, 1);
    c.drop = calloc(nb, 1);
    c.fwdlast = malloc(nb * sizeof *c.fwdlast);
    c.firstb = malloc(nb * sizeof *c.firstb);
    c.endp = malloc(nb * sizeof *c.endp);
    c.hold = malloc(nb * sizeof *c.hold);
    c.t = malloc(((size_t)c.nseg + 1) * sizeof *c.t);
    c.lastr = malloc(nb * sizeof *c.lastr);
    c.pres = calloc(nb, 1);
    uint8_t *cross = calloc(nb, 1), *was = calloc(nb, 1);
    uint32_t *poff = malloc(m * sizeof *poff), *pat = malloc(2 * nb * sizeof *pat);
    uint32_t *qoff = malloc(m * sizeof *qoff), *qat = malloc(nb * sizeof *qat);
    uint32_t *byt = malloc(m * sizeof *byt), *tat = malloc(((size_t)c.nseg + 1) * sizeof *tat);
    budget_plan free_plan = {0};
    int64_t *after = NULL;
    int r = -1;
    if (!c.seg || !c.fwd || !c.elig || !c.inr || !c.off || !c.drop || !c.fwdlast || !c.firstb ||
        !c.endp || !c.hold || !c.t || !c.lastr || !c.pres || !cross || !was || !poff || !pat ||
        !qoff || !qat || !byt || !tat || budget_given_plan(bm, &free_plan))
        goto out;
    budget_stats st;
    char err[256];
    if (budget_check(bm, &free_plan, BUDGET_BANDWIDTH, &st, err, sizeof err)) {
        snprintf(o->why, sizeof o->why, "the budget-free plan fails: %.150s", err);
        r = 0;
        goto out;
    }
    int64_t free_peak = st.peak;
    setup(&c, cross);
    uint32_t dropped_segs = 0;
    for (;;) {
        if (write(&c, cross, was, poff, pat, qoff, qat, byt, tat)) goto out;
        int64_t *a = realloc(after, (p->n + 1) * sizeof *a);
        if (!a) goto out;
        after = a;
        if (budget_check_memory(bm, p, BUDGET_BANDWIDTH, &st, after, err, sizeof err)) {
            snprintf(o->why, sizeof o->why, "its plan fails the check: %.150s", err);
            p->n = 0;
            r = 0;
            goto out;
        }
        if (st.peak <= free_peak) break;
        size_t k = 0;
        while (after[k] <= free_peak) k++;
        /* the bytes present then, for the culprit's holds */
        for (uint32_t b = 0; b < g->nbufs; b++) c.pres[b] = bm->producer[b] == GRAPH_NONE;
        for (size_t q = 0; q <= k; q++) {
            const budget_event *e = &p->ev[q];
            if (e->op == BUDGET_FREE) c.pres[e->x] = 0;
            else
                for (uint32_t w = bm->wr_off[e->x]; w < bm->wr_off[e->x + 1]; w++)
                    c.pres[bm->phys[bm->wr[w]]] = 1;
        }
        int32_t s = culprit(&c, k);
        if (s < 0) memset(c.off, 1, c.nseg); /* the budget-free plan */
        else c.off[s] = 1;
    }
    for (uint32_t s = 0; s < c.nseg; s++) dropped_segs += c.t[s] >= 0;
    o->found = 1;
    snprintf(o->why, sizeof o->why,
             "%u segments of %u forward nodes, %u made again in the backward", c.nseg, c.k,
             dropped_segs);
    r = 0;
out:
    if (r && !o->found) snprintf(o->why, sizeof o->why, "out of memory");
    if (!o->found) p->n = 0;
    budget_plan_free(&free_plan);
    free(after);
    free(c.seg);
    free(c.fwd);
    free(c.elig);
    free(c.inr);
    free(c.off);
    free(c.drop);
    free(c.fwdlast);
    free(c.firstb);
    free(c.endp);
    free(c.hold);
    free(c.t);
    free(c.lastr);
    free(c.pres);
    free(c.blame);
    free(cross);
    free(was);
    free(poff);
    free(pat);
    free(qoff);
    free(qat);
    free(byt);
    free(tat);
    return r;
}
