/* test_gen.c: the synthetic generators (gen_*): every kind at several sizes
 * loads with no diagnostic and schedules with both policies, in the exporter's
 * shape, with exact node counts, the same bytes for a seed, and 2^52 kept. */
#include <math.h>
#include "testutil.h"
#include "sched/gen/gen.h"

/* ------------------------------------------------------------ helpers */

typedef struct membuf {
    char *p;
    size_t len, cap;
    int calls, fail_at; /* fail_at > 0: the fail_at-th write fails */
} membuf;

static int mem_write(void *ctx, const char *data, size_t len)
{
    membuf *m = ctx;
    if (++m->calls == m->fail_at) return -1;
    if (m->len + len + 1 > m->cap) { /* room for a NUL after the text: strstr reads it */
        size_t nc = m->cap ? m->cap : 4096;
        while (nc < m->len + len + 1) nc *= 2;
        char *q = realloc(m->p, nc);
        if (!q) return -1;
        m->p = q;
        m->cap = nc;
    }
    memcpy(m->p + m->len, data, len);
    m->len += len;
    m->p[m->len] = 0;
    return 0;
}

static const gen_kind *kind(const char *name)
{
    const gen_kind *k = gen_kind_find(name);
    if (!k) fail_msg("no kind '%s'", name);
    return k;
}

/* The JSON of (kind, n, seed); the caller frees m->p. */
static membuf gen_json(const char *name, uint32_t n, uint64_t seed)
{
    membuf m = {0};
    char err[256] = "";
    if (gen_write(kind(name), n, seed, mem_write, &m, err, sizeof err))
        fail_msg("gen %s %u seed %llu failed: %s", name, n, (unsigned long long)seed, err);
    return m;
}

