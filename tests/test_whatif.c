/* test_whatif.c: the what-if transforms (sched/whatif/whatif.h) on a small training graph by
 * hand: mixed precision, gradient accumulation, fusion (and where it must not fold), all
 * three together, each graph valid with the peak and time worked out below; the rows of
 * whatif_run, checkpointing through a swapped-in solver, and a graph without Categories. */
#include "testutil.h"
#include "sched/whatif/whatif.h"
#include "sched/budget/budget_arg.h"
#include "sched/gen/gen.h"
#include "test_gen.h"
#include "sched/graph/validate.h"
#include "sched/time/timeline.h"

/* W weight 100 (present throughout), X input 40, A activation 200 (conv makes it, relu reads
 * it), R activation 200 (relu makes it, bwd reads it), G gradient 100 (bwd makes it, sgd
 * reads it), S workspace 60 (bwd's). Latencies conv 4, relu 1, bwd 6, sgd 2 (13 ms).
 * Given order: W 100, X 140, A 340, free X 300, R 500 (the peak), free A 300, G 400, S 460,
 * free R 260, free S 200, free G 100. */
static const char train[] =
    "{\"Nodes\": ["
    "{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 100, \"BufId\": 1, \"Category\": \"weight\"},"
    "{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 40, \"BufId\": 2, \"Category\": \"input\"},"
    "{\"Id\": 2, \"Op\": \"Input\", \"Inputs\": [2], \"Phase\": \"forward\"},"
    "{\"Id\": 3, \"Op\": \"ALLOC\", \"Size\": 200, \"BufId\": 3, \"Category\": \"activation\"},"
    "{\"Id\": 4, \"Op\": \"conv\", \"Latency\": 4, \"Inputs\": [1, 2, 3], \"Phase\": "
    "\"forward\"},"
    "{\"Id\": 5, \"Op\": \"FREE\", \"BufId\": 2},"
    "{\"Id\": 6, \"Op\": \"ALLOC\", \"Size\": 200, \"BufId\": 4, \"Category\": \"activation\"},"
    "{\"Id\": 7, \"Op\": \"aten::ReLU.default\", \"Latency\": 1, \"Inputs\": [3, 4], "
    "\"Phase\": \"forward\"},"
    "{\"Id\": 8, \"Op\": \"FREE\", \"BufId\": 3},"
    "{\"Id\": 9, \"Op\": \"ALLOC\", \"Size\": 100, \"BufId\": 5, \"Category\": \"gradient\"},"
    "{\"Id\": 10, \"Op\": \"ALLOC\", \"Size\": 60, \"BufId\": 6, \"Category\": \"workspace\"},"
    "{\"Id\": 11, \"Op\": \"bwd\", \"Latency\": 6, \"Inputs\": [1, 4, 5, 6], \"Phase\": "
    "\"backward\"},"
    "{\"Id\": 12, \"Op\": \"FREE\", \"BufId\": 4},"
    "{\"Id\": 13, \"Op\": \"FREE\", \"BufId\": 6},"
    "{\"Id\": 14, \"Op\": \"sgd\", \"Latency\": 2, \"Inputs\": [1, 5], \"Phase\": "
    "\"optimizer\"},"
    "{\"Id\": 15, \"Op\": \"FREE\", \"BufId\": 5}],"
    "\"Edges\": [[1, 2], [3, 4], [2, 4], [4, 5], [6, 7], [4, 7], [7, 8], [9, 11], [10, 11], "
    "[7, 11], [11, 12], [11, 13], [11, 14], [14, 15]]}";

static graph *load(const char *json)
{
    diag d;
    graph *g = tu_load(json, &d);
    if (!g) tu_print_diag(&d);
    assert_non_null(g);
    diag_free(&d);
    return g;
}

/* The given order's peak (and, into *ms, makespan) of g, after checking it is a valid graph. */
static int64_t given_peak(const graph *g, double *ms)
{
    diag d;
    diag_init(&d, "t");
    int v = validate_graph(g, &d);
    if (v != VALIDATE_OK) tu_print_diag(&d);
    assert_int_equal(v, VALIDATE_OK);
    diag_free(&d);
    run r;
    char err[200];
    assert_int_equal(policy_run(g, policy_find("given"), NULL, &r, err, sizeof err), 0);
    int64_t peak = r.peak;
    if (ms) {
        timeline t;
        assert_int_equal(timeline_run(g, &r, &t, err, sizeof err), 0);
        *ms = t.makespan;
        timeline_free(&t);
    }
    policy_run_free(&r);
    return peak;
}

static graph *transform(const graph *g, unsigned what, uint32_t k, uint32_t *fused)
{
    graph *t = NULL;
    char err[200];
    int rc = whatif_transform(g, what, k, &t, fused, err, sizeof err);
    if (rc) print_message("whatif_transform: %s\n", err);
    assert_int_equal(rc, 0);
    assert_non_null(t);
    return t;
}

