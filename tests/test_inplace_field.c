/* test_inplace_field.c: "InPlace" on a compute node: the loader keeps which Inputs a node changes
 * in place and refuses the field where it cannot mean anything (naming the node and the buffer),
 * and a memory budget's model never runs again the producer or a writer of a buffer changed
 * in place (rerunning the producer alone would remake it wrong), nor a reader of a buffer
 * changed in place after it (it would read something else). */
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
 * relu_ never runs again; conv only until relu_ has run, even with "Rerun": true. */
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

static void model_never_reruns_inplace(void **state)
{
    (void)state;
    graph *g = tu_load_text(chain);
    budget_model bm;
    char err[256];
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    const int want[] = {-1, 0, -1, 1, 0, -1, 1, -1, 1};
    for (int64_t id = 0; id <= 8; id++)
        if (want[id] >= 0) assert_int_equal(bm.rerunnable[graph_find(g, id)], want[id]);
    uint32_t conv = graph_find(g, 3), relu = graph_find(g, 4), mm = graph_find(g, 6);
    assert_int_equal(bm.changed_at[graph_find_buf(g, 2)], bm.pos[relu]);
    assert_int_equal(bm.frozen_from[conv], bm.pos[relu]);
    assert_true(bm.frozen_from[mm] == INT64_MAX);
    /* The checker: conv again before relu_ is fine, after it not. */
    uint32_t in = graph_find(g, 1), sum = graph_find(g, 8), b2 = graph_find_buf(g, 2);
    budget_event ok[] = {{BUDGET_RUN, in},   {BUDGET_RUN, conv}, {BUDGET_FREE, b2},
                         {BUDGET_RUN, conv}, {BUDGET_RUN, relu}, {BUDGET_RUN, mm},
                         {BUDGET_RUN, sum}};
    budget_event bad[] = {{BUDGET_RUN, in},  {BUDGET_RUN, conv}, {BUDGET_RUN, relu},
                          {BUDGET_FREE, b2}, {BUDGET_RUN, conv}, {BUDGET_RUN, mm},
                          {BUDGET_RUN, sum}};
    budget_plan p = {ok, 7, 7};
    budget_stats st;
    assert_int_equal(budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err), 0);
    assert_int_equal(st.reruns, 1);
    p.ev = bad;
    assert_int_equal(budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err), -1);
    assert_non_null(strstr(err, "event 5 (run Id 3): it runs again after BufId 2, which it "
                                "writes, was changed in place"));
    /* greedy, at every budget, makes only plans the checker takes */
    for (int64_t b = 100; b <= 400; b += 50) {
        budget_plan q = {0};
        budget_outcome o;
        assert_int_equal(
            budget_greedy(&bm, b, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL, &q, &o), 0);
        if (o.found && budget_check(&bm, &q, BUDGET_BANDWIDTH, &st, err, sizeof err))
            fail_msg("greedy at %lld: %s", (long long)b, err);
        budget_plan_free(&q);
    }
    /* Without the field, relu_ may run again: the rule is InPlace's. */
    budget_model_free(&bm);
    graph_free(g);
    char *plain = strdup(chain);
    char *f = strstr(plain, ", \"InPlace\": [2]");
    memmove(f, f + strlen(", \"InPlace\": [2]"), strlen(f + strlen(", \"InPlace\": [2]")) + 1);
    g = tu_load_text(plain);
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    assert_int_equal(bm.rerunnable[graph_find(g, 4)], 1);
    assert_true(bm.frozen_from[graph_find(g, 3)] == INT64_MAX);
    budget_model_free(&bm);
    graph_free(g);
    free(plain);
}

/* In (b1, kept) -> mul (reads b1, makes b2) -> add_ (changes b1 in place) -> mm (reads b2,
 * makes b3): mul may run again only until add_ has run, since it would read the new b1. */
static const char reader[] = "{\"Nodes\": ["
                             "{\"Id\": 0, \"Op\": \"ALLOC\", \"BufId\": 1, \"Size\": 100},"
                             "{\"Id\": 1, \"Op\": \"Input\", \"Inputs\": [1]},"
                             "{\"Id\": 2, \"Op\": \"ALLOC\", \"BufId\": 2, \"Size\": 100},"
                             "{\"Id\": 3, \"Op\": \"mul\", \"Inputs\": [1, 2], \"Rerun\": true},"
                             "{\"Id\": 4, \"Op\": \"add_\", \"Inputs\": [1], \"InPlace\": [1]},"
                             "{\"Id\": 5, \"Op\": \"ALLOC\", \"BufId\": 3, \"Size\": 100},"
                             "{\"Id\": 6, \"Op\": \"mm\", \"Inputs\": [2, 3]},"
                             "{\"Id\": 7, \"Op\": \"FREE\", \"BufId\": 2}],"
                             "\"Edges\": [[0, 1], [1, 3], [2, 3], [3, 4], [4, 6], [5, 6], [6, 7]]}";

static void model_never_rereads_changed(void **state)
{
    (void)state;
    graph *g = tu_load_text(reader);
    budget_model bm;
    char err[256];
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    uint32_t in = graph_find(g, 1), mul = graph_find(g, 3), add = graph_find(g, 4),
             mm = graph_find(g, 6), b2 = graph_find_buf(g, 2);
    assert_int_equal(bm.rerunnable[mul], 1);
    assert_int_equal(bm.frozen_from[mul], bm.pos[add]);
    assert_true(bm.frozen_from[mm] == INT64_MAX);
    budget_event ok[] = {{BUDGET_RUN, in},  {BUDGET_RUN, mul}, {BUDGET_FREE, b2},
                         {BUDGET_RUN, mul}, {BUDGET_RUN, add}, {BUDGET_RUN, mm}};
    budget_event bad[] = {{BUDGET_RUN, in},  {BUDGET_RUN, mul}, {BUDGET_RUN, add},
                          {BUDGET_FREE, b2}, {BUDGET_RUN, mul}, {BUDGET_RUN, mm}};
    budget_plan p = {ok, 6, 6};
    budget_stats st;
    assert_int_equal(budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err), 0);
    p.ev = bad;
    assert_int_equal(budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err), -1);
    assert_non_null(strstr(err, "event 5 (run Id 3): it runs again after BufId 1, which it "
                                "reads, was changed in place"));
    /* Every solver, at every budget, makes only plans the checker takes; 300 bytes (b1, b2
     * and b3 at mm) fit, below that nothing, and exact proves both. */
    for (int64_t b = 100; b <= 400; b += 50) {
        budget_plan q = {0}, r = {0};
        budget_outcome o, o2;
        budget_proof pf;
        assert_int_equal(
            budget_greedy(&bm, b, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL, &q, &o), 0);
        if (o.found && budget_check(&bm, &q, BUDGET_BANDWIDTH, &st, err, sizeof err))
            fail_msg("greedy at %lld: %s", (long long)b, err);
        assert_int_equal(budget_exact(&bm, b, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL, NULL,
                                      &r, &o2, &pf),
                         0);
        if (o2.found && budget_check(&bm, &r, BUDGET_BANDWIDTH, &st, err, sizeof err))
            fail_msg("exact at %lld: %s", (long long)b, err);
        assert_int_equal(o2.found, b >= 300);
        assert_true(pf.proven);
        budget_plan_free(&q);
        budget_plan_free(&r);
    }
    budget_model_free(&bm);
    graph_free(g);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(marks_kept),
        cmocka_unit_test(bad_fields),
        cmocka_unit_test(model_never_reruns_inplace),
        cmocka_unit_test(model_never_rereads_changed),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
