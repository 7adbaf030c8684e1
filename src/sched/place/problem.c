/* problem.c: a placement problem written as MiniMalloc's CSV or as a chain
 * graph of ALLOC and FREE events in time order (through the graph writer,
 * sched/graph/graph_write.h; and that graph loaded), and a plan made into a
 * problem. Exports problem_* but the reader's. */
#include "problem.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/graph/graph_write.h"
#include "sched/graph/load.h"
#include "util/outbuf.h"

const char *problem_id(const problem *p, uint32_t i) { return p->pool + p->id[i]; }

void problem_free(problem *p)
{
    if (!p) return;
    free(p->pool);
    free(p->id);
    free(p->lower);
    free(p->upper);
    free(p->size);
    free(p->align);
    free(p->offset);
    free(p);
}

/* --------------------------------------------------------- buffered output */

#define OUT_CAP ((size_t)1 << 16)

static void out_i64(outbuf *o, const char *before, int64_t v)
{
    outbuf_str(o, before);
    outbuf_i64(o, v);
}

#define out_str outbuf_str

/* ------------------------------------------------------------------- CSV */

int problem_write_csv(const problem *p, const int64_t *offset, problem_write_fn write, void *ctx)
{
    outbuf ob, *o = &ob;
    if (outbuf_open(o, OUT_CAP, write, ctx)) return -1;
    out_str(o, "id,lower,upper,size");
    if (p->align) out_str(o, ",alignment");
    if (offset) out_str(o, ",offset");
    out_str(o, "\n");
    for (uint32_t i = 0; i < p->n && !o->failed; i++) {
        out_str(o, problem_id(p, i));
        out_i64(o, ",", p->lower[i]);
        out_i64(o, ",", p->upper[i]);
        out_i64(o, ",", p->size[i]);
        if (p->align) out_i64(o, ",", p->align[i]);
        if (offset) out_i64(o, ",", offset[i]);
        out_str(o, "\n");
    }
    return outbuf_close(o);
}

/* ----------------------------------------------------------------- graph */

typedef struct event {
    int64_t t;
    uint32_t row;
    uint32_t alloc; /* 0: its FREE (first at a time), 1: its ALLOC */
} event;

static int by_time(const void *x, const void *y)
{
    const event *a = x, *b = y;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    if (a->alloc != b->alloc) return a->alloc < b->alloc ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

/* The chain as the graph writer's source: node k is event k, edges join each to the next. */
typedef struct chain_src {
    const problem *p;
    const event *ev;
    size_t ne, k; /* events; the next edge's head */
} chain_src;

static void chain_node(void *ctx, uint32_t k, graph_wnode *v)
{
    const chain_src *s = ctx;
    uint32_t i = s->ev[k].row;
    int alloc = (int)s->ev[k].alloc;
    *v = (graph_wnode){.id = k,
                       .kind = alloc ? NODE_ALLOC : NODE_FREE,
                       .op = alloc ? "ALLOC" : "FREE",
                       .name = alloc ? problem_id(s->p, i) : NULL,
                       .size = s->p->size[i],
                       .bufid = i,
                       .stream = -1};
}

static int chain_edge(void *ctx, int64_t *from, int64_t *to)
{
    chain_src *s = ctx;
    if (s->k >= s->ne) return 0;
    *from = (int64_t)s->k - 1;
    *to = (int64_t)s->k++;
    return 1;
}

int problem_write_graph(const problem *p, problem_write_fn write, void *ctx, char *err,
                        size_t errcap)
{
    size_t ne = (size_t)p->n * 2;
    event *ev = malloc((ne + 1) * sizeof *ev);
    if (!ev) {
        snprintf(err, errcap, "out of memory writing %u buffers", p->n);
        return -1;
    }
    for (uint32_t i = 0; i < p->n; i++) {
        ev[2 * i] = (event){p->lower[i], i, 1};
        ev[2 * i + 1] = (event){p->upper[i], i, 0};
    }
    qsort(ev, ne, sizeof *ev, by_time);
    chain_src s = {.p = p, .ev = ev, .ne = ne, .k = 1};
    graph_wsource src = {.nodes = (uint32_t)ne,
                         .keys = GRAPH_KEYS_GEN,
                         .indent = 1,
                         .edges_one_line = 1,
                         .node = chain_node,
                         .edge = chain_edge,
                         .ctx = &s};
    int rc = graph_write_source(&src, write, ctx, err, errcap);
    free(ev);
    if (rc && !strcmp(err, "out of memory")) /* say of what, as ever */
        snprintf(err, errcap, "out of memory writing %u buffers", p->n);
    return rc;
}

typedef struct membuf {
    char *p;
    size_t len, cap;
} membuf;

static int mem_write(void *ctx, const char *data, size_t len)
{
    membuf *m = ctx;
    if (m->len + len + 1 > m->cap) {
        size_t cap = m->cap ? m->cap : 1 << 16;
        while (cap < m->len + len + 1) cap *= 2;
        char *a = realloc(m->p, cap);
        if (!a) return -1;
        m->p = a;
        m->cap = cap;
    }
    memcpy(m->p + m->len, data, len);
    m->len += len;
    return 0;
}

graph *problem_graph(const problem *p, diag *d)
{
    membuf m = {0};
    char err[128];
    if (problem_write_graph(p, mem_write, &m, err, sizeof err)) {
        free(m.p);
        diag_add(d, DIAG_ERROR, DC_LIMIT, 0, 0, "out of memory building the graph of %u buffers",
                 p->n);
        return NULL;
    }
    graph *g = load_buffer(m.p, m.len, d->source, d, NULL, NULL);
    free(m.p);
    /* The problem's own times, for the placers that measure lifetimes
     * (exact's orders): a step is one event, a time may be far longer. */
    if (g && (g->time = malloc(((size_t)g->n + 1) * sizeof *g->time)) != NULL) {
        for (uint32_t i = 0; i < p->n; i++) {
            uint32_t b = graph_find_buf(g, i);
            if (b == GRAPH_NONE) continue;
            g->time[g->buf_alloc[b]] = p->lower[i];
            if (g->buf_free[b] != GRAPH_NONE) g->time[g->buf_free[b]] = p->upper[i];
        }
    }
    return g;
}

/* ------------------------------------------------------------ from a plan */

problem *problem_from_plan(const graph *g, const lifetimes *lt, const placement *pl,
                           const uint32_t *bufs)
{
    size_t n = g->nbufs;
    problem *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->max_align = 1;
    p->pool = malloc(n * 21 + 1);
    p->id = malloc((n + 1) * sizeof *p->id);
    p->lower = malloc((n + 1) * sizeof *p->lower);
    p->upper = malloc((n + 1) * sizeof *p->upper);
    p->size = malloc((n + 1) * sizeof *p->size);
    p->offset = malloc((n + 1) * sizeof *p->offset);
    if (!p->pool || !p->id || !p->lower || !p->upper || !p->size || !p->offset) {
        problem_free(p);
        return NULL;
    }
    size_t plen = 0;
    for (uint32_t i = 0; i < g->nbufs; i++) {
        uint32_t b = bufs[i];
        p->id[i] = plen;
        plen += (size_t)snprintf(p->pool + plen, 21, "%" PRId64, g->buf_id[b]) + 1;
        p->lower[i] = lt->alloc_step[b];
        p->upper[i] = lt->free_step[b];
        p->size[i] = place_span(g->buf_size[b], pl->align);
        p->offset[i] = pl->offset[b];
    }
    p->n = g->nbufs;
    return p;
}
