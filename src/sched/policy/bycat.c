/* bycat.c: a run's live bytes by Category, after a step, after every step and at
 * the peak (bycat.h). Each is one walk of the order adding each node's change to
 * its buffer's category. */
#include "bycat.h"
#include <string.h>

int bycat_any(const graph *g)
{
    if (!g->tag) return 0;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (graph_buf_category(g, b) != GRAPH_CAT_NONE) return 1;
    return 0;
}

static void add_step(const graph *g, uint32_t u, int64_t live[GRAPH_NCAT])
{
    if (g->kind[u] == NODE_COMPUTE || g->buf[u] == GRAPH_NONE) return;
    live[graph_buf_category(g, g->buf[u])] += g->change[u];
}

void run_live_by_category(const graph *g, const run *r, uint32_t s, int64_t out[GRAPH_NCAT])
{
    memset(out, 0, GRAPH_NCAT * sizeof *out);
    for (uint32_t t = 0; t <= s && t < r->n; t++) add_step(g, r->order[t], out);
}

void run_live_by_category_all(const graph *g, const run *r, int64_t *out)
{
    int64_t live[GRAPH_NCAT] = {0};
    for (uint32_t t = 0; t < r->n; t++) {
        add_step(g, r->order[t], live);
        memcpy(out + (size_t)t * GRAPH_NCAT, live, sizeof live);
    }
}

void run_peak_by_category(const graph *g, const run *r, int64_t out[GRAPH_NCAT])
{
    if (r->peak_step == 0) {
        memset(out, 0, GRAPH_NCAT * sizeof *out);
        return;
    }
    run_live_by_category(g, r, r->peak_step - 1, out);
}

int bycat_order(const int64_t bytes[GRAPH_NCAT], int order[GRAPH_NCAT])
{
    int k = 0;
    for (int c = 0; c < GRAPH_NCAT; c++) {
        if (bytes[c] <= 0) continue;
        int j = k++;
        for (; j > 0 && bytes[order[j - 1]] < bytes[c]; j--) order[j] = order[j - 1];
        order[j] = c;
    }
    return k;
}

const char *bycat_word(int cat)
{
    return cat == GRAPH_CAT_NONE ? "other" : graph_category_word(cat);
}