static const char *name_of(const graph *g, uint32_t i)
{
    return g->name[i] ? g->strpool + g->name[i] : "";
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Buffer index of the k-th Inputs entry of node c. */
static uint32_t input_buf(const graph *g, uint32_t c, uint32_t k)
{
    uint32_t b = graph_find_buf(g, g->inputs[g->in_off[c] + k]);
    assert_int_not_equal(b, GRAPH_NONE);
    return b;
}

/* The exporter's shape, checked on the loaded graph. prod[b] gets the
 * compute node that writes buffer b (g->nbufs entries). */
static void check_shape(const graph *g, uint32_t *prod)
{
    uint32_t n = g->n;
    uint32_t *mark = calloc(n, sizeof *mark), stamp = 0;
    uint32_t *nread = calloc(g->nbufs, sizeof *nread);
    assert_true(mark && nread);
    /* Ids 0..n-1 in order; every edge goes forward, so Id order is a schedule. */
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(g->id[i], i);
        if (!g->name[i]) fail_msg("node %u has no Name", i);
        for (uint32_t e = g->succ_off[i]; e < g->succ_off[i + 1]; e++) assert_true(g->succ[e] > i);
    }
    /* One root: the network input's ALLOC, read by the Input node. */
    for (uint32_t i = 1; i < n; i++)
        if (g->pred_off[i] == g->pred_off[i + 1])
            fail_msg("node %u (%s) has no predecessor", i, name_of(g, i));
    assert_int_equal(g->kind[0], NODE_ALLOC);
    assert_string_equal(graph_op(g, 1), "Input");
    /* Each ALLOC has one successor: the compute that writes its buffer and
     * lists it in Inputs. */
    for (uint32_t b = 0; b < g->nbufs; b++) {
        uint32_t a = g->buf_alloc[b];
        assert_int_equal(g->succ_off[a + 1] - g->succ_off[a], 1);
        uint32_t c = g->succ[g->succ_off[a]];
        assert_int_equal(g->kind[c], NODE_COMPUTE);
        int listed = 0;
        for (uint32_t k = 0; k < g->in_off[c + 1] - g->in_off[c]; k++)
            listed |= input_buf(g, c, k) == b;
        assert_true(listed);
        prod[b] = c;
        assert_int_not_equal(g->buf_free[b], GRAPH_NONE);
    }
    for (uint32_t c = 0; c < n; c++) {
        if (g->kind[c] != NODE_COMPUTE) continue;
        /* Reads: Inputs not written by c; each has its own writer among c's
         * predecessors, and c has no other non-ALLOC predecessor. */
        uint32_t nr = 0, na = 0;
        ++stamp;
        for (uint32_t e = g->pred_off[c]; e < g->pred_off[c + 1]; e++) mark[g->pred[e]] = stamp;
        for (uint32_t k = 0; k < g->in_off[c + 1] - g->in_off[c]; k++) {
            uint32_t b = input_buf(g, c, k);
            if (prod[b] == c) {
                na++;
                assert_int_equal(mark[g->buf_alloc[b]], stamp);
                continue;
            }
            nr++;
            nread[b]++;
            int found = 0;
            for (uint32_t e = g->pred_off[c]; e < g->pred_off[c + 1] && !found; e++) {
                uint32_t p = g->pred[e];
                if (g->kind[p] != NODE_COMPUTE) continue;
                for (uint32_t j = 0; j < g->in_off[p + 1] - g->in_off[p]; j++)
                    if (input_buf(g, p, j) == b &&
                        (prod[b] == p || g->in_off[p + 1] - g->in_off[p] == 1))
                        found = 1;
            }
            if (!found)
                fail_msg("node %u (%s) reads buffer %u without depending on its writer", c,
                         name_of(g, c), b);
        }
        assert_int_equal(g->pred_off[c + 1] - g->pred_off[c], nr + na);
        /* Each of c's ALLOCs depends on exactly c's other predecessors, so
         * it is ready when c could run. */
        for (uint32_t e = g->pred_off[c]; e < g->pred_off[c + 1]; e++) {
            uint32_t a = g->pred[e];
            if (g->kind[a] != NODE_ALLOC) continue;
            assert_int_equal(g->pred_off[a + 1] - g->pred_off[a], nr);
            for (uint32_t f = g->pred_off[a]; f < g->pred_off[a + 1]; f++) {
                uint32_t p = g->pred[f];
                assert_int_equal(mark[p], stamp);
                assert_int_equal(g->kind[p], NODE_COMPUTE);
            }
        }
    }
    /* Each FREE depends on exactly its producer and its readers, and comes
     * right after the last of them (only FREEs in between). */
    for (uint32_t b = 0; b < g->nbufs; b++) {
        uint32_t f = g->buf_free[b], last = 0;
        assert_int_equal(g->pred_off[f + 1] - g->pred_off[f], 1 + nread[b]);
        ++stamp;
        for (uint32_t e = g->pred_off[f]; e < g->pred_off[f + 1]; e++) {
            uint32_t p = g->pred[e];
            assert_int_equal(g->kind[p], NODE_COMPUTE);
            int touches = 0;
            for (uint32_t k = 0; k < g->in_off[p + 1] - g->in_off[p]; k++)
                touches |= input_buf(g, p, k) == b;
            assert_true(touches);
            if (p > last) last = p;
        }
        for (uint32_t i = last + 1; i < f; i++) assert_int_equal(g->kind[i], NODE_FREE);
    }
    /* The end: Output reads the final buffer, whose FREE is the last node. */
    uint32_t out = n - 2, fin = input_buf(g, out, 0);
    assert_string_equal(graph_op(g, out), "Output");
    assert_int_equal(g->in_off[out + 1] - g->in_off[out], 1);
    assert_int_equal(g->buf_free[fin], n - 1);
    free(mark);
    free(nread);
}

/* Runs both policies: every node once, memory back to 0, a peak above 0. */
static void check_runs(const graph *g)
{
    for (size_t p = 0; policy_at(p); p++) {
        run r;
        char err[256] = "";
        if (policy_run(g, policy_at(p), tu_quick(), &r, err, sizeof err))
            fail_msg("%s: %s", policy_at(p)->name, err);
        assert_int_equal(r.n, g->n);
        assert_int_equal(r.memory[r.n - 1], 0);
        assert_true(r.peak > 0);
        policy_run_free(&r);
    }
}

typedef void (*kind_check)(const graph *g, const uint32_t *prod, uint32_t n);

