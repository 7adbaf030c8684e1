/* gen_json.c: writes a generated graph as memtris JSON through the caller's
 * callback, a megabyte at a time (Nodes in Id order, then Edges). Exports
 * gen_emit and gen_write. */
#include "gen.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen_internal.h"
#include "graph.h"

#define OUT_CAP   ((size_t)1 << 20)
#define OUT_SLACK 256 /* room kept for one item: a name is < 96 bytes */

typedef struct outbuf {
    char *p;
    size_t len;
    gen_write_fn write;
    void *ctx;
    int failed;
} outbuf;

static void out_flush(outbuf *o)
{
    if (o->len && !o->failed && o->write(o->ctx, o->p, o->len)) o->failed = 1;
    o->len = 0;
}

/* Ensures room for one item (OUT_SLACK bytes). */
static void out_room(outbuf *o)
{
    if (o->len + OUT_SLACK > OUT_CAP) out_flush(o);
}

static void out_str(outbuf *o, const char *s)
{
    size_t l = strlen(s);
    memcpy(o->p + o->len, s, l);
    o->len += l;
}

static void out_u64(outbuf *o, uint64_t v)
{
    char t[20];
    int k = 0;
    do {
        t[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k) o->p[o->len++] = t[--k];
}

/* The Name of buffer b's ALLOC: its producer's Name and a suffix. */
static void out_bufname(outbuf *o, const gen_graph *g, uint32_t b)
{
    out_str(o, g->pool + g->bname[b]);
    if (g->suffix[b]) {
        out_str(o, ".ws");
        out_u64(o, g->suffix[b]);
    } else out_str(o, ".out");
}

int gen_emit(const gen_graph *g, gen_write_fn write, void *ctx, char *err, size_t errcap)
{
    outbuf o = {malloc(OUT_CAP), 0, write, ctx, 0};
    if (!o.p) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    uint32_t n = g->n, total = g->n + g->nb;
    out_str(&o, "{\"Nodes\": [\n");
    for (uint32_t id = 0; id < total && !o.failed; id++) {
        uint32_t u = g->order[id];
        out_room(&o);
        out_str(&o, "{\"Id\": ");
        out_u64(&o, id);
        if (u >= n) {
            out_str(&o, ", \"Op\": \"FREE\", \"BufId\": ");
            out_u64(&o, u - n + 1);
            out_str(&o, ", \"Name\": \"free ");
            out_bufname(&o, g, u - n);
            out_str(&o, "\"}");
        } else if (g->kind[u] == NODE_ALLOC) {
            uint32_t b = g->ref[u];
            out_str(&o, ", \"Op\": \"ALLOC\", \"Size\": ");
            out_u64(&o, (uint64_t)g->size[b]);
            out_str(&o, ", \"BufId\": ");
            out_u64(&o, b + 1);
            out_str(&o, ", \"Name\": \"");
            out_bufname(&o, g, b);
            out_str(&o, "\"}");
        } else {
            out_str(&o, ", \"Op\": \"");
            out_str(&o, g->op[u]);
            out_str(&o, "\", \"Name\": \"");
            out_str(&o, g->pool + g->ref[u]);
            out_str(&o, "\", \"Inputs\": [");
            for (uint32_t i = g->in_off[u]; i < g->in_off[u + 1]; i++) {
                out_room(&o);
                if (i > g->in_off[u]) out_str(&o, ", ");
                out_u64(&o, g->in[i] + 1);
            }
            out_str(&o, "]}");
        }
        out_str(&o, id + 1 < total ? ",\n" : "\n");
    }
    out_str(&o, "],\n\"Edges\": [\n");
    for (size_t e = 0; e < g->ne && !o.failed; e++) {
        out_room(&o);
        o.p[o.len++] = '[';
        out_u64(&o, g->id[g->eu[e]]);
        out_str(&o, ", ");
        out_u64(&o, g->id[g->ev[e]]);
        o.p[o.len++] = ']';
        if (e + 1 < g->ne) out_str(&o, e % 8 == 7 ? ",\n" : ", ");
    }
    out_room(&o);
    out_str(&o, "\n]}\n");
    out_flush(&o);
    free(o.p);
    if (o.failed) {
        snprintf(err, errcap, "write failed");
        return -1;
    }
    return 0;
}

int gen_write(const gen_kind *k, uint32_t nodes, uint64_t seed, gen_write_fn write, void *ctx,
              char *err, size_t errcap)
{
    gen_graph *g = gen_build(k, nodes, seed, err, errcap);
    if (!g) return -1;
    int rc = gen_emit(g, write, ctx, err, errcap);
    gen_free(g);
    return rc;
}
