/* test_sched.c: golden schedules (hand-checked order, memory and peak) for the
 * seed example and the seed's test families, the FIFO and priority rules,
 * 64-bit totals and overflow, and policy_diverge. */
#include "testutil.h"
#include "util/units.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

/* Runs policy pname on g and checks the order (as Ids), the memory after
 * every step, the peak and the step of the first peak. */
static void expect_run(const graph *g, const char *pname, uint32_t n, const int64_t *ids,
                       const int64_t *memory, int64_t peak, uint32_t peak_step)
{
    const policy *p = policy_find(pname);
    assert_non_null(p);
    run r;
    char err[256] = "";
    if (policy_run(g, p, NULL, &r, err, sizeof err))
        fail_msg("policy_run %s failed: %s", pname, err);
    assert_int_equal(r.n, n);
    for (uint32_t s = 0; s < n; s++) {
        if (g->id[r.order[s]] != ids[s] || r.memory[s] != memory[s])
            fail_msg("%s step %u: got node %lld memory %lld, expected node %lld memory %lld", pname,
                     s + 1, (long long)g->id[r.order[s]], (long long)r.memory[s], (long long)ids[s],
                     (long long)memory[s]);
        assert_int_equal(r.pos[r.order[s]], s);
    }
    if (r.peak != peak)
        fail_msg("%s: peak %lld, expected %lld", pname, (long long)r.peak, (long long)peak);
    assert_int_equal(r.peak_step, peak_step);
    policy_run_free(&r);
}

#define LEN(a) (uint32_t)(sizeof(a) / sizeof(a)[0])

/* ------------------------------------------------------------ seed */

static void seed_example(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_path(MEMTRIS_SOURCE_DIR "/samples/seed-example.json", &d);
    /* Inputs [0, 2] name buffers no ALLOC creates (only buffer 1 exists). */
    assert_int_equal(d.nwarnings, 2);
    TU_ASSERT_LINE(&d, "seed-example.json", "warning:", "node 1", "buffer 0", "Inputs");
    TU_ASSERT_LINE(&d, "seed-example.json", "warning:", "node 1", "buffer 2", "Inputs");
    assert_int_equal(g->n, 3);
    assert_int_equal(g->nedges, 2);
    assert_int_equal(g->nbufs, 1);
    static const int64_t ids[] = {0, 1, 2}, mem[] = {1024, 1024, 0};
    expect_run(g, "fifo", 3, ids, mem, 1024, 1);
    expect_run(g, "priority", 3, ids, mem, 1024, 1);
    graph_free(g);
    diag_free(&d);
}

/* ------------------------------------------------------ seed families */

static void linear_chain(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_path(TU_DATA("chain.json"), &d);
    assert_int_equal(d.nwarnings, 0);
    static const int64_t ids[] = {0, 1, 2, 3, 4, 5, 6};
    static const int64_t mem[] = {100, 100, 300, 300, 200, 200, 0};
    expect_run(g, "fifo", LEN(ids), ids, mem, 300, 3);
    expect_run(g, "priority", LEN(ids), ids, mem, 300, 3);
    graph_free(g);
    diag_free(&d);
}

static void multi_branch_fifo_and_priority_differ(void **state)
{
    (void)state;
    /* Three ALLOC -> Conv -> FREE branches (400, 300, 500 bytes) off one
     * input, joined at the end. FIFO opens all three before closing any;
     * priority runs the cheapest ALLOC's branch to its FREE first. */
    diag d;
    graph *g = tu_load_path(TU_DATA("branches.json"), &d);
    assert_int_equal(d.nwarnings, 0);
    static const int64_t fifo_ids[] = {0, 1, 4, 7, 2, 5, 8, 3, 6, 9, 10};
    static const int64_t fifo_mem[] = {0, 400, 700, 1200, 1200, 1200, 1200, 800, 500, 0, 0};
    static const int64_t prio_ids[] = {0, 4, 5, 6, 1, 2, 3, 7, 8, 9, 10};
    static const int64_t prio_mem[] = {0, 300, 300, 0, 400, 400, 0, 500, 500, 0, 0};
    expect_run(g, "fifo", LEN(fifo_ids), fifo_ids, fifo_mem, 1200, 4);
    expect_run(g, "priority", LEN(prio_ids), prio_ids, prio_mem, 500, 8);
    graph_free(g);
    diag_free(&d);
}

