/* test_budget_chain.c: the chain solver of memory budgets (budget_chain): uniform chains
 * against Griewank's revolve (with s slots a chain of l steps needs r*l - C(s+r, r-1) forward
 * steps, r the least with l <= C(s+r, r)) and, up to 4 steps, a brute force over (ran,
 * present) states; heterogeneous chains against the brute force; every plan through budget_check,
 * the why of graphs that are not chains, and the solve_ctx limits (time, cancel, the table's
 * memory). */
#include "testutil.h"
#include "sched/budget/budget.h"
#include "sched/graph/solve_watch.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

/* ------------------------------------------------------------ chains */

#define MAXL 32

/* A chain as the tests build it: an Input makes x (size in0); segment i (1..l) is one forward
 * node F_i, or two (F_i' makes u_i of usize[i], F_i reads it), F_i reading the cut before it
 * (x for i = 1) and making the cut c_i (csize[i]) and the tape t_i (tsize[i]; none when 0);
 * the backward B_l..B_1: B_i reads t_i (when there is one), c_i when readc[i], c_{i-1} when
 * readp[i], u_i when readu[i], t_{i-1} when readt[i], and comes after B_{i+1} by an Edge; B_1 makes
 * the kept g. */
typedef struct chainspec {
    int l;
    int64_t in0, csize[MAXL + 1], tsize[MAXL + 1], usize[MAXL + 1];
    int lat[MAXL + 1], two[MAXL + 1], readc[MAXL + 1], readp[MAXL + 1], readu[MAXL + 1];
    int readt[MAXL + 1]; /* B_i reads t_{i-1}: no longer a chain of l segments */
} chainspec;

typedef struct sbuf {
    char *s;
    size_t n, cap;
} sbuf;

