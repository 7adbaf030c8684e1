/* policy_dfs.c: policy "dfs", XLA's DFSMemoryScheduler: a post-order from the
 * sinks that visits first the predecessor with the most extra users (fan-out
 * beyond one, summed over its ancestors), then the largest total bytes (its
 * own ALLOC and its ancestors', summed, as XLA does), then the smaller Id;
 * ALLOCs last and FREEs early, as policy_postorder_by says.
 * Exports policy_dfs. */
#include "policy_internal.h"
#include <stdio.h>
#include <stdlib.h>

typedef struct dfs_stats {
    int64_t *extra, *total;
} dfs_stats;

static int more_urgent(const graph *g, const void *ctx, uint32_t a, uint32_t b)
{
    const dfs_stats *s = ctx;
    if (s->extra[a] != s->extra[b]) return s->extra[a] > s->extra[b];
    if (s->total[a] != s->total[b]) return s->total[a] > s->total[b];
    return g->id[a] < g->id[b];
}

static int dfs_plan(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap)
{
    uint32_t n = g->n, head = 0, tail = 0;
    dfs_stats s = {malloc(((size_t)n + 1) * sizeof *s.extra),
                   malloc(((size_t)n + 1) * sizeof *s.total)};
    uint32_t *rem = malloc(((size_t)n + 1) * sizeof *rem);
    uint32_t *queue = malloc(((size_t)n + 1) * sizeof *queue);
    int rc = -1;
    if (!s.extra || !s.total || !rem || !queue) goto out;
    /* The stats in a topological order (Kahn's); XLA caps the sums (they
     * count shared ancestors once per path) at the node count and at the
     * bytes of all ALLOCs. */
    int64_t all_bytes = 0;
    for (uint32_t u = 0; u < n; u++) {
        rem[u] = g->pred_off[u + 1] - g->pred_off[u];
        if (!rem[u]) queue[tail++] = u;
        if (g->change[u] > 0 && __builtin_add_overflow(all_bytes, g->change[u], &all_bytes))
            all_bytes = INT64_MAX;
    }
    while (head < tail) {
        if (policy_plan_stop(c, head)) { /* cut short: no order */
            rc = POLICY_PLAN_CUT;
            goto out;
        }
        uint32_t u = queue[head++];
        uint32_t users = 0; /* FREEs are no users: XLA frees after the last use */
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
            users += g->kind[g->succ[e]] != NODE_FREE;
        int64_t extra = users ? users - 1 : 0, total = g->change[u] > 0 ? g->change[u] : 0;
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++) {
            uint32_t p = g->pred[e];
            extra += s.extra[p]; /* each at most n: no overflow below 2^32 predecessors */
            if (__builtin_add_overflow(total, s.total[p], &total)) total = INT64_MAX;
            if (extra > n) extra = n;
        }
        s.extra[u] = extra;
        s.total[u] = total < all_bytes ? total : all_bytes;
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
            if (--rem[g->succ[e]] == 0) queue[tail++] = g->succ[e];
    }
    rc = policy_postorder_by(g, c, r, &s, more_urgent);
out:
    if (rc < 0) snprintf(err, errcap, "out of memory ordering %u nodes", n);
    free(s.extra);
    free(s.total);
    free(rem);
    free(queue);
    return rc;
}

static void dfs_why(POLICY_WHY_ARGS)
{
    policy_why_rank("XLA's DFS order", g, r, u, v, nready, out, cap);
}

const policy policy_dfs = {
    .name = "dfs",
    .desc = "XLA's DFS scheduler: post-order from the sinks, predecessors with the most "
            "fan-out and the largest total bytes first",
    .plan = dfs_plan,
    .kind = POLICY_HEURISTIC,
    RANK_KEYS,
    .why = dfs_why};