static void many_alloc_free(void **state)
{
    (void)state;
    /* Four layers: ALLOC a_i (100..400 bytes, all roots), Layer_i needs a_i
     * and Layer_{i-1}, FREE a_i after Layer_i. */
    diag d;
    graph *g = tu_load_path(TU_DATA("layers.json"), &d);
    assert_int_equal(d.nwarnings, 0);
    static const int64_t fifo_ids[] = {10, 11, 12, 13, 20, 30, 21, 31, 22, 32, 23, 33};
    static const int64_t fifo_mem[] = {100, 300, 600, 1000, 1000, 900, 900, 700, 700, 400, 400, 0};
    static const int64_t prio_ids[] = {10, 20, 30, 11, 21, 31, 12, 22, 32, 13, 23, 33};
    static const int64_t prio_mem[] = {100, 100, 0, 200, 200, 0, 300, 300, 0, 400, 400, 0};
    expect_run(g, "fifo", LEN(fifo_ids), fifo_ids, fifo_mem, 1000, 4);
    expect_run(g, "priority", LEN(prio_ids), prio_ids, prio_mem, 400, 10);
    graph_free(g);
    diag_free(&d);
}

static void many_alloc_free_large(void **state)
{
    (void)state;
    /* The same layer pattern with 2000 layers of (i+1)*1000 bytes: FIFO
     * allocates everything first (peak = the sum), priority never holds more
     * than one buffer (peak = the largest). */
    enum { L = 2000 };
    tu_str b = {0};
    tu_printf(&b, "{\"Nodes\": [");
    for (int i = 0; i < L; i++)
        tu_printf(&b,
                  "%s{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": %d, \"BufId\": %d},"
                  " {\"Id\": %d, \"Op\": \"Layer\"}, {\"Id\": %d, \"Op\": \"FREE\", \"BufId\": %d}",
                  i ? ", " : "", 3 * i, (i + 1) * 1000, i, 3 * i + 1, 3 * i + 2, i);
    tu_printf(&b, "], \"Edges\": [");
    for (int i = 0; i < L; i++) {
        tu_printf(&b, "%s[%d, %d], [%d, %d]", i ? ", " : "", 3 * i, 3 * i + 1, 3 * i + 1,
                  3 * i + 2);
        if (i + 1 < L) tu_printf(&b, ", [%d, %d]", 3 * i + 1, 3 * i + 4);
    }
    tu_printf(&b, "]}");
    graph *g = tu_load_text(b.s);
    free(b.s);
    char err[256];
    run f, p;
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &f, err, sizeof err), 0);
    assert_int_equal(policy_run(g, policy_find("priority"), NULL, &p, err, sizeof err), 0);
    assert_true(f.peak == (int64_t)1000 * L * (L + 1) / 2);
    assert_int_equal(f.peak_step, L);
    assert_true(p.peak == (int64_t)1000 * L);
    assert_int_equal(p.peak_step, 3 * L - 2);
    assert_true(f.memory[3 * L - 1] == 0 && p.memory[3 * L - 1] == 0);
    for (uint32_t s = 0; s < 3 * L; s++) /* priority: ALLOC, Layer, FREE per layer */
        assert_true(g->id[p.order[s]] == (int64_t)s);
    policy_run_free(&f);
    policy_run_free(&p);
    graph_free(g);
}

static void single_huge_allocation(void **state)
{
    (void)state;
    /* 2^52 bytes beside 4095 and 7: totals must be exact, not rounded. */
    diag d;
    graph *g = tu_load_path(TU_DATA("huge.json"), &d);
    assert_int_equal(d.nwarnings, 0);
    const int64_t H = (int64_t)1 << 52;
    const int64_t ids[] = {0, 1, 2, 3, 4, 5, 6, 7};
    const int64_t mem[] = {4095, H + 4095, H + 4095, 4095, 4102, 4102, 7, 0};
    expect_run(g, "fifo", LEN(ids), ids, mem, H + 4095, 2);
    expect_run(g, "priority", LEN(ids), ids, mem, H + 4095, 2);
    assert_true(g->buf_size[graph_find_buf(g, 2)] == H);
    assert_true(g->change[graph_find(g, 3)] == -H);
    graph_free(g);
    diag_free(&d);
}

/* ------------------------------------------------------ FIFO rules */