/* Generates kind at each size (and 100000), loads, checks shape, runs. */
static void check_kind(const char *name, kind_check extra)
{
    uint32_t min = kind(name)->min_nodes;
    uint32_t sizes[] = {min, min + 1, min + 2, min + 3, min + 4, 50, 101, 1000, 4321, 100000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "%s-%u.json", name, sizes[i]);
        membuf m = gen_json(name, sizes[i], 1 + i);
        graph *g = tu_load_clean(m.p, m.len, what);
        free(m.p);
        assert_int_equal(g->n, sizes[i]);
        uint32_t *prod = calloc(g->nbufs, sizeof *prod);
        assert_non_null(prod);
        check_shape(g, prod);
        if (extra) extra(g, prod, sizes[i]);
        check_runs(g);
        free(prod);
        graph_free(g);
    }
}

/* Compute nodes of the body: not Input, Output or tail.*. */
static int body_op(const graph *g, uint32_t c)
{
    return g->kind[c] == NODE_COMPUTE && c != 1 && c != g->n - 2 && !starts(name_of(g, c), "tail.");
}

/* Number of Inputs of c that c does not write. */
static uint32_t reads(const graph *g, const uint32_t *prod, uint32_t c, uint32_t *first)
{
    uint32_t r = 0;
    for (uint32_t k = 0; k < g->in_off[c + 1] - g->in_off[c]; k++) {
        uint32_t b = input_buf(g, c, k);
        if (prod[b] != c) {
            if (!r && first) *first = b;
            r++;
        }
    }
    return r;
}

/* Padding: tail.fc ops and in-place tail.relu ops, as documented. */
static void count_tail(const graph *g, uint32_t *fc, uint32_t *relu)
{
    *fc = *relu = 0;
    for (uint32_t c = 0; c < g->n; c++) {
        *fc += starts(name_of(g, c), "tail.fc") && g->kind[c] == NODE_COMPUTE;
        *relu += starts(name_of(g, c), "tail.relu") && g->kind[c] == NODE_COMPUTE;
    }
}

/* ------------------------------------------------------------ kinds */

/* A chain: each body op reads the previous op's output only. */
static void chain_extra(const graph *g, const uint32_t *prod, uint32_t n)
{
    uint32_t prev = 1, ops = 0, fc, relu;
    for (uint32_t c = 2; c < g->n; c++) {
        if (!body_op(g, c)) continue;
        uint32_t b = 0;
        assert_int_equal(reads(g, prod, c, &b), 1);
        assert_int_equal(prod[b], prev);
        prev = c;
        ops++;
    }
    count_tail(g, &fc, &relu);
    assert_int_equal(ops, (n - 4) / 3);
    assert_int_equal(fc, 0);
    assert_int_equal(relu, (n - 4) % 3);
}

static void chain(void **state)
{
    (void)state;
    check_kind("chain", chain_extra);
}

static void huge_extra(const graph *g, const uint32_t *prod, uint32_t n)
{
    chain_extra(g, prod, n);
    uint32_t big = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        if (g->buf_size[b] == GEN_HUGE_SIZE) {
            big++;
            assert_true(starts(name_of(g, prod[b]), "layer") &&
                        strstr(name_of(g, prod[b]), ".huge"));
        } else {
            assert_true(g->buf_size[b] < 70000);
        }
    }
    assert_int_equal(big, 1);
}

static void huge(void **state)
{
    (void)state;
    check_kind("huge", huge_extra);
}

/* branch: concats read 2..4 branch outputs and are as big as their sum;
 * every other body op reads one buffer. */
static void branch_extra(const graph *g, const uint32_t *prod, uint32_t n)
{
    uint32_t blocks = 0, fc, relu;
    for (uint32_t c = 2; c < g->n; c++) {
        if (!body_op(g, c)) continue;
        uint32_t r = reads(g, prod, c, NULL);
        if (strcmp(graph_op(g, c), "cat") == 0) {
            blocks++;
            assert_true(r >= 2 && r <= 4);
            int64_t sum = 0, out = -1;
            for (uint32_t k = 0; k < g->in_off[c + 1] - g->in_off[c]; k++) {
                uint32_t b = input_buf(g, c, k);
                if (prod[b] == c) out = g->buf_size[b];
                else sum += g->buf_size[b];
            }
            assert_int_equal(out, sum);
            assert_true(starts(name_of(g, c), "block") && strstr(name_of(g, c), ".concat"));
        } else {
            assert_int_equal(r, 1);
            assert_true(starts(name_of(g, c), "block") && strstr(name_of(g, c), ".b"));
        }
    }
    assert_true(blocks >= 1);
    count_tail(g, &fc, &relu);
    assert_true(fc <= 2 && relu <= 2);
    (void)n;
}

