/* test_inplace_field.c: "InPlace" on a compute node: the loader keeps which Inputs a node changes
 * in place and refuses the field where it cannot mean anything (naming the node and the buffer),
 * and a memory budget's model has a buffer changed
 * in place as versions (a node reads the version the changes before it made; a version is
 * made again by rerunning its producer and then its changers), and its checker, greedy and
 * exact hold to them. */
#include "testutil.h"
#include "sched/budget/budget.h"

static void marks_kept(void **state)
{
    (void)state;
    graph *g =
        tu_load_text("{\"Nodes\": ["
                     "{\"Id\": 0, \"Op\": \"ALLOC\", \"BufId\": 1, \"Size\": 8},"
                     "{\"Id\": 1, \"Op\": \"ALLOC\", \"BufId\": 2, \"Size\": 8},"
                     "{\"Id\": 2, \"Op\": \"add_\", \"Inputs\": [1, 2, 1], \"InPlace\": [1]},"
                     "{\"Id\": 3, \"Op\": \"mul\", \"Inputs\": [2]}],"
                     "\"Edges\": [[0, 2], [1, 2], [2, 3]]}");
    uint32_t add = graph_find(g, 2), mul = graph_find(g, 3);
    assert_true(graph_input_inplace(g, add, 0));
    assert_false(graph_input_inplace(g, add, 1));
    assert_true(graph_input_inplace(g, add, 2));
    assert_false(graph_input_inplace(g, mul, 0));
    graph_free(g);
    g = tu_load_text("{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"BufId\": 1, \"Size\": 8},"
                     "{\"Id\": 1, \"Op\": \"mul\", \"Inputs\": [1]}], \"Edges\": [[0, 1]]}");
    assert_null(g->inplace);
    assert_false(graph_input_inplace(g, graph_find(g, 1), 0));
    graph_free(g);
}

static void bad_fields(void **state)
{
    (void)state;
    TU_EXPECT_ERROR(
        "{\"Nodes\": [{\"Id\": 4, \"Op\": \"relu_\", \"Inputs\": [1], \"InPlace\": [2]},"
        "{\"Id\": 0, \"Op\": \"ALLOC\", \"BufId\": 1, \"Size\": 8}],"
        "\"Edges\": [[0, 4]]}",
        "Nodes[0] (Id 4)", "InPlace[0]: buffer 2 is not one of its Inputs");
    TU_EXPECT_ERROR(
        "{\"Nodes\": [{\"Id\": 4, \"Op\": \"relu_\", \"InPlace\": [1]}], \"Edges\": []}",
        "Nodes[0] (Id 4)", "buffer 1 is not one of its Inputs");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 4, \"Op\": \"relu_\", \"Inputs\": [1], \"InPlace\": 1}],"
                    "\"Edges\": []}",
                    "Nodes[0] (Id 4)",
                    "\"InPlace\" must be an array of buffer ids, found a number");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 4, \"Op\": \"relu_\", \"Inputs\": [1], \"InPlace\": "
                    "[\"1\"]}], \"Edges\": []}",
                    "Nodes[0] (Id 4)", "InPlace[0] must be a buffer id, found a string");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 4, \"Op\": \"relu_\", \"Inputs\": [1], \"InPlace\": "
                    "[-1]}], \"Edges\": []}",
                    "Nodes[0] (Id 4)", "InPlace[0] must be a buffer id, found a number");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 3, \"Op\": \"ALLOC\", \"BufId\": 1, \"Size\": 8, "
                    "\"InPlace\": [1]}], \"Edges\": []}",
                    "Nodes[0] (Id 3)", "\"InPlace\" belongs on a compute node, not on an ALLOC");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 3, \"Op\": \"ALLOC\", \"BufId\": 1, \"Size\": 8},"
                    "{\"Id\": 5, \"Op\": \"FREE\", \"BufId\": 1, \"InPlace\": [1]}],"
                    "\"Edges\": [[3, 5]]}",
                    "Nodes[1] (Id 5)", "\"InPlace\" belongs on a compute node, not on a FREE");
}

/* In -> conv (makes b2) -> relu_ (changes b2 in place) -> mm (reads b2, makes b3) -> sum:
 * b2 has two versions, conv's and relu_'s; mm and sum read relu_'s, made again by rerunning
 * conv, then relu_. */
