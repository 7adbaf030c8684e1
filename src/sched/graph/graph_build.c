/* graph_build.c: the graph builder (graph_build.h): growable node columns, the Id and
 * BufId maps, interned Ops and pooled Names, then the move into a graph and
 * the CSR arrays of its edges. Exports graph_build_*. */
#include "graph_build.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ERR(b, cls, ...)  diag_add((b)->d, DIAG_ERROR, (cls), 0, 0, __VA_ARGS__)
#define WARN(b, cls, ...) diag_add((b)->d, DIAG_WARNING, (cls), 0, 0, __VA_ARGS__)

void graph_build_init(graph_builder *b, diag *d, uint32_t max_nodes)
{
    memset(b, 0, sizeof *b);
    b->d = d;
    b->max_nodes = max_nodes;
}

void graph_build_free(graph_builder *b)
{
    free(b->id);
    free(b->change);
    free(b->kind);
    free(b->buf);
    free(b->op);
    free(b->name);
    free(b->src);
    free(b->latency);
    free(b->stream);
    free(b->tag);
    free(b->rerun);
    free(b->in_off);
    free(b->inputs);
    free(b->inplace);
    free(b->ep);
    free(b->ei);
    if (b->ops)
        for (uint32_t i = 0; i < b->nops; i++) free(b->ops[i]);
    free(b->ops);
    free(b->opslot);
    free(b->pool);
    imap_free(&b->ids);
    imap_free(&b->bufids);
    free(b->bid);
    free(b->bsize);
    free(b->balloc);
    free(b->bfree);
}

/* The graph has more of `what` than memtris's 32-bit indices (or the
 * caller's limit) hold: stop, and say so rather than "out of memory". */
static void too_large(graph_builder *b, const char *what, uint64_t max)
{
    if (!b->limit) {
        b->limit = what;
        b->limit_max = max;
    }
    b->oom = 1;
}

/* Grows *p (of elem-size bytes each) to hold at least need elements. */
static int grow(graph_builder *b, void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 1024;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) {
        b->oom = 1;
        return -1;
    }
    *p = q;
    *cap = nc;
    return 0;
}

/* ----------------------------------------------------------- strings */

static uint32_t pool_add(graph_builder *b, const char *s)
{
    size_t l = strlen(s) + 1;
    if (b->plen + l > UINT32_MAX) {
        too_large(b, "bytes of names", UINT32_MAX);
        return 0;
    }
    if (grow(b, (void **)&b->pool, &b->pcap, b->plen + l, 1)) return 0;
    if (b->plen == 0) b->pool[b->plen++] = 0; /* offset 0 = no name */
    if (grow(b, (void **)&b->pool, &b->pcap, b->plen + l, 1)) return 0;
    memcpy(b->pool + b->plen, s, l);
    uint32_t off = (uint32_t)b->plen;
    b->plen += l;
    return off;
}