static void branch(void **state)
{
    (void)state;
    check_kind("branch", branch_extra);
}

/* alloc-heavy: each body op writes its output and 1..4 workspaces, which
 * nothing else reads and which are freed right after it. */
static void alloc_heavy_extra(const graph *g, const uint32_t *prod, uint32_t n)
{
    uint32_t *writes = calloc(g->n, sizeof *writes), fc, relu, ops = 0;
    assert_non_null(writes);
    for (uint32_t b = 0; b < g->nbufs; b++) writes[prod[b]]++;
    for (uint32_t c = 2; c < g->n; c++) {
        if (!body_op(g, c)) continue;
        ops++;
        assert_int_equal(reads(g, prod, c, NULL), 1);
        assert_true(writes[c] >= 2 && writes[c] <= 5);
    }
    for (uint32_t b = 0; b < g->nbufs; b++) {
        const char *an = name_of(g, g->buf_alloc[b]);
        if (!strstr(an, ".ws")) continue;
        uint32_t f = g->buf_free[b];
        assert_int_equal(g->pred_off[f + 1] - g->pred_off[f], 1);
        assert_int_equal(g->pred[g->pred_off[f]], prod[b]);
        for (uint32_t i = prod[b] + 1; i < f; i++) assert_int_equal(g->kind[i], NODE_FREE);
    }
    assert_true(ops >= 1);
    count_tail(g, &fc, &relu);
    assert_true(fc <= 1 && relu <= 2);
    free(writes);
    (void)n;
}

static void alloc_heavy(void **state)
{
    (void)state;
    check_kind("alloc-heavy", alloc_heavy_extra);
}

/* random: each body op reads 1..3 buffers made by the last 16 ops. */
static void random_extra(const graph *g, const uint32_t *prod, uint32_t n)
{
    uint32_t *ordinal = calloc(g->n, sizeof *ordinal), ops = 0, fc, relu;
    assert_non_null(ordinal);
    ordinal[1] = 0; /* the Input node counts as op 0 */
    for (uint32_t c = 2; c < g->n; c++) {
        if (!body_op(g, c)) continue;
        ordinal[c] = ++ops;
        uint32_t r = reads(g, prod, c, NULL);
        assert_true(r >= 1 && r <= 3);
        for (uint32_t k = 0; k < g->in_off[c + 1] - g->in_off[c]; k++) {
            uint32_t b = input_buf(g, c, k);
            if (prod[b] == c) continue;
            assert_true(ordinal[c] - ordinal[prod[b]] <= 16);
        }
    }
    free(ordinal);
    assert_int_equal(ops, (n - 4) / 3);
    count_tail(g, &fc, &relu);
    assert_int_equal(fc, 0);
    assert_int_equal(relu, (n - 4) % 3);
}

static void random_dag(void **state)
{
    (void)state;
    check_kind("random", random_extra);
}

/* randwire: (n-7)/3 ring ops; the ring keeps its 2 edges per op through the
 * rewiring; ops without predecessors read the input; rw.output reads exactly
 * the ops that no op reads. */
