/* gen.c: the synthetic graph generators: a builder of ops in the exporter's shape, one body per
 * kind (a new kind is one body and one line in kinds[]), exact node counts; gen_json.c writes the
 * result. Exports gen_kind_*, gen_build, gen_free, gen_counts. */
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

#define NONE          UINT32_MAX
#define KiB           ((int64_t)1024)
#define MAX_WS        4  /* workspaces of one alloc-heavy op */
#define RANDOM_WINDOW 16 /* random: inputs come from the last 16 ops */
#define RANDOM_MAX_IN 3
#define RW_K          4 /* randwire: ring neighbours */

/* ------------------------------------------------------------ PRNG */

/* splitmix64: integer-only, so every machine draws the same numbers. */
uint64_t gen_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#define rng_next gen_rng_next
static uint32_t rng_below(uint64_t *s, uint32_t n) { return (uint32_t)(rng_next(s) % n); }

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
            resize(g, &g->in_off, nc + 1, sizeof *g->in_off))
            return NONE;
        g->ncap = nc;
    }
    uint32_t u = g->n++;
    g->kind[u] = (uint8_t)kind;
    g->ref[u] = ref;
    g->op[u] = op;
    g->fork[u] = 0;
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
            resize(g, &g->suffix, nc, sizeof *g->suffix))
            return NONE;
        g->bcap = nc;
    }
    uint32_t b = g->nb++;
    g->size[b] = size;
    g->prod[b] = g->dep[b] = NONE;
    g->bname[b] = name;
    g->suffix[b] = (uint8_t)suffix;
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

enum { OP_NEW = 0, OP_INPLACE = 1 };

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
    uint32_t first = NONE, preds = 0;
    for (uint32_t j = 0; j < nin; j++) {
        uint32_t p = g->dep[in[j]];
        if (p == NONE) continue;
        preds++;
        uint32_t line = g->fork[p] & ~GEN_CONSUMED;
        if (!(g->fork[p] & GEN_CONSUMED) && (first == NONE || line < first)) first = line;
    }
    if (first != NONE) g->fork[c] = first;
    else if (preds) g->fork[c] = ++g->nfork;
    for (uint32_t j = 0; j < nin; j++)
        if (g->dep[in[j]] != NONE) g->fork[g->dep[in[j]]] |= GEN_CONSUMED;
}

/*
 * Adds an op of type `op`, named by fmt, reading the nin distinct buffers
 * in[]. It writes a new output of out_size bytes when out_size >= 0, and nws
 * workspace buffers of ws[] bytes; with OP_INPLACE it writes in[0] in place
 * (later readers then depend on it). Returns the output buffer, or NONE.
 */
__attribute__((format(printf, 9, 10))) static uint32_t
add_op(gen_graph *g, const char *op, const uint32_t *in, uint32_t nin, int64_t out_size,
       const int64_t *ws, uint32_t nws, int flags, const char *fmt, ...)
{
    if (g->oom) return NONE;
    va_list ap;
    va_start(ap, fmt);
    uint32_t name = pool_vadd(g, fmt, ap);
    va_end(ap);
    uint32_t bufs[1 + MAX_WS], allocs[1 + MAX_WS], nbufs = 0;
    for (uint32_t k = 0; k < 1 + nws; k++) {
        if (k == 0 && out_size < 0) continue;
        uint32_t b = add_buffer(g, k == 0 ? out_size : ws[k - 1], name, (int)k);
        uint32_t a = add_node(g, NODE_ALLOC, b, NULL);
        if (g->oom) return NONE;
        for (uint32_t j = 0; j < nin; j++) add_edge(g, g->dep[in[j]], a);
        bufs[nbufs] = b;
        allocs[nbufs++] = a;
    }
    uint32_t c = add_node(g, NODE_COMPUTE, name, op);
    if (g->oom) return NONE;
    g->ncomp++;
    add_fork(g, c, in, nin);
    for (uint32_t j = 0; j < nin; j++) add_input(g, in[j]);
    for (uint32_t k = 0; k < nbufs; k++) add_input(g, bufs[k]);
    for (uint32_t k = 0; k < nbufs; k++) add_edge(g, allocs[k], c);
    for (uint32_t j = 0; j < nin; j++) add_edge(g, g->dep[in[j]], c);
    for (uint32_t k = 0; k < nbufs; k++) g->prod[bufs[k]] = g->dep[bufs[k]] = c;
    if (flags & OP_INPLACE) g->dep[in[0]] = c;
    return out_size >= 0 ? bufs[0] : NONE;
}