static const char chain[] =
    "{\"Nodes\": ["
    "{\"Id\": 0, \"Op\": \"ALLOC\", \"BufId\": 1, \"Size\": 100},"
    "{\"Id\": 1, \"Op\": \"Input\", \"Inputs\": [1]},"
    "{\"Id\": 2, \"Op\": \"ALLOC\", \"BufId\": 2, \"Size\": 100},"
    "{\"Id\": 3, \"Op\": \"conv\", \"Inputs\": [1, 2], \"Rerun\": true},"
    "{\"Id\": 4, \"Op\": \"relu_\", \"Inputs\": [2], \"InPlace\": [2]},"
    "{\"Id\": 5, \"Op\": \"ALLOC\", \"BufId\": 3, \"Size\": 100},"
    "{\"Id\": 6, \"Op\": \"mm\", \"Inputs\": [2, 3]},"
    "{\"Id\": 7, \"Op\": \"ALLOC\", \"BufId\": 4, \"Size\": 100},"
    "{\"Id\": 8, \"Op\": \"sum\", \"Inputs\": [2, 3, 4]},"
    "{\"Id\": 9, \"Op\": \"FREE\", \"BufId\": 2},"
    "{\"Id\": 10, \"Op\": \"FREE\", \"BufId\": 3}],"
    "\"Edges\": [[0, 1], [1, 3], [2, 3], [3, 4], [4, 6], [5, 6], [6, 8], [7, 8], [8, 9],"
    "[8, 10]]}";

/* Plan p (n events) on bm: 0, or -1 with err; the stats in *st. */
static int check(const budget_model *bm, budget_event *ev, size_t n, budget_stats *st, char *err,
                 size_t cap)
{
    budget_plan p = {ev, n, n};
    return budget_check(bm, &p, BUDGET_BANDWIDTH, st, err, cap);
}

/* greedy and exact at every budget from 100 to 400 bytes: only plans the checker takes, every
 * answer of exact proven; exact finds one from fits on (-1: not checked). */
static void solvers_checked(const budget_model *bm, int64_t fits)
{
    for (int64_t b = 100; b <= 400; b += 50) {
        budget_plan q = {0}, r = {0};
        budget_outcome o, o2;
        budget_proof pf;
        budget_stats st;
        char err[256];
        assert_int_equal(
            budget_greedy(bm, &(budget_goal){b, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL},
                          NULL, &q, &o, NULL),
            0);
        if (o.found && budget_check(bm, &q, BUDGET_BANDWIDTH, &st, err, sizeof err))
            fail_msg("greedy at %lld: %s", (long long)b, err);
        assert_int_equal(
            budget_exact(bm, &(budget_goal){b, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL},
                         NULL, &r, &o2, &pf),
            0);
        if (o2.found && budget_check(bm, &r, BUDGET_BANDWIDTH, &st, err, sizeof err))
            fail_msg("exact at %lld: %s", (long long)b, err);
        if (fits >= 0) assert_int_equal(o2.found, b >= fits);
        assert_true(pf.proven);
        budget_plan_free(&q);
        budget_plan_free(&r);
    }
}