static size_t str_hash(const char *s)
{
    size_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static uint32_t op_intern(graph_builder *b, const char *s)
{
    if (!b->opslot || (size_t)(b->nops + 1) * 2 > b->opmask + 1) {
        size_t cap = b->opslot ? (b->opmask + 1) * 2 : 64;
        uint32_t *slot = malloc(cap * sizeof *slot);
        if (!slot) {
            b->oom = 1;
            return 0;
        }
        memset(slot, 0xff, cap * sizeof *slot);
        for (uint32_t i = 0; i < b->nops; i++) {
            size_t h = str_hash(b->ops[i]) & (cap - 1);
            while (slot[h] != UINT32_MAX) h = (h + 1) & (cap - 1);
            slot[h] = i;
        }
        free(b->opslot);
        b->opslot = slot;
        b->opmask = cap - 1;
    }
    size_t h = str_hash(s) & b->opmask;
    for (; b->opslot[h] != UINT32_MAX; h = (h + 1) & b->opmask)
        if (strcmp(b->ops[b->opslot[h]], s) == 0) return b->opslot[h];
    size_t cap = b->opscap;
    if (grow(b, (void **)&b->ops, &cap, (size_t)b->nops + 1, sizeof *b->ops)) return 0;
    b->opscap = (uint32_t)cap;
    char *copy = strdup(s);
    if (!copy) {
        b->oom = 1;
        return 0;
    }
    b->ops[b->nops] = copy;
    b->opslot[h] = b->nops;
    return b->nops++;
}

/* ----------------------------------------------------------- buffers */

static uint32_t buf_get(graph_builder *b, int64_t bufid)
{
    uint32_t k = imap_put(&b->bufids, bufid, b->nb);
    if (k == IMAP_NONE - 1) {
        b->oom = 1;
        return GRAPH_NONE;
    }
    if (k == IMAP_NONE && b->nb >= GRAPH_MAX_NODES) {
        too_large(b, "buffers", GRAPH_MAX_NODES);
        return GRAPH_NONE;
    }
    if (k != IMAP_NONE) return k;
    size_t cap = b->bcap;
    if (grow(b, (void **)&b->bid, &cap, (size_t)b->nb + 1, sizeof *b->bid)) return GRAPH_NONE;
    cap = b->bcap;
    if (grow(b, (void **)&b->bsize, &cap, (size_t)b->nb + 1, sizeof *b->bsize)) return GRAPH_NONE;
    cap = b->bcap;
    if (grow(b, (void **)&b->balloc, &cap, (size_t)b->nb + 1, sizeof *b->balloc)) return GRAPH_NONE;
    cap = b->bcap;
    if (grow(b, (void **)&b->bfree, &cap, (size_t)b->nb + 1, sizeof *b->bfree)) return GRAPH_NONE;
    b->bcap = (uint32_t)cap;
    b->bid[b->nb] = bufid;
    b->bsize[b->nb] = 0;
    b->balloc[b->nb] = GRAPH_NONE;
    b->bfree[b->nb] = GRAPH_NONE;
    return b->nb++;
}

int graph_build_buffer(graph_builder *b, uint32_t i, int64_t bufid, int64_t size, uint32_t *other)
{
    uint32_t k = buf_get(b, bufid);
    if (k == GRAPH_NONE) return GRAPH_BUILD_STOP;
    b->buf[i] = k;
    uint32_t *slot = b->kind[i] == NODE_ALLOC ? &b->balloc[k] : &b->bfree[k];
    if (*slot != GRAPH_NONE) {
        *other = *slot;
        return b->kind[i] == NODE_ALLOC ? GRAPH_BUILD_ALLOC_TWICE : GRAPH_BUILD_FREE_TWICE;
    }
    *slot = i;
    if (b->kind[i] == NODE_ALLOC) b->bsize[k] = size;
    return GRAPH_BUILD_OK;
}

/* ----------------------------------------------------------- nodes */

/* Room for one more node (and in_off's closing entry). */
static int node_reserve(graph_builder *b)
{
    if (b->n + 1 <= b->cap) return 0;
    size_t nc = b->cap ? (size_t)b->cap * 2 : 1024;
    if (nc > GRAPH_MAX_NODES) nc = GRAPH_MAX_NODES;
#define RE(f)                                       \
    do {                                            \
        void *q = realloc(b->f, nc * sizeof *b->f); \
        if (!q) {                                   \
            b->oom = 1;                             \
            return -1;                              \
        }                                           \
        b->f = q;                                   \
    } while (0)
    RE(id);
    RE(change);
    RE(kind);
    RE(buf);
    RE(op);
    RE(name);
    RE(src);
    if (b->latency) RE(latency);
    if (b->stream) RE(stream);
    if (b->tag) RE(tag);
    if (b->rerun) RE(rerun);
#undef RE
    void *q = realloc(b->in_off, (nc + 1) * sizeof *b->in_off);
    if (!q) {
        b->oom = 1;
        return -1;
    }
    b->in_off = q;
    b->cap = (uint32_t)nc;
    return 0;
}

/* Fills an optional per-node column lazily: earlier nodes get the default. */
static int lazy_column(graph_builder *b, void **col, size_t elem, int is_double)
{
    if (*col) return 0;
    void *c = malloc((size_t)b->cap * elem);
    if (!c) {
        b->oom = 1;
        return -1;
    }
    for (uint32_t i = 0; i < b->cap; i++) {
        if (is_double) ((double *)c)[i] = (double)NAN;
        else ((int64_t *)c)[i] = -1;
    }
    *col = c;
    return 0;
}

/* Latency, Stream and the tag, in columns that exist once some node has them. */
static int set_optional(graph_builder *b, uint32_t i, const graph_node_spec *s)
{
    if (s->has_latency) {
        if (lazy_column(b, (void **)&b->latency, sizeof *b->latency, 1)) return -1;
        b->latency[i] = s->latency;
    } else if (b->latency) b->latency[i] = (double)NAN;
    if (s->stream >= 0) {
        if (lazy_column(b, (void **)&b->stream, sizeof *b->stream, 0)) return -1;
        b->stream[i] = s->stream;
    } else if (b->stream) b->stream[i] = -1;
    if (s->tag && !b->tag) {
        if (!(b->tag = calloc(b->cap, 1))) {
            b->oom = 1;
            return -1;
        }
    }
    if (b->tag) b->tag[i] = (uint8_t)s->tag;
    if (s->rerun && !b->rerun && !(b->rerun = calloc(b->cap, 1))) {
        b->oom = 1;
        return -1;
    }
    if (b->rerun) b->rerun[i] = (uint8_t)s->rerun;
    return 0;
}

uint32_t graph_build_node(graph_builder *b, const graph_node_spec *s, uint32_t src, uint32_t *dup,
                          int64_t **inputs)
{
    *dup = GRAPH_NONE;
    *inputs = NULL;
    if (b->n >= b->max_nodes) {
        too_large(b, "nodes", b->max_nodes);
        return GRAPH_NONE;
    }
    if (node_reserve(b)) return GRAPH_NONE;

    uint32_t i = b->n;
    uint32_t prev = imap_put(&b->ids, s->id, i);
    if (prev == IMAP_NONE - 1) {
        b->oom = 1;
        return GRAPH_NONE;
    }
    if (prev != IMAP_NONE) {
        *dup = b->src[prev];
        return GRAPH_NONE;
    }
    b->id[i] = s->id;
    b->src[i] = src;
    b->kind[i] = (uint8_t)s->kind;
    b->op[i] = op_intern(b, s->op);
    b->name[i] = s->name ? pool_add(b, s->name) : 0;
    b->change[i] = s->kind == NODE_COMPUTE ? 0 : s->size;
    b->buf[i] = GRAPH_NONE;
    if (set_optional(b, i, s)) return GRAPH_NONE;

    b->in_off[i] = (uint32_t)b->nin;
    if (s->ninputs) {
        if (b->nin + s->ninputs > UINT32_MAX) {
            too_large(b, "\"Inputs\" entries in all", UINT32_MAX);
            return GRAPH_NONE;
        }
        if (grow(b, (void **)&b->inputs, &b->incap, b->nin + s->ninputs, sizeof *b->inputs))
            return GRAPH_NONE;
        *inputs = b->inputs + b->nin;
        b->nin += s->ninputs;
    }
    return b->n++;
}

int graph_build_inplace(graph_builder *b, size_t k)
{
    size_t old = b->inplacecap;
    if (grow(b, (void **)&b->inplace, &b->inplacecap, k + 1, 1)) return -1;
    memset(b->inplace + old, 0, b->inplacecap - old);
    b->inplace[k] = 1;
    return 0;
}

int graph_build_edge(graph_builder *b, int64_t u, int64_t v)
{
    if (grow(b, (void **)&b->ep, &b->ecap, 2 * b->ne + 2, sizeof *b->ep)) return -1;
    b->ep[2 * b->ne] = u;
    b->ep[2 * b->ne + 1] = v;
    b->ne++;
    return 0;
}

int graph_build_edge_nodes(graph_builder *b, uint32_t u, uint32_t v)
{
    if (grow(b, (void **)&b->ei, &b->eicap, b->nei + 2, sizeof *b->ei)) return -1;
    b->ei[b->nei++] = u;
    b->ei[b->nei++] = v;
    return 0;
}

/* ----------------------------------------------------------- the graph */

graph *graph_build_take(graph_builder *b, const char *source)
{
    /* in_off[n] closes the last node's Inputs (an empty graph has room too). */
    if (node_reserve(b)) return NULL;
    b->in_off[b->n] = (uint32_t)b->nin;
    graph *g = calloc(1, sizeof *g);
    if (!g) {
        b->oom = 1;
        return NULL;
    }
    uint32_t n = b->n;
    /* Moves the builder's arrays into g, shrunk to fit. */
#define TAKE(dst, f, cnt)                                                 \
    do {                                                                  \
        g->dst = b->f;                                                    \
        b->f = NULL;                                                      \
        void *q_ = realloc(g->dst, ((size_t)(cnt) + 1) * sizeof *g->dst); \
        if (q_) g->dst = q_;                                              \
    } while (0)
    TAKE(id, id, n);
    TAKE(change, change, n);
    TAKE(kind, kind, n);
    TAKE(buf, buf, n);
    TAKE(op, op, n);
    TAKE(name, name, n);
    TAKE(in_off, in_off, n + 1);
    TAKE(inputs, inputs, b->nin);
    if (b->latency) TAKE(latency, latency, n);
    if (b->stream) TAKE(stream, stream, n);
    if (b->tag) TAKE(tag, tag, n);
    if (b->rerun) TAKE(rerun, rerun, n);
    if (b->inplace) {
        size_t old = b->inplacecap;
        if (!grow(b, (void **)&b->inplace, &b->inplacecap, b->nin, 1))
            memset(b->inplace + old, 0, b->inplacecap - old);
        TAKE(inplace, inplace, b->nin);
    }
    TAKE(buf_id, bid, b->nb);
    TAKE(buf_size, bsize, b->nb);
    TAKE(buf_alloc, balloc, b->nb);
    TAKE(buf_free, bfree, b->nb);
#undef TAKE
    g->n = n;
    g->measured_peak = -1;
    g->nbufs = b->nb;
    g->ops = b->ops;
    b->ops = NULL;
    g->nops = b->nops;
    if (!b->pool) pool_add(b, "");
    g->strpool = b->pool;
    b->pool = NULL;
    g->strpool_len = b->plen;
    g->ids = b->ids;
    memset(&b->ids, 0, sizeof b->ids);
    g->bufids = b->bufids;
    memset(&b->bufids, 0, sizeof b->bufids);
    g->source = strdup(source);
    if (g->inputs == NULL) g->inputs = calloc(1, sizeof *g->inputs);
    if (!g->id || !g->source) {
        b->oom = 1;
        graph_free(g);
        return NULL;
    }
    return g;
}

void graph_build_free_changes(graph *g)
{
    for (uint32_t k = 0; k < g->nbufs; k++)
        if (g->buf_alloc[k] != GRAPH_NONE && g->buf_free[k] != GRAPH_NONE)
            g->change[g->buf_free[k]] = -g->buf_size[k];
}

/* Resolves the Ids of the edges to node indices, in place: pair e's two
 * uint32s are written at bytes 8e.., below the int64 pair at 16e.. still to
 * be read. Returns how many edges resolved, after reporting the others. */
static size_t resolve_edges(graph_builder *b, const graph *g, uint32_t *pairs)
{
    size_t m = 0;
    /* Ids 0, 1, 2... in order (as gen and most exporters write them): the Id is the index. */
    uint32_t i = 0;
    while (i < g->n && g->id[i] == i) i++;
    int identity = i == g->n;
    for (size_t e = 0; e < b->ne; e++) {
        int64_t iu = b->ep[2 * e], iv = b->ep[2 * e + 1];
        uint32_t u, v;
        if (identity) {
            u = iu >= 0 && iu < g->n ? (uint32_t)iu : IMAP_NONE;
            v = iv >= 0 && iv < g->n ? (uint32_t)iv : IMAP_NONE;
        } else {
            u = imap_get(&g->ids, iu);
            v = imap_get(&g->ids, iv);
        }
        if (u == IMAP_NONE || v == IMAP_NONE) {
            ERR(b, DC_EDGE, "Edges[%zu] = [%lld, %lld]: node %lld does not exist", e, (long long)iu,
                (long long)iv, (long long)(u == IMAP_NONE ? iu : iv));
            continue;
        }
        if (u == v) {
            ERR(b, DC_EDGE, "Edges[%zu] = [%lld, %lld]: self-loop; a node cannot run before itself",
                e, (long long)iu, (long long)iv);
            continue;
        }
        pairs[2 * m] = u;
        pairs[2 * m + 1] = v;
        m++;
    }
    return m;
}

/* Drops repeated edges from the successor lists, keeping the first; seen[v]
 * marks v's last source. Returns the edges kept. */
static uint32_t drop_repeats(graph_builder *b, graph *g, uint32_t *succ, uint32_t *seen)
{
    uint32_t n = g->n, w = 0;
    for (uint32_t i = 0; i < n; i++) seen[i] = UINT32_MAX;
    for (uint32_t u = 0; u < n; u++) {
        uint32_t lo = g->succ_off[u], hi = g->succ_off[u + 1];
        g->succ_off[u] = w;
        for (uint32_t e = lo; e < hi; e++) {
            uint32_t v = succ[e];
            if (seen[v] == u) {
                WARN(b, DC_DUP_EDGE, "edge [%lld, %lld] is listed more than once; it is kept once",
                     (long long)g->id[u], (long long)g->id[v]);
                continue;
            }
            seen[v] = u;
            succ[w++] = v;
        }
    }
    g->succ_off[n] = w;
    return w;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, c = *(const uint32_t *)y;
    return (a > c) - (a < c);
}

/* Sorts each target's sources ascending, as the general path below leaves them. Returns 0, or
 * 1 when a source repeats (the general path's business: its warnings in its order). */
static int sort_sources(const graph *g, uint32_t *pred)
{
    for (uint32_t v = 0; v < g->n; v++) {
        uint32_t lo = g->pred_off[v], hi = g->pred_off[v + 1];
        if (hi - lo > 32) {
            qsort(pred + lo, hi - lo, sizeof *pred, cmp_u32);
            for (uint32_t i = lo + 1; i < hi; i++)
                if (pred[i] == pred[i - 1]) return 1;
            continue;
        }
        for (uint32_t i = lo + 1; i < hi; i++) {
            uint32_t x = pred[i], j = i;
            for (; j > lo && pred[j - 1] > x; j--) pred[j] = pred[j - 1];
            if (j > lo && pred[j - 1] == x) return 1;
            pred[j] = x;
        }
    }
    return 0;
}

/* The edges grouped by target (each target's edges one after another, as gen and the
 * exporters write them) and none repeated: each predecessor list is a group, sorted; the
 * successor lists are filled in input order. The same arrays as the general path below,
 * without its scattered passes over the predecessors and the repeats. Returns 0 when built, 1
 * when the edges are not so (nothing changed), -1 when out of memory. */
static int edges_by_target(graph *g, const uint32_t *pairs, size_t m)
{
    uint32_t n = g->n, last = UINT32_MAX;
    size_t e = 0;
    for (; e < m; e++) {
        uint32_t v = pairs[2 * e + 1];
        if (v != last && g->pred_off[v + 1]) break; /* v's group again */
        last = v;
        g->succ_off[pairs[2 * e] + 1]++;
        g->pred_off[v + 1]++;
    }
    int rc = e < m;
    if (!rc) {
        for (uint32_t i = 0; i < n; i++) {
            g->succ_off[i + 1] += g->succ_off[i];
            g->pred_off[i + 1] += g->pred_off[i];
        }
        g->pred = malloc((m + 1) * sizeof *g->pred);
        if (!g->pred) return -1;
        for (e = 0; e < m;) { /* a group at a time */
            uint32_t v = pairs[2 * e + 1], at = g->pred_off[v];
            for (; e < m && pairs[2 * e + 1] == v; e++) g->pred[at++] = pairs[2 * e];
        }
        rc = sort_sources(g, g->pred);
    }
    if (rc) {
        free(g->pred);
        g->pred = NULL;
        memset(g->succ_off, 0, ((size_t)n + 1) * sizeof *g->succ_off);
        memset(g->pred_off, 0, ((size_t)n + 1) * sizeof *g->pred_off);
        return 1;
    }
    uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
    g->succ = malloc((m + 1) * sizeof *g->succ);
    if (!fill || !g->succ) {
        free(fill);
        return -1;
    }
    memcpy(fill, g->succ_off, (size_t)n * sizeof *fill);
    for (e = 0; e < m; e++) g->succ[fill[pairs[2 * e]]++] = pairs[2 * e + 1];
    free(fill);
    g->nedges = (uint32_t)m;
    return 0;
}

int graph_build_edges(graph_builder *b, graph *g)
{
    uint32_t n = g->n;
    if (b->ne + b->nei / 2 > UINT32_MAX - 1) {
        ERR(b, DC_LIMIT, "too many edges (%zu); the limit is %u", b->ne + b->nei / 2,
            UINT32_MAX - 1);
        return -1;
    }
    g->succ_off = calloc((size_t)n + 1, sizeof *g->succ_off);
    g->pred_off = calloc((size_t)n + 1, sizeof *g->pred_off);
    if (!g->succ_off || !g->pred_off) {
        b->oom = 1;
        return -1;
    }
    uint32_t *pairs = b->ei ? b->ei : (uint32_t *)b->ep;
    size_t m = b->ei ? b->nei / 2 : resolve_edges(b, g, pairs);
    if (b->d->nerrors) return -1;
    int fast = edges_by_target(g, pairs, m);
    if (fast <= 0) {
        free(b->ep);
        free(b->ei);
        b->ep = NULL;
        b->ei = NULL;
        if (fast < 0) b->oom = 1;
        return fast;
    }

    /* Stable counting sort by source keeps each node's edges in input order. */
    for (size_t e = 0; e < m; e++) g->succ_off[pairs[2 * e] + 1]++;
    for (uint32_t i = 0; i < n; i++) g->succ_off[i + 1] += g->succ_off[i];
    uint32_t *succ = malloc((m + 1) * sizeof *succ);
    uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
    if (!succ || !fill) {
        free(succ);
        free(fill);
        b->oom = 1;
        return -1;
    }
    memcpy(fill, g->succ_off, (size_t)n * sizeof *fill);
    for (size_t e = 0; e < m; e++) succ[fill[pairs[2 * e]]++] = pairs[2 * e + 1];
    free(b->ep);
    free(b->ei);
    b->ep = NULL;
    b->ei = NULL;

    uint32_t w = drop_repeats(b, g, succ, fill);
    g->nedges = w;
    uint32_t *shrunk = realloc(succ, ((size_t)w + 1) * sizeof *succ);
    g->succ = shrunk ? shrunk : succ;

    /* Reverse CSR. */
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
            g->pred_off[g->succ[e] + 1]++;
    for (uint32_t i = 0; i < n; i++) g->pred_off[i + 1] += g->pred_off[i];
    g->pred = malloc(((size_t)w + 1) * sizeof *g->pred);
    if (!g->pred) {
        free(fill);
        b->oom = 1;
        return -1;
    }
    memcpy(fill, g->pred_off, (size_t)n * sizeof *fill);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
            g->pred[fill[g->succ[e]]++] = u;
    free(fill);
    return 0;
}
