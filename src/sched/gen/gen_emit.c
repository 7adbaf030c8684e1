/* gen_emit.c: a generated graph as memtris JSON: its nodes in Id order with
 * their Names, Latencies and Streams, and its edges, handed to the graph
 * writer (sched/graph/graph_write.h), which writes them through the caller's
 * callback. Exports gen_emit, gen_emit_streams and gen_write. */
#include "gen.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen_internal.h"
#include "sched/graph/graph_write.h"
#include "util/outbuf.h"

/* The Name of buffer b's ALLOC, after prefix ("" or "free "): its
 * producer's Name (under 96 bytes) and a suffix. out has 128 bytes. */
static const char *bufname(char *out, const char *prefix, const gen_graph *g, uint32_t b)
{
    const char *name = g->pool + g->bname[b];
    size_t lp = strlen(prefix), ln = strlen(name);
    memcpy(out, prefix, lp);
    memcpy(out + lp, name, ln);
    char *e = out + lp + ln;
    uint8_t sfx = g->suffix[b];
    if (sfx == GEN_SFX_OUT) {
        memcpy(e, ".out", 4);
        e += 4;
    } else if (sfx <= GEN_MAX_WS) {
        memcpy(e, ".ws", 3);
        e = outbuf_digits(e + 3, sfx);
    } else if (sfx == GEN_SFX_GRAD_W) {
        memcpy(e, ".grad_weight", 12);
        e += 12;
    } else { /* GEN_SFX_GRAD_IN + k: .grad_input, .grad_input2, ... */
        memcpy(e, ".grad_input", 11);
        e += 11;
        if (sfx > GEN_SFX_GRAD_IN) e = outbuf_digits(e, sfx - GEN_SFX_GRAD_IN + 1u);
    }
    *e = 0;
    return out;
}

/* A fixed-point number: v / 10^6 with six decimals. out has 32 bytes. */
static const char *micro(char *out, uint64_t v)
{
    char *e = outbuf_digits(out, v / 1000000);
    *e++ = '.';
    v %= 1000000;
    for (int k = 5; k >= 0; k--, v /= 10) e[k] = (char)('0' + v % 10);
    e[6] = 0;
    return out;
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

/* How many nodes or edges ahead gen_node and gen_edge ask for what they
 * will read: Ids and the combined indices jump about gen's arrays. */
#define AHEAD 16

/* gen's graph as the graph writer's source: Ids in order, each the node
 * order[id] of the combined index (past n: a FREE), and the edges. */
typedef struct gen_src {
    const gen_graph *g;
    uint32_t streams;
    int64_t *inputs;             /* room for one node's Inputs */
    size_t e;                    /* the next edge */
    char name[128], latency[32]; /* the last node's */
} gen_src;

static void gen_node(void *ctx, uint32_t id, graph_wnode *v)
{
    gen_src *s = ctx;
    const gen_graph *g = s->g;
    uint32_t u = g->order[id];
    if (id + AHEAD < g->n + g->nb && g->order[id + AHEAD] < g->n) {
        uint32_t w = g->order[id + AHEAD];
        __builtin_prefetch(&g->kind[w]);
        __builtin_prefetch(&g->ref[w]);
        __builtin_prefetch(&g->in_off[w]);
    }
    *v = (graph_wnode){.id = id, .stream = -1};
    if (u >= g->n) {
        v->kind = NODE_FREE;
        v->op = "FREE";
        v->bufid = u - g->n + 1;
        v->name = bufname(s->name, "free ", g, u - g->n);
    } else if (g->kind[u] == NODE_ALLOC) {
        uint32_t b = g->ref[u];
        v->kind = NODE_ALLOC;
        v->op = "ALLOC";
        v->size = g->size[b];
        v->bufid = b + 1;
        v->name = bufname(s->name, "", g, b);
        v->category = (int)(g->cat[b] & GEN_CAT_MASK);
    } else {
        v->kind = NODE_COMPUTE;
        v->op = g->op[u];
        v->name = g->pool + g->ref[u];
        v->phase = g->phase[u] & GEN_PHASE_MASK;
        v->ninputs = g->in_off[u + 1] - g->in_off[u];
        for (uint32_t k = 0; k < v->ninputs; k++) s->inputs[k] = g->in[g->in_off[u] + k] + 1;
        v->inputs = v->inplace = s->inputs; /* the first ninplace of them */
        v->ninplace = g->phase[u] >> GEN_INPLACE_SHIFT;
        v->latency = micro(s->latency, latency_ns(g, u));
        if (s->streams > 1) v->stream = stream_of(g, u, s->streams);
    }
}

static int gen_edge(void *ctx, int64_t *from, int64_t *to)
{
    gen_src *s = ctx;
    const gen_graph *g = s->g;
    if (s->e >= g->ne) return 0;
    if (s->e + AHEAD < g->ne) {
        __builtin_prefetch(&g->id[g->eu[s->e + AHEAD]]);
        __builtin_prefetch(&g->id[g->ev[s->e + AHEAD]]);
    }
    *from = g->id[g->eu[s->e]];
    *to = g->id[g->ev[s->e++]];
    return 1;
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
    uint32_t most = 0;
    for (uint32_t u = 0; u < g->n; u++)
        if (g->in_off[u + 1] - g->in_off[u] > most) most = g->in_off[u + 1] - g->in_off[u];
    gen_src s = {.g = g, .streams = streams};
    if (!(s.inputs = malloc(((size_t)most + 1) * sizeof *s.inputs))) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    graph_wsource src = {.nodes = g->n + g->nb,
                         .keys = GRAPH_KEYS_GEN,
                         .node = gen_node,
                         .edge = gen_edge,
                         .ctx = &s};
    int rc = graph_write_source(&src, write, ctx, err, errcap);
    free(s.inputs);
    return rc;
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