static void fifo_roots_in_ascending_id(void **state)
{
    (void)state;
    /* Nodes listed 42, 5, 17, 3, 8 (all roots): FIFO starts 3, 5, 8, 17, 42. */
    graph *g = tu_load_text(
        "{\"Nodes\": [{\"Id\": 42, \"Op\": \"X\"}, {\"Id\": 5, \"Op\": \"X\"},"
        " {\"Id\": 17, \"Op\": \"X\"}, {\"Id\": 3, \"Op\": \"X\"}, {\"Id\": 8, \"Op\": \"X\"},"
        " {\"Id\": 1, \"Op\": \"Y\"}], \"Edges\": [[42, 1], [3, 1]]}");
    static const int64_t ids[] = {3, 5, 8, 17, 42, 1}, mem[] = {0, 0, 0, 0, 0, 0};
    expect_run(g, "fifo", LEN(ids), ids, mem, 0, 0);
    graph_free(g);
}

static void fifo_successors_in_edge_order(void **state)
{
    (void)state;
    /* Node 0's edges are listed to 7, 3, 5 (mixed in with other edges):
     * FIFO queues them in that order, not by Id; 9's successors follow. */
    graph *g = tu_load_text(
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"X\"}, {\"Id\": 3, \"Op\": \"X\"},"
        " {\"Id\": 5, \"Op\": \"X\"}, {\"Id\": 7, \"Op\": \"X\"}, {\"Id\": 1, \"Op\": \"X\"},"
        " {\"Id\": 2, \"Op\": \"X\"}],"
        " \"Edges\": [[0, 7], [7, 2], [0, 3], [7, 1], [0, 5]]}");
    static const int64_t fifo_ids[] = {0, 7, 3, 5, 2, 1}, mem[] = {0, 0, 0, 0, 0, 0};
    expect_run(g, "fifo", LEN(fifo_ids), fifo_ids, mem, 0, 0);
    /* Priority breaks the tie by Id instead. */
    static const int64_t prio_ids[] = {0, 3, 5, 7, 1, 2};
    expect_run(g, "priority", LEN(prio_ids), prio_ids, mem, 0, 0);
    graph_free(g);
}

static void fifo_seq_is_queue_position(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_path(TU_DATA("branches.json"), &d);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &r, err, sizeof err), 0);
    for (uint32_t s = 0; s < r.n; s++) assert_int_equal(r.seq[r.order[s]], s);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

/* ------------------------------------------------------ priority rules */

static void priority_is_min_heap_of_change_type_id(void **state)
{
    (void)state;
    /* Root 99 (ALLOC of 0 bytes, buffer 7) makes ready at once:
     *   60 FREE of buffer 7   (0, 0, 60)
     *   3  compute            (0, 1, 3)
     *   50 compute            (0, 1, 50)
     *   1  ALLOC 0 bytes      (0, 2, 1)
     *   2  ALLOC 5 bytes      (5, 2, 2)
     *   80 ALLOC 4 bytes      (4, 2, 80)
     * then 2's FREE 70 (-5, 0, 70) must jump ahead of everything else left,
     * and 80's FREE 81 (-4, 0, 81) likewise. */
    graph *g = tu_load_text(
        "{\"Nodes\": [{\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 5, \"BufId\": 9},"
        " {\"Id\": 50, \"Op\": \"X\"}, {\"Id\": 60, \"Op\": \"FREE\", \"BufId\": 7},"
        " {\"Id\": 99, \"Op\": \"ALLOC\", \"Size\": 0, \"BufId\": 7}, {\"Id\": 3, \"Op\": \"X\"},"
        " {\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 0, \"BufId\": 8}, {\"Id\": 70, \"Op\": "
        "\"FREE\", \"BufId\": 9},"
        " {\"Id\": 80, \"Op\": \"ALLOC\", \"Size\": 4, \"BufId\": 10}, {\"Id\": 81, \"Op\": "
        "\"FREE\", \"BufId\": 10}],"
        " \"Edges\": [[99, 2], [99, 50], [99, 60], [99, 3], [99, 1], [99, 80], [2, 70], [80, "
        "81]]}");
    /* 99; then 60 (0,0), 3 (0,1), 50 (0,1), 1 (0,2); then 80 (4,2) < 2 (5,2);
     * 80 readies 81 (-4) which pops next; then 2, then 70. */
    static const int64_t ids[] = {99, 60, 3, 50, 1, 80, 81, 2, 70};
    static const int64_t mem[] = {0, 0, 0, 0, 0, 4, 0, 5, 0};
    expect_run(g, "priority", LEN(ids), ids, mem, 5, 8);
    graph_free(g);
}

