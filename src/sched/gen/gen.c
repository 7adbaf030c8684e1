/* gen.c: the builder the generators share: ops in the exporter's shape, exact node counts (each
 * kind's body is its own file, gen_kinds.c lists them; gen_emit.c writes the result). Exports
 * gen_build, gen_free, gen_counts and, to the kinds, gen_add_op, gen_rng_*, gen_spread_size. */
#include "gen.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen_internal.h"
#include "sched/graph/graph.h"

/*
 * The shape, that of the exporter (tools/fx2memtris.py) and of tools/make_demo.py:
 *   - an op that produces buffers gets one ALLOC per buffer, each depending
 *     on the producers of the op's inputs, so it becomes ready exactly when
 *     the op could run;
 *   - the op's compute node depends on its ALLOCs and on the producers of its
 *     inputs, and lists read and written buffers in "Inputs";
 *   - every buffer has one FREE, depending on its producer and on every
 *     reader, placed (in Id order) right after its last reader;
 *   - the network input is an ALLOC and an "Input" node; the final buffer is
 *     read by an "Output" node and freed after it.
 * So an op with one output costs 3 nodes (ALLOC, compute, FREE), the input 3
 * and the Output node 1. Each kind builds its body within a node budget and
 * the rest is padded: "tail.fcK" ops (3 nodes) and then 0..2 in-place
 * "tail.reluK" ops (1 node: a compute that reads and writes the final buffer),
 * so every count from the kind's minimum up comes out exact.
 */

#define MAX_WS GEN_MAX_WS

/* ------------------------------------------------------------ PRNG */

/* splitmix64: integer-only, so every machine draws the same numbers. */
uint64_t gen_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint32_t gen_rng_below(uint64_t *s, uint32_t n) { return (uint32_t)(gen_rng_next(s) % n); }

/* ------------------------------------------------------------ builder */

/* Resizes *p to cap elements of size el; 0, or -1 (and g->oom) on failure. */
static int resize(gen_graph *g, void *p, size_t cap, size_t el)
{
    void *q = realloc(*(void **)p, cap * el);
    if (!q) {
        g->oom = 1;
        return -1;
    }
    *(void **)p = q;
    return 0;
}

static size_t next_cap(size_t cap, size_t need)
{
    size_t nc = cap ? cap : 1024;
    while (nc < need) nc *= 2;
    return nc;
}

static uint32_t add_node(gen_graph *g, int kind, uint32_t ref, const char *op)
{
    if ((size_t)g->n + 1 > g->ncap) {
        size_t nc = next_cap(g->ncap, (size_t)g->n + 1);
        if (resize(g, &g->kind, nc, sizeof *g->kind) || resize(g, &g->ref, nc, sizeof *g->ref) ||
            resize(g, &g->op, nc, sizeof *g->op) || resize(g, &g->fork, nc, sizeof *g->fork) ||
            resize(g, &g->phase, nc, sizeof *g->phase) ||
            resize(g, &g->mark, nc, sizeof *g->mark) ||
            resize(g, &g->in_off, nc + 1, sizeof *g->in_off))
            return GEN_NONE;
        g->ncap = nc;
    }
    uint32_t u = g->n++;
    g->kind[u] = (uint8_t)kind;
    g->ref[u] = ref;
    g->op[u] = op;
    g->fork[u] = 0;
    g->phase[u] = 0;
    g->mark[u] = 0;
    g->in_off[u + 1] = (uint32_t)g->nin; /* no Inputs until add_input */
    return u;
}

/* Appends buffer b to the Inputs of the last node. */
static void add_input(gen_graph *g, uint32_t b)
{
    if (g->nin + 1 > g->incap) {
        size_t nc = next_cap(g->incap, g->nin + 1);
        if (nc > UINT32_MAX || resize(g, &g->in, nc, sizeof *g->in)) {
            g->oom = 1;
            return;
        }
        g->incap = nc;
    }
    g->in[g->nin++] = b;
    g->in_off[g->n] = (uint32_t)g->nin;
}

