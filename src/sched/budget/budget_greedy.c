/* budget_greedy.c: the greedy solver of a memory budget (DTR, Capuchin): the given order,
 * evicting under pressure the present buffer with the least cost a byte: a rerun's latency,
 * or an offload's copies out and back (chosen over a rerun that costs more, as Capuchin does),
 * making a missing buffer again when it is next needed; and Chen's sqrt(n) checkpointing and
 * recompute-every-cheap-op on the same walk, the baselines. Exports budget_greedy, budget_chen,
 * budget_cheap and budget_cheap_op. */
#define _GNU_SOURCE
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget.h"
#include "sched/policy/policy.h"
#include "util/heap.h"

typedef struct gs {
    const budget_model *bm;
    const graph *g;
    int64_t budget;
    unsigned allow;
    const solve_ctx *c;
    double start;
    uint64_t work;
    budget_plan *p;
    budget_outcome *o;
    uint8_t *present, *host, *inheap;
    uint32_t *pin;
    int64_t *dead; /* [nbufs] the place after which it is not needed (INT64_MAX: kept) */
    uint32_t *dead_off, *dead_at; /* buffers by dead place + 1 (0: at the start) */
    uint32_t *touched;            /* buffers made present in this place's work, once each */
    uint32_t *stamp;              /* [nbufs] place + 2 when last put in touched */
    size_t ntouched;
    uint32_t place;           /* the place in the given order being run */
    uint32_t done;            /* the places whose first runs are done */
    uint32_t *stack, *cursor; /* the reruns under way: node, and the next of its reads */
    int64_t mem;
    heap h;
    int oom;
    uint32_t *use_off, *use, *ucur; /* each buffer's readers' places, ascending; the next */
    const uint8_t *ckpt;            /* Chen's baseline: [n] the forward nodes whose outputs stay */
    int64_t last_fwd;               /* the place of the last forward node */
    int staleness;                  /* the eviction key divides by the places to the next use */
    int hold;        /* keep what cannot be made again until its horizon (else its last reader); 2
                      * and 3: "made again" only by a producer that may rerun to the horizon */
    uint8_t *nomake; /* [nbufs] hold 3: kept rather than made again (see dead_places) */
    double bw;       /* bytes a second each way */
} gs;

static int stop(gs *s, solve_stop why, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int stop(gs *s, solve_stop why, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->o->why, sizeof s->o->why, fmt, ap);
    va_end(ap);
    s->o->stopped = why;
    return -1;
}

static int emit(gs *s, uint32_t op, uint32_t x)
{
    if (budget_plan_push(s->p, op, x)) {
        s->oom = 1;
        return stop(s, SOLVE_MEMORY, "out of memory");
    }
    if ((++s->work & 4095) == 1) {
        if (solve_cancelled(s->c)) return stop(s, SOLVE_CANCELLED, "cancelled");
        if (solve_expired(s->c) || solve_now(s->c) - s->start > solve_seconds(s->c))
            return stop(s, SOLVE_TIME, "at the time limit");
    }
    return 0;
}

/* Whether p may run again now: rerunnable, and no buffer it writes changed in place yet. */
static int may_rerun(const gs *s, uint32_t p)
{
    const budget_model *bm = s->bm;
    return p != GRAPH_NONE && bm->rerunnable[p] && bm->frozen_from[p] >= (int64_t)s->done;
}

/* How b may leave the device: 1 freed (made again by a rerun, or fetched from its copy), 2
 * offloaded, 0 not at all. */
static int leave(const gs *s, uint32_t b)
{
    const budget_model *bm = s->bm;
    uint32_t p = bm->producer[b];
    if (s->host[b]) return 1;
    /* Freed only if it can be made again wherever it may be needed: before a change in place
     * of what its producer writes. */
    if ((s->allow & BUDGET_ALLOW_RECOMPUTE) && may_rerun(s, p) &&
        bm->frozen_from[p] >= s->dead[b] && !s->nomake[b])
        return 1;
    return s->allow & BUDGET_ALLOW_OFFLOAD ? 2 : 0;
}