static void randwire_extra(const graph *g, const uint32_t *prod, uint32_t n)
{
    uint32_t ops = 0, wires = 0, agg = GRAPH_NONE, fc, relu;
    uint8_t *read = calloc(g->nbufs, 1);
    assert_non_null(read);
    for (uint32_t c = 2; c < g->n; c++) {
        if (!body_op(g, c)) continue;
        if (strcmp(name_of(g, c), "rw.output") == 0) {
            agg = c;
            continue;
        }
        assert_true(starts(name_of(g, c), "rw.node"));
        ops++;
        for (uint32_t k = 0; k < g->in_off[c + 1] - g->in_off[c]; k++) {
            uint32_t b = input_buf(g, c, k);
            if (prod[b] == c) continue;
            if (prod[b] == 1) {
                assert_int_equal(reads(g, prod, c, NULL), 1);
                continue;
            }
            wires++;
            read[b] = 1;
        }
    }
    assert_int_equal(ops, (n - 7) / 3);
    assert_int_equal(wires, 2 * ops);
    assert_int_not_equal(agg, GRAPH_NONE);
    uint32_t sinks = 0;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (starts(name_of(g, prod[b]), "rw.node") && !read[b]) sinks++;
    assert_int_equal(reads(g, prod, agg, NULL), sinks);
    count_tail(g, &fc, &relu);
    assert_int_equal(fc, 0);
    assert_int_equal(relu, (n - 7) % 3);
    free(read);
}

static void randwire(void **state)
{
    (void)state;
    check_kind("randwire", randwire_extra);
}

/* ------------------------------------------------------------ counts */

/* Every count from the minimum up to min + 300, and some large ones, is
 * exact (counted on the built graph, without JSON). */
static void exact_node_counts(void **state)
{
    (void)state;
    static const uint32_t big[] = {999, 1000, 1001, 65537, 100000, 123457};
    for (size_t i = 0; gen_kind_at(i); i++) {
        const gen_kind *k = gen_kind_at(i);
        for (uint32_t n = k->min_nodes; n < k->min_nodes + 300 + 6; n++) {
            uint32_t want = n < k->min_nodes + 300 ? n : big[n - k->min_nodes - 300];
            char err[256] = "";
            gen_graph *g = gen_build(k, want, 42, err, sizeof err);
            if (!g) fail_msg("%s %u: %s", k->name, want, err);
            gen_count c = gen_counts(g);
            if (c.nodes != want) fail_msg("%s: asked %u nodes, got %u", k->name, want, c.nodes);
            assert_int_equal(c.nodes, c.ops + 2 * c.buffers);
            gen_free(g);
        }
    }
}

static void below_minimum_and_limits(void **state)
{
    (void)state;
    char err[256];
    for (size_t i = 0; gen_kind_at(i); i++) {
        const gen_kind *k = gen_kind_at(i);
        assert_true(k->min_nodes >= 7);
        uint32_t bad[] = {0, 1, k->min_nodes - 1, GEN_MAX_NODES + 1};
        for (size_t j = 0; j < 4; j++) {
            err[0] = 0;
            assert_null(gen_build(k, bad[j], 1, err, sizeof err));
            assert_non_null(strstr(err, j < 3 ? "at least" : "at most"));
            if (j < 3) assert_non_null(strstr(err, k->name));
        }
    }
    assert_null(gen_kind_find("nope"));
    assert_null(gen_kind_find(""));
    static const char *names[] = {"chain", "branch", "alloc-heavy", "huge", "random", "randwire"};
    for (size_t i = 0; i < 6; i++) assert_ptr_equal(gen_kind_find(names[i]), gen_kind_at(i));
    assert_null(gen_kind_at(6));
}

/* ------------------------------------------------------------ determinism */

static uint64_t fnv1a(const char *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)p[i]) * 0x100000001b3ULL;
    return h;
}

static void same_seed_same_bytes(void **state)
{
    (void)state;
    for (size_t i = 0; gen_kind_at(i); i++) {
        const char *name = gen_kind_at(i)->name;
        membuf a = gen_json(name, 5000, 7), b = gen_json(name, 5000, 7),
               c = gen_json(name, 5000, 8);
        assert_int_equal(a.len, b.len);
        assert_memory_equal(a.p, b.p, a.len);
        if (a.len == c.len && memcmp(a.p, c.p, a.len) == 0)
            fail_msg("%s: seeds 7 and 8 give the same graph", name);
        free(a.p);
        free(b.p);
        free(c.p);
    }
}

/* The bytes of each kind at 1000 nodes for seeds 1 and 2^64-1, as FNV-1a
 * hashes: the same on every machine. Change them only on purpose, when the
 * generators change. (Issue 15 added the Latency fields: with them removed,
 * the bytes hash to the values before it.) */
