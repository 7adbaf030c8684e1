/* policy_postorder.c: policy "postorder", XLA's PostOrderMemoryScheduler: a
 * depth-first post-order from the sinks, predecessors in edge order; and the
 * post-order walk that "dfs" shares. XLA orders instructions only: a buffer
 * is allocated as its instruction runs and freed after its last use. So on
 * memtris nodes an ALLOC predecessor is visited last (just before its op)
 * and a FREE runs as soon as its last predecessor has. Exports
 * policy_postorder and policy_postorder_by. */
#define _GNU_SOURCE
#include "policy_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sort_ctx {
    const graph *g;
    const void *ctx;
    int (*less)(const graph *g, const void *ctx, uint32_t a, uint32_t b);
} sort_ctx;

/* Orders nodes: ALLOCs last, then by less; 0 when neither comes first. */
static int node_cmp(const sort_ctx *s, uint32_t x, uint32_t y)
{
    int ax = s->g->kind[x] == NODE_ALLOC, ay = s->g->kind[y] == NODE_ALLOC;
    if (ax != ay) return ax - ay;
    if (s->less && s->less(s->g, s->ctx, x, y)) return -1;
    if (s->less && s->less(s->g, s->ctx, y, x)) return 1;
    return 0;
}

/* Sinks: node_cmp, then by Id. */
static int cmp_nodes(const void *a, const void *b, void *c)
{
    const sort_ctx *s = c;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int d = node_cmp(s, x, y);
    return d ? d : (s->g->id[x] > s->g->id[y]) - (s->g->id[x] < s->g->id[y]);
}

/* Predecessor edges (indices into g->pred): node_cmp, then in edge order. */
static int cmp_edges(const void *a, const void *b, void *c)
{
    const sort_ctx *s = c;
    uint32_t e = *(const uint32_t *)a, f = *(const uint32_t *)b;
    int d = node_cmp(s, s->g->pred[e], s->g->pred[f]);
    return d ? d : (e > f) - (e < f);
}

int policy_postorder_by(const graph *g, const solve_ctx *sc, run *r, const void *ctx,
                        int (*less)(const graph *g, const void *ctx, uint32_t a, uint32_t b))
{
    uint32_t n = g->n, ne = g->pred_off[n], nsinks = 0, placed = 0;
    uint64_t units = 0; /* of work, for policy_plan_stop */
    uint32_t *pred = malloc(((size_t)ne + 1) * sizeof *pred);
    uint32_t *sinks = malloc(((size_t)n + 1) * sizeof *sinks);
    uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack);
    uint32_t *next = malloc(((size_t)n + 1) * sizeof *next); /* next predecessor to visit */
    uint32_t *work = malloc(((size_t)n + 1) * sizeof *work);
    uint8_t *seen = calloc((size_t)n + 1, 1); /* 1: on the walk, 2: placed */
    int rc = -1;
    if (!pred || !sinks || !stack || !next || !seen || !work) goto out;
    sort_ctx so = {.g = g, .ctx = ctx, .less = less};
    for (uint32_t e = 0; e < ne; e++) pred[e] = e;
    for (uint32_t u = 0; u < n; u++) {
        if (policy_plan_stop(sc, u)) goto cut;
        qsort_r(pred + g->pred_off[u], g->pred_off[u + 1] - g->pred_off[u], sizeof *pred, cmp_edges,
                &so);
    }
    for (uint32_t e = 0; e < ne; e++) pred[e] = g->pred[pred[e]];
    /* The walk starts from the nodes whose successors are all FREEs (sinks
     * but for the frees), then from anything left, in input order. */
    for (uint32_t u = 0; u < n; u++) {
        int sink = g->kind[u] != NODE_FREE;
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1] && sink; e++)
            sink = g->kind[g->succ[e]] == NODE_FREE;
        if (sink) sinks[nsinks++] = u;
    }
    if (policy_plan_stop(sc, 0)) goto cut;
    qsort_r(sinks, nsinks, sizeof *sinks, cmp_nodes, &so);
    /* next[] doubles as the FREEs' count of predecessors not yet placed */
    for (uint32_t u = 0; u < n; u++)
        if (g->kind[u] == NODE_FREE) next[u] = g->pred_off[u + 1] - g->pred_off[u];
    for (uint32_t s = 0; s < nsinks + n; s++) {
        uint32_t root = s < nsinks ? sinks[s] : s - nsinks;
        if (seen[root]) continue;
        uint32_t sp = 0;
        stack[sp++] = root;
        seen[root] = 1;
        next[root] = g->pred_off[root];
        while (sp) {
            if (policy_plan_stop(sc, ++units)) goto cut;
            uint32_t u = stack[sp - 1];
            if (seen[u] == 2) { /* a FREE placed early */
                sp--;
                continue;
            }
            if (next[u] < g->pred_off[u + 1]) {
                uint32_t p = pred[next[u]++];
                if (!seen[p]) {
                    seen[p] = 1;
                    next[p] = g->pred_off[p];
                    stack[sp++] = p;
                }
                continue;
            }
            sp--;
            /* place u, then every FREE whose last predecessor it was (a FREE
             * on the stack is placed as the walk comes back to it) */
            uint32_t nw = 0;
            work[nw++] = u;
            seen[u] = 2;
            while (nw) {
                uint32_t q = work[--nw];
                r->rank[q] = placed++;
                for (uint32_t e = g->succ_off[q]; e < g->succ_off[q + 1]; e++) {
                    uint32_t v = g->succ[e];
                    if (g->kind[v] == NODE_FREE && !seen[v] && --next[v] == 0) {
                        seen[v] = 2;
                        work[nw++] = v;
                    }
                }
            }
        }
    }
    rc = placed == n ? 0 : -1; /* every node reaches a sink in a DAG */
    goto out;
cut:
    rc = POLICY_PLAN_CUT; /* its ranks are no order */
out:
    free(pred);
    free(sinks);
    free(stack);
    free(next);
    free(seen);
    free(work);
    return rc;
}

static int postorder_plan(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap)
{
    int rc = policy_postorder_by(g, c, r, NULL, NULL);
    if (rc < 0) snprintf(err, errcap, "out of memory ordering %u nodes", g->n);
    return rc;
}

static void postorder_why(POLICY_WHY_ARGS)
{
    policy_why_rank("the post-order from the sinks", g, r, u, v, nready, out, cap);
}

const policy policy_postorder = {
    .name = "postorder",
    .desc = "XLA's PostOrder scheduler: post-order from the sinks, predecessors in edge order",
    .plan = postorder_plan,
    .kind = POLICY_HEURISTIC,
    RANK_KEYS,
    .why = postorder_why};
