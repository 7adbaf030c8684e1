/* test_gen.c: the synthetic generators (gen_*): every kind at several sizes
 * loads with no diagnostic and schedules with both policies, in the exporter's
 * shape, with exact node counts; main lists test_gen_bytes.c's tests too (the
 * same bytes for a seed, latencies, streams, 2^52 kept). */
#include "test_gen.h"

/* ------------------------------------------------------------ shapes */

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
    static const char *names[] = {"chain",  "branch",   "alloc-heavy", "huge",
                                  "random", "randwire", "train"};
    for (size_t i = 0; i < 7; i++) assert_ptr_equal(gen_kind_find(names[i]), gen_kind_at(i));
    assert_null(gen_kind_at(7));
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