static void golden_hashes(void **state)
{
    (void)state;
    static const struct {
        const char *kind;
        uint64_t seed, hash;
    } want[] = {
        {"chain", 1ULL, 0x0c19f0ae001be329ULL},
        {"chain", 18446744073709551615ULL, 0x1818334613b67ad7ULL},
        {"branch", 1ULL, 0xb3383dc9b2fa711cULL},
        {"branch", 18446744073709551615ULL, 0xc0430471aaf3eb4dULL},
        {"alloc-heavy", 1ULL, 0x5464f7146658e917ULL},
        {"alloc-heavy", 18446744073709551615ULL, 0x81d0bd341229f45bULL},
        {"huge", 1ULL, 0xbe943b2d3cb1761dULL},
        {"huge", 18446744073709551615ULL, 0x245947097963314aULL},
        {"random", 1ULL, 0x94d685b689e7c165ULL},
        {"random", 18446744073709551615ULL, 0x9d77425e19c450e1ULL},
        {"randwire", 1ULL, 0x9f7aa92687cb2830ULL},
        {"randwire", 18446744073709551615ULL, 0x5940f392ab89e1a6ULL},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        membuf m = gen_json(want[i].kind, 1000, want[i].seed);
        uint64_t h = fnv1a(m.p, m.len);
        if (h != want[i].hash) {
            print_message("    {\"%s\", %lluULL, 0x%016llxULL},\n", want[i].kind,
                          (unsigned long long)want[i].seed, (unsigned long long)h);
            bad = 1;
        }
        free(m.p);
    }
    if (bad) fail_msg("generated bytes differ from the recorded hashes (new lines above)");
}

/* ------------------------------------------------------------ time */

/* NUL-terminates m's text (not counted in len), for strstr. */
static void terminate(membuf *m)
{
    if (mem_write(m, "", 1)) fail_msg("out of memory");
    m->len--;
}

/* The JSON of a built graph at `streams`; the caller frees m->p. */
static membuf gen_json_streams(const char *name, uint32_t n, uint64_t seed, uint32_t streams)
{
    char err[256] = "";
    gen_graph *gg = gen_build(kind(name), n, seed, err, sizeof err);
    if (!gg) fail_msg("gen %s %u: %s", name, n, err);
    membuf m = {0};
    if (gen_emit_streams(gg, streams, mem_write, &m, err, sizeof err)) fail_msg("%s", err);
    gen_free(gg);
    return m;
}

/* Every compute node has a Latency, in ms: the bytes of its Inputs at
 * 100 GB/s times a jitter in [0.5, 1.5), to the nanosecond; no ALLOC or FREE
 * has one, nor any Stream at streams 1. The jitter varies and follows the
 * seed: the same seed gives the same latencies (same_seed_same_bytes checks
 * the bytes), another other ones. */
static void latencies(void **state)
{
    (void)state;
    for (size_t i = 0; gen_kind_at(i); i++) {
        const char *name = gen_kind_at(i)->name;
        membuf m = gen_json(name, 3000, 11);
        graph *g = tu_load_clean(m.p, m.len, name);
        free(m.p);
        assert_non_null(g->latency);
        assert_null(g->stream);
        double lo = 2, hi = 0;
        for (uint32_t u = 0; u < g->n; u++) {
            double l = g->latency[u];
            if (g->kind[u] != NODE_COMPUTE) {
                if (!isnan(l)) fail_msg("%s: node %u (not compute) has a Latency", name, u);
                continue;
            }
            if (isnan(l)) fail_msg("%s: compute node %u has no Latency", name, u);
            double bytes = 0;
            for (uint32_t k = 0; k < g->in_off[u + 1] - g->in_off[u]; k++)
                bytes += (double)g->buf_size[input_buf(g, u, k)];
            double base = bytes / 1e8; /* ms at 100 GB/s */
            if (l < 0.5 * base - 5e-7 || l >= 1.5 * base + 5e-7)
                fail_msg("%s: node %u: Latency %g ms for %.0f bytes", name, u, l, bytes);
            if (base > 1e-3) {
                lo = l / base < lo ? l / base : lo;
                hi = l / base > hi ? l / base : hi;
            }
        }
        if (hi - lo < 0.5) fail_msg("%s: jitter only from %g to %g", name, lo, hi);
        graph_free(g);
    }
    /* The Input node reads chain's fixed 1 MiB input whatever the seed: its
     * Latency is the seed's jitter alone. */
    membuf a = gen_json("chain", 7, 1), b = gen_json("chain", 7, 2);
    terminate(&a);
    terminate(&b);
    const char *la = strstr(a.p, "\"Latency\""), *lb = strstr(b.p, "\"Latency\"");
    assert_true(la && lb);
    assert_true(strncmp(la, lb, 24) != 0);
    free(a.p);
    free(b.p);
}