static void model_versions_inplace(void **state)
{
    (void)state;
    graph *g = tu_load_text(chain);
    budget_model bm;
    char err[256];
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    const int want[] = {-1, 0, -1, 1, 1, -1, 1, -1, 1}; /* relu_ may run again */
    for (int64_t id = 0; id <= 8; id++)
        if (want[id] >= 0) assert_int_equal(bm.rerunnable[graph_find(g, id)], want[id]);
    uint32_t in = graph_find(g, 1), conv = graph_find(g, 3), relu = graph_find(g, 4),
             mm = graph_find(g, 6), sum = graph_find(g, 8), b2 = graph_find_buf(g, 2);
    /* b2's versions: conv makes 0, relu_ reads it and makes 1, mm and sum read 1 */
    assert_int_equal(bm.nl, g->nbufs + 1);
    assert_int_equal(bm.wr_off[relu + 1] - bm.wr_off[relu], 1);
    uint32_t v1 = bm.wr[bm.wr_off[relu]];
    assert_int_equal(bm.phys[v1], b2);
    assert_int_equal(bm.ver[v1], 1);
    assert_int_equal(bm.producer[v1], relu);
    assert_int_equal(budget_last_version(&bm, b2), v1);
    assert_int_equal(budget_next_version(&bm, b2), v1);
    assert_int_equal(bm.rd[bm.rd_off[relu]], b2);
    assert_int_equal(bm.rd[bm.rd_off[mm]], v1);
    /* The checker: b2 made again by conv then relu_; mm reads it changed, not as made. */
    budget_event ok[] = {{BUDGET_RUN, in},  {BUDGET_RUN, conv}, {BUDGET_RUN, relu},
                         {BUDGET_FREE, b2}, {BUDGET_RUN, conv}, {BUDGET_RUN, relu},
                         {BUDGET_RUN, mm},  {BUDGET_RUN, sum}};
    budget_stats st;
    assert_int_equal(check(&bm, ok, 8, &st, err, sizeof err), 0);
    assert_int_equal(st.reruns, 2);
    assert_int_equal(st.peak, 400);
    budget_event stale[] = {{BUDGET_RUN, in},  {BUDGET_RUN, conv}, {BUDGET_RUN, relu},
                            {BUDGET_FREE, b2}, {BUDGET_RUN, conv}, {BUDGET_RUN, mm}};
    assert_int_equal(check(&bm, stale, 6, &st, err, sizeof err), -1);
    assert_string_equal(err, "event 6 (run Id 6): it reads BufId 2 after 1 change in place, but "
                             "the buffer holds it as made");
    budget_event twice[] = {
        {BUDGET_RUN, in}, {BUDGET_RUN, conv}, {BUDGET_RUN, relu}, {BUDGET_RUN, relu}};
    assert_int_equal(check(&bm, twice, 4, &st, err, sizeof err), -1);
    assert_string_equal(err, "event 4 (run Id 4): it reads BufId 2 as made, but the buffer holds "
                             "it after 1 change in place");
    solvers_checked(&bm, -1); /* greedy and exact make only plans the checker takes */
    budget_model_free(&bm);
    graph_free(g);
    /* Without the field, relu_ is a plain reader: one version of each buffer. */
    char *plain = strdup(chain);
    char *f = strstr(plain, ", \"InPlace\": [2]");
    memmove(f, f + strlen(", \"InPlace\": [2]"), strlen(f + strlen(", \"InPlace\": [2]")) + 1);
    g = tu_load_text(plain);
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    assert_int_equal(bm.nl, g->nbufs);
    budget_model_free(&bm);
    graph_free(g);
    free(plain);
}

/* In (b1, 10 bytes, kept) -> conv (makes b2) -> relu_ (changes b2) -> mm (reads b2, makes b3)
 * -> big (reads b3, makes b4) -> sum (reads b2 and b4, makes b5, kept): at 220 bytes b2 must
 * leave before big and come back for sum, by rerunning conv and relu_ (3 + 1 ms). */
static const char late[] =
    "{\"Nodes\": ["
    "{\"Id\": 0, \"Op\": \"ALLOC\", \"BufId\": 1, \"Size\": 10},"
    "{\"Id\": 1, \"Op\": \"Input\", \"Inputs\": [1]},"
    "{\"Id\": 2, \"Op\": \"ALLOC\", \"BufId\": 2, \"Size\": 100},"
    "{\"Id\": 3, \"Op\": \"conv\", \"Inputs\": [1, 2], \"Latency\": 3},"
    "{\"Id\": 4, \"Op\": \"relu_\", \"Inputs\": [2], \"InPlace\": [2], \"Latency\": 1},"
    "{\"Id\": 5, \"Op\": \"ALLOC\", \"BufId\": 3, \"Size\": 100},"
    "{\"Id\": 6, \"Op\": \"mm\", \"Inputs\": [2, 3], \"Latency\": 5},"
    "{\"Id\": 7, \"Op\": \"ALLOC\", \"BufId\": 4, \"Size\": 100},"
    "{\"Id\": 8, \"Op\": \"big\", \"Inputs\": [3, 4], \"Latency\": 5},"
    "{\"Id\": 9, \"Op\": \"FREE\", \"BufId\": 3},"
    "{\"Id\": 10, \"Op\": \"ALLOC\", \"BufId\": 5, \"Size\": 10},"
    "{\"Id\": 11, \"Op\": \"sum\", \"Inputs\": [2, 4, 5], \"Latency\": 1},"
    "{\"Id\": 12, \"Op\": \"FREE\", \"BufId\": 2},"
    "{\"Id\": 13, \"Op\": \"FREE\", \"BufId\": 4}],"
    "\"Edges\": [[0, 1], [1, 3], [2, 3], [3, 4], [4, 6], [5, 6], [6, 8], [7, 8], [8, 9],"
    "[4, 11], [8, 11], [10, 11], [11, 12], [11, 13]]}";

