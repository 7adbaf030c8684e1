/* budget_greedy_walk.c: the greedy solver's walk of a memory budget (DTR, Capuchin): along an
 * order, evicting under pressure the present buffer with the least cost a byte: a rerun's
 * latency, or an offload's copies out and back (chosen over a rerun that costs more, as
 * Capuchin does), making a missing buffer again when it is next needed (a version changed in
 * place: its producer, then its changers); the walks of one rule at every hold. Exports
 * budget_greedy_walks (budget_greedy_internal.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget.h"
#include "budget_greedy_internal.h"
#include "budget_offload.h"
#include "util/check.h"

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

/* Whether p may run again now: rerunnable, and no buffer it reads changed in place since. */
static int may_rerun(const gs *s, uint32_t p)
{
    return p != GRAPH_NONE && s->rr[p] && s->frozen[p] >= (int64_t)s->done;
}

/* How b may leave the device: 1 freed (made again by a rerun, or fetched from its copy), 2
 * offloaded, 0 not at all. */
static int leave(const gs *s, uint32_t b)
{
    if (s->keepers && s->keepers[b]) return 0;
    if (s->host[b]) return 1;
    /* Freed only if it can be made again wherever it may be needed: by producers that may
     * run again until then (a version changed in place: those of the versions before too). */
    if ((s->allow & BUDGET_ALLOW_RECOMPUTE) && s->cok[b] && s->cfrozen[b] >= (int64_t)s->done &&
        s->cfrozen[b] >= s->dead[b] && !s->nomake[b])
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
static double offload_ms(const gs *s, uint32_t b) { return 2e3 * (double)s->bm->size[b] / s->bw; }

/* leave's answer, but an offload where it costs less than the rerun (Capuchin). */
static int way(gs *s, uint32_t b)
{
    int how = leave(s, b);
    if (how == 1 && !s->host[b] && (s->allow & BUDGET_ALLOW_OFFLOAD) &&
        offload_ms(s, b) < s->remake[b])
        return 2;
    return how;
}

static void offer(gs *s, uint32_t b)
{
    int how = way(s, b);
    if (!s->present[b] || s->pin[b] || s->inheap[b] || !how) return;
    int64_t size = s->bm->size[b], dist = next_use(s, b);
    heap_item it = {{INT64_MAX, s->staleness ? -dist : -size, s->staleness ? -size : 0}, b};
    if (how == 1) {
        /* As the bits of a non-negative double, which order as the doubles do. */
        double lat = s->host[b] ? 0 : s->remake[b];
        double per = lat / ((double)(size > 0 ? size : 1) * (double)(s->staleness ? dist : 1));
        memcpy(&it.k[0], &per, sizeof per);
    } else { /* an offload, ranked with the reruns by its time a byte */
        double per =
            offload_ms(s, b) / ((double)(size > 0 ? size : 1) * (double)(s->staleness ? dist : 1));
        memcpy(&it.k[0], &per, sizeof per);
    }
    if (s->keepers && s->keepers[b] == 2) it.k[0] = -1; /* repair's move: evicted first */
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
    s->mem -= s->bm->size[b];
    if (op == BUDGET_OFFLOAD) { /* the host keeps one copy of a buffer: the last */
        const budget_model *bm = s->bm;
        for (uint32_t k = bm->vers_off[bm->phys[b]]; k < bm->vers_off[bm->phys[b] + 1]; k++)
            s->host[bm->vers[k]] = 0;
        s->host[b] = 1;
    }
    return emit(s, op, s->bm->phys[b]);
}

/* Repair's rule: of the buffers offered, the one that alone frees want bytes at the least
 * cost (a rerun's latency, an offload's copies), or GRAPH_NONE. O(offered). */
static uint32_t fitting(gs *s, int64_t want)
{
    uint32_t best = GRAPH_NONE;
    double bc = HUGE_VAL;
    for (uint32_t i = 0; i < s->h.len; i++) {
        uint32_t b = s->h.a[i].node;
        int how = way(s, b);
        double c = how == 1 ? (s->host[b] ? 0 : s->remake[b]) : offload_ms(s, b);
        if (how && s->bm->size[b] >= want && c < bc) {
            bc = c;
            best = b;
        }
    }
    return best;
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
        uint32_t b = s->fit ? fitting(s, s->mem + bytes - s->budget) : GRAPH_NONE;
        if (b != GRAPH_NONE) heap_remove(&s->h, b);
        else b = heap_pop(&s->h).node;
        s->inheap[b] = 0;
        int how = way(s, b); /* a change in place since the offer may forbid the rerun */
        if (how && drop(s, b, how == 1 ? BUDGET_FREE : BUDGET_OFFLOAD)) return -1;
    }
    return 0;
}