/* The fork rule, written again over the loaded graph: walking compute nodes
 * in Id order (gen's order is topological), each continues the oldest line
 * among its compute predecessors (through ALLOCs) whose first compute
 * consumer it is, else starts a new line on the next side stream; with no
 * predecessor, line 0 (stream 0). */
static void check_fork_rule(const graph *g, uint32_t streams)
{
    uint8_t *used = calloc(g->n, 1);
    uint32_t *cp = malloc(g->n * sizeof *cp), *line = calloc(g->n, sizeof *line), forks = 0;
    assert_true(used && cp && line);
    for (uint32_t v = 0; v < g->n; v++) {
        if (g->kind[v] != NODE_COMPUTE) {
            if (g->stream[v] != -1) fail_msg("node %u (not compute) has a Stream", v);
            continue;
        }
        uint32_t ncp = 0, first = GRAPH_NONE;
        for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1]; e++) {
            uint32_t u = g->pred[e];
            if (g->kind[u] == NODE_COMPUTE) cp[ncp++] = u;
            else
                for (uint32_t f = g->pred_off[u]; f < g->pred_off[u + 1]; f++)
                    if (g->kind[g->pred[f]] == NODE_COMPUTE) cp[ncp++] = g->pred[f];
        }
        for (uint32_t k = 0; k < ncp; k++)
            if (!used[cp[k]] && line[cp[k]] < first) first = line[cp[k]];
        line[v] = first != GRAPH_NONE ? first : ncp ? ++forks : 0;
        int64_t want = line[v] ? 1 + (line[v] - 1) % (streams - 1) : 0;
        if (g->stream[v] != want)
            fail_msg("node %u (%s): stream %lld, the fork rule says %lld", v, name_of(g, v),
                     (long long)g->stream[v], (long long)want);
        for (uint32_t k = 0; k < ncp; k++) used[cp[k]] = 1;
    }
    free(used);
    free(cp);
    free(line);
}

/* --streams: 1 writes no Stream; 2, 3 and 64 follow the fork rule (checked
 * by an independent walk); chains stay on stream 0, branchy kinds use every
 * stream; out of range is refused. */
static void streams(void **state)
{
    (void)state;
    static const uint32_t ns[] = {2, 3, 64};
    for (size_t i = 0; gen_kind_at(i); i++) {
        const char *name = gen_kind_at(i)->name;
        int chainlike =
            !strcmp(name, "chain") || !strcmp(name, "huge") || !strcmp(name, "alloc-heavy");
        for (size_t j = 0; j < 3; j++) {
            membuf m = gen_json_streams(name, 4000, 5, ns[j]);
            graph *g = tu_load_clean(m.p, m.len, name);
            free(m.p);
            assert_non_null(g->stream);
            check_fork_rule(g, ns[j]);
            uint64_t seen = 0;
            for (uint32_t u = 0; u < g->n; u++)
                if (g->kind[u] == NODE_COMPUTE) seen |= (uint64_t)1 << g->stream[u];
            if (chainlike) assert_true(seen == 1);
            else if (ns[j] < 64) assert_true(seen == ((uint64_t)1 << ns[j]) - 1);
            graph_free(g);
        }
    }
    membuf one = gen_json_streams("branch", 500, 5, 1), plain = gen_json("branch", 500, 5);
    terminate(&one);
    assert_int_equal(one.len, plain.len);
    assert_memory_equal(one.p, plain.p, one.len);
    assert_null(strstr(one.p, "Stream"));
    free(one.p);
    free(plain.p);
    char err[256] = "";
    gen_graph *gg = gen_build(kind("branch"), 100, 1, err, sizeof err);
    assert_non_null(gg);
    membuf m = {0};
    assert_int_equal(gen_emit_streams(gg, 0, mem_write, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "not 0"));
    assert_int_equal(gen_emit_streams(gg, GEN_MAX_STREAMS + 1, mem_write, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "from 1 to 64"));
    assert_int_equal(m.len, 0);
    gen_free(gg);
}