static void add_edge(gen_graph *g, uint32_t u, uint32_t v)
{
    if (g->ne + 1 > g->ecap) {
        size_t nc = next_cap(g->ecap, g->ne + 1);
        if (nc > UINT32_MAX || resize(g, &g->eu, nc, sizeof *g->eu) ||
            resize(g, &g->ev, nc, sizeof *g->ev)) {
            g->oom = 1;
            return;
        }
        g->ecap = nc;
    }
    g->eu[g->ne] = u;
    g->ev[g->ne] = v;
    g->ne++;
}

static uint32_t add_buffer(gen_graph *g, int64_t size, uint32_t name, int suffix)
{
    if ((size_t)g->nb + 1 > g->bcap) {
        size_t nc = next_cap(g->bcap, (size_t)g->nb + 1);
        if (resize(g, &g->size, nc, sizeof *g->size) || resize(g, &g->prod, nc, sizeof *g->prod) ||
            resize(g, &g->dep, nc, sizeof *g->dep) || resize(g, &g->bname, nc, sizeof *g->bname) ||
            resize(g, &g->suffix, nc, sizeof *g->suffix) || resize(g, &g->cat, nc, sizeof *g->cat))
            return GEN_NONE;
        g->bcap = nc;
    }
    uint32_t b = g->nb++;
    g->size[b] = size;
    g->prod[b] = g->dep[b] = GEN_NONE;
    g->bname[b] = name;
    g->suffix[b] = (uint8_t)suffix;
    g->cat[b] = 0;
    return b;
}

/* Stores a formatted Name in the pool; returns its offset. */
__attribute__((format(printf, 2, 0))) static uint32_t pool_vadd(gen_graph *g, const char *fmt,
                                                                va_list ap)
{
    char tmp[96];
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (k < 0) k = 0;
    if ((size_t)k >= sizeof tmp) k = sizeof tmp - 1;
    if (g->plen + (size_t)k + 1 > g->pcap) {
        size_t nc = next_cap(g->pcap, g->plen + (size_t)k + 1);
        if (nc > UINT32_MAX || resize(g, &g->pool, nc, 1)) {
            g->oom = 1;
            return 0;
        }
        g->pcap = nc;
    }
    uint32_t off = (uint32_t)g->plen;
    memcpy(g->pool + off, tmp, (size_t)k + 1);
    g->plen += (size_t)k + 1;
    return off;
}

/*
 * The fork rule of --streams (tools/graphkit.py's assign_streams, the same
 * rule): compute c continues the oldest line (the lowest number: 0 is stream
 * 0's, k the k-th side branch) among its compute predecessors whose first
 * compute consumer it is; when it is none's first, it is a side branch of a
 * fork and starts a new line; with no predecessor it is on line 0. Its
 * compute predecessors are the last writers of its inputs (its ALLOCs wait
 * for the same nodes). gen_emit maps lines to streams.
 */
static void add_fork(gen_graph *g, uint32_t c, const uint32_t *in, uint32_t nin)
{
    uint32_t first = GEN_NONE, preds = 0;
    for (uint32_t j = 0; j < nin; j++) {
        uint32_t p = g->dep[in[j]];
        if (p == GEN_NONE || g->kind[p] != NODE_COMPUTE) continue; /* a weight's ALLOC: no line */
        preds++;
        uint32_t line = g->fork[p] & ~GEN_CONSUMED;
        if (!(g->fork[p] & GEN_CONSUMED) && (first == GEN_NONE || line < first)) first = line;
    }
    if (first != GEN_NONE) g->fork[c] = first;
    else if (preds) g->fork[c] = ++g->nfork;
    for (uint32_t j = 0; j < nin; j++)
        if (g->dep[in[j]] != GEN_NONE && g->kind[g->dep[in[j]]] == NODE_COMPUTE)
            g->fork[g->dep[in[j]]] |= GEN_CONSUMED;
}

/* The distinct last writers of in[] (a weight's: its ALLOC), in order, into deps (nin
 * entries); returns how many. */