/* The version of l's buffer present other than l and skip, or GRAPH_NONE. */
static uint32_t other_version(const gs *s, uint32_t l, uint32_t skip)
{
    const budget_model *bm = s->bm;
    uint32_t b = bm->phys[l];
    for (uint32_t k = bm->vers_off[b]; k < bm->vers_off[b + 1]; k++) {
        uint32_t o = bm->vers[k];
        if (o != l && o != skip && s->present[o]) return o;
    }
    return GRAPH_NONE;
}

/* Before l is made (by a run, or a fetch) over another version o of its buffer: o leaves as
 * an eviction would (freed, where l is to come from the host), unless it is in use, or needed
 * and unable to leave (then no plan). */
static int clear_other(gs *s, uint32_t l, uint32_t o)
{
    const budget_model *bm = s->bm;
    int needed = bm->keep[o] || s->dead[o] >= (int64_t)s->done, how = way(s, o);
    if (s->host[l] && how == 2) how = 0; /* its copy would take the place of l's on the host */
    if (s->pin[o] || (needed && !how))
        return stop(s, SOLVE_DONE,
                    "BufId %" PRId64 " is needed again but cannot be made: another version of "
                    "it, changed in place, %s",
                    s->g->buf_id[bm->phys[l]], s->pin[o] ? "is in use" : "cannot leave");
    return drop(s, o, needed && how == 2 ? BUDGET_OFFLOAD : BUDGET_FREE);
}

/* The version of l's buffer that v reads, when v changes it in place into l; else GRAPH_NONE. */
static uint32_t consumed(const gs *s, uint32_t v, uint32_t l)
{
    const budget_model *bm = s->bm;
    for (uint32_t e = bm->rd_off[v]; bm->ver[l] && e < bm->rd_off[v + 1]; e++)
        if (bm->phys[bm->rd[e]] == bm->phys[l]) return bm->rd[e];
    return GRAPH_NONE;
}

/* The model's invariants after node v ran (the sanitizer builds; O(nl), sampled): what v
 * read and wrote present, one version of a buffer at most, the bytes present counted right and
 * within the budget. */
static void check_state(gs *s, uint32_t v)
{
    const budget_model *bm = s->bm;
    MEMTRIS_ASSERT(s->mem <= s->budget);
    MEMTRIS_ASSERT(s->peak >= s->mem);
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++)
        MEMTRIS_ASSERT(s->present[bm->wr[e]] || s->hosted[bm->wr[e]]);
#if MEMTRIS_CHECKING
    if (!check_due(&s->checks)) return;
    int64_t bytes = 0;
    for (uint32_t b = 0; b < bm->g->nbufs; b++) {
        uint32_t here = 0;
        for (uint32_t k = bm->vers_off[b]; k < bm->vers_off[b + 1]; k++) {
            here += s->present[bm->vers[k]];
            if (s->present[bm->vers[k]]) bytes += bm->size[bm->vers[k]];
        }
        MEMTRIS_ASSERT(here <= 1);
    }
    MEMTRIS_ASSERT(bytes + s->rngmem == s->mem);
#endif
}

