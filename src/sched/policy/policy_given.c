/* policy_given.c: policy "given", the graph's own order: ascending Id, which the exporters
 * write in the framework's execution order (PyTorch's eager order, ONNX's node order), so
 * that the other policies can be set beside what the framework does. A graph whose Ids are
 * not a topological order (an edge from a larger Id to a smaller one) is refused, naming the
 * edge. Exports policy_given. */
#define _GNU_SOURCE
#include "policy_internal.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct by_id_ctx {
    const graph *g;
} by_id_ctx;

static int by_id(const void *a, const void *b, void *ctx)
{
    const graph *g = ((by_id_ctx *)ctx)->g;
    int64_t x = g->id[*(const uint32_t *)a], y = g->id[*(const uint32_t *)b];
    return (x > y) - (x < y);
}

static int given_plan(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap)
{
    (void)c;
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
            if (g->id[g->succ[e]] < g->id[u]) {
                snprintf(err, errcap,
                         "policy given: the graph's order (ascending Id) is not a topological "
                         "order: the edge [%" PRId64 ", %" PRId64 "] runs node %" PRId64
                         " before node %" PRId64 "; only a graph whose every edge goes from a "
                         "smaller Id to a larger one has a given order",
                         g->id[u], g->id[g->succ[e]], g->id[u], g->id[g->succ[e]]);
                return -1;
            }
    uint32_t *by = malloc(((size_t)g->n + 1) * sizeof *by);
    if (!by) {
        snprintf(err, errcap, "out of memory ordering %u nodes by Id", g->n);
        return -1;
    }
    for (uint32_t i = 0; i < g->n; i++) by[i] = i;
    by_id_ctx bc = {g};
    qsort_r(by, g->n, sizeof *by, by_id, &bc);
    for (uint32_t s = 0; s < g->n; s++) r->rank[by[s]] = s;
    free(by);
    return 0;
}

static void given_why(POLICY_WHY_ARGS)
{
    policy_why_rank("the graph's own order (ascending Id)", g, r, u, v, nready, out, cap);
}

const policy policy_given = {
    .name = "given",
    .desc = "the graph's own order (ascending Id): the framework's, as exported",
    .plan = given_plan,
    .kind = POLICY_BASELINE,
    RANK_KEYS,
    .why = given_why};