/* ------------------------------------------------------------ kinds */

/* Each body gets the network input x and a budget of nodes; it returns the
 * final buffer and leaves in *left the nodes it did not use (the tail pads
 * them). Op costs: 3 nodes per new buffer-producing op, 2 more per workspace. */
typedef uint32_t (*body_fn)(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget,
                            uint32_t *left);

static const char *const chain_ops[][2] = {
    {"Conv2d", "conv"}, {"BatchNorm2d", "bn"}, {"ReLU", "relu"}};

static uint32_t body_chain(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget, uint32_t *left)
{
    uint32_t ops = budget / 3, h = x;
    for (uint32_t i = 1; i <= ops && !g->oom; i++) {
        const char *const *o = chain_ops[(i - 1) % 3];
        h = add_op(g, o[0], &h, 1, 64 * KiB * (1 + rng_below(rng, 64)), NULL, 0, OP_NEW,
                   "layer%u.%s", (i - 1) / 3 + 1, o[1]);
    }
    *left = budget - 3 * ops;
    return h;
}

/* Small sizes for "huge": 512 B .. 64.5 KiB, any integer. */
static int64_t small_size(uint64_t *rng) { return 512 + rng_below(rng, 65536); }

static uint32_t body_huge(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget, uint32_t *left)
{
    uint32_t ops = budget / 3, big = ops / 2, h = x;
    for (uint32_t i = 0; i < ops && !g->oom; i++) {
        int64_t size = i == big ? GEN_HUGE_SIZE : small_size(rng);
        h = add_op(g, "Conv2d", &h, 1, size, NULL, 0, OP_NEW,
                   i == big ? "layer%u.huge" : "layer%u.conv", i + 1);
    }
    *left = budget - 3 * ops;
    return h;
}

static const char *const heavy_ops[][2] = {
    {"Conv2d", "conv"}, {"Matmul", "matmul"}, {"Softmax", "softmax"}, {"LayerNorm", "norm"}};

static uint32_t body_alloc_heavy(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget,
                                 uint32_t *left)
{
    uint32_t h = x, i = 0;
    while (budget >= 5 && !g->oom) {
        uint32_t nws = 1 + rng_below(rng, MAX_WS), fit = (budget - 3) / 2;
        if (nws > fit) nws = fit;
        int64_t ws[MAX_WS];
        for (uint32_t k = 0; k < nws; k++) ws[k] = 256 * (1 + (int64_t)rng_below(rng, 64));
        const char *const *o = heavy_ops[i % 4];
        i++;
        h = add_op(g, o[0], &h, 1, 4 * KiB * (1 + rng_below(rng, 64)), ws, nws, OP_NEW, "op%u.%s",
                   i, o[1]);
        budget -= 3 + 2 * nws;
    }
    *left = budget;
    return h;
}

