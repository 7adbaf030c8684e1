/* whatif_transform.c: the what-if transforms (mixed precision, gradient accumulation, fusion of
 * elementwise ops), each a new graph built node by node through graph_build, renumbered in a
 * topological order that keeps the old Id order where it can. Exports whatif_transform and
 * whatif_elementwise. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/whatif/whatif.h"
#include "sched/graph/graph_build.h"
#include "util/heap.h"

/* tools/graphkit.py's INPLACE_ELEMENTWISE_OPS, as that file lists them (test_whatif.sh reads
 * the list between the two markers and checks that it equals graphkit's). */
/* elementwise-begin */
static const char *const elementwise_ops[] = {
    "relu",        "relu6",
    "leakyrelu",   "leaky_relu",
    "prelu",       "elu",
    "selu",        "celu",
    "gelu",        "silu",
    "mish",        "sigmoid",
    "hardsigmoid", "hardswish",
    "hardtanh",    "tanh",
    "softplus",    "softsign",
    "clip",        "clamp",
    "threshold",   "thresholdedrelu",
    "abs",         "neg",
    "exp",         "log",
    "sqrt",        "rsqrt",
    "reciprocal",  "erf",
    "sin",         "cos",
    "floor",       "ceil",
    "round",       "sign",
    "not",         "logical_not",
    "add",         "sub",
    "mul",         "div",
    "truediv",     "pow",
    "minimum",     "maximum",
    "where",       "and",
    "or",          "xor",
    "logical_and", "logical_or",
    "logical_xor",
    /* elementwise-end */
};

int whatif_elementwise(const char *op)
{
    char key[32];
    if (!strncmp(op, "aten::", 6)) op += 6;
    size_t n = strcspn(op, ".");
    if (n >= sizeof key) return 0;
    for (size_t i = 0; i < n; i++) key[i] = (char)tolower((unsigned char)op[i]);
    key[n] = 0;
    for (size_t i = 0; i < sizeof elementwise_ops / sizeof *elementwise_ops; i++)
        if (!strcmp(key, elementwise_ops[i])) return 1;
    return 0;
}

/* The transform's state over g. */
typedef struct wb {
    const graph *g;
    unsigned what;
    uint32_t k;
    uint32_t *order;  /* [n] node indices by Id */
    uint32_t *pos;    /* [n] place in order */
    uint32_t *crank;  /* [n] a compute node's place among the compute nodes */
    uint32_t *rep;    /* [n] the node a node is folded into (itself when not) */
    uint32_t *next;   /* [n] the next member of a fused group, GRAPH_NONE at its end */
    uint32_t *last;   /* [n] a group's last member (at its rep) */
    uint32_t *writer; /* [nbufs] the first compute node its ALLOC has an edge to */
    uint32_t *nwrite; /* [nbufs] how many compute nodes its ALLOC has an edge to */
    uint32_t *reader; /* [nbufs] a compute node other than its writer that lists it */
    uint32_t *nread;  /* [nbufs] how many such nodes */
    uint8_t *gone;    /* [nbufs] folded away by fusion */
    uint8_t *early;   /* [n] a gradient ALLOC moved to the start (accumulation) */
    uint32_t *seen;   /* [n] stamps of the path search */
    uint32_t *stack;  /* [n] */
    uint32_t stamp;
    uint32_t first;  /* the first compute node in order */
    uint32_t *pairs; /* the new graph's edges, as node index pairs */
    size_t npairs, cappairs;
    uint32_t *newid; /* [n] */
    uint32_t fused;
} wb;

/* g's nodes in a topological order, the least Id first among the ready (the Id order itself
 * when it is one) into order. 0, or -1 out of memory. */
static int topo_order(const graph *g, uint32_t *order, uint32_t *indeg)
{
    heap h;
    if (heap_init(&h, g->n + 1, 0)) return -1;
    for (uint32_t i = 0; i < g->n; i++) {
        indeg[i] = g->pred_off[i + 1] - g->pred_off[i];
        if (!indeg[i]) heap_push(&h, (heap_item){{g->id[i], 0, 0}, i});
    }
    for (uint32_t made = 0; h.len;) {
        uint32_t u = heap_pop(&h).node;
        order[made++] = u;
        for (uint32_t x = g->succ_off[u]; x < g->succ_off[u + 1]; x++)
            if (!--indeg[g->succ[x]])
                heap_push(&h, (heap_item){{g->id[g->succ[x]], 0, 0}, g->succ[x]});
    }
    heap_free(&h);
    return 0;
}

