/* policy.c: policy_run, which schedules with a policy's key, what the
 * whole-order policies share (policy_key_rank, policy_why_rank) and the
 * proofs about a run (policy_prove, policy_lower_bound). */
#define _GNU_SOURCE
#include "policy.h"
#include "policy_internal.h"
#include "util/check.h"
#include "util/heap.h"
#include "util/units.h"
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const policy_queue_names[QUEUE_COUNT] = {"compute", "transfer", "other"};
void policy_run_free(run *r)
{
    free(r->order);
    free(r->memory);
    free(r->pos);
    free(r->seq);
    free(r->pmax);
    free(r->rank);
    memset(r, 0, sizeof *r);
}

/* Initial ready nodes are pushed in ascending Id (FIFO's rule; the heap's
 * order does not depend on it). */
static int cmp_by_id(const void *a, const void *b, void *g)
{
    int64_t x = ((const graph *)g)->id[*(const uint32_t *)a];
    int64_t y = ((const graph *)g)->id[*(const uint32_t *)b];
    return (x > y) - (x < y);
}

static int cmp_by_seq(const void *a, const void *b, void *seq)
{
    uint32_t x = ((const uint32_t *)seq)[*(const uint32_t *)a];
    uint32_t y = ((const uint32_t *)seq)[*(const uint32_t *)b];
    return (x > y) - (x < y);
}

/* How policy_run picks the next node: the heap of ready nodes by the
 * policy's key; a whole-order policy's ranks (its order, checked as it
 * goes: no heap); or, once stopped at the deadline or a cancel, the ready
 * nodes first come, first served (the heap's array as a queue: fifo's own
 * order, so fifo cut short still makes its whole order). */
enum { PICK_HEAP, PICK_RANK, PICK_QUEUE };

typedef struct run_walk {
    const graph *g;
    const policy *p;
    run *r;
    uint32_t *rem;
    heap h;
    int pick;
    uint32_t *queue; /* PICK_QUEUE: the heap's array as nodes */
    uint32_t qhead, qtail, pushed;
    double start; /* when the walk began, on the context's clock */
} run_walk;

static void walk_push(run_walk *w, uint32_t v)
{
    w->r->seq[v] = w->pushed;
    if (w->pick == PICK_QUEUE) {
        w->queue[w->qtail++] = v;
    } else if (w->pick == PICK_HEAP) {
        heap_item it = {.node = v};
        w->p->key(w->g, w->r, v, w->pushed, it.k);
        heap_push(&w->h, it);
    }
    w->pushed++;
}

/* The roots, sorted by Id, pushed (scratch: room for n). */
static void walk_roots(run_walk *w, uint32_t *scratch)
{
    const graph *g = w->g;
    uint32_t nroots = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        w->rem[i] = g->pred_off[i + 1] - g->pred_off[i];
        if (!w->rem[i]) scratch[nroots++] = i;
    }
    int sorted = 1;
    for (uint32_t i = 1; i < nroots && sorted; i++)
        sorted = g->id[scratch[i - 1]] < g->id[scratch[i]];
    if (!sorted) qsort_r(scratch, nroots, sizeof *scratch, cmp_by_id, (void *)(uintptr_t)g);
    for (uint32_t i = 0; i < nroots; i++) walk_push(w, scratch[i]);
}

/* Writes the plan's order from its ranks into r->order; -1 when the ranks
 * are not a permutation. */
static int rank_order(const graph *g, run *r)
{
    uint32_t n = g->n;
    memset(r->order, 0xff, (size_t)n * sizeof *r->order);
    for (uint32_t i = 0; i < n; i++) {
        if (r->rank[i] >= n || r->order[r->rank[i]] != GRAPH_NONE) return -1;
        r->order[r->rank[i]] = i;
    }
    return 0;
}

/* Whether to stop at step s: cancelled, past the deadline, or (an eighth of
 * the steps done, enough to judge by) the rest, run first come first served
 * at about half a step's time so far each, would end past it. */