static void priority_free_before_compute_before_alloc(void **state)
{
    (void)state;
    /* Equal change 0: FREE (type 0) < compute (1) < ALLOC (2), whatever the
     * ids: here the FREE has the largest id and the ALLOC the smallest. */
    graph *g =
        tu_load_text("{\"Nodes\": [{\"Id\": 500, \"Op\": \"ALLOC\", \"Size\": 0, \"BufId\": 1},"
                     " {\"Id\": 900, \"Op\": \"FREE\", \"BufId\": 1}, {\"Id\": 600, \"Op\": \"X\"},"
                     " {\"Id\": 100, \"Op\": \"ALLOC\", \"Size\": 0, \"BufId\": 2}, {\"Id\": 901, "
                     "\"Op\": \"FREE\", \"BufId\": 2}],"
                     " \"Edges\": [[500, 900], [500, 600], [500, 100], [100, 901]]}");
    static const int64_t ids[] = {500, 900, 600, 100, 901}, mem[] = {0, 0, 0, 0, 0};
    expect_run(g, "priority", LEN(ids), ids, mem, 0, 0);
    graph_free(g);
}

/* ------------------------------------------------------ totals */

/* n roots, each an ALLOC of 2^53-1 bytes of its own buffer, never freed. */
static graph *many_max_allocs(int n)
{
    tu_str b = {0};
    tu_printf(&b, "{\"Nodes\": [");
    for (int i = 0; i < n; i++)
        tu_printf(&b,
                  "%s{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": 9007199254740991, \"BufId\": %d}",
                  i ? ", " : "", i, i);
    tu_printf(&b, "], \"Edges\": []}");
    diag d;
    graph *g = tu_load(b.s, &d);
    free(b.s);
    assert_non_null(g);
    assert_int_equal(d.nwarnings, (size_t)n); /* every buffer leaks */
    diag_free(&d);
    return g;
}

static void overflow_fails_with_message(void **state)
{
    (void)state;
    /* 1024 * (2^53-1) = 2^63-1024 still fits; the 1025th ALLOC passes 2^63-1. */
    graph *g = many_max_allocs(1100);
    for (size_t i = 0; i < policy_count(); i++) {
        const policy *p = policy_at(i);
        run r;
        char err[256] = "";
        int rc = policy_run(g, p, NULL, &r, err, sizeof err);
        if (rc != -1)
            fail_msg("%s: policy_run returned %d, peak %lld", p->name, rc, (long long)r.peak);
        if (!strstr(err, "2^63-1") || !strstr(err, "step 1025") || !strstr(err, "node 1024"))
            fail_msg("%s: unexpected message '%s'", p->name, err);
        assert_null(r.order);
        assert_null(r.memory);
    }
    graph_free(g);
}

static void largest_total_below_overflow_is_exact(void **state)
{
    (void)state;
    graph *g = many_max_allocs(1024);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("priority"), NULL, &r, err, sizeof err), 0);
    assert_true(r.peak == INT64_MAX - 1023);
    assert_true(r.memory[0] == GRAPH_MAX_SIZE);
    assert_true(r.memory[1023] == INT64_MAX - 1023);
    assert_int_equal(r.peak_step, 1024);
    policy_run_free(&r);
    graph_free(g);
}

/* ------------------------------------------------------ misc */

/* Sizes as people write them (the TUI's memory breakpoints), as memtris writes them too ("8 MiB");
 * test_budget_arg.c has the edges. */
static void units_parse_sizes(void **state)
{
    (void)state;
    assert_int_equal(units_parse("512"), 512);
    assert_int_equal(units_parse("8MiB"), 8 << 20);
    assert_int_equal(units_parse(" 8 mb "), 8 << 20);
    assert_int_equal(units_parse("1.5 KiB"), 1536);
    assert_int_equal(units_parse("2G"), (int64_t)2 << 30);
    assert_int_equal(units_parse("0.5k"), 512);
    assert_int_equal(units_parse("7 B"), 7);
    const char *bad[] = {"", "MiB", "-1", "8 XB", "1e30", "nan", "8 MiB x", "inf", "1.5", "1.5 B"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) assert_int_equal(units_parse(bad[i]), -1);
}

