/* test_budget_brute.c: the brute force over the (ran, present, version) states of the small
 * random graphs of test_budget.c (Dijkstra: every run and free a move, recompute only), the
 * optimum that the solvers are held to. Part of the test_budget binary. */
#include "testutil.h"
#include "test_budget.h"

/* The brute force's queue: states by extra time, least first. */
typedef struct bitem {
    long k;
    uint64_t st;
} bitem;

static void bswap(bitem *h, size_t a, size_t b)
{
    bitem t = h[a];
    h[a] = h[b];
    h[b] = t;
}

static void bpush(bitem **h, size_t *n, size_t *cap, bitem it)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 1024;
        *h = realloc(*h, *cap * sizeof **h);
        assert_non_null(*h);
    }
    size_t i = (*n)++;
    (*h)[i] = it;
    while (i && (*h)[(i - 1) / 2].k > (*h)[i].k) {
        bswap(*h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static bitem bpop(bitem *h, size_t *n)
{
    bitem top = h[0];
    h[0] = h[--*n];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < *n && h[l].k < h[m].k) m = l;
        if (r < *n && h[r].k < h[m].k) m = r;
        if (m == i) break;
        bswap(h, i, m);
        i = m;
    }
    return top;
}

/* The least extra time known of each state reached: open addressing on the state. */
typedef struct bmap {
    uint64_t *key; /* state + 1; 0: empty */
    long *dist;
    size_t cap, n;
} bmap;

static size_t bslot(const bmap *d, uint64_t st)
{
    size_t i = (size_t)((st + 1) * 0x9e3779b97f4a7c15ull >> 20) & (d->cap - 1);
    while (d->key[i] && d->key[i] != st + 1) i = (i + 1) & (d->cap - 1);
    return i;
}

static long *bdist(bmap *d, uint64_t st) /* the entry of st, made (-1) when new */
{
    if (2 * (d->n + 1) > d->cap) {
        bmap e = {calloc(d->cap * 2, 8), malloc(d->cap * 2 * sizeof(long)), d->cap * 2, d->n};
        assert_true(e.key && e.dist);
        for (size_t i = 0; i < d->cap; i++)
            if (d->key[i]) {
                size_t j = bslot(&e, d->key[i] - 1);
                e.key[j] = d->key[i];
                e.dist[j] = d->dist[i];
            }
        free(d->key);
        free(d->dist);
        *d = e;
    }
    size_t i = bslot(d, st);
    if (!d->key[i]) {
        d->key[i] = st + 1;
        d->dist[i] = -1;
        d->n++;
    }
    return &d->dist[i];
}

/* What the brute force knows of g: each node's first-run needs (what made the versions it
 * reads), the version it reads of each buffer, and the changed buffers' places in the state. */
typedef struct bctx {
    const small *g;
    unsigned prodmask[MAXN];
    int rv[MAXN][MAXB]; /* the changes in place of b before node v */
    int slot[MAXB];     /* a changed buffer's 2 bits of version in the state, or -1 */
    int nchg[MAXB];     /* its changes in place in all */
} bctx;

static int bver(const bctx *c, uint64_t vers, int b)
{
    return c->slot[b] < 0 ? 0 : (int)(vers >> (2 * c->slot[b]) & 3);
}

static uint64_t bset(const bctx *c, uint64_t vers, int b, int k)
{
    if (c->slot[b] < 0) return vers;
    return (vers & ~(3ull << (2 * c->slot[b]))) | (uint64_t)k << (2 * c->slot[b]);
}

/* A move from state (ran, pres, vers) of g: run node mv, or free buffer mv - m. 0 with the
 * new state and its extra time in *ns, *nd; -1 when the move is not allowed. */