/* Offers b for eviction: present, not pinned, and able to leave. */
/* How many places ahead b is next read (m + 1 - place when never again). */
static int64_t next_use(gs *s, uint32_t b)
{
    while (s->ucur[b] < s->use_off[b + 1] && s->use[s->ucur[b]] <= s->place) s->ucur[b]++;
    uint32_t next = s->ucur[b] < s->use_off[b + 1] ? s->use[s->ucur[b]] : s->bm->m + 1;
    return (int64_t)next - s->place;
}

/* Offers b for eviction: present, not pinned, and able to leave. Its key: freed ones first,
 * by the rerun's latency a byte, then the largest; with staleness, the latency a byte over
 * the places to its next use (DTR's cost over size and staleness, the next use for the
 * staleness), then the next use farthest, then the largest. */
/* What sending b to the host and back costs, in ms: an eviction makes room for the run
 * about to start and a fetch precedes its reader, so both copies wait on the compute. */
static double offload_ms(const gs *s, uint32_t b)
{
    return 2e3 * (double)s->g->buf_size[b] / s->bw;
}

/* leave's answer, but an offload where it costs less than the rerun (Capuchin). */
static int way(gs *s, uint32_t b)
{
    int how = leave(s, b);
    if (how == 1 && !s->host[b] && (s->allow & BUDGET_ALLOW_OFFLOAD) &&
        offload_ms(s, b) < graph_latency(s->g, s->bm->producer[b]))
        return 2;
    return how;
}

static void offer(gs *s, uint32_t b)
{
    int how = way(s, b);
    if (!s->present[b] || s->pin[b] || s->inheap[b] || !how) return;
    const graph *g = s->g;
    int64_t size = g->buf_size[b], dist = next_use(s, b);
    heap_item it = {{INT64_MAX, s->staleness ? -dist : -size, s->staleness ? -size : 0}, b};
    if (how == 1) {
        /* As the bits of a non-negative double, which order as the doubles do. */
        double lat = s->host[b] ? 0 : graph_latency(g, s->bm->producer[b]);
        double per = lat / ((double)(size > 0 ? size : 1) * (double)(s->staleness ? dist : 1));
        memcpy(&it.k[0], &per, sizeof per);
    } else { /* an offload, ranked with the reruns by its time a byte */
        double per =
            offload_ms(s, b) / ((double)(size > 0 ? size : 1) * (double)(s->staleness ? dist : 1));
        memcpy(&it.k[0], &per, sizeof per);
    }
    heap_push(&s->h, it);
    s->inheap[b] = 1;
}

static void pin(gs *s, uint32_t b)
{
    if (s->pin[b]++ == 0 && s->inheap[b]) {
        heap_remove(&s->h, b);
        s->inheap[b] = 0;
    }
}

static void unpin(gs *s, uint32_t b)
{
    if (--s->pin[b] == 0) offer(s, b);
}

static int drop(gs *s, uint32_t b, uint32_t op)
{
    if (s->inheap[b]) heap_remove(&s->h, b);
    s->inheap[b] = 0;
    s->present[b] = 0;
    s->mem -= s->g->buf_size[b];
    if (op == BUDGET_OFFLOAD) s->host[b] = 1;
    return emit(s, op, b);
}

/* Evicts until bytes more fit. */
static int make_room(gs *s, int64_t bytes)
{
    while (s->mem + bytes > s->budget) {
        if (!s->h.len)
            return stop(s, SOLVE_DONE,
                        "at node %u of %u of the given order (Id %" PRId64 "), %" PRId64
                        " bytes more do not fit beside %" PRId64 " bytes that cannot leave",
                        s->place + 1, s->bm->m, s->g->id[s->bm->order[s->place]], bytes, s->mem);
        heap_item it = heap_pop(&s->h);
        uint32_t b = it.node;
        s->inheap[b] = 0;
        int how = way(s, b); /* a change in place since the offer may forbid the rerun */
        if (how && drop(s, b, how == 1 ? BUDGET_FREE : BUDGET_OFFLOAD)) return -1;
    }
    return 0;
}

static void touch(gs *s, uint32_t b)
{
    if (s->stamp[b] == s->place + 2) return;
    s->stamp[b] = s->place + 2;
    touch(s, b);
}