static uint32_t body_branch(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget,
                            uint32_t *left)
{
    uint32_t h = x;
    for (uint32_t blk = 1; budget >= 9 && !g->oom; blk++) {
        uint32_t nbr = 2 + rng_below(rng, 3), depth[4], ops = 1;
        for (uint32_t j = 0; j < nbr; j++) ops += depth[j] = 1 + rng_below(rng, 3);
        /* Shrink to fit: the deepest last branch first, then fewer branches. */
        while (3 * ops > budget) {
            uint32_t deep = 0;
            for (uint32_t j = 1; j < nbr; j++)
                if (depth[j] >= depth[deep]) deep = j;
            if (depth[deep] > 1) depth[deep]--;
            else nbr--;
            ops--;
        }
        uint32_t outs[4];
        int64_t total = 0;
        for (uint32_t j = 0; j < nbr; j++) {
            uint32_t hb = h;
            for (uint32_t t = 1; t <= depth[j]; t++) {
                int64_t size = 128 * KiB * (1 + rng_below(rng, 16));
                /* The last branch of a deep block starts with a pool, as in inception. */
                if (t == 1 && j == nbr - 1 && depth[j] > 1)
                    hb = add_op(g, "MaxPool2d", &hb, 1, size, NULL, 0, OP_NEW, "block%u.b%u.pool",
                                blk, j + 1);
                else if (depth[j] == 1)
                    hb = add_op(g, "Conv2d", &hb, 1, size, NULL, 0, OP_NEW, "block%u.b%u.conv", blk,
                                j + 1);
                else
                    hb = add_op(g, "Conv2d", &hb, 1, size, NULL, 0, OP_NEW, "block%u.b%u.conv%u",
                                blk, j + 1, t);
                if (g->oom) break;
                if (t == depth[j]) total += size;
            }
            outs[j] = hb;
        }
        if (g->oom) break;
        h = add_op(g, "cat", outs, nbr, total, NULL, 0, OP_NEW, "block%u.concat", blk);
        budget -= 3 * ops;
    }
    *left = budget;
    return h;
}

/* Log-uniform-ish: a power of two from 2^8 to 2^23, then uniform up to the next. */
static int64_t spread_size(uint64_t *rng)
{
    uint32_t e = 8 + rng_below(rng, 16);
    return ((int64_t)1 << e) + (int64_t)(rng_next(rng) % ((uint64_t)1 << e));
}

static uint32_t body_random(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget,
                            uint32_t *left)
{
    static const char *const by_k[][2] = {{"Conv2d", "conv"}, {"add", "add"}, {"cat", "cat"}};
    uint32_t ops = budget / 3, win[RANDOM_WINDOW], nwin = 1, h = x;
    win[0] = x; /* a ring of the last outputs */
    for (uint32_t i = 1; i <= ops && !g->oom; i++) {
        uint32_t k = 1 + rng_below(rng, RANDOM_MAX_IN), pick[RANDOM_WINDOW], in[RANDOM_MAX_IN];
        if (k > nwin) k = nwin;
        for (uint32_t j = 0; j < nwin; j++) pick[j] = j;
        for (uint32_t j = 0; j < k; j++) { /* partial Fisher-Yates */
            uint32_t r = j + rng_below(rng, nwin - j), t = pick[j];
            pick[j] = pick[r];
            pick[r] = t;
            in[j] = win[pick[j]];
        }
        for (uint32_t j = 1; j < k; j++) /* ascending, for reading */
            for (uint32_t l = j; l > 0 && in[l - 1] > in[l]; l--) {
                uint32_t t = in[l];
                in[l] = in[l - 1];
                in[l - 1] = t;
            }
        h = add_op(g, by_k[k - 1][0], in, k, spread_size(rng), NULL, 0, OP_NEW, "n%u.%s", i,
                   by_k[k - 1][1]);
        if (nwin < RANDOM_WINDOW) win[nwin++] = h;
        else win[i % RANDOM_WINDOW] = h;
    }
    *left = budget - 3 * ops;
    return h;
}

/* An undirected edge set with removal, keyed by (min, max). */
typedef struct pairset {
    uint64_t *slot; /* 0 empty, UINT64_MAX removed, else key + 1 */
    size_t mask;
} pairset;

static uint64_t pair_key(uint32_t a, uint32_t b)
{
    return a < b ? ((uint64_t)a << 32 | b) + 1 : ((uint64_t)b << 32 | a) + 1;
}

static size_t pair_find(const pairset *s, uint64_t key, int for_insert)
{
    size_t h = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 17) & s->mask;
    size_t tomb = (size_t)-1;
    for (;; h = (h + 1) & s->mask) {
        if (s->slot[h] == key) return h;
        if (s->slot[h] == UINT64_MAX) {
            if (tomb == (size_t)-1) tomb = h;
            continue;
        }
        if (s->slot[h] == 0) return for_insert ? (tomb != (size_t)-1 ? tomb : h) : (size_t)-1;
    }
}

static int pair_has(const pairset *s, uint32_t a, uint32_t b)
{
    return pair_find(s, pair_key(a, b), 0) != (size_t)-1;
}