static int walk_late(run_walk *w, const solve_ctx *c, double deadline, uint32_t s)
{
    if (solve_cancelled(c)) return 1;
    double now = solve_now(c);
    if (!s) w->start = now;
    if (now > deadline) return 1;
    if (s < w->g->n / 8) return 0; /* too few steps to judge by */
    return now + (now - w->start) / s * 0.5 * (double)(w->g->n - s) > deadline;
}

/* The next node at step s, or GRAPH_NONE when none is ready (or the plan's
 * next is not). Reads the deadline and the watcher every 4096 steps while
 * the heap picks; once past either, the queue picks the rest. */
static uint32_t walk_next(run_walk *w, const solve_ctx *c, double deadline, uint32_t s)
{
    if (w->pick == PICK_RANK) {
        uint32_t u = w->r->order[s];
        return w->rem[u] ? GRAPH_NONE : u;
    }
    if (w->pick == PICK_HEAP && deadline < HUGE_VAL && !(s & 4095) && w->h.len &&
        walk_late(w, c, deadline, s)) {
        w->r->search.stopped = solve_cancelled(c) ? SOLVE_CANCELLED : SOLVE_TIME;
        w->pick = PICK_QUEUE; /* the heap's array holds the ready nodes: a queue now, */
        w->queue = (uint32_t *)(void *)w->h.a; /* of nodes alone (fewer pages to touch): */
        for (uint32_t i = 0; i < w->h.len; i++) w->queue[i] = w->h.a[i].node; /* behind the reads */
        qsort_r(w->queue, w->h.len, sizeof *w->queue, cmp_by_seq, w->r->seq); /* as pushed */
        w->qhead = 0;
        w->qtail = w->h.len;
    }
    if (w->pick == PICK_QUEUE) return w->qhead < w->qtail ? w->queue[w->qhead++] : GRAPH_NONE;
    return w->h.len ? heap_pop(&w->h).node : GRAPH_NONE;
}

static int run_alloc(run *r, const policy *p, uint32_t n)
{
    size_t sz = (size_t)n + 1;
    r->n = n;
    r->order = malloc(sz * sizeof *r->order);
    r->memory = malloc(sz * sizeof *r->memory);
    r->pos = malloc(sz * sizeof *r->pos);
    r->seq = malloc(sz * sizeof *r->seq);
    r->pmax = malloc(sz * sizeof *r->pmax);
    if (p->plan) r->rank = malloc(sz * sizeof *r->rank);
    return !r->order || !r->memory || !r->pos || !r->seq || !r->pmax || (p->plan && !r->rank);
}

/* Runs the walk to its end: r's order, memory and peak. 0, or -1 with a
 * message. */
static int walk_run(run_walk *w, const solve_ctx *c, double deadline, char *err, size_t errcap)
{
    const graph *g = w->g;
    run *r = w->r;
    int64_t mem = 0, peak = 0;
    uint32_t s = 0, best = 0, u;
    while (s < g->n && (u = walk_next(w, c, deadline, s)) != GRAPH_NONE) {
        if (__builtin_add_overflow(mem, g->change[u], &mem)) {
            snprintf(err, errcap, "%s: live memory passes 2^63-1 bytes at step %u (node %lld)",
                     w->p->name, s + 1, (long long)g->id[u]);
            return -1;
        }
        r->order[s] = u;
        r->pos[u] = s;
        r->memory[s] = mem;
        if (mem > r->memory[best]) best = s;
        r->pmax[s] = best;
        if (mem > peak) {
            peak = mem;
            r->peak_step = s + 1;
        }
        s++;
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
            if (--w->rem[g->succ[e]] == 0) walk_push(w, g->succ[e]);
    }
    if (s != g->n) { /* the loader rejects cycles; this guards the invariant */
        if (w->pick == PICK_RANK)
            snprintf(err, errcap, "%s: its order runs node %lld before its predecessors",
                     w->p->name, (long long)g->id[r->order[s]]);
        else
            snprintf(err, errcap, "the graph has a cycle: %u of %u nodes never became ready",
                     g->n - s, g->n);
        return -1;
    }
    r->peak = peak;
    return 0;
}

