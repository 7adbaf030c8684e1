/* gen_json.c: writes a generated graph as memtris JSON through the caller's
 * callback, a megabyte at a time (Nodes in Id order, then Edges). Exports
 * gen_emit and gen_write. */
#include "gen.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen_internal.h"
#include "sched/graph/graph.h"

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

/* A fixed-point number: v / 10^6 with six decimals. */
static void out_micro(outbuf *o, uint64_t v)
{
    out_u64(o, v / 1000000);
    char t[8] = ".000000";
    for (int k = 6; k > 0; k--, v /= 10) t[k] = (char)('0' + v % 10);
    out_str(o, t);
}

/* Compute u's Latency in nanoseconds: the bytes of its Inputs at
 * GEN_BYTES_PER_NS, times a jitter j / 1024 with j drawn from 512..1535 by
 * the seed and u, rounded to the nearest; integers only, so every machine
 * writes the same digits. (q*D + r) * j / D = q*j + r*j / D keeps it in 64
 * bits: the bytes reach 2^53, j stays under 2^11. */
static uint64_t latency_ns(const gen_graph *g, uint32_t u)
{
    const uint64_t D = 1024 * GEN_BYTES_PER_NS;
    uint64_t bytes = 0, s = g->lat_seed + u;
    for (uint32_t i = g->in_off[u]; i < g->in_off[u + 1]; i++) bytes += (uint64_t)g->size[g->in[i]];
    uint64_t j = 512 + gen_rng_next(&s) % 1024;
    return bytes / D * j + (bytes % D * j + D / 2) / D;
}

/* The stream of compute u's line (add_fork) among `streams`: line 0 is
 * stream 0, side lines take 1..streams-1 in turn. */
static uint32_t stream_of(const gen_graph *g, uint32_t u, uint32_t streams)
{
    uint32_t line = g->fork[u] & ~GEN_CONSUMED;
    return line ? 1 + (line - 1) % (streams - 1) : 0;
}

int gen_emit(const gen_graph *g, gen_write_fn write, void *ctx, char *err, size_t errcap)
{
    return gen_emit_streams(g, 1, write, ctx, err, errcap);
}

int gen_emit_streams(const gen_graph *g, uint32_t streams, gen_write_fn write, void *ctx, char *err,
                     size_t errcap)
{
    if (streams < 1 || streams > GEN_MAX_STREAMS) {
        snprintf(err, errcap, "streams must be from 1 to %u, not %u", GEN_MAX_STREAMS, streams);
        return -1;
    }
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
            out_room(&o);
            out_str(&o, "], \"Latency\": ");
            out_micro(&o, latency_ns(g, u));
            if (streams > 1) {
                out_str(&o, ", \"Stream\": ");
                out_u64(&o, stream_of(g, u, streams));
            }
            out_str(&o, "}");
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