/* RandWire: a Watts-Strogatz ring (k = 4, p = 1/4, rewired as networkx's
 * watts_strogatz_graph does), edges oriented from the lower index to the
 * higher; each op reads its predecessors' outputs (the network input when
 * it has none); the ops without successors feed a "rw.output" mean. */
static uint32_t body_randwire(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget,
                              uint32_t *left)
{
    uint32_t n = (budget - 3) / 3, m = n * (RW_K / 2);
    *left = budget - 3 - 3 * n;
    uint32_t *eu = malloc((size_t)m * sizeof *eu), *ev = malloc((size_t)m * sizeof *ev);
    uint32_t *deg = calloc(n, sizeof *deg), *off = calloc((size_t)n + 1, sizeof *off);
    uint32_t *tmp = malloc((size_t)m * sizeof *tmp), *pred = malloc((size_t)m * sizeof *pred);
    uint32_t *out = malloc((size_t)n * sizeof *out), *in = NULL;
    uint8_t *has_succ = calloc(n, 1);
    pairset s = {0};
    size_t cap = 16;
    while (cap < (size_t)m * 4) cap *= 2;
    s.slot = calloc(cap, sizeof *s.slot);
    s.mask = cap - 1;
    uint32_t h = NONE, maxin = 1;
    if (!eu || !ev || !deg || !off || !tmp || !pred || !out || !has_succ || !s.slot) {
        g->oom = 1;
        goto done;
    }

    for (uint32_t j = 1; j <= RW_K / 2; j++)
        for (uint32_t u = 0; u < n; u++) {
            uint32_t e = (j - 1) * n + u, v = (u + j) % n;
            eu[e] = u;
            ev[e] = v;
            s.slot[pair_find(&s, pair_key(u, v), 1)] = pair_key(u, v);
            deg[u]++;
            deg[v]++;
        }
    for (uint32_t j = 1; j <= RW_K / 2; j++)
        for (uint32_t u = 0; u < n; u++) {
            if (rng_below(rng, 4) != 0) continue;
            uint32_t e = (j - 1) * n + u, w = rng_below(rng, n);
            int ok = 1;
            while (w == u || pair_has(&s, u, w)) {
                w = rng_below(rng, n);
                if (deg[u] >= n - 1) {
                    ok = 0;
                    break;
                }
            }
            if (!ok) continue;
            s.slot[pair_find(&s, pair_key(u, ev[e]), 0)] = UINT64_MAX;
            deg[ev[e]]--;
            s.slot[pair_find(&s, pair_key(u, w), 1)] = pair_key(u, w);
            deg[w]++;
            ev[e] = w;
        }
    /* Predecessor lists in ascending order: sort the edges by their lower
     * end, then stably by their higher end. */
    uint32_t *cnt = deg; /* reused as counters */
    memset(cnt, 0, (size_t)n * sizeof *cnt);
    for (uint32_t e = 0; e < m; e++) cnt[eu[e] < ev[e] ? eu[e] : ev[e]]++;
    for (uint32_t u = 0, acc = 0; u < n; u++) {
        uint32_t c = cnt[u];
        cnt[u] = acc;
        acc += c;
    }
    for (uint32_t e = 0; e < m; e++) tmp[cnt[eu[e] < ev[e] ? eu[e] : ev[e]]++] = e;
    for (uint32_t e = 0; e < m; e++) off[(eu[e] > ev[e] ? eu[e] : ev[e]) + 1]++;
    for (uint32_t u = 0; u < n; u++) off[u + 1] += off[u];
    memset(cnt, 0, (size_t)n * sizeof *cnt);
    for (uint32_t i = 0; i < m; i++) {
        uint32_t e = tmp[i], lo = eu[e] < ev[e] ? eu[e] : ev[e], hi = eu[e] ^ ev[e] ^ lo;
        pred[off[hi] + cnt[hi]++] = lo;
        has_succ[lo] = 1;
    }
    for (uint32_t u = 0; u < n; u++)
        if (off[u + 1] - off[u] > maxin) maxin = off[u + 1] - off[u];
    in = malloc((size_t)(maxin > n ? maxin : n) * sizeof *in);
    if (!in) {
        g->oom = 1;
        goto done;
    }

    for (uint32_t v = 0; v < n && !g->oom; v++) {
        uint32_t k = off[v + 1] - off[v];
        for (uint32_t j = 0; j < k; j++) in[j] = out[pred[off[v] + j]];
        if (!k) in[k++] = x;
        out[v] = add_op(g, "ReLUConvBN", in, k, 256 * KiB * (1 + rng_below(rng, 8)), NULL, 0,
                        OP_NEW, "rw.node%u", v);
    }
    if (!g->oom) {
        uint32_t k = 0;
        for (uint32_t v = 0; v < n; v++)
            if (!has_succ[v]) in[k++] = out[v];
        h = add_op(g, "mean", in, k, 256 * KiB, NULL, 0, OP_NEW, "rw.output");
    }
done:
    free(eu);
    free(ev);
    free(deg);
    free(off);
    free(tmp);
    free(pred);
    free(out);
    free(in);
    free(has_succ);
    free(s.slot);
    return h;
}