static void versions_made_again(void **state)
{
    (void)state;
    graph *g = tu_load_text(late);
    budget_model bm;
    char err[256];
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    budget_plan given = {0};
    budget_stats st;
    assert_int_equal(budget_given_plan(&bm, &given), 0);
    assert_int_equal(budget_check(&bm, &given, BUDGET_BANDWIDTH, &st, err, sizeof err), 0);
    assert_int_equal(st.peak, 310);
    budget_plan_free(&given);
    for (int s = 0; s < 2; s++) { /* exact proves 4 ms; greedy finds a plan */
        budget_plan p = {0};
        budget_outcome o;
        budget_proof pf = {0};
        if (s)
            assert_int_equal(
                budget_greedy(&bm,
                              &(budget_goal){220, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL},
                              NULL, &p, &o, NULL),
                0);
        else
            assert_int_equal(
                budget_exact(&bm,
                             &(budget_goal){220, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL},
                             NULL, &p, &o, &pf),
                0);
        assert_true(o.found);
        if (budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
        assert_true(st.peak <= 220);
        assert_true(st.extra_ms == 4 && st.reruns == 2);
        if (!s) assert_true(pf.proven && pf.lower_bound_ms == 4);
        budget_plan_free(&p);
    }
    budget_model_free(&bm);
    graph_free(g);
}

/* In (b1, kept) -> mul (reads b1, makes b2) -> add_ (changes b1 in place) -> mm (reads b2,
 * makes b3): mul run again after add_ would need b1 as made, which nothing makes again. */
static const char reader[] = "{\"Nodes\": ["
                             "{\"Id\": 0, \"Op\": \"ALLOC\", \"BufId\": 1, \"Size\": 100},"
                             "{\"Id\": 1, \"Op\": \"Input\", \"Inputs\": [1]},"
                             "{\"Id\": 2, \"Op\": \"ALLOC\", \"BufId\": 2, \"Size\": 100},"
                             "{\"Id\": 3, \"Op\": \"mul\", \"Inputs\": [1, 2]},"
                             "{\"Id\": 4, \"Op\": \"add_\", \"Inputs\": [1], \"InPlace\": [1]},"
                             "{\"Id\": 5, \"Op\": \"ALLOC\", \"BufId\": 3, \"Size\": 100},"
                             "{\"Id\": 6, \"Op\": \"mm\", \"Inputs\": [2, 3]},"
                             "{\"Id\": 7, \"Op\": \"FREE\", \"BufId\": 2}],"
                             "\"Edges\": [[0, 1], [1, 3], [2, 3], [3, 4], [4, 6], [5, 6], [6, 7]]}";

static void old_version_gone(void **state)
{
    (void)state;
    graph *g = tu_load_text(reader);
    budget_model bm;
    char err[256];
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    uint32_t in = graph_find(g, 1), mul = graph_find(g, 3), add = graph_find(g, 4),
             mm = graph_find(g, 6), b2 = graph_find_buf(g, 2);
    budget_event ok[] = {{BUDGET_RUN, in},  {BUDGET_RUN, mul}, {BUDGET_FREE, b2},
                         {BUDGET_RUN, mul}, {BUDGET_RUN, add}, {BUDGET_RUN, mm}};
    budget_event bad[] = {{BUDGET_RUN, in},  {BUDGET_RUN, mul}, {BUDGET_RUN, add},
                          {BUDGET_FREE, b2}, {BUDGET_RUN, mul}, {BUDGET_RUN, mm}};
    budget_event unchanged[] = {
        {BUDGET_RUN, in}, {BUDGET_RUN, mul}, {BUDGET_RUN, add}, {BUDGET_RUN, mm}, {BUDGET_RUN, in}};
    budget_stats st;
    assert_int_equal(check(&bm, ok, 6, &st, err, sizeof err), 0);
    assert_int_equal(check(&bm, bad, 6, &st, err, sizeof err), -1);
    assert_string_equal(err, "event 5 (run Id 3): it reads BufId 1 as made, but the buffer holds "
                             "it after 1 change in place");
    assert_int_equal(check(&bm, unchanged, 5, &st, err, sizeof err), -1);
    assert_string_equal(err, "event 5 (run Id 1): this node cannot be rerun");
    solvers_checked(&bm, 300); /* b1, b2 and b3 at mm; below that nothing, proven */
    budget_model_free(&bm);
    graph_free(g);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(marks_kept),
        cmocka_unit_test(bad_fields),
        cmocka_unit_test(model_versions_inplace),
        cmocka_unit_test(versions_made_again),
        cmocka_unit_test(old_version_gone),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