static void wb_free(wb *w)
{
    free(w->order);
    free(w->pos);
    free(w->crank);
    free(w->rep);
    free(w->next);
    free(w->last);
    free(w->writer);
    free(w->nwrite);
    free(w->reader);
    free(w->nread);
    free(w->gone);
    free(w->early);
    free(w->seen);
    free(w->stack);
    free(w->pairs);
    free(w->newid);
}

/* Node orders, the writers and readers of each buffer. */
static int wb_init(wb *w, const graph *g, unsigned what, uint32_t k)
{
    memset(w, 0, sizeof *w);
    w->g = g;
    w->what = what;
    w->k = k;
    size_t n = (size_t)g->n + 1, nb = (size_t)g->nbufs + 1;
    w->order = malloc(n * sizeof *w->order);
    w->pos = malloc(n * sizeof *w->pos);
    w->crank = malloc(n * sizeof *w->crank);
    w->rep = malloc(n * sizeof *w->rep);
    w->next = malloc(n * sizeof *w->next);
    w->last = malloc(n * sizeof *w->last);
    w->writer = malloc(nb * sizeof *w->writer);
    w->nwrite = calloc(nb, sizeof *w->nwrite);
    w->reader = malloc(nb * sizeof *w->reader);
    w->nread = calloc(nb, sizeof *w->nread);
    w->gone = calloc(nb, 1);
    w->early = calloc(n, 1);
    w->seen = calloc(n, sizeof *w->seen);
    w->stack = malloc(n * sizeof *w->stack);
    w->newid = malloc(n * sizeof *w->newid);
    if (!w->order || !w->pos || !w->crank || !w->rep || !w->next || !w->last || !w->writer ||
        !w->nwrite || !w->reader || !w->nread || !w->gone || !w->early || !w->seen || !w->stack ||
        !w->newid)
        return -1;
    for (uint32_t i = 0; i < g->n; i++) {
        w->rep[i] = i;
        w->next[i] = GRAPH_NONE;
    }
    if (topo_order(g, w->order, w->stack)) return -1;
    w->first = GRAPH_NONE;
    for (uint32_t p = 0, c = 0; p < g->n; p++) {
        uint32_t i = w->order[p];
        w->pos[i] = p;
        w->last[i] = i;
        if (g->kind[i] != NODE_COMPUTE) continue;
        w->crank[i] = c++;
        if (w->first == GRAPH_NONE) w->first = i;
    }
    for (uint32_t b = 0; b < g->nbufs; b++) w->writer[b] = w->reader[b] = GRAPH_NONE;
    for (uint32_t p = 0; p < g->n; p++) { /* in order: the first writer is the producer */
        uint32_t i = w->order[p];
        if (g->kind[i] != NODE_ALLOC) continue;
        uint32_t b = g->buf[i];
        for (uint32_t e = g->succ_off[i]; e < g->succ_off[i + 1]; e++) {
            uint32_t v = g->succ[e];
            if (g->kind[v] != NODE_COMPUTE) continue;
            if (w->writer[b] == GRAPH_NONE || w->pos[v] < w->pos[w->writer[b]]) w->writer[b] = v;
            w->nwrite[b]++;
        }
    }
    for (uint32_t p = 0; p < g->n; p++) {
        uint32_t i = w->order[p];
        if (g->kind[i] != NODE_COMPUTE) continue;
        for (uint32_t a = g->in_off[i]; a < g->in_off[i + 1]; a++) {
            uint32_t b = graph_find_buf(g, g->inputs[a]);
            if (b == GRAPH_NONE || w->writer[b] == i || w->reader[b] == i) continue;
            w->reader[b] = i;
            w->nread[b]++;
        }
    }
    return 0;
}

/* Whether an edge u -> v of g is left out of the new graph: v a gradient moved to the start,
 * or v the ALLOC of a buffer that u's group writes (an order among the group's own). */
static int edge_dropped(const wb *w, uint32_t u, uint32_t v)
{
    const graph *g = w->g;
    if (w->early[v]) return 1;
    if (g->kind[v] != NODE_ALLOC) return 0;
    uint32_t p = w->writer[g->buf[v]];
    return p != GRAPH_NONE && w->rep[p] == w->rep[u] && g->kind[u] == NODE_COMPUTE;
}

/* Whether node i goes (the ALLOC or FREE of a buffer folded away). */
static int removed(const wb *w, uint32_t i)
{
    return w->g->kind[i] != NODE_COMPUTE && w->gone[w->g->buf[i]];
}

/* Whether v is the ALLOC of a buffer that e writes: e's group will take the edge's place. */
static int alloc_of(const wb *w, uint32_t v, uint32_t e)
{
    return w->g->kind[v] == NODE_ALLOC && w->writer[w->g->buf[v]] == e;
}