static uint32_t distinct_deps(gen_graph *g, const uint32_t *in, uint32_t nin, uint32_t *deps)
{
    uint32_t nd = 0;
    if (++g->stamp == 0) { /* wrapped: no node may keep an old stamp */
        memset(g->mark, 0, g->n * sizeof *g->mark);
        g->stamp = 1;
    }
    for (uint32_t j = 0; j < nin; j++) {
        uint32_t p = g->dep[in[j]];
        if (p == GEN_NONE || g->mark[p] == g->stamp) continue;
        g->mark[p] = g->stamp;
        deps[nd++] = p;
    }
    return nd;
}

__attribute__((format(printf, 4, 0))) static uint32_t
add_op_v(gen_graph *g, const gen_opdef *d, uint32_t *outs, const char *fmt, va_list ap)
{
    if (g->oom || d->nout > 1 + MAX_WS) { /* more buffers than one op may make: a kind's bug */
        g->oom = 1;
        return GEN_NONE;
    }
    uint32_t name = pool_vadd(g, fmt, ap);
    uint32_t bufs[1 + MAX_WS], allocs[1 + MAX_WS], nbufs = 0, few[16];
    uint32_t *deps = d->nin <= 16 ? few : malloc(d->nin * sizeof *deps);
    if (!deps) {
        g->oom = 1;
        return GEN_NONE;
    }
    uint32_t nd = distinct_deps(g, d->in, d->nin, deps), c = GEN_NONE;
    for (uint32_t k = 0; k < d->nout; k++) {
        uint32_t b = add_buffer(g, d->out[k], name, d->sfx ? d->sfx[k] : (int)k);
        uint32_t a = add_node(g, NODE_ALLOC, b, NULL);
        if (g->oom) goto done;
        if (d->cat) g->cat[b] = d->cat[k];
        for (uint32_t j = 0; j < nd; j++) add_edge(g, deps[j], a);
        bufs[nbufs] = b;
        allocs[nbufs++] = a;
    }
    c = add_node(g, NODE_COMPUTE, name, d->op);
    if (g->oom) goto done;
    g->ncomp++;
    g->phase[c] = (uint8_t)(d->phase | (d->ninplace < 16 ? d->ninplace : 15) << GEN_INPLACE_SHIFT);
    add_fork(g, c, d->in, d->nin);
    for (uint32_t j = 0; j < d->nin; j++) add_input(g, d->in[j]);
    for (uint32_t k = 0; k < nbufs; k++) add_input(g, bufs[k]);
    for (uint32_t k = 0; k < nbufs; k++) add_edge(g, allocs[k], c);
    for (uint32_t j = 0; j < nd; j++) add_edge(g, deps[j], c);
    for (uint32_t j = 0; j < d->nafter; j++) add_edge(g, d->after[j], c);
    for (uint32_t k = 0; k < nbufs; k++) g->prod[bufs[k]] = g->dep[bufs[k]] = c;
    for (uint32_t j = 0; j < d->ninplace; j++) g->dep[d->in[j]] = c;
    if (outs)
        for (uint32_t k = 0; k < nbufs; k++) outs[k] = bufs[k];
done:
    if (deps != few) free(deps);
    return g->oom ? GEN_NONE : c;
}

uint32_t gen_add_ex(gen_graph *g, const gen_opdef *d, uint32_t *outs, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    uint32_t c = add_op_v(g, d, outs, fmt, ap);
    va_end(ap);
    return c;
}

/*
 * Adds an op of type `op`, named by fmt, reading the nin distinct buffers
 * in[]. It writes a new output of out_size bytes when out_size >= 0, and nws
 * workspace buffers of ws[] bytes; with GEN_OP_INPLACE it writes in[0] in place
 * (later readers then depend on it). Returns the output buffer, or GEN_NONE.
 */
