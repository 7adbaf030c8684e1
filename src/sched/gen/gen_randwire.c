/* gen_randwire.c: kind "randwire" of memtris gen: RandWire's small world, a
 * Watts-Strogatz ring (k = 4, p = 1/4) made a DAG. Exports gen_randwire. */
#include "gen_internal.h"
#include <stdlib.h>
#include <string.h>

#define RW_K 4 /* ring neighbours */

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
    uint32_t h = GEN_NONE, maxin = 1;
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
            if (gen_rng_below(rng, 4) != 0) continue;
            uint32_t e = (j - 1) * n + u, w = gen_rng_below(rng, n);
            int ok = 1;
            while (w == u || pair_has(&s, u, w)) {
                w = gen_rng_below(rng, n);
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
        out[v] = gen_add_op(g, "ReLUConvBN", in, k, 256 * GEN_KiB * (1 + gen_rng_below(rng, 8)),
                            NULL, 0, GEN_OP_NEW, "rw.node%u", v);
    }
    if (!g->oom) {
        uint32_t k = 0;
        for (uint32_t v = 0; v < n; v++)
            if (!has_succ[v]) in[k++] = out[v];
        h = gen_add_op(g, "mean", in, k, 256 * GEN_KiB, NULL, 0, GEN_OP_NEW, "rw.output");
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

/* min_nodes: the input (3) + the smallest body + Output (1). */
const generator gen_randwire = {
    .k = {"randwire", "RandWire small world: Watts-Strogatz ring, k=4, p=1/4", 22},
    .body = body_randwire,
    .input_size = 1024 * GEN_KiB,
    .stream = 6,
};