/* gen_kind comes first, so a gen_kind pointer is its entry's pointer. */
static const struct kind_entry {
    gen_kind k;
    body_fn body;
    int64_t input_size; /* the network input's bytes; 0: drawn from the spread */
} kinds[] = {
    /* min_nodes: input (3) + the smallest body + Output (1). */
    {{"chain", "each op reads the previous op's output", 7}, body_chain, 1024 * KiB},
    {{"branch", "inception-like: 2-4 branches of 1-3 ops, then a concat", 13},
     body_branch,
     1024 * KiB},
    {{"alloc-heavy", "a chain whose ops also take 1-4 small workspaces", 9},
     body_alloc_heavy,
     16 * KiB},
    {{"huge", "a chain with one 2^52-byte output among small ones", 13}, body_huge, 4 * KiB},
    {{"random", "irregular DAG: ops read 1-3 outputs of the last 16 ops", 7}, body_random, 0},
    {{"randwire", "RandWire small world: Watts-Strogatz ring, k=4, p=1/4", 22},
     body_randwire,
     1024 * KiB},
};

#define NKINDS (sizeof kinds / sizeof kinds[0])

const gen_kind *gen_kind_at(size_t i) { return i < NKINDS ? &kinds[i].k : NULL; }

const gen_kind *gen_kind_find(const char *name)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (strcmp(kinds[i].k.name, name) == 0) return &kinds[i].k;
    return NULL;
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
    free(g->in_off);
    free(g->in);
    free(g->size);
    free(g->prod);
    free(g->dep);
    free(g->bname);
    free(g->suffix);
    free(g->eu);
    free(g->ev);
    free(g->pool);
    free(g->id);
    free(g->order);
    free(g);
}

gen_graph *gen_build(const gen_kind *k, uint32_t nodes, uint64_t seed, char *err, size_t errcap)
{
    const struct kind_entry *ke = (const struct kind_entry *)k;
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
    uint64_t rng = seed ^ (0x6a09e667f3bcc908ULL * (uint64_t)(ke - kinds + 1));
    int64_t in_size = ke->input_size ? ke->input_size : spread_size(&rng);
    uint32_t x = add_op(g, "Input", NULL, 0, in_size, NULL, 0, OP_NEW, "input");
    uint32_t left = 0, budget = nodes - 4; /* the input (3) and Output (1) */
    uint32_t h = g->oom ? NONE : ke->body(g, &rng, x, budget, &left);
    for (uint32_t i = 1; left >= 3 && !g->oom; i++, left -= 3)
        h = add_op(g, "Linear", &h, 1, 4 * KiB * (1 + rng_below(&rng, 16)), NULL, 0, OP_NEW,
                   "tail.fc%u", i);
    for (uint32_t i = 1; left > 0 && !g->oom; i++, left--)
        add_op(g, "relu_", &h, 1, -1, NULL, 0, OP_INPLACE, "tail.relu%u", i);
    if (!g->oom) add_op(g, "Output", &h, 1, -1, NULL, 0, OP_NEW, "output");
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