static void run_diverge_first_differing_step(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_path(TU_DATA("branches.json"), &d);
    run f, p, f2;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &f, err, sizeof err), 0);
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &f2, err, sizeof err), 0);
    assert_int_equal(policy_run(g, policy_find("priority"), NULL, &p, err, sizeof err), 0);
    assert_int_equal(policy_diverge(&f, &p), 1); /* both pop node 0 first */
    assert_int_equal(policy_diverge(&p, &f), 1);
    assert_int_equal(policy_diverge(&f, &f2), g->n); /* identical: n */
    uint32_t *parts = malloc(((size_t)g->n + 1) * sizeof *parts);
    assert_non_null(parts);
    assert_int_equal(policy_partings(&f, &f2, parts), 0);
    /* Every parting follows prefixes holding the same nodes, and the check
     * by brute force agrees. */
    uint32_t np = policy_partings(&f, &p, parts), want = 0;
    assert_true(np >= 1);
    assert_int_equal(parts[0], 1);
    for (uint32_t s = 0; s < g->n; s++) {
        int same = f.order[s] != p.order[s];
        for (uint32_t i = 0; same && i < s; i++) same = p.pos[f.order[i]] < s;
        if (same) {
            assert_true(want < np);
            assert_int_equal(parts[want++], s);
        }
    }
    assert_int_equal(want, np);
    free(parts);
    policy_run_free(&f);
    policy_run_free(&f2);
    policy_run_free(&p);
    graph_free(g);
    diag_free(&d);

    g = tu_load_path(TU_DATA("chain.json"), &d);
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &f, err, sizeof err), 0);
    assert_int_equal(policy_run(g, policy_find("priority"), NULL, &p, err, sizeof err), 0);
    assert_int_equal(policy_diverge(&f, &p), 7);
    policy_run_free(&f);
    policy_run_free(&p);
    graph_free(g);
    diag_free(&d);
}

static void policy_table(void **state)
{
    (void)state;
    static const char *const names[] = {"fifo", "priority", "dfs",      "postorder",  "lpmf", "bfs",
                                        "best", "exact",    "weighted", "multiqueue", "given"};
    assert_int_equal(policy_count(), 11);
    for (size_t i = 0; i < 11; i++) {
        assert_string_equal(policy_at(i)->name, names[i]);
        assert_ptr_equal(policy_find(names[i]), policy_at(i));
        assert_int_equal(policy_at(i)->kind, i < 6    ? POLICY_HEURISTIC
                                             : i < 7  ? POLICY_PORTFOLIO
                                             : i < 8  ? POLICY_EXACT
                                             : i < 10 ? POLICY_TIMED
                                                      : POLICY_BASELINE);
    }
    assert_null(policy_at(11));
    assert_ptr_equal(policy_find("fifo"), policy_at(0));
    assert_ptr_equal(policy_find("priority"), policy_at(1));
    assert_null(policy_find("lifo"));
    assert_null(policy_find(""));
    assert_int_equal(policy_find("priority")->nkeys, 3);
    assert_string_equal(policy_find("priority")->key_names[0], "change");
}

static void empty_graph_schedules(void **state)
{
    (void)state;
    graph *g = tu_load_text("{\"Nodes\": [], \"Edges\": []}");
    for (size_t i = 0; i < policy_count(); i++) {
        run r;
        char err[256];
        assert_int_equal(policy_run(g, policy_at(i), NULL, &r, err, sizeof err), 0);
        assert_int_equal(r.n, 0);
        assert_true(r.peak == 0);
        assert_int_equal(r.peak_step, 0);
        policy_run_free(&r);
    }
    graph_free(g);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_example),
        cmocka_unit_test(linear_chain),
        cmocka_unit_test(multi_branch_fifo_and_priority_differ),
        cmocka_unit_test(many_alloc_free),
        cmocka_unit_test(many_alloc_free_large),
        cmocka_unit_test(single_huge_allocation),
        cmocka_unit_test(fifo_roots_in_ascending_id),
        cmocka_unit_test(fifo_successors_in_edge_order),
        cmocka_unit_test(fifo_seq_is_queue_position),
        cmocka_unit_test(priority_is_min_heap_of_change_type_id),
        cmocka_unit_test(priority_free_before_compute_before_alloc),
        cmocka_unit_test(overflow_fails_with_message),
        cmocka_unit_test(largest_total_below_overflow_is_exact),
        cmocka_unit_test(run_diverge_first_differing_step),
        cmocka_unit_test(units_parse_sizes),
        cmocka_unit_test(policy_table),
        cmocka_unit_test(empty_graph_schedules),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