static void sb(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->n + (size_t)k + 1 > b->cap) {
        b->cap = (b->n + (size_t)k + 1) * 2;
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

/* BufIds: x 1; c_i 100 + i; t_i 200 + i; u_i 300 + i; g 400. Node Ids in the given order. */
static int alloc_node(sbuf *nodes, sbuf *edges, int *id, int buf, int64_t size, int writer)
{
    sb(nodes, "{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": %lld, \"BufId\": %d},\n", *id,
       (long long)size, buf);
    sb(edges, "[%d, %d], ", *id, writer);
    return (*id)++;
}

static char *chain_json(const chainspec *c)
{
    sbuf n = {0}, e = {0};
    int id = 0, fid[MAXL + 1], bid[MAXL + 2], pid[MAXL + 1];
    /* Ids: an ALLOC gets the Id before its writer's; writers' Ids are fixed as we go. */
    alloc_node(&n, &e, &id, 1, c->in0, id + 1);
    sb(&n, "{\"Id\": %d, \"Op\": \"Input\", \"Inputs\": [1]},\n", id);
    fid[0] = id++;
    for (int i = 1; i <= c->l; i++) {
        if (c->two[i]) {
            alloc_node(&n, &e, &id, 300 + i, c->usize[i], id + 1);
            sb(&n,
               "{\"Id\": %d, \"Op\": \"Pre\", \"Latency\": 1, \"Phase\": \"forward\", "
               "\"Inputs\": [%d, %d]},\n",
               id, i == 1 ? 1 : 100 + i - 1, 300 + i);
            sb(&e, "[%d, %d], ", fid[i - 1], id);
            pid[i] = id++;
        }
        int w = id + 1 + (c->tsize[i] > 0);
        alloc_node(&n, &e, &id, 100 + i, c->csize[i], w);
        if (c->tsize[i] > 0) alloc_node(&n, &e, &id, 200 + i, c->tsize[i], w);
        sb(&n,
           "{\"Id\": %d, \"Op\": \"F\", \"Latency\": %d, \"Phase\": \"forward\", \"Inputs\": "
           "[%d, %d",
           id, c->lat[i], i == 1 ? 1 : 100 + i - 1, 100 + i);
        if (c->tsize[i] > 0) sb(&n, ", %d", 200 + i);
        if (c->two[i]) sb(&n, ", %d", 300 + i);
        sb(&n, "]},\n");
        sb(&e, "[%d, %d], ", fid[i - 1], id);
        if (c->two[i]) sb(&e, "[%d, %d], ", pid[i], id);
        fid[i] = id++;
    }
    bid[c->l + 1] = -1;
    for (int i = c->l; i >= 1; i--) {
        int gbuf = i == 1 ? alloc_node(&n, &e, &id, 400, 0, id + 1) : -1;
        (void)gbuf;
        sb(&n,
           "{\"Id\": %d, \"Op\": \"B\", \"Latency\": 1, \"Phase\": \"backward\", "
           "\"Inputs\": [",
           id);
        const char *sep = "";
        if (c->tsize[i] > 0) {
            sb(&n, "%s%d", sep, 200 + i);
            sep = ", ";
        }
        if (c->readc[i]) {
            sb(&n, "%s%d", sep, 100 + i);
            sep = ", ";
        }
        if (c->readp[i] && i > 1) {
            sb(&n, "%s%d", sep, 100 + i - 1);
            sep = ", ";
        }
        if (c->readu[i] && c->two[i]) {
            sb(&n, "%s%d", sep, 300 + i);
            sep = ", ";
        }
        if (c->readt[i] && i > 1) {
            sb(&n, "%s%d", sep, 200 + i - 1);
            sep = ", ";
        }
        if (i == 1) sb(&n, "%s400", sep);
        sb(&n, "]},\n");
        sb(&e, "[%d, %d], ", fid[i], id);
        if ((c->readp[i] || c->readt[i]) && i > 1) sb(&e, "[%d, %d], ", fid[i - 1], id);
        if (c->readu[i] && c->two[i]) sb(&e, "[%d, %d], ", pid[i], id);
        if (bid[i + 1] >= 0) sb(&e, "[%d, %d], ", bid[i + 1], id);
        bid[i] = id++;
    }
    /* Every buffer but g freed by a FREE after the last node (simple and valid). */
    int last = bid[1];
    sb(&n, "{\"Id\": %d, \"Op\": \"FREE\", \"BufId\": 1}", id);
    sb(&e, "[%d, %d]", last, id++);
    for (int i = 1; i <= c->l; i++) {
        int bufs[3] = {100 + i, c->tsize[i] > 0 ? 200 + i : 0, c->two[i] ? 300 + i : 0};
        for (int k = 0; k < 3; k++)
            if (bufs[k]) {
                sb(&n, ",\n{\"Id\": %d, \"Op\": \"FREE\", \"BufId\": %d}", id, bufs[k]);
                sb(&e, ", [%d, %d]", last, id++);
            }
    }
    sbuf out = {0};
    sb(&out, "{\"Nodes\": [\n%s], \"Edges\": [%s]}", n.s, e.s);
    free(n.s);
    free(e.s);
    return out.s;
}

/* ------------------------------------------------------------ the brute force */

static void push4(sbuf *b, uint32_t w)
{
    if (b->n + 4 > b->cap) {
        b->cap = b->cap ? b->cap * 2 : 256;
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
    memcpy(b->s + b->n, &w, 4);
    b->n += 4;
}

/* The least extra time (the reruns' latencies) of any plan within budget, recompute only, or
 * -1: Dijkstra over (ran, present) states of bm (at most 24 bits), buckets by extra time. */
static long brute(const budget_model *bm, int64_t budget)
{
    const graph *g = bm->g;
    int m = (int)bm->m, nb = (int)g->nbufs;
    assert_true(m + nb <= 24);
    unsigned rd[32] = {0}, wr[32] = {0}, after[32] = {0}, keep = 0, start = 0, all = (1u << m) - 1;
    int lat[32];
    for (int i = 0; i < m; i++) {
        uint32_t v = bm->order[i];
        lat[i] = (int)graph_latency(g, v);
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) rd[i] |= 1u << bm->rd[e];
        for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) wr[i] |= 1u << bm->wr[e];
        for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1]; e++)
            if (bm->pos[g->pred[e]] != GRAPH_NONE) after[i] |= 1u << bm->pos[g->pred[e]];
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
            if (bm->producer[bm->rd[e]] != GRAPH_NONE)
                after[i] |= 1u << bm->pos[bm->producer[bm->rd[e]]];
    }
    for (int b = 0; b < nb; b++) {
        keep |= (unsigned)bm->keep[b] << b;
        start |= (unsigned)(bm->producer[b] == GRAPH_NONE) << b;
    }
    size_t N = (size_t)1 << (m + nb);
    uint8_t *dist = malloc(N);
    assert_non_null(dist);
    memset(dist, 0xff, N);
    enum { LEVELS = 255 };
    sbuf q[LEVELS] = {{0}};
    uint32_t s0 = start << m;
    dist[s0] = 0;
    push4(&q[0], s0);
    long best = -1;
    for (int d = 0; d < LEVELS && best < 0; d++) {
        for (size_t k = 0; k + 4 <= q[d].n && best < 0; k += 4) {
            uint32_t st;
            memcpy(&st, q[d].s + k, 4);
            if (dist[st] != d) continue;
            unsigned ran = st & all, pres = st >> m;
            if (ran == all && (pres & keep) == keep) best = d;
            for (int mv = 0; mv < m + nb && best < 0; mv++) {
                unsigned nran = ran, npres = pres;
                int nd = d;
                if (mv < m) {
                    int again = ran >> mv & 1;
                    if (again ? !bm->rerunnable[bm->order[mv]] : (ran & after[mv]) != after[mv])
                        continue;
                    if ((pres & rd[mv]) != rd[mv]) continue;
                    npres |= wr[mv];
                    nran |= 1u << mv;
                    int64_t mem = 0;
                    for (int b = 0; b < nb; b++)
                        if (npres >> b & 1) mem += g->buf_size[b];
                    if (mem > budget) continue;
                    nd += again ? lat[mv] : 0;
                } else {
                    if (!(pres >> (mv - m) & 1)) continue;
                    npres &= ~(1u << (mv - m));
                }
                uint32_t ns = nran | npres << m;
                if (nd >= LEVELS || dist[ns] <= nd) continue;
                dist[ns] = (uint8_t)nd;
                push4(&q[nd], ns);
            }
        }
    }
    for (int d = 0; d < LEVELS; d++) free(q[d].s);
    free(dist);
    return best;
}