static int64_t size_of(const graph *g, int64_t bufid)
{
    uint32_t b = graph_find_buf(g, bufid);
    return b == GRAPH_NONE ? -1 : g->buf_size[b];
}

static void elementwise_names(void **state)
{
    (void)state;
    assert_true(whatif_elementwise("relu"));
    assert_true(whatif_elementwise("aten::ReLU.default"));
    assert_true(whatif_elementwise("Add"));
    assert_true(whatif_elementwise("gelu"));
    assert_true(whatif_elementwise("sigmoid"));
    assert_false(whatif_elementwise("relu_")); /* in place: no buffer of its own to save */
    assert_false(whatif_elementwise("conv"));
    assert_false(whatif_elementwise("view"));
    assert_false(whatif_elementwise(""));
}

static void baseline_by_hand(void **state)
{
    (void)state;
    graph *g = load(train);
    double ms;
    assert_int_equal(given_peak(g, &ms), 500);
    assert_true(ms == 13);
    graph_free(g);
}

/* A 100, R 100, G 50, S 30 (the backward's workspace); W and X unchanged: W 100, X 140, A 240,
 * free X 200, R 300, free A 200, G 250, S 280: the peak 300. */
static void mixed_precision(void **state)
{
    (void)state;
    graph *g = load(train), *t = transform(g, WHATIF_MIXED, 4, NULL);
    assert_int_equal(size_of(t, 1), 100);
    assert_int_equal(size_of(t, 2), 40);
    assert_int_equal(size_of(t, 3), 100);
    assert_int_equal(size_of(t, 5), 50);
    assert_int_equal(size_of(t, 6), 30);
    double ms;
    assert_int_equal(given_peak(t, &ms), 300);
    assert_true(ms == 13);
    graph_free(t);
    graph_free(g);
}

/* k 4: X 10, A 50, R 50, S 15; G 100 allocated first: G 100, W 200, X 210, A 260, free X 250,
 * R 300, free A 250, S 265, ...: the peak 300. The micro-batch: conv 1, relu 0.25, bwd 1.5,
 * sgd 2 (4.75 ms); 4 of them less 3 updates: 13 ms, as given. k 3: 40 / 3 rounds up to 14. */
static void accumulation(void **state)
{
    (void)state;
    graph *g = load(train), *t = transform(g, WHATIF_ACCUM, 4, NULL);
    assert_int_equal(size_of(t, 2), 10);
    assert_int_equal(size_of(t, 3), 50);
    assert_int_equal(size_of(t, 5), 100);
    assert_int_equal(size_of(t, 6), 15);
    assert_int_equal(t->kind[0], NODE_ALLOC); /* Id 0: the gradient's ALLOC */
    assert_int_equal(t->buf_id[t->buf[0]], 5);
    double ms;
    assert_int_equal(given_peak(t, &ms), 300);
    assert_true(ms == 4.75);
    graph_free(t);
    t = transform(g, WHATIF_ACCUM, 3, NULL);
    assert_int_equal(size_of(t, 2), 14);
    graph_free(t);
    t = transform(g, WHATIF_ACCUM, 1, NULL); /* one micro-batch: the graph as given */
    assert_int_equal(given_peak(t, NULL), 500);
    graph_free(t);
    graph_free(g);
}

/* relu folds into conv: A is gone, "conv+aten::ReLU.default" makes R (5 ms). W 100, X 140,
 * R 340, free X 300, G 400, S 460: the peak 460. */
static void fusion(void **state)
{
    (void)state;
    uint32_t fused;
    graph *g = load(train), *t = transform(g, WHATIF_FUSE, 4, &fused);
    assert_int_equal(fused, 1);
    assert_int_equal(size_of(t, 3), -1);
    assert_int_equal(t->n, g->n - 3);
    uint32_t conv = GRAPH_NONE;
    for (uint32_t i = 0; i < t->n; i++)
        if (!strcmp(graph_name(t, i), "conv+aten::ReLU.default")) conv = i;
    assert_int_not_equal(conv, GRAPH_NONE);
    assert_true(graph_latency(t, conv) == 5);
    double ms;
    assert_int_equal(given_peak(t, &ms), 460);
    assert_true(ms == 13);
    graph_free(t);
    graph_free(g);
}

/* Where fusion must not fold: A read by another node too; a compute node between conv and
 * relu; A a weight; and the chain conv -> add -> relu, which folds twice. */