static int run_node(gs *s, uint32_t v)
{
    const budget_model *bm = s->bm;
    int64_t more = 0;
    /* What it writes and is present stays: pinned while room is made. */
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++)
        if (!s->present[bm->wr[e]]) more += s->g->buf_size[bm->wr[e]];
        else pin(s, bm->wr[e]);
    int bad = make_room(s, more);
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++)
        if (s->pin[bm->wr[e]]) unpin(s, bm->wr[e]);
    if (bad || emit(s, BUDGET_RUN, v)) return -1;
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) {
        uint32_t b = bm->wr[e];
        if (s->present[b]) continue;
        s->present[b] = 1;
        s->mem += s->g->buf_size[b];
        touch(s, b);
        offer(s, b);
    }
    return 0;
}

/* Makes b present (fetched, or made again by rerunning its producer, its producer's missing
 * reads first) and pins it. */
static int need(gs *s, uint32_t b)
{
    const budget_model *bm = s->bm;
    const graph *g = s->g;
    if (s->present[b]) {
        pin(s, b);
        return 0;
    }
    uint32_t sp = 0, want = b;
    for (;;) {
        if (s->host[want]) {
            if (make_room(s, g->buf_size[want]) || emit(s, BUDGET_FETCH, want)) return -1;
            s->present[want] = 1;
            s->mem += g->buf_size[want];
            touch(s, want);
        } else if (want != GRAPH_NONE) {
            uint32_t p = bm->producer[want];
            if (!may_rerun(s, p) || !(s->allow & BUDGET_ALLOW_RECOMPUTE) ||
                (sp && bm->pos[p] >= bm->pos[s->stack[sp - 1]]))
                return stop(s, SOLVE_DONE, "BufId %" PRId64 " is needed again but cannot be made",
                            g->buf_id[want]);
            s->stack[sp] = p;
            s->cursor[sp++] = bm->rd_off[p];
        }
        want = GRAPH_NONE;
        /* The top rerun's next read: pin it when present, else make it first. */
        while (sp && want == GRAPH_NONE) {
            uint32_t p = s->stack[sp - 1];
            if (s->cursor[sp - 1] < bm->rd_off[p + 1]) {
                uint32_t r = bm->rd[s->cursor[sp - 1]];
                if (s->present[r]) {
                    pin(s, r);
                    s->cursor[sp - 1]++;
                } else want = r;
                continue;
            }
            if (run_node(s, p)) return -1;
            for (uint32_t e = bm->rd_off[p]; e < bm->rd_off[p + 1]; e++) unpin(s, bm->rd[e]);
            sp--;
        }
        if (!sp && want == GRAPH_NONE) break;
    }
    pin(s, b);
    return 0;
}

/* Frees what is present and no longer needed after place i (-1: the start). */
static int sweep(gs *s, int64_t i)
{
    uint32_t k0 = i < 0 ? 0 : s->dead_off[i], k1 = s->dead_off[i + 1];
    for (uint32_t k = k0; k < k1; k++) {
        uint32_t b = s->dead_at[k];
        if (s->present[b] && !s->pin[b] && drop(s, b, BUDGET_FREE)) return -1;
    }
    for (size_t k = 0; k < s->ntouched; k++) {
        uint32_t b = s->touched[k];
        if (s->present[b] && !s->pin[b] && s->dead[b] <= i && drop(s, b, BUDGET_FREE)) return -1;
    }
    s->ntouched = 0;
    return 0;
}

/* Chen's baseline, after place i of the forward: drops what a forward node not a checkpoint
 * made and only the backward reads again (made again there when needed). */
static int chen_drop(gs *s, uint32_t i)
{
    const budget_model *bm = s->bm;
    uint32_t v = bm->order[i];
    if (graph_phase(s->g, v) != GRAPH_PHASE_FORWARD) return 0;
    for (int k = 0; k < 2; k++) {
        const uint32_t *off = k ? bm->wr_off : bm->rd_off, *buf = k ? bm->wr : bm->rd;
        for (uint32_t e = off[v]; e < off[v + 1]; e++) {
            uint32_t b = buf[e], p = bm->producer[b];
            if (p == GRAPH_NONE || !bm->rerunnable[p] || bm->frozen_from[p] <= bm->lastread[b] ||
                s->ckpt[p] || bm->keep[b] || graph_phase(s->g, p) != GRAPH_PHASE_FORWARD ||
                !s->present[b] || s->pin[b])
                continue;
            if (next_use(s, b) + i > s->last_fwd && drop(s, b, BUDGET_FREE)) return -1;
        }
    }
    return 0;
}