static int run_node(gs *s, uint32_t v)
{
    const budget_model *bm = s->bm;
    int64_t more = 0;
    /* What it writes and is present stays: pinned while room is made; another version there
     * leaves first, but the one it changes in place (no new bytes). */
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) {
        uint32_t l = bm->wr[e], c = consumed(s, v, l), o = other_version(s, l, c);
        if (s->hosted[l]) continue; /* left on the host */
        if (o != GRAPH_NONE && clear_other(s, l, o)) return -1;
        if (s->present[l]) pin(s, l);
        else if (c == GRAPH_NONE || !s->present[c]) more += bm->size[l];
    }
    int bad = make_room(s, more + s->reserve);
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++)
        if (s->pin[bm->wr[e]]) unpin(s, bm->wr[e]);
    if (bad || emit(s, BUDGET_RUN, v)) return -1;
    s->mem += s->reserve; /* counted to the end of the walk: a rerun may come at any place */
    s->rngmem += s->reserve;
    if (s->mem > s->peak) s->peak = s->mem;
    s->reserve = 0;
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) {
        uint32_t b = bm->wr[e], c = consumed(s, v, b);
        if (s->present[b] || s->hosted[b]) continue;
        if (c != GRAPH_NONE && s->present[c]) { /* the bytes of what it read, changed */
            s->present[c] = 0;
            s->mem -= bm->size[c];
        }
        s->present[b] = 1;
        s->mem += bm->size[b];
        if (s->mem > s->peak) s->peak = s->mem;
        offer(s, b);
    }
    check_state(s, v);
    return 0;
}

static int note_made(gs *s, uint32_t p);

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
            uint32_t o = other_version(s, want, GRAPH_NONE);
            if (o != GRAPH_NONE && clear_other(s, want, o)) return -1;
            if (make_room(s, bm->size[want]) || emit(s, BUDGET_FETCH, bm->phys[want])) return -1;
            s->present[want] = 1;
            s->mem += bm->size[want];
            if (s->mem > s->peak) s->peak = s->mem;
        } else if (want != GRAPH_NONE) {
            uint32_t p = bm->producer[want];
            if (!may_rerun(s, p) || !(s->allow & BUDGET_ALLOW_RECOMPUTE) ||
                bm->pos[p] >= s->done || /* not run yet: no rerun (another order's reader) */
                (sp && bm->pos[p] >= bm->pos[s->stack[sp - 1]]))
                return stop(s, SOLVE_DONE, "BufId %" PRId64 " is needed again but cannot be made",
                            g->buf_id[bm->phys[want]]);
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
            if (run_node(s, p) || note_made(s, p)) return -1;
            s->rerun_ms += graph_latency(g, p);
            for (uint32_t e = bm->rd_off[p]; e < bm->rd_off[p + 1]; e++) unpin(s, bm->rd[e]);
            sp--;
        }
        if (!sp && want == GRAPH_NONE) break;
    }
    pin(s, b);
    /* What the reruns made that no node reads (an op's workspace) goes at once, not when room
     * is wanted (nor to the host). */
    for (size_t k = 0; k < s->nmade; k++) {
        uint32_t m = s->made[k];
        if (s->present[m] && !s->pin[m] && !s->bm->keep[m] && s->use_off[m] == s->use_off[m + 1] &&
            drop(s, m, BUDGET_FREE))
            return -1;
    }
    s->nmade = 0;
    return 0;
}

/* Notes what rerun p wrote, for need's clean-up: 0, or -1 out of memory. */
static int note_made(gs *s, uint32_t p)
{
    const budget_model *bm = s->bm;
    for (uint32_t e = bm->wr_off[p]; e < bm->wr_off[p + 1]; e++) {
        if (s->nmade == s->madecap) {
            size_t nc = s->madecap ? 2 * s->madecap : 64;
            uint32_t *a = realloc(s->made, nc * sizeof *a);
            if (!a) {
                s->oom = 1;
                return -1;
            }
            s->made = a;
            s->madecap = nc;
        }
        s->made[s->nmade++] = bm->wr[e];
    }
    return 0;
}

