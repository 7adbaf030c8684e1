/* gen_json.c: writes a generated graph as memtris JSON through the caller's
 * callback through util's JSON writer, a megabyte at a time (Nodes in Id
 * order, then Edges). Exports gen_emit, gen_emit_streams and gen_write. */
#include "gen.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen_internal.h"
#include "sched/graph/graph.h"
#include "util/jw.h"

#define OUT_CAP ((size_t)1 << 20)

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

int gen_emit(const gen_graph *g, gen_write_fn write, void *ctx, char *err, size_t errcap)
{
    return gen_emit_streams(g, 1, write, ctx, err, errcap);
}

/* One node of Id id, the combined index u, as an object of the Nodes array. */
static void node_json(jw *w, const gen_graph *g, uint32_t id, uint32_t u, uint32_t streams)
{
    char name[128];
    jw_object(w);
    jw_kuint(w, "Id", id);
    if (u >= g->n) {
        jw_kstring(w, "Op", "FREE");
        jw_kuint(w, "BufId", u - g->n + 1);
        jw_kstring(w, "Name", bufname(name, "free ", g, u - g->n));
    } else if (g->kind[u] == NODE_ALLOC) {
        uint32_t b = g->ref[u];
        jw_kstring(w, "Op", "ALLOC");
        jw_kuint(w, "Size", (uint64_t)g->size[b]);
        jw_kuint(w, "BufId", b + 1);
        jw_kstring(w, "Name", bufname(name, "", g, b));
        int cat = (int)(g->cat[b] & GEN_CAT_MASK);
        if (cat) jw_kstring(w, "Category", graph_category_word(cat));
    } else {
        jw_kstring(w, "Op", g->op[u]);
        jw_kstring(w, "Name", g->pool + g->ref[u]);
        int phase = g->phase[u] & GEN_PHASE_MASK, inplace = g->phase[u] >> GEN_INPLACE_SHIFT;
        if (phase) jw_kstring(w, "Phase", graph_phase_word(phase));
        jw_key(w, "Inputs");
        jw_array(w);
        for (uint32_t i = g->in_off[u]; i < g->in_off[u + 1]; i++) jw_uint(w, g->in[i] + 1);
        jw_array_end(w);
        if (inplace) {
            jw_key(w, "InPlace");
            jw_array(w);
            for (uint32_t i = g->in_off[u]; i < g->in_off[u] + (uint32_t)inplace; i++)
                jw_uint(w, g->in[i] + 1);
            jw_array_end(w);
        }
        jw_key(w, "Latency");
        jw_raw(w, micro(name, latency_ns(g, u)));
        if (streams > 1) jw_kuint(w, "Stream", stream_of(g, u, streams));
    }
    jw_object_end(w);
}

int gen_emit_streams(const gen_graph *g, uint32_t streams, gen_write_fn write, void *ctx, char *err,
                     size_t errcap)
{
    if (streams < 1 || streams > GEN_MAX_STREAMS) {
        snprintf(err, errcap, "streams must be from 1 to %u, not %u", GEN_MAX_STREAMS, streams);
        return -1;
    }
    outbuf o;
    if (outbuf_open(&o, OUT_CAP, write, ctx)) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    jw w;
    jw_init(&w, &o);
    uint32_t total = g->n + g->nb;
    jw_object(&w);
    jw_key(&w, "Nodes");
    jw_array(&w);
    for (uint32_t id = 0; id < total && !o.failed; id++) {
        jw_break(&w, "\n");
        node_json(&w, g, id, g->order[id], streams);
    }
    jw_break(&w, "\n");
    jw_array_end(&w);
    jw_break(&w, "\n");
    jw_key(&w, "Edges");
    jw_array(&w);
    for (size_t e = 0; e < g->ne && !o.failed; e++) {
        if (e % 8 == 0) jw_break(&w, "\n");
        jw_array(&w);
        jw_uint(&w, g->id[g->eu[e]]);
        jw_uint(&w, g->id[g->ev[e]]);
        jw_array_end(&w);
    }
    jw_break(&w, g->ne ? "\n" : "\n\n");
    jw_array_end(&w);
    jw_object_end(&w);
    jw_end(&w);
    if (outbuf_close(&o)) {
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