static int bmove(const bctx *c, int64_t budget, unsigned ran, unsigned pres, uint64_t vers, long d,
                 int mv, uint64_t *ns, long *nd)
{
    const small *g = c->g;
    unsigned nran = ran, npres = pres;
    uint64_t nvers = vers;
    *nd = d;
    if (mv < g->m) {
        int v = mv, again = ran >> v & 1;
        if (again ? !g->rerun[v] : (ran & c->prodmask[v]) != c->prodmask[v]) return -1;
        if ((pres & g->in[v]) != g->in[v]) return -1;
        for (int b = 0; b < g->nb; b++) {
            if ((g->in[v] >> b & 1) && bver(c, vers, b) != c->rv[v][b]) return -1;
            if (g->out[v] >> b & 1) nvers = bset(c, nvers, b, 0);
            if (g->chg[v] >> b & 1) nvers = bset(c, nvers, b, c->rv[v][b] + 1);
        }
        npres |= g->out[v];
        nran |= 1u << v;
        int64_t mem = 0;
        for (unsigned bs = npres; bs; bs &= bs - 1) mem += g->size[__builtin_ctz(bs)];
        if (mem > budget) return -1;
        if (again) *nd += g->lat[v];
    } else {
        int b = mv - g->m;
        if (!(pres >> b & 1)) return -1;
        npres &= ~(1u << b);
        nvers = bset(c, nvers, b, 0);
    }
    *ns = nran | (uint64_t)npres << g->m | nvers << (g->m + g->nb);
    return 0;
}

static void bctx_init(bctx *c, const small *g)
{
    int mk[MAXB], k = 0;
    c->g = g;
    for (int b = 0; b < g->nb; b++) {
        c->nchg[b] = 0;
        c->slot[b] = -1;
    }
    for (int v = 0; v < g->m; v++) {
        c->prodmask[v] = 0;
        for (int b = 0; b < g->nb; b++) {
            c->rv[v][b] = c->nchg[b];
            if (g->in[v] >> b & 1) c->prodmask[v] |= 1u << mk[b];
        }
        if (g->chained) c->prodmask[v] |= (1u << v) - 1;
        for (int b = 0; b < g->nb; b++) {
            if (g->out[v] >> b & 1) mk[b] = v;
            if (g->chg[v] >> b & 1) {
                mk[b] = v;
                if (!c->nchg[b]++) c->slot[b] = k++;
            }
        }
    }
    assert_true(2 * k + g->m + g->nb <= 64);
}

long brute(const small *g, int64_t budget) { return brute_capped(g, budget, 0); }

long brute_capped(const small *g, int64_t budget, size_t cap)
{
    size_t hn = 0, hcap = 0;
    long best = -1;
    bitem *heap = NULL;
    bmap dist = {calloc(1024, 8), malloc(1024 * sizeof(long)), 1024, 0};
    assert_true(dist.key && dist.dist);
    bctx c;
    bctx_init(&c, g);
    unsigned all = (1u << g->m) - 1;
    *bdist(&dist, 0) = 0;
    bpush(&heap, &hn, &hcap, (bitem){0, 0});
    while (hn) {
        bitem it = bpop(heap, &hn);
        if (it.k != *bdist(&dist, it.st)) continue;
        unsigned ran = (unsigned)(it.st & all),
                 pres = (unsigned)(it.st >> g->m & ((1u << g->nb) - 1));
        uint64_t vers = it.st >> (g->m + g->nb);
        int done = ran == all && (pres & g->keep) == g->keep;
        for (int b = 0; done && b < g->nb; b++)
            done = !(g->keep >> b & 1) || bver(&c, vers, b) == c.nchg[b];
        if (done) {
            best = it.k;
            break;
        }
        if (cap && dist.n > cap) {
            best = -2;
            break;
        }
        for (int mv = 0; mv < g->m + g->nb; mv++) {
            uint64_t ns;
            long nd;
            if (bmove(&c, budget, ran, pres, vers, it.k, mv, &ns, &nd)) continue;
            long *dn = bdist(&dist, ns);
            if (*dn >= 0 && *dn <= nd) continue;
            *dn = nd;
            bpush(&heap, &hn, &hcap, (bitem){nd, ns});
        }
    }
    free(dist.key);
    free(dist.dist);
    free(heap);
    return best;
}