static void fusion_refused(void **state)
{
    (void)state;
    static const char *const cases[] = {
        /* bwd reads A too */
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1},"
        "{\"Id\": 1, \"Op\": \"conv\", \"Inputs\": [1]},"
        "{\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 2},"
        "{\"Id\": 3, \"Op\": \"relu\", \"Inputs\": [1, 2]},"
        "{\"Id\": 4, \"Op\": \"bwd\", \"Inputs\": [1, 2]},"
        "{\"Id\": 5, \"Op\": \"FREE\", \"BufId\": 1}, {\"Id\": 6, \"Op\": \"FREE\", \"BufId\": 2}],"
        "\"Edges\": [[0, 1], [2, 3], [1, 3], [3, 4], [4, 5], [4, 6]]}",
        /* other between conv and relu */
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1},"
        "{\"Id\": 1, \"Op\": \"conv\", \"Inputs\": [1]},"
        "{\"Id\": 2, \"Op\": \"other\"},"
        "{\"Id\": 3, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 2},"
        "{\"Id\": 4, \"Op\": \"relu\", \"Inputs\": [1, 2]},"
        "{\"Id\": 5, \"Op\": \"FREE\", \"BufId\": 1}, {\"Id\": 6, \"Op\": \"FREE\", \"BufId\": 2}],"
        "\"Edges\": [[0, 1], [1, 2], [3, 4], [2, 4], [4, 5], [4, 6]]}",
        /* A is a weight */
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1, \"Category\": "
        "\"weight\"},"
        "{\"Id\": 1, \"Op\": \"conv\", \"Inputs\": [1]},"
        "{\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 2},"
        "{\"Id\": 3, \"Op\": \"relu\", \"Inputs\": [1, 2]},"
        "{\"Id\": 4, \"Op\": \"FREE\", \"BufId\": 1}, {\"Id\": 5, \"Op\": \"FREE\", \"BufId\": 2}],"
        "\"Edges\": [[0, 1], [2, 3], [1, 3], [3, 4], [3, 5]]}",
        /* the chain: both fold (conv's A 8, add's B 16, relu's C 4: the peak 24, then 4) */
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1},"
        "{\"Id\": 1, \"Op\": \"conv\", \"Inputs\": [1]},"
        "{\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 16, \"BufId\": 2},"
        "{\"Id\": 3, \"Op\": \"add\", \"Inputs\": [1, 2]},"
        "{\"Id\": 4, \"Op\": \"FREE\", \"BufId\": 1},"
        "{\"Id\": 5, \"Op\": \"ALLOC\", \"Size\": 4, \"BufId\": 3},"
        "{\"Id\": 6, \"Op\": \"relu\", \"Inputs\": [2, 3]},"
        "{\"Id\": 7, \"Op\": \"FREE\", \"BufId\": 2}, {\"Id\": 8, \"Op\": \"FREE\", \"BufId\": 3}],"
        "\"Edges\": [[0, 1], [1, 2], [2, 3], [1, 3], [3, 4], [3, 5], [5, 6], [3, 6], [6, 7], "
        "[6, 8]]}",
    };
    static const uint32_t want_fused[] = {0, 0, 0, 2};
    static const int64_t want_peak[] = {16, 16, 16, 4};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uint32_t fused;
        graph *g = load(cases[c]), *t = transform(g, WHATIF_FUSE, 1, &fused);
        print_message("case %zu: %u fused\n", c, fused);
        assert_int_equal(fused, want_fused[c]);
        assert_int_equal(given_peak(t, NULL), want_peak[c]);
        if (c == 3) assert_int_equal(given_peak(g, NULL), 24);
        graph_free(t);
        graph_free(g);
    }
}

/* All three, k 4: X 10, R 25, G 50 first, S 8 (30 / 4 rounded up), A gone: G 50, W 150,
 * X 160, R 185 (the peak), free X 175, S 183, ... */
static void combined(void **state)
{
    (void)state;
    graph *g = load(train), *t = transform(g, WHATIF_MIXED | WHATIF_ACCUM | WHATIF_FUSE, 4, NULL);
    assert_int_equal(size_of(t, 4), 25);
    assert_int_equal(size_of(t, 6), 8);
    assert_int_equal(given_peak(t, NULL), 185);
    graph_free(t);
    graph_free(g);
}

static int fit_calls;
static int counting_solve(BUDGET_SOLVER_ARGS)
{
    fit_calls++;
    return budget_greedy(bm, gl, seed, p, o, pf);
}
static const budget_solver counting = {"counting", "greedy, counted", 0, 0, counting_solve, 0};

/* whatif_run's rows. At 50% (250 B) no plan fits (relu's A and R and W are 500 B), said by
 * Category with the bound with offload; at 100% the given order's plan; a swapped-in solver is
 * the one called. */