uint32_t gen_add_op(gen_graph *g, const char *op, const uint32_t *in, uint32_t nin,
                    int64_t out_size, const int64_t *ws, uint32_t nws, int flags, const char *fmt,
                    ...)
{
    int64_t out[1 + MAX_WS];
    uint8_t sfx[1 + MAX_WS];
    uint32_t nout = 0, bufs[1 + MAX_WS];
    for (uint32_t k = 0; k < 1 + nws && k <= MAX_WS; k++) {
        if (k == 0 && out_size < 0) continue;
        out[nout] = k == 0 ? out_size : ws[k - 1];
        sfx[nout++] = (uint8_t)k;
    }
    gen_opdef d = {.op = op,
                   .in = in,
                   .nin = nin,
                   .ninplace = (flags & GEN_OP_INPLACE) ? 1 : 0,
                   .out = out,
                   .sfx = sfx,
                   .nout = nout};
    va_list ap;
    va_start(ap, fmt);
    uint32_t c = add_op_v(g, &d, bufs, fmt, ap);
    va_end(ap);
    return c != GEN_NONE && out_size >= 0 ? bufs[0] : GEN_NONE;
}

uint32_t gen_add_param(gen_graph *g, int64_t size, uint8_t cat, const char *fmt, ...)
{
    if (g->oom) return GEN_NONE;
    va_list ap;
    va_start(ap, fmt);
    uint32_t name = pool_vadd(g, fmt, ap);
    va_end(ap);
    uint32_t b = add_buffer(g, size, name, GEN_SFX_OUT);
    uint32_t a = add_node(g, NODE_ALLOC, b, NULL);
    if (g->oom) return GEN_NONE;
    g->cat[b] = cat;
    g->prod[b] = g->dep[b] = a;
    return b;
}

/* Log-uniform-ish: a power of two from 2^8 to 2^23, then uniform up to the next. */
int64_t gen_spread_size(uint64_t *rng)
{
    uint32_t e = 8 + gen_rng_below(rng, 16);
    return ((int64_t)1 << e) + (int64_t)(gen_rng_next(rng) % ((uint64_t)1 << e));
}

/* ------------------------------------------------------------ finishing */

/* Adds the FREE edges (producer, then readers in creation order, buffer by
 * buffer) and numbers the nodes: creation order, each buffer's FREE right
 * after its last reader. */
static void finish(gen_graph *g)
{
    uint32_t n = g->n, nb = g->nb, total = n + nb;
    uint32_t *roff = calloc((size_t)nb + 1, sizeof *roff),
             *last = malloc((size_t)nb * sizeof *last);
    uint32_t *rd = malloc((g->nin ? g->nin : 1) * sizeof *rd),
             *fill = calloc((size_t)nb + 1, sizeof *fill);
    uint32_t *foff = calloc((size_t)n + 2, sizeof *foff),
             *fl = malloc(((size_t)nb + 1) * sizeof *fl);
    g->id = malloc((size_t)total * sizeof *g->id);
    g->order = malloc((size_t)total * sizeof *g->order);
    if (!roff || !last || !rd || !fill || !foff || !fl || !g->id || !g->order) {
        g->oom = 1;
        goto done;
    }

    for (uint32_t b = 0; b < nb; b++) last[b] = g->prod[b];
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t i = g->in_off[u]; i < g->in_off[u + 1]; i++)
            if (g->prod[g->in[i]] != u) roff[g->in[i] + 1]++;
    for (uint32_t b = 0; b < nb; b++) roff[b + 1] += roff[b];
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t i = g->in_off[u]; i < g->in_off[u + 1]; i++) {
            uint32_t b = g->in[i];
            if (g->prod[b] == u) continue;
            rd[roff[b] + fill[b]++] = u;
            last[b] = u; /* creation order: the last seen is the last */
        }
    for (uint32_t b = 0; b < nb && !g->oom; b++) {
        add_edge(g, g->prod[b], n + b);
        for (uint32_t i = roff[b]; i < roff[b + 1]; i++) add_edge(g, rd[i], n + b);
        if (g->cat[b] & GEN_KEEP) { /* after Output, the last node */
            add_edge(g, n - 1, n + b);
            last[b] = n - 1;
        }
    }

    /* FREEs after their last reader, buffers in ascending order. */
    for (uint32_t b = 0; b < nb; b++) foff[last[b] + 1]++;
    for (uint32_t u = 0; u < n; u++) foff[u + 1] += foff[u];
    memset(fill, 0, ((size_t)nb + 1) * sizeof *fill);
    for (uint32_t b = 0; b < nb; b++) fl[foff[last[b]]++] = b; /* foff[u] now ends bucket u */
    uint32_t next = 0, k = 0;
    for (uint32_t u = 0; u < n; u++) {
        g->id[u] = next;
        g->order[next++] = u;
        for (; k < foff[u]; k++) {
            g->id[n + fl[k]] = next;
            g->order[next++] = n + fl[k];
        }
    }