/* Whether E can be reached from group r other than straight from a member: through nodes
 * between r's first member and E in order, not members, not dropped edges. */
static int other_path(wb *w, uint32_t r, uint32_t e)
{
    const graph *g = w->g;
    uint32_t top = 0, lo = w->pos[r], hi = w->pos[e];
    if (++w->stamp == 0) {
        memset(w->seen, 0, (size_t)g->n * sizeof *w->seen);
        w->stamp = 1;
    }
    for (uint32_t m = r; m != GRAPH_NONE; m = w->next[m])
        for (uint32_t x = g->succ_off[m]; x < g->succ_off[m + 1]; x++) {
            uint32_t v = g->succ[x];
            if (v == e || w->rep[v] == r || edge_dropped(w, m, v) || alloc_of(w, v, e)) continue;
            if (w->pos[v] > lo && w->pos[v] < hi && w->seen[v] != w->stamp) {
                w->seen[v] = w->stamp;
                w->stack[top++] = v;
            }
        }
    while (top) {
        uint32_t u = w->stack[--top];
        for (uint32_t x = g->succ_off[u]; x < g->succ_off[u + 1]; x++) {
            uint32_t v = g->succ[x];
            if (v == e) return 1;
            if (w->rep[v] == r || edge_dropped(w, u, v) || alloc_of(w, v, e)) continue;
            if (w->pos[v] > lo && w->pos[v] < hi && w->seen[v] != w->stamp) {
                w->seen[v] = w->stamp;
                w->stack[top++] = v;
            }
        }
    }
    return 0;
}

/* Whether buffer b, read by e, folds away with e joining b's writer's group. */
static int can_fold(wb *w, uint32_t b, uint32_t e)
{
    const graph *g = w->g;
    uint32_t p = w->writer[b];
    int cat = graph_buf_category(g, b);
    if (p == GRAPH_NONE || p == e || w->nwrite[b] != 1 || w->nread[b] != 1 || w->reader[b] != e)
        return 0;
    if (g->buf_free[b] == GRAPH_NONE || w->gone[b]) return 0;
    if (cat != GRAPH_CAT_NONE && cat != GRAPH_CAT_ACTIVATION && cat != GRAPH_CAT_WORKSPACE &&
        cat != GRAPH_CAT_GRADIENT)
        return 0;
    const char *op = graph_op(g, p);
    if (!strcmp(op, "Input") || !strcmp(op, "Output")) return 0;
    uint32_t r = w->rep[p];
    if (w->crank[e] != w->crank[w->last[r]] + 1) return 0;
    return !other_path(w, r, e);
}

static void fuse(wb *w)
{
    const graph *g = w->g;
    for (uint32_t q = 0; q < g->n; q++) {
        uint32_t e = w->order[q];
        if (g->kind[e] != NODE_COMPUTE || !whatif_elementwise(graph_op(g, e))) continue;
        for (uint32_t a = g->in_off[e]; a < g->in_off[e + 1]; a++) {
            uint32_t b = graph_find_buf(g, g->inputs[a]);
            if (b == GRAPH_NONE || !can_fold(w, b, e)) continue;
            uint32_t r = w->rep[w->writer[b]];
            w->next[w->last[r]] = e;
            w->last[r] = e;
            w->rep[e] = r;
            w->gone[b] = 1;
            w->fused++;
            break;
        }
    }
}

static int add_pair(wb *w, uint32_t u, uint32_t v)
{
    if (w->npairs == w->cappairs) {
        size_t cap = w->cappairs ? 2 * w->cappairs : 1024;
        uint32_t *p = realloc(w->pairs, 2 * cap * sizeof *p);
        if (!p) return -1;
        w->pairs = p;
        w->cappairs = cap;
    }
    w->pairs[2 * w->npairs] = u;
    w->pairs[2 * w->npairs + 1] = v;
    w->npairs++;
    return 0;
}

/* The edge u -> v in the new graph, through the nodes that go (to their successors). */
static int edge_to(wb *w, uint32_t u, uint32_t v)
{
    const graph *g = w->g;
    if (removed(w, v)) {
        for (uint32_t x = g->succ_off[v]; x < g->succ_off[v + 1]; x++)
            if (edge_to(w, u, g->succ[x])) return -1;
        return 0;
    }
    if (w->rep[u] == w->rep[v] || edge_dropped(w, u, v)) return 0;
    return add_pair(w, w->rep[u], w->rep[v]);
}

/* The new graph's edges as node pairs: g's mapped, and each early gradient's to the first
 * compute node. */
