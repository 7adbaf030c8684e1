/* policy_lpmf.c: policy "lpmf", PyTorch Inductor's topological_sort_lpmf
 * (least peak memory first) on memtris nodes. With L the live bytes, M the
 * peak so far, a node's mem1 = L + (its ALLOC's bytes, else 0) and mem2 =
 * L + its change - the FREEs it would make ready (those it is the last
 * unmet predecessor of): if some ready node has mem1 <= M, the one with the
 * least mem2 runs, else the one with the least mem1; then the smaller Id.
 * O(n log n) with two heaps. Exports policy_lpmf. */
#include "policy_internal.h"
#include "util/heap.h"
#include <stdio.h>
#include <stdlib.h>

/* Non-ALLOC ready nodes by (mem2 - L, Id); ALLOCs by (bytes, Id): an ALLOC
 * frees nothing, so for it mem2 = mem1 and the least mem1 is the least mem2. */
static void push_ready(const graph *g, heap *z, heap *a, const int64_t *unlock, uint32_t u)
{
    heap_item it = {.node = u, .k = {g->change[u], g->id[u], 0}};
    if (g->kind[u] == NODE_ALLOC) heap_push(a, it);
    else {
        it.k[0] -= unlock[u];
        heap_push(z, it);
    }
}

/* Free node f has one unmet predecessor left: it is the one f waits on. */
static void count_unlock(const graph *g, const uint32_t *rem, const uint8_t *done, heap *z,
                         int64_t *unlock, uint32_t f)
{
    if (g->kind[f] != NODE_FREE || rem[f] != 1) return;
    for (uint32_t e = g->pred_off[f]; e < g->pred_off[f + 1]; e++) {
        uint32_t w = g->pred[e];
        if (done[w]) continue;
        unlock[w] -= g->change[f];     /* change is -bytes */
        if (z->pos[w] != UINT32_MAX) { /* ready: its key moved */
            heap_remove(z, w);
            heap_push(z, (heap_item){.node = w, .k = {g->change[w] - unlock[w], g->id[w], 0}});
        }
        return;
    }
}

static int lpmf_plan(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap)
{
    uint32_t n = g->n;
    uint32_t *rem = malloc(((size_t)n + 1) * sizeof *rem);
    int64_t *unlock = calloc((size_t)n + 1, sizeof *unlock);
    uint8_t *done = calloc((size_t)n + 1, 1);
    heap z, a;
    int zok = heap_init(&z, n, n) == 0, aok = heap_init(&a, n, 0) == 0, rc = -1;
    if (!rem || !unlock || !done || !zok || !aok) {
        snprintf(err, errcap, "out of memory ordering %u nodes", n);
        goto out;
    }
    for (uint32_t u = 0; u < n; u++) rem[u] = g->pred_off[u + 1] - g->pred_off[u];
    for (uint32_t u = 0; u < n; u++) {
        if (policy_plan_stop(c, u)) goto cut;
        count_unlock(g, rem, done, &z, unlock, u);
    }
    for (uint32_t u = 0; u < n; u++)
        if (!rem[u]) push_ready(g, &z, &a, unlock, u);
    int64_t live = 0, most = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (policy_plan_stop(c, s)) goto cut;
        /* A fitting ALLOC competes with the rest on mem2; one that does not
         * fit loses to any non-ALLOC (which always fits) and else wins. */
        int take_a;
        if (!a.len) take_a = 0;
        else if (!z.len) take_a = 1;
        else if (a.a[0].k[0] <= most - live) take_a = heap_less(&a.a[0], &z.a[0]);
        else take_a = 0;
        uint32_t u = heap_pop(take_a ? &a : &z).node;
        r->rank[u] = s;
        done[u] = 1;
        if (__builtin_add_overflow(live, g->change[u], &live)) {
            snprintf(err, errcap, "lpmf: live memory passes 2^63-1 bytes at step %u (node %lld)",
                     s + 1, (long long)g->id[u]);
            goto out;
        }
        if (live > most) most = live;
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++) {
            uint32_t v = g->succ[e];
            if (--rem[v] == 0) push_ready(g, &z, &a, unlock, v);
            else count_unlock(g, rem, done, &z, unlock, v);
        }
    }
    rc = 0;
    goto out;
cut:
    rc = POLICY_PLAN_CUT; /* its ranks are no order */
out:
    free(rem);
    free(unlock);
    free(done);
    heap_free(&z);
    heap_free(&a);
    return rc;
}

static void lpmf_why(POLICY_WHY_ARGS)
{
    policy_why_rank("the least-peak-memory-first order", g, r, u, v, nready, out, cap);
}

const policy policy_lpmf = {
    .name = "lpmf",
    .desc = "Inductor's least peak memory first: what stays under the peak so far and leaves "
            "the least live, else what raises it least",
    .plan = lpmf_plan,
    .kind = POLICY_HEURISTIC,
    RANK_KEYS,
    .why = lpmf_why};