done:
    free(roff);
    free(last);
    free(rd);
    free(fill);
    free(foff);
    free(fl);
}

void gen_free(gen_graph *g)
{
    if (!g) return;
    free(g->kind);
    free(g->ref);
    free(g->op);
    free(g->fork);
    free(g->phase);
    free(g->mark);
    free(g->in_off);
    free(g->in);
    free(g->size);
    free(g->prod);
    free(g->dep);
    free(g->bname);
    free(g->suffix);
    free(g->cat);
    free(g->eu);
    free(g->ev);
    free(g->pool);
    free(g->id);
    free(g->order);
    free(g);
}

/* The kinds with a body: the input, the body, the padding, the Output node. */
static void build_body(gen_graph *g, const generator *ke, uint64_t *rng, uint32_t nodes)
{
    int64_t in_size = ke->input_size ? ke->input_size : gen_spread_size(rng);
    uint32_t x = gen_add_op(g, "Input", NULL, 0, in_size, NULL, 0, GEN_OP_NEW, "input");
    uint32_t left = 0, budget = nodes - 4; /* the input (3) and Output (1) */
    uint32_t h = g->oom ? GEN_NONE : ke->body(g, rng, x, budget, &left);
    for (uint32_t i = 1; left >= 3 && !g->oom; i++, left -= 3)
        h = gen_add_op(g, "Linear", &h, 1, 4 * GEN_KiB * (1 + gen_rng_below(rng, 16)), NULL, 0,
                       GEN_OP_NEW, "tail.fc%u", i);
    for (uint32_t i = 1; left > 0 && !g->oom; i++, left--)
        gen_add_op(g, "relu_", &h, 1, -1, NULL, 0, GEN_OP_INPLACE, "tail.relu%u", i);
    if (!g->oom) gen_add_op(g, "Output", &h, 1, -1, NULL, 0, GEN_OP_NEW, "output");
}

gen_graph *gen_build(const gen_kind *k, uint32_t nodes, uint64_t seed, char *err, size_t errcap)
{
    const generator *ke = (const generator *)k;
    if (nodes < k->min_nodes) {
        snprintf(err, errcap, "kind '%s' needs at least %u nodes, not %u", k->name, k->min_nodes,
                 nodes);
        return NULL;
    }
    if (nodes > GEN_MAX_NODES) {
        snprintf(err, errcap, "at most %u nodes, not %u", GEN_MAX_NODES, nodes);
        return NULL;
    }
    gen_graph *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    if (resize(g, &g->in_off, 1, sizeof *g->in_off) == 0) g->in_off[0] = 0;
    g->lat_seed = seed ^ 0xbb67ae8584caa73bULL; /* apart from every kind's stream */
    /* Each kind draws from its own stream of the seed. */
    uint64_t rng = seed ^ (0x6a09e667f3bcc908ULL * ke->stream);
    if (!g->oom && ke->build) ke->build(g, &rng, nodes);
    else if (!g->oom) build_body(g, ke, &rng, nodes);
    if (!g->oom) finish(g);
    if (g->oom) {
        snprintf(err, errcap, "out of memory generating %u nodes", nodes);
        gen_free(g);
        return NULL;
    }
    return g;
}

gen_count gen_counts(const gen_graph *g)
{
    gen_count c = {g->n + g->nb, (uint32_t)g->ne, g->nb, g->ncomp};
    return c;
}
