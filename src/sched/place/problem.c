/* problem.c: a placement problem written as MiniMalloc's CSV or as a chain
 * graph of ALLOC and FREE events in time order (and that graph loaded), and a
 * plan made into a problem. Exports problem_* but the reader's. */
#include "problem.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/graph/load.h"
#include "util/jw.h"
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

int problem_write_graph(const problem *p, problem_write_fn write, void *ctx, char *err,
                        size_t errcap)
{
    size_t ne = (size_t)p->n * 2;
    event *ev = malloc((ne + 1) * sizeof *ev);
    outbuf ob, *o = &ob;
    if (!ev || outbuf_open(o, OUT_CAP, write, ctx)) {
        free(ev);
        snprintf(err, errcap, "out of memory writing %u buffers", p->n);
        return -1;
    }
    for (uint32_t i = 0; i < p->n; i++) {
        ev[2 * i] = (event){p->lower[i], i, 1};
        ev[2 * i + 1] = (event){p->upper[i], i, 0};
    }
    qsort(ev, ne, sizeof *ev, by_time);
    jw w;
    jw_init(&w, o);
    jw_object(&w);
    jw_key(&w, "Nodes");
    jw_array(&w);
    for (size_t k = 0; k < ne && !o->failed; k++) {
        uint32_t i = ev[k].row;
        jw_break(&w, "\n  ");
        jw_object(&w);
        jw_kint(&w, "Id", (int64_t)k);
        jw_kstring(&w, "Op", ev[k].alloc ? "ALLOC" : "FREE");
        if (ev[k].alloc) jw_kint(&w, "Size", p->size[i]);
        jw_kint(&w, "BufId", i);
        if (ev[k].alloc) jw_kstring(&w, "Name", problem_id(p, i));
        jw_object_end(&w);
    }
    jw_break(&w, "\n");
    jw_array_end(&w);
    jw_break(&w, "\n");
    jw_key(&w, "Edges");
    jw_array(&w);
    for (size_t k = 1; k < ne && !o->failed; k++) {
        jw_array(&w);
        jw_int(&w, (int64_t)k - 1);
        jw_int(&w, (int64_t)k);
        jw_array_end(&w);
    }
    jw_array_end(&w);
    jw_object_end(&w);
    outbuf_char(o, '\n');
    int failed = outbuf_close(o);
    free(ev);
    if (failed) snprintf(err, errcap, "write failed");
    return failed ? -1 : 0;
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