/* ------------------------------------------------------------ huge */

/* The 2^52-byte buffer survives loading and both schedules to the byte: the
 * peak equals an independent sum of the sizes live at the peak step. */
static void huge_peak_is_exact(void **state)
{
    (void)state;
    uint32_t sizes[] = {13, 14, 1000, 99999};
    for (size_t s = 0; s < 4; s++) {
        membuf m = gen_json("huge", sizes[s], 5);
        assert_non_null(strstr(m.p, "\"Size\": 4503599627370496,"));
        graph *g = tu_load_clean(m.p, m.len, "huge.json");
        free(m.p);
        for (size_t p = 0; policy_at(p); p++) {
            run r;
            char err[256] = "";
            if (policy_run(g, policy_at(p), tu_quick(), &r, err, sizeof err)) fail_msg("%s", err);
            /* Recompute the live bytes at every step from the buffer sizes. */
            uint8_t *live = calloc(g->nbufs, 1);
            assert_non_null(live);
            int64_t best = 0;
            for (uint32_t t = 0; t < r.n; t++) {
                uint32_t u = r.order[t];
                if (g->kind[u] == NODE_ALLOC) live[g->buf[u]] = 1;
                if (g->kind[u] == NODE_FREE) live[g->buf[u]] = 0;
                if (t + 1 != r.peak_step) continue;
                for (uint32_t b = 0; b < g->nbufs; b++) best += live[b] ? g->buf_size[b] : 0;
            }
            assert_true(r.peak > GEN_HUGE_SIZE);
            assert_true(r.peak - GEN_HUGE_SIZE < 3 * 70000);
            if (r.peak != best)
                fail_msg("%s: peak %lld, live sizes sum to %lld", policy_at(p)->name,
                         (long long)r.peak, (long long)best);
            free(live);
            policy_run_free(&r);
        }
        graph_free(g);
    }
}

/* ------------------------------------------------------------ writing */

static void writer_failure_is_reported(void **state)
{
    (void)state;
    char err[256] = "";
    membuf m = {0};
    m.fail_at = 1;
    assert_int_equal(gen_write(kind("chain"), 50, 1, mem_write, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "write"));
    free(m.p);
    /* A large graph is written in several chunks; the second failing stops it. */
    membuf big = {0};
    big.fail_at = 2;
    assert_int_equal(gen_write(kind("random"), 100000, 1, mem_write, &big, err, sizeof err), -1);
    assert_int_equal(big.calls, 2);
    free(big.p);
    /* Chunks concatenate to the same bytes as one build. */
    membuf a = gen_json("random", 100000, 3);
    gen_graph *g = gen_build(kind("random"), 100000, 3, err, sizeof err);
    assert_non_null(g);
    membuf b = {0};
    assert_int_equal(gen_emit(g, mem_write, &b, err, sizeof err), 0);
    assert_true(b.calls > 1);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.p, b.p, a.len);
    gen_free(g);
    free(a.p);
    free(b.p);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain),
        cmocka_unit_test(branch),
        cmocka_unit_test(alloc_heavy),
        cmocka_unit_test(huge),
        cmocka_unit_test(random_dag),
        cmocka_unit_test(randwire),
        cmocka_unit_test(exact_node_counts),
        cmocka_unit_test(below_minimum_and_limits),
        cmocka_unit_test(same_seed_same_bytes),
        cmocka_unit_test(golden_hashes),
        cmocka_unit_test(latencies),
        cmocka_unit_test(streams),
        cmocka_unit_test(huge_peak_is_exact),
        cmocka_unit_test(writer_failure_is_reported),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