/* The context a heuristic's plan reads (policy_plan_stop): c's, with the
 * deadline and the watcher under a deadline, neither without one. */
static solve_ctx plan_ctx(const policy *p, const solve_ctx *c, double deadline)
{
    solve_ctx hc = c ? *c : (solve_ctx){0};
    if (p->kind != POLICY_HEURISTIC) return hc;
    if (deadline == HUGE_VAL) {
        hc.deadline = 0;
        hc.watch = NULL;
    } else {
        hc.deadline = deadline > DBL_MIN ? deadline : DBL_MIN; /* > 0: a deadline */
    }
    return hc;
}

int policy_plan_stop(const solve_ctx *c, uint64_t i)
{
    return !(i & 4095) && (solve_cancelled(c) || solve_expired(c));
}

int policy_run_until(const graph *g, const policy *p, const solve_ctx *c, double deadline, run *r,
                     char *err, size_t errcap)
{
    uint32_t n = g->n;
    memset(r, 0, sizeof *r);
    run_walk w = {.g = g, .p = p, .r = r, .pick = p->plan ? PICK_RANK : PICK_HEAP};
    w.rem = malloc(((size_t)n + 1) * sizeof *w.rem);
    if (run_alloc(r, p, n) || !w.rem || (!p->plan && heap_init(&w.h, n, 0))) {
        snprintf(err, errcap, "out of memory scheduling %u nodes", n);
        goto fail;
    }
    if (p->prepare) p->prepare(g, c, r);
    if (p->plan) {
        solve_ctx hc = plan_ctx(p, c, deadline);
        int prc = p->plan(g, p->kind == POLICY_HEURISTIC ? &hc : c, r, err, errcap);
        if (prc == POLICY_PLAN_CUT) { /* no order: the caller (best) drops it */
            free(w.rem);
            policy_run_free(r);
            return POLICY_PLAN_CUT;
        }
        if (prc) goto fail;
    }
    if (!r->plan_ran && p->plan && rank_order(g, r)) {
        snprintf(err, errcap, "%s: its ranks are not an order of the %u nodes", p->name, n);
        goto fail;
    }
    if (!r->plan_ran) walk_roots(&w, p->plan ? r->pos : r->order); /* scratch: written later */
    if (!r->plan_ran && walk_run(&w, c, deadline, err, errcap)) goto fail;
    /* A whole run: positions invert the order, and the peak is the largest
     * memory the prefix maxima found (at least 0). */
    MEMTRIS_ASSERT(!n ||
                   (r->pos[r->order[n - 1]] == n - 1 &&
                    (r->memory[r->pmax[n - 1]] > 0 ? r->memory[r->pmax[n - 1]] : 0) == r->peak));
    if (r->lower_bound > r->peak) { /* a bound above a real peak is a bug, not a proof */
        snprintf(err, errcap, "%s: lower bound %" PRId64 " above the peak %" PRId64, p->name,
                 r->lower_bound, r->peak);
        goto fail;
    }
    policy_prove(r, r->lower_bound);
    free(w.rem);
    heap_free(&w.h);
    return 0;
fail:
    free(w.rem);
    heap_free(&w.h);
    policy_run_free(r);
    return -1;
}

int policy_run(const graph *g, const policy *p, const solve_ctx *c, run *r, char *err,
               size_t errcap)
{
    return policy_run_until(g, p, c, HUGE_VAL, r, err, errcap);
}

uint32_t policy_partings(const run *a, const run *b, uint32_t *out)
{
    /* common: how many nodes both prefixes of length s hold; they hold the
     * same set when it is s. */
    uint32_t n = a->n < b->n ? a->n : b->n, common = 0, count = 0;
    for (uint32_t s = 0; s < n; s++) {
        uint32_t u = a->order[s], v = b->order[s];
        if (common == s && u != v) out[count++] = s;
        if (u == v) common++;
        else common += (uint32_t)(b->pos[u] <= s) + (uint32_t)(a->pos[v] <= s);
    }
    return count;
}

