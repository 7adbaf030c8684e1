/* step.c: stepper over a precomputed run. Forward pops the heap; back undoes
 * the last pop (un-push the successors it made ready, re-push the node);
 * far jumps rebuild the state at the target from the run's positions. */
#define _GNU_SOURCE
#include "step.h"
#include "util/check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push_node(stepper *s, uint32_t v)
{
    heap_item it = {.node = v};
    s->pol->key(s->g, &s->r, v, s->r.seq[v], it.k);
    heap_push(&s->ready, it);
}

/* The state after k pops: node v is ready iff it has not popped and all its
 * predecessors have. */
static void rebuild(stepper *s, uint32_t k)
{
    const graph *g = s->g;
    heap_clear(&s->ready);
    for (uint32_t v = 0; v < g->n; v++) {
        uint32_t rem = 0;
        for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1]; e++)
            rem += s->r.pos[g->pred[e]] >= k;
        s->rem[v] = rem;
        if (!rem && s->r.pos[v] >= k) push_node(s, v);
    }
    s->k = k;
}

int step_init(stepper *s, const graph *g, const policy *p, const solve_ctx *c, char *err,
              size_t errcap)
{
    memset(s, 0, sizeof *s);
    s->g = g;
    s->pol = p;
    if (policy_run(g, p, c, &s->r, err, errcap)) return -1;
    s->rem = malloc(((size_t)g->n + 1) * sizeof *s->rem);
    if (!s->rem || heap_init(&s->ready, g->n, g->n + 1)) {
        snprintf(err, errcap, "out of memory for the stepper (%u nodes)", g->n);
        step_free(s);
        return -1;
    }
    rebuild(s, 0);
    return 0;
}

void step_free(stepper *s)
{
    policy_run_free(&s->r);
    heap_free(&s->ready);
    free(s->rem);
    memset(s, 0, sizeof *s);
}

int step_forward(stepper *s)
{
    const graph *g = s->g;
    if (s->k >= g->n) return 0;
    uint32_t u = heap_pop(&s->ready).node;
    /* The stepper replays its run: the pop is the run's node at this step. */
    MEMTRIS_ASSERT(u == s->r.order[s->k] && s->rem[u] == 0);
    for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++) {
        uint32_t v = g->succ[e];
        if (--s->rem[v] == 0) push_node(s, v);
    }
    s->k++;
    return 1;
}

int step_back(stepper *s)
{
    const graph *g = s->g;
    if (s->k == 0) return 0;
    uint32_t u = s->r.order[--s->k];
    /* Successors with no predecessor left became ready exactly at this pop,
     * and nothing has popped since: take them out again. */
    for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++) {
        uint32_t v = g->succ[e];
        if (s->rem[v]++ == 0) heap_remove(&s->ready, v);
    }
    push_node(s, u);
    MEMTRIS_ASSERT(s->rem[u] == 0);
    return 1;
}

void step_jump(stepper *s, uint32_t k)
{
    uint32_t n = s->g->n;
    if (k > n) k = n;
    uint32_t d = k > s->k ? k - s->k : s->k - k;
    if (d > 64 && d > n / 16) {
        rebuild(s, k);
        return;
    }
    while (s->k < k) step_forward(s);
    while (s->k > k) step_back(s);
    MEMTRIS_ASSERT(s->k == k);
}

uint32_t step_last(const stepper *s) { return s->k ? s->r.order[s->k - 1] : GRAPH_NONE; }

int64_t step_memory_at(const stepper *s, uint32_t k) { return k ? s->r.memory[k - 1] : 0; }

int64_t step_memory(const stepper *s) { return step_memory_at(s, s->k); }

int64_t step_peak(const stepper *s, uint32_t *at)
{
    int64_t m = s->k ? s->r.memory[s->r.pmax[s->k - 1]] : 0;
    if (at) *at = m > 0 ? s->r.pmax[s->k - 1] + 1 : 0;
    return m > 0 ? m : 0;
}

uint32_t step_ready_count(const stepper *s) { return s->ready.len; }

uint32_t step_ready(const stepper *s, uint32_t skip, heap_item *out, uint32_t max)
{
    return heap_sorted(&s->ready, skip, out, max);
}

static int cmp_alloc_step(const void *a, const void *b, void *ctx)
{
    const stepper *s = ctx;
    uint32_t x = s->r.pos[s->g->buf_alloc[*(const uint32_t *)a]];
    uint32_t y = s->r.pos[s->g->buf_alloc[*(const uint32_t *)b]];
    return (x > y) - (x < y);
}

int step_buf_live(const stepper *s, uint32_t b)
{
    const graph *g = s->g;
    if (s->r.pos[g->buf_alloc[b]] >= s->k) return 0;
    return g->buf_free[b] == GRAPH_NONE || s->r.pos[g->buf_free[b]] >= s->k;
}

uint32_t step_live(const stepper *s, uint32_t *bufs, uint32_t cap)
{
    const graph *g = s->g;
    uint32_t cnt = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) cnt += (uint32_t)step_buf_live(s, b);
    if (cap == 0 || cnt == 0) return cnt;
    /* All of them, oldest first; then the first cap. */
    uint32_t *all = cnt <= cap ? bufs : malloc((size_t)cnt * sizeof *all);
    if (!all) return 0;
    uint32_t i = 0;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (step_buf_live(s, b)) all[i++] = b;
    if (cnt > 1) qsort_r(all, cnt, sizeof *all, cmp_alloc_step, (void *)(uintptr_t)s);
    if (all != bufs) {
        memcpy(bufs, all, (size_t)cap * sizeof *bufs);
        free(all);
    }
    return cnt;
}
