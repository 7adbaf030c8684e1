/* graph_write.c: the one writer of memtris JSON graphs (graph_write.h): a source's nodes one a
 * line in its order of keys, then its edges eight a line or all on one, through util's jw a
 * megabyte at a time; and the source that reads a graph. Exports graph_write and
 * graph_write_source. */
#include "graph_write.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "util/jw.h"

#define OUT_CAP ((size_t)1 << 20)

static void id_list(jw *w, const char *key, const int64_t *v, uint32_t n)
{
    jw_key(w, key);
    jw_array(w);
    for (uint32_t k = 0; k < n; k++) jw_int(w, v[k]);
    jw_array_end(w);
}

/* One node as an object of Nodes, its keys in the order keys (GRAPH_KEYS_*) says. */
static void node_json(jw *w, const graph_wnode *v, int keys)
{
    int gen = keys == GRAPH_KEYS_GEN, name_last = gen && v->kind != NODE_COMPUTE;
    jw_object(w);
    jw_kint(w, "Id", v->id);
    jw_kstring(w, "Op", v->op);
    if (v->name && !name_last) jw_kstring(w, "Name", v->name);
    if (v->kind != NODE_COMPUTE) {
        if (v->kind == NODE_ALLOC) jw_kint(w, "Size", v->size);
        jw_kint(w, "BufId", v->bufid);
        if (v->name && name_last) jw_kstring(w, "Name", v->name);
        if (v->kind == NODE_ALLOC && v->category)
            jw_kstring(w, "Category", graph_category_word(v->category));
        jw_object_end(w);
        return;
    }
    if (gen && v->phase) jw_kstring(w, "Phase", graph_phase_word(v->phase));
    if (gen || v->ninputs) id_list(w, "Inputs", v->inputs, v->ninputs);
    if (v->ninplace) id_list(w, "InPlace", v->inplace, v->ninplace);
    if (v->latency) {
        jw_key(w, "Latency");
        jw_raw(w, v->latency);
    }
    if (v->stream >= 0) jw_kint(w, "Stream", v->stream);
    if (!gen && v->phase) jw_kstring(w, "Phase", graph_phase_word(v->phase));
    if (v->rerun) jw_kbool(w, "Rerun", v->rerun == GRAPH_RERUN_YES);
    jw_object_end(w);
}

int graph_write_source(const graph_wsource *s, outbuf_write_fn write, void *ctx, char *err,
                       size_t errcap)
{
    outbuf o;
    if (outbuf_open(&o, OUT_CAP, write, ctx)) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    jw w;
    jw_init(&w, &o);
    jw_object(&w);
    jw_key(&w, "Nodes");
    jw_array(&w);
    graph_wnode v;
    for (uint32_t i = 0; i < s->nodes && !o.failed; i++) {
        jw_break(&w, s->indent ? "\n  " : "\n");
        s->node(s->ctx, i, &v);
        node_json(&w, &v, s->keys);
    }
    jw_break(&w, "\n");
    jw_array_end(&w);
    jw_break(&w, "\n");
    jw_key(&w, "Edges");
    jw_array(&w);
    int64_t from, to;
    for (size_t e = 0; !o.failed && s->edge(s->ctx, &from, &to); e++) {
        if (e % 8 == 0 && !s->edges_one_line) jw_break(&w, "\n");
        jw_pair(&w, from, to);
    }
    if (!s->edges_one_line) jw_break(&w, "\n");
    jw_array_end(&w);
    jw_object_end(&w);
    jw_end(&w);
    if (outbuf_close(&o)) {
        snprintf(err, errcap, "write failed");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ a graph as the source */

typedef struct graph_src {
    const graph *g;
    int64_t *inplace; /* room for one node's InPlace (NULL when no node has one) */
    char latency[32]; /* the last node's Latency */
    uint32_t u, k;    /* the next edge: succ[k], a successor of node u */
} graph_src;

static void graph_node(void *ctx, uint32_t i, graph_wnode *v)
{
    graph_src *s = ctx;
    const graph *g = s->g;
    *v = (graph_wnode){.id = g->id[i],
                       .kind = g->kind[i],
                       .op = graph_op(g, i),
                       .name = g->name[i] ? g->strpool + g->name[i] : NULL,
                       .stream = -1};
    if (g->kind[i] != NODE_COMPUTE) {
        uint32_t x = g->buf[i];
        v->size = g->buf_size[x];
        v->bufid = g->buf_id[x];
        v->category = g->kind[i] == NODE_ALLOC ? graph_buf_category(g, x) : 0;
        return;
    }
    v->inputs = g->inputs + g->in_off[i];
    v->ninputs = g->in_off[i + 1] - g->in_off[i];
    v->inplace = s->inplace;
    for (uint32_t k = 0; s->inplace && k < v->ninputs; k++)
        if (graph_input_inplace(g, i, k)) s->inplace[v->ninplace++] = v->inputs[k];
    if (g->latency && !isnan(g->latency[i])) {
        snprintf(s->latency, sizeof s->latency, "%.17g", g->latency[i]);
        v->latency = s->latency;
    }
    if (g->stream && g->stream[i] >= 0) v->stream = g->stream[i];
    v->phase = graph_phase(g, i);
    v->rerun = graph_rerun(g, i);
}

static int graph_edge(void *ctx, int64_t *from, int64_t *to)
{
    graph_src *s = ctx;
    const graph *g = s->g;
    while (s->u < g->n && s->k == g->succ_off[s->u + 1]) s->u++;
    if (s->u >= g->n) return 0;
    *from = g->id[s->u];
    *to = g->id[g->succ[s->k++]];
    return 1;
}

int graph_write(const graph *g, outbuf_write_fn write, void *ctx, char *err, size_t errcap)
{
    graph_src s = {.g = g};
    if (g->inplace) {
        uint32_t most = 0;
        for (uint32_t i = 0; i < g->n; i++)
            if (g->in_off[i + 1] - g->in_off[i] > most) most = g->in_off[i + 1] - g->in_off[i];
        if (!(s.inplace = malloc(((size_t)most + 1) * sizeof *s.inplace))) {
            snprintf(err, errcap, "out of memory");
            return -1;
        }
    }
    graph_wsource src = {
        .nodes = g->n, .keys = GRAPH_KEYS_PLAIN, .node = graph_node, .edge = graph_edge, .ctx = &s};
    int rc = graph_write_source(&src, write, ctx, err, errcap);
    free(s.inplace);
    return rc;
}