uint32_t policy_diverge(const run *a, const run *b)
{
    uint32_t n = a->n < b->n ? a->n : b->n, s = 0;
    while (s < n && a->order[s] == b->order[s]) s++;
    return s;
}

void policy_prove(run *r, int64_t lb)
{
    if (lb > r->lower_bound && lb <= r->peak) r->lower_bound = lb;
    r->optimal = r->lower_bound == r->peak;
}

void policy_key_rank(const graph *g, const run *r, uint32_t i, uint32_t seq, int64_t k[3])
{
    (void)g;
    (void)seq;
    k[0] = r->rank[i];
    k[1] = 0;
    k[2] = 0;
}

void policy_why_rank(const char *what, const graph *g, const run *r, uint32_t u, uint32_t v,
                     uint32_t nready, char *out, size_t cap)
{
    char lb[GRAPH_LABEL_MAX];
    if (v == GRAPH_NONE || nready < 2)
        snprintf(out, cap, "next in %s (place %u)", what, r->rank[u] + 1);
    else
        snprintf(out, cap,
                 "next in %s (place %u of %u); of %u ready, node %" PRId64
                 " (%s) comes at place %u",
                 what, r->rank[u] + 1, g->n, nready, g->id[v], graph_label(g, v, lb, sizeof lb),
                 r->rank[v] + 1);
}

/* A buffer is surely live when node c runs if its ALLOC is an ancestor of c
 * and its FREE (if any) a descendant. Searches stop after LB_REACH nodes (no
 * proof, no bytes), so the bound costs O(n) on any graph. */
#define LB_REACH 64
static int reaches(const graph *g, uint32_t from, uint32_t to, int down, uint32_t *queue,
                   uint32_t *mark, uint32_t stamp)
{
    const uint32_t *off = down ? g->succ_off : g->pred_off, *adj = down ? g->succ : g->pred;
    uint32_t head = 0, tail = 0; /* breadth first: the usual proof is two edges long */
    queue[tail++] = from;
    mark[from] = stamp;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t e = off[u]; e < off[u + 1]; e++) {
            uint32_t v = adj[e];
            if (v == to) return 1;
            if (mark[v] != stamp && tail < LB_REACH) {
                mark[v] = stamp;
                queue[tail++] = v;
            }
        }
    }
    return 0;
}

int64_t policy_lower_bound_plain_until(const graph *g, const solve_ctx *sc, double deadline)
{
    int64_t lb = 0;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (g->buf_size[b] > lb) lb = g->buf_size[b];
    uint32_t *mark = calloc((size_t)g->n + 1, sizeof *mark), stack[LB_REACH], stamp = 0;
    if (!mark) return lb;
    for (uint32_t c = 0; c < g->n; c++) {
        if ((c & 4095) == 4095 && policy_past(sc, deadline)) break; /* each need is a proof */
        if (g->kind[c] != NODE_COMPUTE || g->in_off[c + 1] - g->in_off[c] < 2) continue;
        int64_t need = 0;
        for (uint32_t j = g->in_off[c]; j < g->in_off[c + 1]; j++) {
            uint32_t b = graph_find_buf(g, g->inputs[j]), dup = 0;
            if (b == GRAPH_NONE) continue;
            for (uint32_t k = g->in_off[c]; k < j && !dup; k++) dup = g->inputs[k] == g->inputs[j];
            if (dup || !reaches(g, c, g->buf_alloc[b], 0, stack, mark, ++stamp)) continue;
            if (g->buf_free[b] != GRAPH_NONE &&
                !reaches(g, c, g->buf_free[b], 1, stack, mark, ++stamp))
                continue;
            if (__builtin_add_overflow(need, g->buf_size[b], &need)) need = INT64_MAX;
        }
        if (need > lb) lb = need;
    }
    free(mark);
    return lb;
}

int64_t policy_lower_bound_plain(const graph *g)
{
    return policy_lower_bound_plain_until(g, NULL, HUGE_VAL);
}

int policy_past(const solve_ctx *c, double deadline)
{
    return solve_cancelled(c) || (deadline < HUGE_VAL && solve_now(c) > deadline);
}