static int collect_edges(wb *w)
{
    const graph *g = w->g;
    for (uint32_t u = 0; u < g->n; u++) {
        if (removed(w, u)) continue;
        for (uint32_t x = g->succ_off[u]; x < g->succ_off[u + 1]; x++)
            if (edge_to(w, u, g->succ[x])) return -1;
        if (w->early[u] && w->writer[g->buf[u]] != w->first && w->first != GRAPH_NONE &&
            add_pair(w, u, w->rep[w->first]))
            return -1;
    }
    return 0;
}

/* New Ids in Kahn's order, the least old position first (early gradients before all). */
static int number(wb *w, uint32_t *count, char *err, size_t errcap)
{
    const graph *g = w->g;
    uint32_t *indeg = calloc((size_t)g->n + 1, sizeof *indeg);
    uint32_t *off = calloc((size_t)g->n + 2, sizeof *off), *adj = NULL;
    heap h;
    int bad = !indeg || !off || heap_init(&h, g->n + 1, 0);
    if (!bad) {
        for (size_t e = 0; e < w->npairs; e++) {
            indeg[w->pairs[2 * e + 1]]++;
            off[w->pairs[2 * e]]++;
        }
        for (uint32_t i = 0; i < g->n; i++) off[i + 1] += off[i];
        bad = !(adj = malloc((w->npairs + 1) * sizeof *adj));
    }
    if (bad) {
        free(indeg);
        free(off);
        free(adj);
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    for (size_t e = 0; e < w->npairs; e++) adj[--off[w->pairs[2 * e]]] = w->pairs[2 * e + 1];
    uint32_t live = 0, made = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        w->newid[i] = GRAPH_NONE;
        if (w->rep[i] != i || removed(w, i)) continue;
        live++;
        int64_t key = w->early[i] ? (int64_t)w->pos[i] - (int64_t)g->n : (int64_t)w->pos[i];
        if (!indeg[i]) heap_push(&h, (heap_item){{key, 0, 0}, i});
    }
    while (h.len) {
        uint32_t u = heap_pop(&h).node;
        w->newid[u] = made++;
        for (uint32_t x = off[u]; x < off[u + 1]; x++)
            if (!--indeg[adj[x]]) {
                uint32_t v = adj[x];
                int64_t key = w->early[v] ? (int64_t)w->pos[v] - (int64_t)g->n : (int64_t)w->pos[v];
                heap_push(&h, (heap_item){{key, 0, 0}, v});
            }
    }
    heap_free(&h);
    free(indeg);
    free(off);
    free(adj);
    *count = made;
    if (made == live) return 0;
    snprintf(err, errcap, "the transformed graph has a cycle (%u of %u nodes ordered)", made, live);
    return -1;
}

/* Buffer b's Size in the new graph. */
static int64_t new_size(const wb *w, uint32_t b)
{
    const graph *g = w->g;
    int64_t s = g->buf_size[b];
    int cat = graph_buf_category(g, b);
    uint32_t p = w->writer[b];
    int opt = p != GRAPH_NONE && graph_phase(g, p) == GRAPH_PHASE_OPTIMIZER;
    if ((w->what & WHATIF_MIXED) && (cat == GRAPH_CAT_ACTIVATION || cat == GRAPH_CAT_GRADIENT ||
                                     (cat == GRAPH_CAT_WORKSPACE && !opt)))
        s = s / 2 + s % 2;
    if ((w->what & WHATIF_ACCUM) && w->k > 1 &&
        (cat == GRAPH_CAT_ACTIVATION || cat == GRAPH_CAT_WORKSPACE || cat == GRAPH_CAT_INPUT))
        s = s / w->k + (s % w->k != 0);
    return s;
}

/* Node i's Latency in the new graph, NAN when it has none. */
static double new_latency(const wb *w, uint32_t i)
{
    const graph *g = w->g;
    if (!g->latency || isnan(g->latency[i])) return (double)NAN;
    double l = g->latency[i];
    if ((w->what & WHATIF_ACCUM) && w->k > 1 && graph_phase(g, i) != GRAPH_PHASE_OPTIMIZER)
        l /= w->k;
    return l;
}

/* The spec of the node that group (or node) r becomes; its Inputs in *in (n of them) and
 * the fused Name in name. */