/* Frees what is present and no longer needed after place i (-1: the start); what a rerun
 * makes after its dead place goes at the end of need. */
static int sweep(gs *s, int64_t i)
{
    uint32_t k0 = i < 0 ? 0 : s->dead_off[i], k1 = s->dead_off[i + 1];
    for (uint32_t k = k0; k < k1; k++) {
        uint32_t b = s->dead_at[k];
        if (s->present[b] && !s->pin[b] && drop(s, b, BUDGET_FREE)) return -1;
    }
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
            if (!s->cok[b] || s->cfrozen[b] <= bm->lastread[b] || s->ckpt[p] || bm->keep[b] ||
                graph_phase(s->g, p) != GRAPH_PHASE_FORWARD || !s->present[b] || s->pin[b])
                continue;
            if (next_use(s, b) + i > s->last_fwd && drop(s, b, BUDGET_FREE)) return -1;
        }
    }
    return 0;
}

static int prefetch(gs *s, uint32_t v, uint32_t next);

/* The first use of l after its producer (m: none). */
static uint32_t first_use(const gs *s, uint32_t l)
{
    return s->use_off[l] < s->use_off[l + 1] ? s->use[s->use_off[l]] : s->bm->m;
}

/* An Input node whose reads and writes do not fit leaves what it makes on the host, the one
 * first used last first, until they fit (BUDGET_HOST events; its first use fetches it). */
static int host_inputs(gs *s)
{
    const budget_model *bm = s->bm;
    for (uint32_t i = 0; i < bm->m; i++) {
        uint32_t v = bm->order[i];
        int64_t ws = 0;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) ws += bm->size[bm->rd[e]];
        for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) ws += bm->size[bm->wr[e]];
        while (ws > s->budget) {
            uint32_t pick = GRAPH_NONE;
            for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) {
                uint32_t l = bm->wr[e];
                if (l >= bm->g->nbufs || !bm->hostable[l] || s->hosted[l]) continue;
                if (pick == GRAPH_NONE || first_use(s, l) > first_use(s, pick)) pick = l;
            }
            if (pick == GRAPH_NONE) break;
            s->hosted[pick] = s->host[pick] = 1;
            ws -= bm->size[pick];
            if (emit(s, BUDGET_HOST, pick)) return -1;
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
        if (bm->producer[b] == GRAPH_NONE) { /* versions 0 of those present from the start */
            s->present[b] = 1;
            offer(s, b);
        }
    s->mem = s->peak = bm->initial;
    s->rngmem = s->reserve = 0;
    s->rerun_ms = 0;
    if ((s->allow & BUDGET_ALLOW_OFFLOAD) && host_inputs(s)) return -1;
    if (sweep(s, -1)) return -1;
    /* With offload, what does not fit starts on the host (offloads that budget_offload_tidy
     * makes BUDGET_HOST events); the peak counts from there. */
    if (s->mem > s->budget && (s->allow & BUDGET_ALLOW_OFFLOAD)) {
        if (make_room(s, 0)) return -1;
        s->peak = s->mem;
    }
    if (s->mem > s->budget)
        return stop(s, SOLVE_DONE, "the buffers present at the start do not fit");
    for (uint32_t i = 0; i < bm->m; i++) {
        uint32_t v = bm->order[i];
        s->place = s->done = i;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
            if (need(s, bm->rd[e])) return -1;
        if (i + 1 < bm->m && prefetch(s, v, bm->order[i + 1])) return -1;
        /* a random op that may run again keeps its generator state from its first run on */
        if (bm->rng[v] && s->rr[v] && (s->allow & BUDGET_ALLOW_RECOMPUTE))
            s->reserve = BUDGET_RNG_BYTES;
        if (run_node(s, v)) return -1;
        s->done = i + 1;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) unpin(s, bm->rd[e]);
        if (sweep(s, i) || (s->ckpt && chen_drop(s, i))) return -1;
    }
    for (uint32_t b = 0; b < bm->nl; b++) /* what stays is made last, the rest held */
        if (bm->keep[b] && s->present[b]) pin(s, b);
    for (uint32_t b = 0; b < bm->nl; b++) /* the host's copy of that version will do */
        if (bm->keep[b] && !s->present[b] && !s->host[b] && need(s, b)) return -1;
    return 0;
}