static int walk(gs *s)
{
    const budget_model *bm = s->bm;
    const graph *g = s->g;
    s->done = 0;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (bm->producer[b] == GRAPH_NONE) {
            s->present[b] = 1;
            offer(s, b);
        }
    s->mem = bm->initial;
    if (sweep(s, -1)) return -1;
    if (s->mem > s->budget)
        return stop(s, SOLVE_DONE, "the buffers present at the start do not fit");
    for (uint32_t i = 0; i < bm->m; i++) {
        uint32_t v = bm->order[i];
        s->place = s->done = i;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
            if (need(s, bm->rd[e])) return -1;
        if (run_node(s, v)) return -1;
        s->done = i + 1;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) unpin(s, bm->rd[e]);
        if (sweep(s, i) || (s->ckpt && chen_drop(s, i))) return -1;
    }
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (bm->keep[b] && !s->present[b] && need(s, b)) return -1;
    return 0;
}

/* Whether every read of v that a rerun could make again may be made as late as place h. */
static int reads_last(const gs *s, uint32_t v, int64_t h)
{
    const budget_model *bm = s->bm;
    for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) {
        uint32_t p = bm->producer[bm->rd[e]];
        if (p != GRAPH_NONE && bm->rerunnable[p] && bm->frozen_from[p] < h) return 0;
    }
    return 1;
}

/* When each buffer is no longer needed: its horizon is the last place at which it may be
 * read, by its readers or by a rerun of a reader that makes again what a later place reads
 * (the readers' outputs' horizons, up to where a change in place stops the rerun); never,
 * for the kept ones. One that can be made again is freed after its last reader (made again
 * if a rerun needs it); one that cannot, after its horizon. Holds 3 and 2 count as made
 * again only what its producer may make up to the horizon; hold 1 up to the last reader
 * (bolder: a later rerun may then find it gone). */
static void dead_places(gs *s)
{
    const budget_model *bm = s->bm;
    const graph *g = s->g;
    int rec = (s->allow & BUDGET_ALLOW_RECOMPUTE) && s->hold;
    for (uint32_t b = 0; b < g->nbufs; b++) s->dead[b] = bm->keep[b] ? INT64_MAX : bm->lastread[b];
    for (uint32_t i = bm->m; rec && i-- > 0;) {
        uint32_t v = bm->order[i];
        int64_t later = i;
        /* Holds 3 and 2: v reruns only to make again what it may make to that one's
         * horizon; 3 only where its reads could be made again as late, too (else the write
         * is kept: a gradient the optimizer reads late would hold every activation to
         * then); hold 1: anything, until a change in place stops it. */
        for (uint32_t e = bm->wr_off[v]; bm->rerunnable[v] && e < bm->wr_off[v + 1]; e++) {
            int64_t h = s->dead[bm->wr[e]];
            if (s->hold == 3 && (bm->frozen_from[v] < h || !reads_last(s, v, h)))
                s->nomake[bm->wr[e]] = 1;
            else if (h > later && (s->hold != 2 || bm->frozen_from[v] >= h)) later = h;
        }
        if (later > bm->frozen_from[v]) later = bm->frozen_from[v]; /* it reruns no later */
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
            if (later > s->dead[bm->rd[e]]) s->dead[bm->rd[e]] = later;
    }
    for (uint32_t b = 0; b < g->nbufs; b++) {
        uint32_t p = bm->producer[b];
        if (!bm->keep[b] && rec && p != GRAPH_NONE && bm->rerunnable[p] &&
            (s->hold >= 2 ? bm->frozen_from[p] >= s->dead[b] && !s->nomake[b]
                          : bm->frozen_from[p] > bm->lastread[b]))
            s->dead[b] = bm->lastread[b];
    }
}