/* ------------------------------------------------------------ helpers */

static graph *load_ok(const char *json)
{
    diag d;
    graph *g = tu_load(json, &d);
    if (!g) tu_print_diag(&d);
    assert_non_null(g);
    diag_free(&d);
    return g;
}

static void model_ok(budget_model *bm, const graph *g)
{
    char err[256];
    assert_int_equal(budget_model_init(bm, g, err, sizeof err), 0);
}

static int64_t free_peak(const budget_model *bm)
{
    budget_plan p = {0};
    budget_stats st;
    char err[256];
    assert_int_equal(budget_given_plan(bm, &p), 0);
    if (budget_check(bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
    budget_plan_free(&p);
    return st.peak;
}

/* chain at budget: 1 with its plan checked (within the budget) and its stats in st, or 0. */
static int chain_checked(const budget_model *bm, int64_t budget, budget_stats *st,
                         budget_outcome *o)
{
    budget_plan p = {0};
    char err[256];
    assert_int_equal(
        budget_chain(bm, &(budget_goal){budget, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL},
                     NULL, &p, o, NULL),
        0);
    if (o->found) {
        if (budget_check(bm, &p, BUDGET_BANDWIDTH, st, err, sizeof err)) fail_msg("%s", err);
        assert_true(st->peak <= budget);
    } else {
        assert_int_equal(p.n, 0);
        assert_true(o->why[0]);
    }
    budget_plan_free(&p);
    return o->found;
}

/* Griewank's revolve: the least forward steps (beyond one taped forward a step) that reverse
 * a chain of l steps with s checkpoints. */
static long revolve(long l, long s)
{
    long r = 0, c = 1; /* c = C(s + r, r) */
    while (l > c) {
        r++;
        c = c * (s + r) / r;
    }
    long c1 = 0; /* C(s + r, r - 1) = C(s + r, r) * r / (s + 1) */
    if (r >= 1) c1 = c * r / (s + 1);
    return r * l - c1;
}

/* ------------------------------------------------------------ uniform chains */

/* Each step: F_i reads c_{i-1} (A bytes), makes c_i (A) and its tape t_i (T = 10 A, what
 * B_i reads). A plan holds the Input's x (A) throughout, then at most: s cut buffers kept
 * (checkpoints, x among them as revolve's x_0), one being read and one being made by a
 * forward step, and one tape: with budget (s + 2) A + T, s is revolve's number of
 * checkpoints. T over the rest of the budget makes keeping a tape beside a checkpoint cost
 * more than revolve allows, so the chain model is revolve's. */
static void uniform_chains_match_revolve(void **state)
{
    (void)state;
    const int64_t A = 1000, T = 10 * A;
    int cases = 0;
    for (int l = 2; l <= 30; l++) {
        chainspec c = {.l = l, .in0 = A};
        for (int i = 1; i <= l; i++) {
            c.csize[i] = A;
            c.tsize[i] = T;
            c.lat[i] = 1;
        }
        char *json = chain_json(&c);
        graph *g = load_ok(json);
        budget_model bm;
        model_ok(&bm, g);
        for (int s = 1; s <= 5; s++) {
            budget_stats st;
            budget_outcome o;
            if (!chain_checked(&bm, (s + 2) * A + T, &st, &o))
                fail_msg("l %d s %d: %s", l, s, o.why);
            if ((long)st.reruns != revolve(l, s))
                fail_msg("l %d s %d: %llu reruns, revolve says %ld", l, s,
                         (unsigned long long)st.reruns, revolve(l, s));
            assert_true(st.extra_ms == (double)st.reruns); /* latency 1 each */
            assert_non_null(strstr(o.why, "slots of 1000 bytes"));
            if (l <= 4) /* small enough for the brute force: the least over every plan */
                assert_int_equal(brute(&bm, (s + 2) * A + T), (long)st.reruns);
            cases++;
        }
        /* one byte less than 1 slot: x, a step's input and output and a tape do not fit */
        budget_stats st;
        budget_outcome o;
        assert_false(chain_checked(&bm, 2 * A + T - 1, &st, &o));
        assert_non_null(strstr(o.why, "no plan of the chain model"));
        budget_model_free(&bm);
        graph_free(g);
        free(json);
    }
    assert_int_equal(revolve(10, 2), 3 * 10 - 10); /* r = 3: C(4,2) = 6 < 10 <= C(5,3) */
    print_message("%d uniform chains matched revolve\n", cases);
}

/* ------------------------------------------------------------ heterogeneous chains */

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int rnd(uint64_t *s, int n) { return (int)(rng(s) % (uint64_t)n); }

/* A random chain of 2 or 3 segments, of at most 24 state bits for the brute force. */
static void random_chain(chainspec *c, uint64_t *s)
{
    do {
        memset(c, 0, sizeof *c);
        c->l = 2 + rnd(s, 2);
        c->in0 = 100 * (1 + rnd(s, 4));
        int nodes = 1 + 2 * c->l, bufs = 2;
        for (int i = 1; i <= c->l; i++) {
            c->csize[i] = 100 * (1 + rnd(s, 6));
            c->tsize[i] = rnd(s, 3) ? 100 * (1 + rnd(s, 6)) : 0;
            c->lat[i] = 1 + rnd(s, 5);
            c->two[i] = rnd(s, 4) == 0;
            c->usize[i] = 100 * (1 + rnd(s, 4));
            c->readc[i] = rnd(s, 3) == 0 || !c->tsize[i];
            c->readp[i] = rnd(s, 4) == 0;
            c->readu[i] = rnd(s, 3) == 0;
            nodes += c->two[i];
            bufs += 1 + (c->tsize[i] > 0) + c->two[i];
        }
        if (nodes + bufs <= 20) return;
    } while (1);
}

/* chain's extra time never below the brute force's least, a plan whenever chain finds one
 * checked, none where the brute force finds none, a plan for at least half the budgets where
 * one exists. Equality is counted, not asserted: the chain model holds what comes from
 * outside the chain (the Input's x) throughout and each cut while its stretch runs, so a plan
 * that frees x after the first forward, say, is out of its reach (the uniform chains above
 * are where it is exact, and there it equals the brute force). */
static void chains_against_brute_force(void **state)
{
    (void)state;
    uint64_t seed = 0x2545f4914f6cdd1dull;
    int cases = 0, feasible = 0, found = 0, equal = 0, whole = 0, whole_equal = 0;
    for (int t = 0; t < 60; t++) {
        chainspec c;
        random_chain(&c, &seed);
        char *json = chain_json(&c);
        graph *g = load_ok(json);
        budget_model bm;
        model_ok(&bm, g);
        int64_t peak = free_peak(&bm), lb = budget_lower_bound(&bm);
        int simple = 1;
        for (int i = 1; i <= c.l; i++) simple &= !c.two[i] && !c.readp[i];
        for (int64_t b = lb - 100; b <= peak; b += 100) {
            if (b < 1) continue;
            long opt = brute(&bm, b);
            budget_stats st;
            budget_outcome o;
            int f = chain_checked(&bm, b, &st, &o);
            cases++;
            feasible += opt >= 0;
            if (opt < 0) assert_false(f);
            if (!f) {
                assert_int_equal(o.stopped, SOLVE_DONE);
                continue;
            }
            found++;
            if (st.extra_ms < (double)opt)
                fail_msg("chain %g below the brute force's %ld at %lld:\n%s", st.extra_ms, opt,
                         (long long)b, json);
            equal += st.extra_ms == (double)opt;
            whole += simple;
            whole_equal += simple && st.extra_ms == (double)opt;
        }
        budget_model_free(&bm);
        graph_free(g);
        free(json);
    }
    print_message("%d budgets: %d feasible, chain found %d (%d optimal); one-node segments: %d "
                  "found, %d optimal\n",
                  cases, feasible, found, equal, whole, whole_equal);
    assert_true(found * 2 >= feasible);
}

/* ------------------------------------------------------------ not chains */

static void expect_not_chain(const char *json, const char *words)
{
    graph *g = load_ok(json);
    budget_model bm;
    model_ok(&bm, g);
    budget_stats st;
    budget_outcome o;
    if (chain_checked(&bm, INT64_MAX / 4, &st, &o)) fail_msg("a chain: %s", json);
    assert_int_equal(o.stopped, SOLVE_DONE);
    if (!strstr(o.why, "not a chain of segments: ") || !strstr(o.why, words))
        fail_msg("'%s' does not say '%s'", o.why, words);
    budget_model_free(&bm);
    graph_free(g);
}

static void not_chains_say_why(void **state)
{
    (void)state;
    expect_not_chain("{\"Nodes\": [{\"Id\": 0, \"Op\": \"A\"}, {\"Id\": 1, \"Op\": \"B\"}],"
                     " \"Edges\": [[0, 1]]}",
                     "no compute node has Phase forward");
    expect_not_chain("{\"Nodes\": [{\"Id\": 0, \"Op\": \"A\", \"Phase\": \"forward\"},"
                     " {\"Id\": 1, \"Op\": \"B\", \"Phase\": \"forward\"}], \"Edges\": [[0, 1]]}",
                     "no compute node has Phase backward");
    expect_not_chain("{\"Nodes\": [{\"Id\": 0, \"Op\": \"A\", \"Phase\": \"backward\"},"
                     " {\"Id\": 1, \"Op\": \"B\", \"Phase\": \"forward\"}], \"Edges\": [[0, 1]]}",
                     "node Id 0 (A) of Phase backward comes before any forward");
    expect_not_chain("{\"Nodes\": [{\"Id\": 0, \"Op\": \"A\", \"Phase\": \"forward\"},"
                     " {\"Id\": 1, \"Op\": \"Dropout\", \"Phase\": \"forward\"},"
                     " {\"Id\": 2, \"Op\": \"C\", \"Phase\": \"backward\"}],"
                     " \"Edges\": [[0, 1], [1, 2]]}",
                     "node Id 1 (Dropout) of the forward is a random op (its generator state is "
                     "not in the chain's model)");
    expect_not_chain("{\"Nodes\": [{\"Id\": 0, \"Op\": \"A\", \"Phase\": \"forward\"},"
                     " {\"Id\": 1, \"Op\": \"C\", \"Phase\": \"backward\"},"
                     " {\"Id\": 2, \"Op\": \"B\", \"Phase\": \"forward\"}],"
                     " \"Edges\": [[0, 1], [1, 2]]}",
                     "node Id 2 (B) of Phase forward comes after the backward began");
    /* B_2 reads t_1: the two segments are one. */
    chainspec c = {.l = 2, .in0 = 100};
    for (int i = 1; i <= 2; i++) {
        c.csize[i] = 100;
        c.tsize[i] = 100;
        c.lat[i] = 1;
    }
    c.readt[2] = 1;
    char *json = chain_json(&c);
    expect_not_chain(json, "of the backward reads BufId 201 of an earlier segment");
    free(json);
    /* A makes a and b, B reads both: no single buffer joins the forward's two parts. */
    expect_not_chain("{\"Nodes\": ["
                     "{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1},"
                     "{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 2},"
                     "{\"Id\": 2, \"Op\": \"A\", \"Phase\": \"forward\", \"Inputs\": [1, 2]},"
                     "{\"Id\": 3, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 3},"
                     "{\"Id\": 4, \"Op\": \"B\", \"Phase\": \"forward\", \"Inputs\": [1, 2, 3]},"
                     "{\"Id\": 5, \"Op\": \"C\", \"Phase\": \"backward\", \"Inputs\": [3]}],"
                     " \"Edges\": [[0, 2], [1, 2], [2, 4], [3, 4], [4, 5]]}",
                     "no single buffer joins two parts of the forward: after node Id 2 (A), "
                     "BufId 1, BufId 2 are read further on");
}

/* ------------------------------------------------------------ limits, samples */

static double fake_now;
static double fake_clock(void) { return fake_now += 1000; }

static void chain_honours_limits(void **state)
{
    (void)state;
    chainspec c = {.l = 20, .in0 = 1000};
    for (int i = 1; i <= 20; i++) {
        c.csize[i] = 1000;
        c.tsize[i] = 10000;
        c.lat[i] = 1;
    }
    char *json = chain_json(&c);
    graph *g = load_ok(json);
    budget_model bm;
    model_ok(&bm, g);
    budget_plan p = {0};
    budget_outcome o;
    solve_ctx tc = {.seconds = 1, .clock = fake_clock};
    assert_int_equal(
        budget_chain(&bm, &(budget_goal){15000, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, &tc},
                     NULL, &p, &o, NULL),
        0);
    assert_false(o.found);
    assert_int_equal(o.stopped, SOLVE_TIME);
    solve_watch w = {0};
    atomic_store(&w.cancel, 1);
    solve_ctx cc = {.watch = &w};
    assert_int_equal(
        budget_chain(&bm, &(budget_goal){15000, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, &cc},
                     NULL, &p, &o, NULL),
        0);
    assert_int_equal(o.stopped, SOLVE_CANCELLED);
    solve_ctx mc = {.max_memory = 4096};
    assert_int_equal(
        budget_chain(&bm, &(budget_goal){15000, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, &mc},
                     NULL, &p, &o, NULL),
        0);
    assert_int_equal(o.stopped, SOLVE_MEMORY);
    assert_non_null(strstr(o.why, "the DP's table for 20 segments"));
    assert_int_equal(
        budget_chain(&bm, &(budget_goal){15000, BUDGET_ALLOW_OFFLOAD, BUDGET_BANDWIDTH, NULL}, NULL,
                     &p, &o, NULL),
        0);
    assert_false(o.found);
    assert_int_equal(p.n, 0);
    /* A budget of many slots: coarser slots, said, and still a checked plan. */
    budget_stats st;
    assert_true(chain_checked(&bm, 4000000 + 7, &st, &o));
    assert_non_null(strstr(o.why, "rounded up to slots"));
    budget_plan_free(&p);
    budget_model_free(&bm);
    graph_free(g);
    free(json);
}

/* The training samples: chains or not, the why names what breaks them. */
static void training_samples(void **state)
{
    (void)state;
    const char *names[] = {"resnet18_train.json", "transformer_block_train.json"};
    for (int k = 0; k < 2; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/samples/%s", MEMTRIS_SOURCE_DIR, names[k]);
        diag d;
        diag_init(&d, path);
        graph *g = load_file(path, &d, NULL, NULL);
        assert_non_null(g);
        diag_free(&d);
        budget_model bm;
        model_ok(&bm, g);
        int64_t peak = free_peak(&bm);
        budget_stats st;
        budget_outcome o;
        int f = chain_checked(&bm, peak * 60 / 100, &st, &o);
        print_message("%s at 60%%: %s\n", names[k], f ? "a plan" : o.why);
        if (!f)
            assert_true(strstr(o.why, "not a chain of segments") || strstr(o.why, "chain model"));
        budget_model_free(&bm);
        graph_free(g);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(uniform_chains_match_revolve),
        cmocka_unit_test(chains_against_brute_force),
        cmocka_unit_test(not_chains_say_why),
        cmocka_unit_test(chain_honours_limits),
        cmocka_unit_test(training_samples),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
