/* policy.c: policy_run, which schedules with a policy's key, what the
 * whole-order policies share (policy_key_rank, policy_why_rank) and the
 * proofs about a run (policy_prove, policy_lower_bound). */
#define _GNU_SOURCE
#include "policy.h"
#include "policy_internal.h"
#include "util/check.h"
#include "util/heap.h"
#include "util/units.h"
#include <inttypes.h>
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

int policy_run(const graph *g, const policy *p, const solve_ctx *c, run *r, char *err,
               size_t errcap)
{
    uint32_t n = g->n;
    memset(r, 0, sizeof *r);
    r->n = n;
    size_t sz = (size_t)n + 1;
    r->order = malloc(sz * sizeof *r->order);
    r->memory = malloc(sz * sizeof *r->memory);
    r->pos = malloc(sz * sizeof *r->pos);
    r->seq = malloc(sz * sizeof *r->seq);
    r->pmax = malloc(sz * sizeof *r->pmax);
    if (p->plan) r->rank = malloc(sz * sizeof *r->rank);
    uint32_t *rem = malloc(sz * sizeof *rem);
    heap h;
    int hok = heap_init(&h, n, 0) == 0;
    if (!r->order || !r->memory || !r->pos || !r->seq || !r->pmax || !rem || !hok ||
        (p->plan && !r->rank)) {
        snprintf(err, errcap, "out of memory scheduling %u nodes", n);
        goto fail;
    }
    if (p->prepare) p->prepare(g, c, r);
    if (p->plan && p->plan(g, c, r, err, errcap)) goto fail;

    /* Roots first, sorted by Id: r->order doubles as scratch for them. */
    uint32_t nroots = 0, pushed = 0;
    for (uint32_t i = 0; i < n; i++) {
        rem[i] = g->pred_off[i + 1] - g->pred_off[i];
        if (!rem[i]) r->order[nroots++] = i;
    }
    int sorted = 1;
    for (uint32_t i = 1; i < nroots && sorted; i++)
        sorted = g->id[r->order[i - 1]] < g->id[r->order[i]];
    if (!sorted) qsort_r(r->order, nroots, sizeof *r->order, cmp_by_id, (void *)(uintptr_t)g);
    for (uint32_t i = 0; i < nroots; i++) {
        heap_item it = {.node = r->order[i]};
        r->seq[it.node] = pushed;
        p->key(g, r, it.node, pushed++, it.k);
        heap_push(&h, it);
    }

    int64_t mem = 0, peak = 0;
    uint32_t s = 0, best = 0;
    while (h.len) {
        uint32_t u = heap_pop(&h).node;
        if (__builtin_add_overflow(mem, g->change[u], &mem)) {
            snprintf(err, errcap, "%s: live memory passes 2^63-1 bytes at step %u (node %lld)",
                     p->name, s + 1, (long long)g->id[u]);
            goto fail;
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
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++) {
            uint32_t v = g->succ[e];
            if (--rem[v] == 0) {
                heap_item it = {.node = v};
                r->seq[v] = pushed;
                p->key(g, r, v, pushed++, it.k);
                heap_push(&h, it);
            }
        }
    }
    if (s != n) { /* the loader rejects cycles; this guards the invariant */
        snprintf(err, errcap, "the graph has a cycle: %u of %u nodes never became ready", n - s, n);
        goto fail;
    }
    r->peak = peak;
    /* A whole run: positions invert the order, and the peak is the largest
     * memory the prefix maxima found (at least 0). */
    MEMTRIS_ASSERT(!n || (r->pos[r->order[n - 1]] == n - 1 &&
                          (r->memory[r->pmax[n - 1]] > 0 ? r->memory[r->pmax[n - 1]] : 0) == peak));
    if (r->lower_bound > peak) { /* a bound above a real peak is a bug, not a proof */
        snprintf(err, errcap, "%s: lower bound %" PRId64 " above the peak %" PRId64, p->name,
                 r->lower_bound, peak);
        goto fail;
    }
    policy_prove(r, r->lower_bound);
    free(rem);
    heap_free(&h);
    return 0;
fail:
    free(rem);
    heap_free(&h);
    policy_run_free(r);
    return -1;
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

int64_t policy_lower_bound_plain(const graph *g)
{
    int64_t lb = 0;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (g->buf_size[b] > lb) lb = g->buf_size[b];
    uint32_t *mark = calloc((size_t)g->n + 1, sizeof *mark), stack[LB_REACH], stamp = 0;
    if (!mark) return lb;
    for (uint32_t c = 0; c < g->n; c++) {
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