/* Buckets the buffers by dead place + 1 (the kept ones in none). */
static void dead_buckets(gs *s)
{
    const budget_model *bm = s->bm;
    uint32_t nb = s->g->nbufs;
    memset(s->dead_off, 0, ((size_t)bm->m + 2) * sizeof *s->dead_off);
    for (uint32_t b = 0; b < nb; b++)
        if (s->dead[b] != INT64_MAX) s->dead_off[s->dead[b] + 2]++;
    for (uint32_t k = 0; k <= bm->m; k++) s->dead_off[k + 1] += s->dead_off[k];
    for (uint32_t b = 0; b < nb; b++)
        if (s->dead[b] != INT64_MAX) s->dead_at[s->dead_off[s->dead[b] + 1]++] = b;
}

/* Each buffer's readers' places, ascending (the given order's). */
static void uses(gs *s)
{
    const budget_model *bm = s->bm;
    uint32_t nb = s->g->nbufs;
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

/* One walk: hold says whether what cannot be made again is kept to its horizon. */
static int attempt(gs *s)
{
    const graph *g = s->g;
    size_t nb = (size_t)g->nbufs + 1, m = (size_t)s->bm->m + 2;
    s->present = calloc(nb, 1);
    s->host = calloc(nb, 1);
    s->inheap = calloc(nb, 1);
    s->pin = calloc(nb, sizeof *s->pin);
    s->nomake = calloc(nb, 1);
    s->dead = malloc(nb * sizeof *s->dead);
    s->dead_off = malloc(m * sizeof *s->dead_off);
    s->dead_at = malloc(nb * sizeof *s->dead_at);
    s->touched = malloc(nb * sizeof *s->touched);
    s->stamp = calloc(nb, sizeof *s->stamp);
    s->stack = malloc(m * sizeof *s->stack);
    s->cursor = malloc(m * sizeof *s->cursor);
    s->use_off = calloc(nb + 1, sizeof *s->use_off);
    s->use = malloc(((size_t)s->bm->rd_off[g->n] + 1) * sizeof *s->use);
    s->ucur = malloc(nb * sizeof *s->ucur);
    int ok = s->use_off && s->use && s->ucur && s->present && s->host && s->inheap && s->pin &&
             s->nomake && s->dead && s->dead_off && s->dead_at && s->touched && s->stamp &&
             s->stack && s->cursor && heap_init(&s->h, g->nbufs + 1, g->nbufs + 1) == 0;
    if (ok) {
        uses(s);
        dead_places(s);
        dead_buckets(s);
        s->o->found = walk(s) == 0;
    }
    heap_free(&s->h);
    free(s->present);
    free(s->host);
    free(s->inheap);
    free(s->pin);
    free(s->nomake);
    free(s->dead);
    free(s->dead_off);
    free(s->dead_at);
    free(s->touched);
    free(s->stamp);
    free(s->stack);
    free(s->cursor);
    free(s->use_off);
    free(s->use);
    free(s->ucur);
    return !ok || s->oom ? -1 : 0;
}

/* The walks of one rule, the first plan found: keeping what cannot be made again as long as
 * a rerun may read it (holds 3, 2 and 1, ever bolder); failing that, freeing it after its last
 * reader (a rerun that then needs it fails). */
static int walks(gs *s)
{
    for (int hold = 3; hold >= 0; hold--) {
        s->p->n = 0;
        s->hold = hold;
        s->work = 0;
        if (attempt(s)) return -1;
        if (s->o->found || s->o->stopped != SOLVE_DONE) break;
    }
    return 0;
}

/* The checked extra time of plan p on bm (the given order's model); HUGE_VAL when it fails. */
static double extra(const budget_model *bm, double bw, const budget_plan *p)
{
    budget_stats st;
    char err[8];
    return budget_check(bm, p, bw, &st, err, sizeof err) ? HUGE_VAL : st.extra_ms;
}

/* The plan of less extra time of p (*pe its extra time, NAN: not known yet) and q into p. */
static void keep_cheaper(const budget_model *bm, double bw, budget_plan *p, budget_outcome *o,
                         double *pe, budget_plan *q, const budget_outcome *oq)
{
    if (!oq->found) return;
    if (o->found && isnan(*pe)) *pe = extra(bm, bw, p);
    double qe = extra(bm, bw, q);
    if (qe == HUGE_VAL || (o->found && !(qe < *pe))) return; /* the checker's word is final */
    budget_plan t = *p;
    *p = *q;
    *q = t;
    *o = *oq;
    *pe = qe;
}

/* Every rule along bm's order: two rules, cost a byte and cost a byte over staleness, and with
 * offload allowed both again by recompute alone (an offload's copies may queue up where reruns
 * would not); the plan of least extra time (checked on given) in p. */
static int rules(gs s, const budget_model *given, double *pe)
{
    budget_plan other = {0};
    budget_outcome oo;
    memset(s.o, 0, sizeof *s.o);
    s.p->n = 0;
    *pe = (double)NAN;
    if (walks(&s)) return -1;
    for (int k = 1; k < 4 && s.o->stopped == SOLVE_DONE; k++) {
        if (k >= 2 && s.allow != (BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD)) break;
        gs t = s;
        t.p = &other;
        t.o = &oo;
        t.staleness = k & 1;
        t.allow = k >= 2 ? BUDGET_ALLOW_RECOMPUTE : s.allow;
        memset(&oo, 0, sizeof oo);
        if (walks(&t)) {
            budget_plan_free(&other);
            return -1;
        }
        keep_cheaper(given, s.bw, s.p, s.o, pe, &other, &oo);
    }
    budget_plan_free(&other);
    return 0;
}

/* The model along policy priority's order (memory-aware: it runs an optimizer's update as soon
 * as its gradient is made, where the given order may hold every gradient to the end), when
 * that order differs from the given one and keeps its producers; else *ok 0. */
static int priority_model(const budget_model *bm, budget_model *pm, int *ok)
{
    char err[160];
    *ok = 0;
    if (budget_model_init_order(pm, bm->g, policy_find("priority"), err, sizeof err))
        return strstr(err, "out of memory") ? -1 : 0;
    int same = 1;
    for (uint32_t i = 0; i < bm->m; i++) same &= pm->order[i] == bm->order[i];
    int prod = 1;
    for (uint32_t b = 0; b < bm->g->nbufs; b++) prod &= pm->producer[b] == bm->producer[b];
    *ok = !same && prod;
    if (!*ok) budget_model_free(pm);
    return 0;
}

/* s's walk along priority's order (when it differs from the given one), its plan taken into
 * s.p where it costs less than *pe (s.p's extra time). 0, or -1 out of memory. */
static int along_priority(gs s, double *pe)
{
    const budget_model *bm = s.bm;
    budget_model pm;
    int ok;
    if (priority_model(bm, &pm, &ok)) return -1;
    if (!ok) return 0;
    budget_plan other = {0};
    budget_outcome oo;
    double oe;
    budget_outcome *o = s.o;
    budget_plan *p = s.p;
    s.bm = &pm;
    s.p = &other;
    s.o = &oo;
    int r = rules(s, bm, &oe);
    budget_model_free(&pm);
    if (!r) {
        if (oo.stopped != SOLVE_DONE && !o->found) *o = oo;
        keep_cheaper(bm, s.bw, p, o, pe, &other, &oo);
    }
    budget_plan_free(&other);
    return r;
}

int budget_greedy(const budget_model *bm, int64_t budget, unsigned allow, double bandwidth,
                  const solve_ctx *c, budget_plan *p, budget_outcome *o)
{
    gs s = {.bm = bm,
            .g = bm->g,
            .budget = budget,
            .allow = allow,
            .c = c,
            .p = p,
            .o = o,
            .bw = bandwidth};
    s.start = solve_now(c);
    /* Along the given order, then along priority's: the plan of less extra time. */
    double pe;
    if (rules(s, bm, &pe)) return -1;
    if (o->found && isnan(pe)) pe = extra(bm, bandwidth, p);
    if (o->stopped == SOLVE_DONE && !(o->found && pe <= 0) && along_priority(s, &pe)) return -1;
    if (!o->found) p->n = 0;
    return 0;
}

/* A baseline's walk: the forward nodes not in ckpt have their outputs dropped after the
 * forward and made again in the backward. */
static int baseline(const budget_model *bm, const solve_ctx *c, uint8_t *ckpt, int64_t last,
                    budget_plan *p, budget_outcome *o)
{
    gs s = {.bm = bm,
            .g = bm->g,
            .budget = INT64_MAX,
            .allow = BUDGET_ALLOW_RECOMPUTE,
            .c = c,
            .p = p,
            .o = o,
            .ckpt = ckpt,
            .last_fwd = last};
    s.start = solve_now(c);
    int r = walks(&s);
    free(ckpt);
    if (!o->found) p->n = 0;
    return r;
}

/* The last forward node's place and the count of forward nodes (0: none, o says so). */
static uint32_t forward_nodes(const budget_model *bm, int64_t *last, budget_outcome *o)
{
    uint32_t nf = 0;
    *last = -1;
    memset(o, 0, sizeof *o);
    for (uint32_t i = 0; i < bm->m; i++)
        if (graph_phase(bm->g, bm->order[i]) == GRAPH_PHASE_FORWARD) {
            nf++;
            *last = i;
        }
    if (!nf) snprintf(o->why, sizeof o->why, "no compute node has Phase forward");
    return nf;
}

int budget_chen(const budget_model *bm, const solve_ctx *c, budget_plan *p, budget_outcome *o)
{
    const graph *g = bm->g;
    int64_t last;
    uint32_t nf = forward_nodes(bm, &last, o);
    if (!nf) return 0;
    uint8_t *ckpt = calloc((size_t)g->n + 1, 1);
    if (!ckpt) return -1;
    uint32_t k = 1, f = 0;
    while ((uint64_t)k * k < nf) k++;
    for (uint32_t i = 0; i < bm->m; i++)
        if (graph_phase(g, bm->order[i]) == GRAPH_PHASE_FORWARD && ++f % k == 0)
            ckpt[bm->order[i]] = 1;
    return baseline(bm, c, ckpt, last, p, o);
}

/* Pointwise ops and views, by name (lower case, a word in it; not where a word of a costly
 * op is in it, as addmm's add): cheap to run again (PyTorch's min-cut partitioner recomputes
 * such ops by default). */
int budget_cheap_op(const char *op)
{
    static const char *const words[] = {
        "relu",  "gelu",   "silu",  "sigmoid", "tanh",       "threshold", "hardtanh", "add",
        "sub",   "mul",    "div",   "neg",     "exp",        "log",       "sqrt",     "pow",
        "clamp", "where",  "view",  "reshape", "permute",    "transpose", "expand",   "squeeze",
        "slice", "select", "clone", "detach",  "contiguous", "flatten",   "alias",    "_to_copy"};
    char low[64];
    size_t k = 0;
    for (; op[k] && k + 1 < sizeof low; k++) low[k] = (char)tolower((unsigned char)op[k]);
    low[k] = 0;
    if (!strcmp(low, "t")) return 1; /* the transpose of a matrix */
    static const char *const dear[] = {"mm",   "conv",    "matmul",    "linear",    "norm",
                                       "pool", "softmax", "embedding", "attention", "lstm"};
    for (size_t i = 0; i < sizeof dear / sizeof dear[0]; i++) /* addmm, matmul: not pointwise */
        if (strstr(low, dear[i])) return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(low, words[i])) return 1;
    return 0;
}

int budget_cheap(const budget_model *bm, const solve_ctx *c, budget_plan *p, budget_outcome *o)
{
    const graph *g = bm->g;
    int64_t last;
    if (!forward_nodes(bm, &last, o)) return 0;
    uint8_t *ckpt = calloc((size_t)g->n + 1, 1);
    if (!ckpt) return -1;
    for (uint32_t i = 0; i < bm->m; i++) {
        uint32_t v = bm->order[i];
        if (graph_phase(g, v) == GRAPH_PHASE_FORWARD && !budget_cheap_op(graph_op(g, v)))
            ckpt[v] = 1;
    }
    return baseline(bm, c, ckpt, last, p, o);
}