/* Whether next reads l. */
static int reads(const budget_model *bm, uint32_t next, uint32_t l)
{
    for (uint32_t e = bm->rd_off[next]; e < bm->rd_off[next + 1]; e++)
        if (bm->rd[e] == l) return 1;
    return 0;
}

/* Room for bytes more by evicting only what costs nothing to leave (a copy of it on the host:
 * the eviction key 0) and next does not read: 1 when it fits so, else 0; -1 on a stop. */
static int free_room(gs *s, int64_t bytes, uint32_t next)
{
    while (s->mem + bytes > s->budget) {
        uint32_t top = s->h.len ? s->h.a[0].node : GRAPH_NONE;
        if (top == GRAPH_NONE || !s->host[top] || s->h.a[0].k[0] != 0 || reads(s->bm, next, top))
            return 0;
        uint32_t b = heap_pop(&s->h).node;
        s->inheap[b] = 0;
        if (drop(s, b, BUDGET_FREE)) return -1;
    }
    return 1;
}

/* Before v runs, the reads of the node after it (next) that the host holds are fetched where
 * they fit beside v's writes, evicting only what costs nothing to leave: the copy then runs
 * while v computes (budget_check's transfer stream), not before next. Offered for eviction as
 * usual. */
static int prefetch(gs *s, uint32_t v, uint32_t next)
{
    const budget_model *bm = s->bm;
    int64_t more = 0;
    for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++)
        if (!s->present[bm->wr[e]]) more += bm->size[bm->wr[e]];
    for (uint32_t e = bm->rd_off[next]; e < bm->rd_off[next + 1]; e++) {
        uint32_t l = bm->rd[e];
        if (s->present[l] || !s->host[l] || other_version(s, l, GRAPH_NONE) != GRAPH_NONE) continue;
        for (uint32_t w = bm->wr_off[v]; w < bm->wr_off[v + 1]; w++)
            if (bm->phys[bm->wr[w]] == bm->phys[l]) l = GRAPH_NONE; /* v writes it */
        if (l == GRAPH_NONE) continue;
        int room = free_room(s, more + bm->size[l], next);
        if (room < 0) return -1;
        if (!room) continue;
        if (emit(s, BUDGET_FETCH, bm->phys[l])) return -1;
        s->present[l] = 1;
        s->mem += bm->size[l];
        if (s->mem > s->peak) s->peak = s->mem;
        offer(s, l);
    }
    return 0;
}