static void node_spec(const wb *w, uint32_t r, graph_node_spec *s, int64_t *in, size_t *nin,
                      char *name, size_t cap)
{
    const graph *g = w->g;
    memset(s, 0, sizeof *s);
    s->id = w->newid[r];
    s->kind = g->kind[r];
    s->op = graph_op(g, r);
    s->name = g->name[r] ? g->strpool + g->name[r] : NULL;
    s->stream = g->stream ? g->stream[r] : -1;
    s->tag = g->tag && g->kind[r] != NODE_FREE ? g->tag[r] : 0;
    s->rerun = g->rerun ? g->rerun[r] : 0;
    if (g->kind[r] != NODE_COMPUTE) {
        s->bufid = g->buf_id[g->buf[r]];
        s->size = g->kind[r] == NODE_ALLOC ? new_size(w, g->buf[r]) : -1;
        return;
    }
    size_t n = 0, len = 0;
    double lat = 0;
    for (uint32_t m = r; m != GRAPH_NONE; m = w->next[m]) {
        double l = new_latency(w, m);
        if (!isnan(l)) {
            s->has_latency = 1;
            lat += l;
        }
        if (g->rerun && g->rerun[m] == GRAPH_RERUN_NO) s->rerun = GRAPH_RERUN_NO;
        if (w->next[r] != GRAPH_NONE && len < cap)
            len += (size_t)snprintf(name + len, cap - len, "%s%s", m == r ? "" : "+",
                                    graph_name(g, m));
        for (uint32_t a = g->in_off[m]; a < g->in_off[m + 1]; a++) {
            uint32_t b = graph_find_buf(g, g->inputs[a]);
            if (b != GRAPH_NONE && w->gone[b]) continue;
            size_t j = 0;
            while (j < n && in[j] != g->inputs[a]) j++;
            if (j == n) in[n++] = g->inputs[a];
        }
    }
    s->latency = lat;
    if (w->next[r] != GRAPH_NONE) s->name = name;
    s->ninputs = n;
    *nin = n;
}

/* The new graph through the builder: each surviving node in its new order, then the edges. */
static graph *emit(wb *w, uint32_t count, char *err, size_t errcap)
{
    const graph *g = w->g;
    uint32_t *at = malloc(((size_t)count + 1) * sizeof *at);
    size_t maxin = 1;
    for (uint32_t i = 0; i < g->n; i++) maxin += g->in_off[i + 1] - g->in_off[i];
    int64_t *in = malloc(maxin * sizeof *in);
    diag d;
    diag_init(&d, g->source);
    graph_builder b;
    graph_build_init(&b, &d, GRAPH_MAX_NODES);
    graph *out = NULL;
    if (!at || !in) goto done;
    for (uint32_t i = 0; i < g->n; i++)
        if (w->newid[i] != GRAPH_NONE) at[w->newid[i]] = i;
    for (uint32_t j = 0; j < count; j++) {
        graph_node_spec s;
        char name[256];
        size_t nin = 0;
        uint32_t dup, other, r = at[j];
        int64_t *dst;
        node_spec(w, r, &s, in, &nin, name, sizeof name);
        if (graph_build_node(&b, &s, j, &dup, &dst) == GRAPH_NONE) goto done;
        if (nin) memcpy(dst, in, nin * sizeof *in);
        if (s.kind != NODE_COMPUTE &&
            graph_build_buffer(&b, b.n - 1, s.bufid, s.size, &other) != GRAPH_BUILD_OK)
            goto done;
    }
    for (size_t e = 0; e < w->npairs; e++)
        if (graph_build_edge(&b, w->newid[w->pairs[2 * e]], w->newid[w->pairs[2 * e + 1]]))
            goto done;
    if (!(out = graph_build_take(&b, g->source))) goto done;
    graph_build_free_changes(out);
    if (graph_build_edges(&b, out) || b.oom) {
        graph_free(out);
        out = NULL;
    }
done:
    if (!out) snprintf(err, errcap, "out of memory building the transformed graph");
    graph_build_free(&b);
    diag_free(&d);
    free(at);
    free(in);
    return out;
}

int whatif_transform(const graph *g, unsigned what, uint32_t k, graph **out, uint32_t *fused,
                     char *err, size_t errcap)
{
    wb w;
    uint32_t count = 0;
    *out = NULL;
    if (fused) *fused = 0;
    if (wb_init(&w, g, what, k)) {
        wb_free(&w);
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    if (what & WHATIF_FUSE) fuse(&w);
    if ((what & WHATIF_ACCUM) && k > 1)
        for (uint32_t i = 0; i < g->n; i++)
            w.early[i] = g->kind[i] == NODE_ALLOC && graph_category(g, i) == GRAPH_CAT_GRADIENT;
    int rc = -1;
    if (collect_edges(&w)) snprintf(err, errcap, "out of memory");
    else if (!number(&w, &count, err, errcap) && (*out = emit(&w, count, err, errcap))) rc = 0;
    if (fused) *fused = w.fused;
    wb_free(&w);
    return rc;
}