static void rows(void **state)
{
    (void)state;
    graph *g = load(train);
    whatif_result r;
    char err[200];
    whatif_opts o = {.pol = policy_find("given"), .k = 4, .pct_micro = 50 * BUDGET_PCT_ONE};
    assert_int_equal(whatif_run(g, &o, &r, err, sizeof err), 0);
    assert_true(r.has_categories && r.has_phases && r.has_latency);
    static const int64_t peak[WHATIF_NROWS] = {500, 0, 300, 300, 460, 185, 0};
    for (int i = 0; i < WHATIF_NROWS; i++) {
        print_message("%s: %d %lld %s\n", whatif_row_name(i), r.row[i].has_peak,
                      (long long)r.row[i].peak, r.row[i].why);
        assert_int_equal(r.row[i].has_peak, peak[i] > 0);
        if (peak[i]) assert_int_equal(r.row[i].peak, peak[i]);
        if (peak[i]) assert_true(r.row[i].time_ms == 13);
    }
    assert_int_equal(r.row[WHATIF_ROW_CHECKPOINT].budget, 250);
    /* the weight cannot be made again: at relu every plan holds 500 B; by Category */
    assert_non_null(strstr(r.row[WHATIF_ROW_CHECKPOINT].why,
                           "no plan fits in 250 B: every plan needs 500 B, 100% of the peak "
                           "(activation 400 B (80%), weight 100 B (20%) at Id 7"));
    assert_non_null(strstr(r.row[WHATIF_ROW_CHECKPOINT].why, "; with offload: 460 B (92%)"));
    assert_int_equal(r.row[WHATIF_ROW_FUSION].fused, 1);
    /* a generated step at 80%: past the bound, below the given peak: the solver runs */
    membuf m = gen_json("train", 200, 1);
    graph *t = load(m.p);
    free(m.p);
    o.pct_micro = 80 * BUDGET_PCT_ONE;
    o.solver = &counting;
    fit_calls = 0;
    assert_int_equal(whatif_run(t, &o, &r, err, sizeof err), 0);
    assert_true(fit_calls >= 1);
    graph_free(t);
    o.pct_micro = 100 * BUDGET_PCT_ONE;
    assert_int_equal(whatif_run(g, &o, &r, err, sizeof err), 0);
    assert_int_equal(r.row[WHATIF_ROW_CHECKPOINT].peak, 500);
    assert_true(r.row[WHATIF_ROW_CHECKPOINT].extra_ms == 0);
    graph_free(g);
}

/* Without Categories: baseline, checkpointing and fusion only; the rest say what is missing. */
static void no_categories(void **state)
{
    (void)state;
    graph *g = load("{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1},"
                    "{\"Id\": 1, \"Op\": \"conv\", \"Inputs\": [1]},"
                    "{\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 2},"
                    "{\"Id\": 3, \"Op\": \"relu\", \"Inputs\": [1, 2]},"
                    "{\"Id\": 4, \"Op\": \"FREE\", \"BufId\": 1}, {\"Id\": 5, \"Op\": \"FREE\", "
                    "\"BufId\": 2}],"
                    "\"Edges\": [[0, 1], [2, 3], [1, 3], [3, 4], [3, 5]]}");
    whatif_result r;
    char err[200];
    whatif_opts o = {.pol = policy_find("given"), .k = 4, .pct_micro = 50 * BUDGET_PCT_ONE};
    assert_int_equal(whatif_run(g, &o, &r, err, sizeof err), 0);
    assert_false(r.has_categories);
    assert_int_equal(r.row[WHATIF_ROW_BASELINE].peak, 16);
    assert_int_equal(r.row[WHATIF_ROW_FUSION].peak, 8);
    assert_false(r.row[WHATIF_ROW_BASELINE].has_time);
    const int missing[] = {WHATIF_ROW_MIXED, WHATIF_ROW_ACCUM, WHATIF_ROW_THREE, WHATIF_ROW_ALL};
    for (int i = 0; i < 4; i++) {
        assert_false(r.row[missing[i]].has_peak);
        assert_non_null(strstr(r.row[missing[i]].why, "needs Categories"));
    }
    /* checkpointing at 50% of 16 B: the budget worked out, no plan; its combined row has none */
    assert_true(r.row[WHATIF_ROW_CHECKPOINT].has_budget);
    assert_int_equal(r.row[WHATIF_ROW_CHECKPOINT].budget, 8);
    assert_false(r.row[WHATIF_ROW_CHECKPOINT].has_peak);
    assert_false(r.row[WHATIF_ROW_ALL].has_budget);
    graph_free(g);
}

int main(int argc, char **argv)
{
    /* clang-format off */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elementwise_names),
        cmocka_unit_test(baseline_by_hand),
        cmocka_unit_test(mixed_precision),
        cmocka_unit_test(accumulation),
        cmocka_unit_test(fusion),
        cmocka_unit_test(fusion_refused),
        cmocka_unit_test(combined),
        cmocka_unit_test(rows),
        cmocka_unit_test(no_categories),
    };
    /* clang-format on */
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
