/* policy_multiqueue.c: policy "multiqueue", Kahn's algorithm (Kahn 1962)
 * with a FIFO queue per kind of work (man memtris, POLICIES): ready nodes
 * wait in three FIFO queues,
 * compute (compute nodes on stream 0), transfer (compute nodes on another
 * stream: the exporter puts data movement on stream 1) and other (ALLOC and
 * FREE); each round serves the queues in the --queue-order, taking the front
 * of each that is not empty, and a node made ready joins the back of its
 * queue at once (a later queue may serve it in the same round). Roots join
 * in ascending Id, as fifo's; successors in edge order. Exports
 * policy_multiqueue. */
#define _GNU_SOURCE
#include "policy_internal.h"
#include <stdio.h>
#include <stdlib.h>

static int queue_of(const graph *g, uint32_t i)
{
    int s = graph_stream(g, i);
    return s < 0 ? QUEUE_OTHER : s > 0 ? QUEUE_TRANSFER : QUEUE_COMPUTE;
}

static int by_id(const void *a, const void *b, void *ctx)
{
    const graph *g = ctx;
    int64_t x = g->id[*(const uint32_t *)a], y = g->id[*(const uint32_t *)b];
    return (x > y) - (x < y);
}

static int multiqueue_plan(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap)
{
    uint32_t n = g->n;
    uint8_t order[QUEUE_COUNT];
    solve_order(c, order);
    /* Each node joins one queue once: the queues share one array, cut by class. */
    uint32_t *q = malloc(((size_t)n + 1) * sizeof *q);
    uint32_t *rem = malloc(((size_t)n + 1) * sizeof *rem);
    if (!q || !rem) {
        free(q);
        free(rem);
        snprintf(err, errcap, "out of memory scheduling %u nodes", n);
        return -1;
    }
    uint32_t base[QUEUE_COUNT] = {0}, head[QUEUE_COUNT], tail[QUEUE_COUNT], nroots = 0;
    for (uint32_t i = 0; i < n; i++) {
        int qc = queue_of(g, i);
        for (int k = qc + 1; k < QUEUE_COUNT; k++) base[k]++;
        rem[i] = g->pred_off[i + 1] - g->pred_off[i];
        if (!rem[i]) r->order[nroots++] = i; /* scratch: policy_run fills order later */
    }
    qsort_r(r->order, nroots, sizeof *r->order, by_id, (void *)(uintptr_t)g);
    for (int k = 0; k < QUEUE_COUNT; k++) head[k] = tail[k] = base[k];
    for (uint32_t i = 0; i < nroots; i++) {
        int qc = queue_of(g, r->order[i]);
        q[tail[qc]++] = r->order[i];
    }
    uint32_t done = 0;
    while (done < n) {
        uint32_t before = done;
        for (int k = 0; k < QUEUE_COUNT; k++) {
            int qc = order[k];
            if (head[qc] == tail[qc]) continue;
            uint32_t u = q[head[qc]++];
            r->rank[u] = done++;
            for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++) {
                uint32_t v = g->succ[e];
                if (--rem[v] == 0) {
                    int cv = queue_of(g, v);
                    q[tail[cv]++] = v;
                }
            }
        }
        if (done == before) break; /* a cycle: policy_run reports it */
    }
    for (uint32_t i = 0; i < n && done < n; i++)
        if (rem[i]) r->rank[i] = done++; /* never ready; policy_run stops short of them */
    free(q);
    free(rem);
    return 0;
}

static void multiqueue_why(POLICY_WHY_ARGS)
{
    policy_why_rank("the multi-queue round robin", g, r, u, v, nready, out, cap);
}

const policy policy_multiqueue = {
    .name = "multiqueue",
    .desc = "a first-in, first-out queue per kind of work: ready queues compute, transfer and "
            "other, served in --queue-order each round",
    .plan = multiqueue_plan,
    .kind = POLICY_TIMED,
    RANK_KEYS,
    .why = multiqueue_why};
