/* graph.c: freeing and simple lookups on the immutable graph. */
#include "graph.h"
#include <stdlib.h>
#include <string.h>

void graph_free(graph *g)
{
    if (!g) return;
    free(g->source);
    free(g->id);
    free(g->change);
    free(g->kind);
    free(g->buf);
    free(g->op);
    free(g->name);
    free(g->succ_off);
    free(g->succ);
    free(g->pred_off);
    free(g->pred);
    free(g->in_off);
    free(g->inputs);
    free(g->latency);
    free(g->stream);
    free(g->buf_id);
    free(g->buf_size);
    free(g->buf_alloc);
    free(g->buf_free);
    for (uint32_t i = 0; i < g->nops; i++) free(g->ops[i]);
    free(g->ops);
    free(g->strpool);
    imap_free(&g->ids);
    imap_free(&g->bufids);
    free(g);
}

uint32_t graph_find(const graph *g, int64_t id)
{
    uint32_t v = imap_get(&g->ids, id);
    return v == IMAP_NONE ? GRAPH_NONE : v;
}

uint32_t graph_find_buf(const graph *g, int64_t bufid)
{
    uint32_t v = imap_get(&g->bufids, bufid);
    return v == IMAP_NONE ? GRAPH_NONE : v;
}

const char *graph_op(const graph *g, uint32_t i) { return g->ops[g->op[i]]; }

const char *graph_name(const graph *g, uint32_t i)
{
    return g->name[i] ? g->strpool + g->name[i] : graph_op(g, i);
}

const char *graph_kind_word(int kind)
{
    switch (kind) {
    case NODE_FREE: return "FREE";
    case NODE_ALLOC: return "ALLOC";
    default: return "compute";
    }
}

const char *graph_label(const graph *g, uint32_t i)
{
    return g->kind[i] == NODE_COMPUTE ? graph_name(g, i) : graph_kind_word(g->kind[i]);
}
