/* policy.c: the policy table (the policies themselves: policy_NAME.c) and
 * policy_run, which schedules with a policy's key. */
#define _GNU_SOURCE
#include "policy.h"
#include "policy_internal.h"
#include "heap.h"
#include "units.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The policies. A new one is one file, policy_NAME.c, with its key and why
 * functions (declared in policy_internal.h, the file listed in
 * src/sched/CMakeLists.txt), and one line here: every command, compare, the
 * TUI and the man page's check take it from this table. The first is the
 * baseline. */
static const policy policies[] = {
    {.name = "fifo",
     .desc = "Kahn's algorithm with a FIFO queue: ready nodes run in the order they became ready",
     .key = policy_key_fifo,
     .nkeys = 1,
     .key_names = {"queued", NULL, NULL},
     .why = policy_why_fifo},
    {.name = "priority",
     .desc =
         "the seed's memory-aware order: min-heap of (change, type, id), FREE < compute < ALLOC",
     .key = policy_key_priority,
     .nkeys = 3,
     .key_names = {"change", "type", "id"},
     .why = policy_why_priority},
};

size_t policy_count(void) { return sizeof policies / sizeof policies[0]; }

const policy *policy_baseline(void) { return &policies[0]; }

const policy *policy_at(size_t i) { return i < policy_count() ? &policies[i] : NULL; }

const policy *policy_find(const char *name)
{
    for (size_t i = 0; i < policy_count(); i++)
        if (strcmp(policies[i].name, name) == 0) return &policies[i];
    return NULL;
}

void policy_run_free(run *r)
{
    free(r->order);
    free(r->memory);
    free(r->pos);
    free(r->seq);
    free(r->pmax);
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

int policy_run(const graph *g, const policy *p, run *r, char *err, size_t errcap)
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
    uint32_t *rem = malloc(sz * sizeof *rem);
    heap h;
    int hok = heap_init(&h, n, 0) == 0;
    if (!r->order || !r->memory || !r->pos || !r->seq || !r->pmax || !rem || !hok) {
        snprintf(err, errcap, "out of memory scheduling %u nodes", n);
        goto fail;
    }

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
        p->key(g, it.node, pushed++, it.k);
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
                p->key(g, v, pushed++, it.k);
                heap_push(&h, it);
            }
        }
    }
    if (s != n) { /* the loader rejects cycles; this guards the invariant */
        snprintf(err, errcap, "the graph has a cycle: %u of %u nodes never became ready", n - s, n);
        goto fail;
    }
    r->peak = peak;
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