/* One walk: hold says whether what cannot be made again is kept to its horizon. */
static int attempt(gs *s)
{
    const graph *g = s->g;
    size_t nb = (size_t)s->bm->nl + 1, m = (size_t)s->bm->m + 2;
    s->present = calloc(nb, 1);
    s->host = calloc(nb, 1);
    s->hosted = calloc(nb, 1);
    s->inheap = calloc(nb, 1);
    s->pin = calloc(nb, sizeof *s->pin);
    s->nomake = calloc(nb, 1);
    s->dead = malloc(nb * sizeof *s->dead);
    s->dead_off = malloc(m * sizeof *s->dead_off);
    s->dead_at = malloc(nb * sizeof *s->dead_at);
    s->stack = malloc(m * sizeof *s->stack);
    s->cursor = malloc(m * sizeof *s->cursor);
    s->use_off = calloc(nb + 1, sizeof *s->use_off);
    s->use = malloc(((size_t)s->bm->rd_off[g->n] + 1) * sizeof *s->use);
    s->ucur = malloc(nb * sizeof *s->ucur);
    int ok = s->use_off && s->use && s->ucur && s->present && s->host && s->hosted && s->inheap &&
             s->pin && s->nomake && s->dead && s->dead_off && s->dead_at && s->stack && s->cursor &&
             heap_init(&s->h, s->bm->nl + 1, s->bm->nl + 1) == 0;
    if (ok) {
        budget_greedy_uses(s);
        budget_greedy_dead_places(s);
        budget_greedy_dead_buckets(s);
        s->o->found = walk(s) == 0;
        if (s->o->found && (s->allow & BUDGET_ALLOW_OFFLOAD) && budget_offload_tidy(s->bm, s->p))
            s->oom = 1;
    }
    heap_free(&s->h);
    free(s->present);
    free(s->host);
    free(s->hosted);
    free(s->inheap);
    free(s->pin);
    free(s->nomake);
    free(s->dead);
    free(s->dead_off);
    free(s->dead_at);
    free(s->stack);
    free(s->cursor);
    free(s->made);
    s->made = NULL;
    s->nmade = s->madecap = 0;
    free(s->use_off);
    free(s->use);
    free(s->ucur);
    return !ok || s->oom ? -1 : 0;
}

/* Whether some version changed in place could be made again (its changer may run again). */
static int remakes_changes(const budget_model *bm)
{
    for (uint32_t l = bm->g->nbufs; l < bm->nl; l++)
        if (bm->rerunnable[bm->producer[l]]) return 1;
    return 0;
}

/* The walks of one rule, the first plan found: keeping what cannot be made again as long as
 * a rerun may read it (holds 3, 2 and 1, ever bolder); failing that, freeing it after its last
 * reader (a rerun that then needs it fails). Where versions changed in place could be made
 * again, the same walks once more with none made again (what is changed in place kept from
 * its first change, its producer not run again after it: a version made again holds more to
 * the horizon, and may cost more than it saves): the plan of less extra time, then of the lower
 * peak. A baseline's walks (ckpt) follow its rule: the first plan, versions made again. */
int budget_greedy_walks(gs *s)
{
    budget_plan best = {0};
    budget_outcome bo = {0};
    double be = HUGE_VAL;
    int64_t bp = 0;
    int modes = remakes_changes(s->bm) ? 2 : 1, r = 0;
    for (int mode = 0; mode < modes && !r; mode++) {
        s->frozen_versions = mode;
        r = budget_greedy_chains(s);
        for (int hold = 3; hold >= 0 && !r; hold--) {
            s->p->n = 0;
            s->hold = hold;
            s->work = 0;
            if ((r = attempt(s)) != 0) break;
            if (s->o->found || s->o->stopped != SOLVE_DONE) break;
        }
        budget_greedy_chains_free(s);
        if (r || (!s->o->found && s->o->stopped != SOLVE_DONE)) break; /* what was found stands */
        if (!s->o->found) continue;
        double e = s->rerun_ms; /* recompute alone: the extra time */
        int64_t pk = s->peak;
        if (modes > 1 && (s->allow & BUDGET_ALLOW_OFFLOAD)) {
            budget_stats st;
            char err[8];
            if (budget_check(s->bm, s->p, s->bw, &st, err, sizeof err)) continue;
            e = st.extra_ms;
            pk = st.peak;
        }
        if (e < be || (e == be && pk < bp)) { /* less extra time; at a tie, the lower peak */
            budget_plan t = best;
            best = *s->p;
            *s->p = t;
            bo = *s->o;
            be = e;
            bp = pk;
        }
        if (s->ckpt) break; /* a baseline: its rule as stated, versions made again */
    }
    if (!r && be < HUGE_VAL) {
        budget_plan t = best;
        best = *s->p;
        *s->p = t;
        *s->o = bo;
    }
    budget_plan_free(&best);
    return r;
}
