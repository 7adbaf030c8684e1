/* test_load_graph.c: the loader's validation rules of the graph, one test per
 * rule, through load_buffer on inline JSON: ids and edges, buffers, the
 * extras it accepts, many messages, files and progress: what is rejected,
 * what is only warned about, and that each message names the ids involved. */
#include <math.h>
#include "testutil.h"

/* A node that is fine everywhere it is used below. */
#define N0 "{\"Id\": 0, \"Op\": \"X\"}"

/* ------------------------------------------------------ ids and edges */

static void duplicate_id(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 5, \"Op\": \"X\"}, {\"Id\": 6, \"Op\": \"X\"}, {\"Id\": "
                    "5, \"Op\": \"Y\"}],"
                    " \"Edges\": []}",
                    "error:", "duplicate Id 5", "Nodes[0]", "Nodes[2]");
}

static void duplicate_id_after_an_earlier_duplicate(void **state)
{
    (void)state;
    /* Id 2 is used by Nodes[2] and Nodes[3]; an earlier duplicate must not
     * shift the indices the message gives. */
    const char *json = "{\"Nodes\": [{\"Id\": 1, \"Op\": \"X\"}, {\"Id\": 1, \"Op\": \"X\"},"
                       " {\"Id\": 2, \"Op\": \"X\"}, {\"Id\": 2, \"Op\": \"X\"}], \"Edges\": []}";
    diag d;
    graph *g = tu_load(json, &d);
    int ok = !g && d.nerrors == 2 &&
             tu_find_line(&d, "duplicate Id 1", "Nodes[0] and Nodes[1]", (const char *)NULL) >= 0 &&
             tu_find_line(&d, "duplicate Id 2", "Nodes[2] and Nodes[3]", (const char *)NULL) >= 0;
    if (!ok) tu_print_diag(&d);
    graph_free(g);
    diag_free(&d);
    if (!ok)
        fail_msg("expected: duplicate Id 1: Nodes[0] and Nodes[1]; duplicate Id 2: Nodes[2] and "
                 "Nodes[3]");
}

static void edge_endpoint_not_a_node(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [" N0
                    ", {\"Id\": 1, \"Op\": \"X\"}], \"Edges\": [[0, 1], [0, 5]]}",
                    "error:", "Edges[1]", "[0, 5]", "node 5 does not exist");
    TU_EXPECT_ERROR("{\"Nodes\": [" N0 "], \"Edges\": [[8, 0]]}", "error:", "Edges[0]", "[8, 0]",
                    "node 8 does not exist");
}

static void self_loop(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [" N0
                    ", {\"Id\": 3, \"Op\": \"X\"}], \"Edges\": [[0, 3], [3, 3]]}",
                    "error:", "Edges[1]", "[3, 3]", "self-loop");
}

static void edge_listed_twice(void **state)
{
    (void)state;
    diag d;
    graph *g =
        tu_load_ok("{\"Nodes\": [" N0 ", {\"Id\": 1, \"Op\": \"X\"}, {\"Id\": 2, \"Op\": \"X\"}],"
                   " \"Edges\": [[0, 1], [1, 2], [0, 1]]}",
                   &d);
    assert_int_equal(d.nwarnings, 1);
    TU_ASSERT_LINE(&d, "warning:", "edge [0, 1]", "more than once");
    assert_int_equal(g->nedges, 2);
    assert_int_equal(g->succ_off[1] - g->succ_off[0], 1);
    assert_int_equal(g->pred_off[2] - g->pred_off[1], 1);
    graph_free(g);
    diag_free(&d);
}

static void cycle_printed_from_smallest_id(void **state)
{
    (void)state;
    /* 4 -> 7 -> 9 -> 4, reached from node 1, with 20 hanging off it; Nodes
     * are listed so that the cycle is found starting elsewhere. */
    const char *json =
        "{\"Nodes\": [{\"Id\": 20, \"Op\": \"X\"}, {\"Id\": 9, \"Op\": \"X\"}, {\"Id\": 1, \"Op\": "
        "\"X\"},"
        " {\"Id\": 7, \"Op\": \"X\"}, {\"Id\": 4, \"Op\": \"X\"}, {\"Id\": 30, \"Op\": \"X\"}],"
        " \"Edges\": [[1, 9], [9, 4], [4, 7], [7, 9], [7, 20], [1, 30]]}";
    diag d;
    graph *g = tu_load(json, &d);
    assert_null(g);
    assert_int_equal(d.nerrors, 1);
    TU_ASSERT_LINE(&d, "error:", "cycle: 4 -> 7 -> 9 -> 4");
    diag_free(&d);
}

static void two_node_cycle(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 12, \"Op\": \"X\"}, {\"Id\": 11, \"Op\": \"X\"}],"
                    " \"Edges\": [[12, 11], [11, 12]]}",
                    "error:", "cycle: 11 -> 12 -> 11");
}

/* ------------------------------------------------------ buffers */

static void two_allocs_of_one_buffer(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 10, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": 5},"
                    " {\"Id\": 11, \"Op\": \"ALLOC\", \"Size\": 2, \"BufId\": 5}], \"Edges\": []}",
                    "error:", "buffer 5 is allocated twice", "ALLOC nodes 10 and 11");
}

static void free_of_unknown_buffer(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [" N0
                    ", {\"Id\": 3, \"Op\": \"FREE\", \"BufId\": 44}], \"Edges\": [[0, 3]]}",
                    "error:", "FREE node 3", "buffer 44", "no ALLOC creates");
}

static void two_frees_of_one_buffer(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": 5},"
                    " {\"Id\": 21, \"Op\": \"FREE\", \"BufId\": 5}, {\"Id\": 22, \"Op\": \"FREE\", "
                    "\"BufId\": 5}],"
                    " \"Edges\": [[0, 21], [0, 22]]}",
                    "error:", "buffer 5 is freed twice", "FREE nodes 21 and 22");
}

static void free_not_depending_on_alloc(void **state)
{
    (void)state;
    /* Unrelated: no path either way. */
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": 5},"
                    " {\"Id\": 1, \"Op\": \"X\"}, {\"Id\": 2, \"Op\": \"FREE\", \"BufId\": 5}],"
                    " \"Edges\": [[0, 1]]}",
                    "error:", "FREE node 2", "buffer 5", "ALLOC node 0");
    /* Reversed: the FREE runs before its ALLOC. */
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 7, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": 6},"
                    " {\"Id\": 3, \"Op\": \"FREE\", \"BufId\": 6}], \"Edges\": [[3, 7]]}",
                    "error:", "FREE node 3", "buffer 6", "ALLOC node 7");
    /* Only through a sibling: ALLOC and FREE share a predecessor. */
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 0, \"Op\": \"X\"}, {\"Id\": 1, \"Op\": \"ALLOC\", "
                    "\"Size\": 1, \"BufId\": 2},"
                    " {\"Id\": 2, \"Op\": \"FREE\", \"BufId\": 2}], \"Edges\": [[0, 1], [0, 2]]}",
                    "error:", "FREE node 2", "buffer 2", "ALLOC node 1");
}

static void free_depending_on_alloc_by_a_long_path(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_ok(
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1},"
        " {\"Id\": 1, \"Op\": \"X\"}, {\"Id\": 2, \"Op\": \"X\"}, {\"Id\": 3, \"Op\": \"X\"},"
        " {\"Id\": 4, \"Op\": \"FREE\", \"BufId\": 1}, {\"Id\": 5, \"Op\": \"X\"}],"
        " \"Edges\": [[5, 4], [0, 1], [1, 2], [5, 2], [2, 3], [3, 4]]}",
        &d);
    assert_int_equal(d.nwarnings, 0);
    graph_free(g);
    diag_free(&d);
}

static void alloc_never_freed(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_ok("{\"Nodes\": [{\"Id\": 3, \"Op\": \"ALLOC\", \"Size\": 64, \"BufId\": 9},"
                          " {\"Id\": 4, \"Op\": \"X\", \"Inputs\": [9]}], \"Edges\": [[3, 4]]}",
                          &d);
    assert_int_equal(d.nwarnings, 1);
    TU_ASSERT_LINE(&d, "warning:", "buffer 9", "ALLOC node 3", "64 bytes", "never freed");
    assert_int_equal(g->nbufs, 1);
    assert_int_equal(g->buf_free[0], GRAPH_NONE);
    /* Live to the end: the memory after the last step still holds it. */
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("priority"), NULL, &r, err, sizeof err), 0);
    assert_true(r.memory[0] == 64 && r.memory[1] == 64);
    assert_true(r.peak == 64);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

static void inputs_naming_unknown_buffer(void **state)
{
    (void)state;
    diag d;
    graph *g =
        tu_load_ok("{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1},"
                   " {\"Id\": 1, \"Op\": \"X\", \"Inputs\": [1, 77]},"
                   " {\"Id\": 2, \"Op\": \"FREE\", \"BufId\": 1}], \"Edges\": [[0, 1], [1, 2]]}",
                   &d);
    assert_int_equal(d.nwarnings, 1);
    TU_ASSERT_LINE(&d, "warning:", "node 1", "buffer 77", "Inputs");
    /* Inputs are kept as written. */
    uint32_t i = graph_find(g, 1);
    assert_int_equal(g->in_off[i + 1] - g->in_off[i], 2);
    assert_true(g->inputs[g->in_off[i]] == 1 && g->inputs[g->in_off[i] + 1] == 77);
    graph_free(g);
    diag_free(&d);
}

static void free_size_differs_from_alloc(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_ok(
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 10, \"BufId\": 5},"
        " {\"Id\": 1, \"Op\": \"FREE\", \"BufId\": 5, \"Size\": 20}], \"Edges\": [[0, 1]]}",
        &d);
    assert_int_equal(d.nwarnings, 1);
    TU_ASSERT_LINE(&d, "warning:", "FREE node 1", "20", "buffer 5", "ALLOC node 0", "10");
    assert_true(g->change[graph_find(g, 1)] == -10);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &r, err, sizeof err), 0);
    assert_true(r.memory[0] == 10 && r.memory[1] == 0 && r.peak == 10);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

static void free_with_matching_size_is_quiet(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_ok(
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 10, \"BufId\": 5},"
        " {\"Id\": 1, \"Op\": \"FREE\", \"BufId\": 5, \"Size\": 10}], \"Edges\": [[0, 1]]}",
        &d);
    assert_int_equal(d.nwarnings, 0);
    assert_int_equal(d.nlines, 0);
    graph_free(g);
    diag_free(&d);
}

/* ------------------------------------------------------ accepted extras */

static void unknown_fields_ignored(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_ok(
        "{\"Version\": 3, \"Meta\": {\"a\": [1, {\"b\": null}]},"
        " \"Nodes\": [{\"Id\": 0, \"Op\": \"X\", \"Color\": \"red\", \"Attrs\": {\"k\": [1, 2]}}],"
        " \"Extra\": [], \"Edges\": [], \"Tail\": true}",
        &d);
    assert_int_equal(d.nwarnings, 0);
    assert_int_equal(d.nlines, 0);
    assert_int_equal(g->n, 1);
    graph_free(g);
    diag_free(&d);
}

static void ids_non_contiguous_and_unsorted(void **state)
{
    (void)state;
    diag d;
    graph *g =
        tu_load_ok("{\"Nodes\": [{\"Id\": 100, \"Op\": \"ALLOC\", \"Size\": 4, \"BufId\": 3},"
                   " {\"Id\": 7, \"Op\": \"Relu\"}, {\"Id\": 42, \"Op\": \"FREE\", \"BufId\": 3}],"
                   " \"Edges\": [[100, 7], [7, 42]]}",
                   &d);
    assert_int_equal(d.nwarnings, 0);
    assert_int_equal(g->n, 3);
    assert_int_equal(graph_find(g, 100), 0);
    assert_int_equal(graph_find(g, 7), 1);
    assert_int_equal(graph_find(g, 42), 2);
    assert_int_equal(graph_find(g, 0), GRAPH_NONE);
    assert_int_equal(graph_find(g, 1), GRAPH_NONE);
    assert_int_equal(graph_find_buf(g, 3), 0);
    assert_int_equal(graph_find_buf(g, 100), GRAPH_NONE);
    assert_int_equal(g->kind[0], NODE_ALLOC);
    assert_int_equal(g->kind[1], NODE_COMPUTE);
    assert_int_equal(g->kind[2], NODE_FREE);
    assert_string_equal(graph_op(g, 1), "Relu");
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &r, err, sizeof err), 0);
    assert_true(g->id[r.order[0]] == 100 && g->id[r.order[1]] == 7 && g->id[r.order[2]] == 42);
    assert_true(r.memory[0] == 4 && r.memory[1] == 4 && r.memory[2] == 0);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

static void optional_name_latency_stream_kept(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_ok(
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"Conv\", \"Name\": \"conv1\", \"Latency\": 2.5,"
        " \"Stream\": 3}, {\"Id\": 1, \"Op\": \"Relu\"},"
        " {\"Id\": 2, \"Op\": \"Add\", \"Latency\": 0, \"Name\": \"add \\\"x\\\"\"}],"
        " \"Edges\": [[0, 1]]}",
        &d);
    assert_int_equal(d.nwarnings, 0);
    assert_string_equal(graph_name(g, 0), "conv1");
    assert_string_equal(graph_op(g, 0), "Conv");
    assert_string_equal(graph_name(g, 1), "Relu"); /* no Name: the Op */
    assert_int_equal(g->name[1], 0);
    assert_string_equal(graph_name(g, 2), "add \"x\"");
    assert_non_null(g->latency);
    assert_true(g->latency[0] == 2.5);
    assert_true(isnan(g->latency[1]));
    assert_true(g->latency[2] == 0.0);
    assert_non_null(g->stream);
    assert_true(g->stream[0] == 3);
    assert_true(g->stream[1] == -1 && g->stream[2] == -1);
    graph_free(g);

    /* Without any Latency or Stream, the columns are absent. */
    g = tu_load_ok("{\"Nodes\": [" N0 "], \"Edges\": []}", &d);
    assert_null(g->latency);
    assert_null(g->stream);
    graph_free(g);
    diag_free(&d);
}

/* A training graph's tags: Category on ALLOCs (its FREE reads it through the buffer), Phase on
 * compute nodes, and the top-level Measured peak. */
#define TAGGED                                                                              \
    "{\"Measured\": {\"peak\": 4096, \"how\": \"torch.profiler, CPU\"}, \"Nodes\": ["       \
    "{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 64, \"BufId\": 1, \"Category\": \"weight\"}," \
    "{\"Id\": 1, \"Op\": \"Conv\", \"Phase\": \"forward\"},"                                \
    "{\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 2},"                            \
    "{\"Id\": 3, \"Op\": \"ConvGrad\", \"Phase\": \"backward\"},"                           \
    "{\"Id\": 4, \"Op\": \"FREE\", \"BufId\": 1}],"                                         \
    " \"Edges\": [[0, 1], [1, 2], [2, 3], [3, 4]]}"

static void category_phase_measured_kept(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_ok(TAGGED, &d);
    assert_int_equal(graph_category(g, 0), GRAPH_CAT_WEIGHT);
    assert_int_equal(graph_category(g, 4), GRAPH_CAT_WEIGHT); /* the FREE, by its buffer */
    assert_int_equal(graph_buf_category(g, 0), GRAPH_CAT_WEIGHT);
    assert_int_equal(graph_category(g, 2), GRAPH_CAT_NONE);
    assert_int_equal(graph_category(g, 1), GRAPH_CAT_NONE);
    assert_int_equal(graph_phase(g, 1), GRAPH_PHASE_FORWARD);
    assert_int_equal(graph_phase(g, 3), GRAPH_PHASE_BACKWARD);
    assert_int_equal(graph_phase(g, 0), GRAPH_PHASE_NONE);
    assert_string_equal(graph_category_word(graph_category(g, 0)), "weight");
    assert_string_equal(graph_phase_word(GRAPH_PHASE_OPTIMIZER), "optimizer");
    assert_true(g->measured_peak == 4096);
    assert_string_equal(g->measured_how, "torch.profiler, CPU");
    for (int c = 1; c < GRAPH_NCAT; c++)
        assert_int_equal(graph_category_parse(graph_category_word(c)), c);
    graph_free(g);
    diag_free(&d);

    /* Without them, no column and no measured peak. */
    g = tu_load_ok("{\"Nodes\": [" N0 "], \"Edges\": []}", &d);
    assert_null(g->tag);
    assert_true(g->measured_peak == -1);
    assert_null(g->measured_how);
    graph_free(g);
    diag_free(&d);
}

static void bad_category_phase_measured(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 4, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1,"
                    " \"Category\": \"activations\"}], \"Edges\": []}",
                    "error:", "Nodes[0] (Id 4)", "unknown Category \"activations\"",
                    "input, weight, gradient, optimizer, activation, workspace or output");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 4, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1,"
                    " \"Category\": 3}], \"Edges\": []}",
                    "error:", "Nodes[0] (Id 4)", "\"Category\" must be a string", "a number");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 7, \"Op\": \"Relu\", \"Category\": \"weight\"}],"
                    " \"Edges\": []}",
                    "error:", "Nodes[0] (Id 7)", "\"Category\" belongs on an ALLOC",
                    "not on a compute node");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 7, \"Op\": \"Relu\", \"Phase\": \"train\"}],"
                    " \"Edges\": []}",
                    "error:", "Nodes[0] (Id 7)", "unknown Phase \"train\"",
                    "forward, backward or optimizer");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 4, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1,"
                    " \"Phase\": \"forward\"}], \"Edges\": []}",
                    "error:", "Nodes[0] (Id 4)", "\"Phase\" belongs on a compute node",
                    "not on an ALLOC");
    TU_EXPECT_ERROR("{\"Measured\": 5, \"Nodes\": [" N0 "], \"Edges\": []}",
                    "error:", "\"Measured\" must be an object", "a number");
    TU_EXPECT_ERROR("{\"Measured\": {\"how\": \"x\"}, \"Nodes\": [" N0 "], \"Edges\": []}",
                    "error:", "\"Measured\" has no \"peak\"");
    TU_EXPECT_ERROR("{\"Measured\": {\"peak\": -1}, \"Nodes\": [" N0 "], \"Edges\": []}",
                    "error:", "\"Measured\": \"peak\" must be an integer", "negative");
    TU_EXPECT_ERROR("{\"Measured\": {\"peak\": 1, \"how\": 2}, \"Nodes\": [" N0 "], \"Edges\": []}",
                    "error:", "\"how\" must be a string");
    TU_EXPECT_ERROR("{\"Measured\": {\"peak\": 1}, \"Measured\": {\"peak\": 2}, \"Nodes\": [" N0
                    "], \"Edges\": []}",
                    "error:", "\"Measured\" appears twice");
}

static void empty_graph_loads(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_ok("{\"Nodes\": [], \"Edges\": []}", &d);
    assert_int_equal(g->n, 0);
    assert_int_equal(g->nedges, 0);
    assert_int_equal(g->nbufs, 0);
    graph_free(g);
    diag_free(&d);
}

/* A buffer is shown by its ALLOC's Name less fx2memtris's ".out", else its BufId. */
static void buffer_display_names(void **state)
{
    (void)state;
    diag d;
    graph *g =
        tu_load_ok("{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 16, \"BufId\": 7, "
                   "\"Name\": \"param.fc.weight.out\"}, {\"Id\": 1, \"Op\": \"ALLOC\", "
                   "\"Size\": 16, \"BufId\": 9}, {\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 16, "
                   "\"BufId\": 3, \"Name\": \".out\"}], \"Edges\": []}",
                   &d);
    char buf[GRAPH_LABEL_MAX], small[6];
    assert_string_equal(graph_buf_display(g, graph_find_buf(g, 7), buf, sizeof buf),
                        "param.fc.weight");
    assert_string_equal(graph_buf_display(g, graph_find_buf(g, 9), buf, sizeof buf), "b9");
    assert_string_equal(graph_buf_display(g, graph_find_buf(g, 3), buf, sizeof buf), ".out");
    assert_string_equal(graph_buf_display(g, graph_find_buf(g, 7), small, sizeof small), "param");
    graph_free(g);
    diag_free(&d);
}

/* ------------------------------------------------------ many messages */

static void many_leaks_keep_few_lines(void **state)
{
    (void)state;
    tu_str b = {0};
    tu_printf(&b, "{\"Nodes\": [");
    for (int i = 0; i < 10000; i++)
        tu_printf(&b, "%s{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": 16, \"BufId\": %d}",
                  i ? ", " : "", i, i);
    tu_printf(&b, "], \"Edges\": []}");
    diag d;
    graph *g = tu_load_ok(b.s, &d);
    assert_int_equal(g->n, 10000);
    assert_int_equal(d.nwarnings, 10000);
    assert_true(d.nlines <= DIAG_KEEP_PER_CLASS + 1);
    assert_int_equal(d.nlines, DIAG_KEEP_PER_CLASS + 1);
    TU_ASSERT_LINE(&d, "warning:", "buffer 0 ", "never freed");
    assert_non_null(strstr(d.lines[d.nlines - 1], "and 9990 more"));
    graph_free(g);
    diag_free(&d);
    free(b.s);
}

static void many_errors_keep_few_lines(void **state)
{
    (void)state;
    tu_str b = {0};
    tu_printf(&b, "{\"Nodes\": [" N0 "], \"Edges\": [");
    for (int i = 0; i < 500; i++) tu_printf(&b, "%s[0, %d]", i ? ", " : "", i + 1);
    tu_printf(&b, "]}");
    diag d;
    graph *g = tu_load(b.s, &d);
    assert_null(g);
    assert_int_equal(d.nerrors, 500);
    assert_int_equal(d.nlines, DIAG_KEEP_PER_CLASS + 1);
    TU_ASSERT_LINE(&d, "error:", "Edges[0]", "node 1 does not exist");
    assert_non_null(strstr(d.lines[d.nlines - 1], "and 490 more errors"));
    diag_free(&d);
    free(b.s);
}

/* More nodes than the limit (load_opts.max_nodes here; the 32-bit indices
 * LOAD_MAX_NODES in a real file of billions of nodes): a clean "too large"
 * error, not "out of memory", and no graph. */
static void too_many_nodes_is_too_large(void **state)
{
    (void)state;
    const char *json = "{\"Nodes\": [{\"Id\": 0, \"Op\": \"A\"}, {\"Id\": 1, \"Op\": \"A\"}, "
                       "{\"Id\": 2, \"Op\": \"A\"}, {\"Id\": 3, \"Op\": \"A\"}], \"Edges\": []}";
    load_opts opts = {NULL, NULL, 3, 0};
    diag d;
    diag_init(&d, TU_SOURCE);
    graph *g = load_buffer(json, strlen(json), TU_SOURCE, &d, &opts, NULL);
    assert_null(g);
    TU_ASSERT_LINE(&d, "t.json: error: too large: more than 3 nodes (the most memtris holds)");
    assert_int_equal(tu_find_line(&d, "out of memory", (const char *)NULL), -1);
    diag_free(&d);
    opts.max_nodes = 4; /* exactly the limit is fine */
    diag_init(&d, TU_SOURCE);
    g = load_buffer(json, strlen(json), TU_SOURCE, &d, &opts, NULL);
    assert_non_null(g);
    assert_int_equal(g->n, 4);
    graph_free(g);
    diag_free(&d);
}

static void load_file_reports_missing_file(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, "/nonexistent/memtris-test.json");
    graph *g = load_file("/nonexistent/memtris-test.json", &d, NULL, NULL);
    assert_null(g);
    assert_int_equal(d.nerrors, 1);
    TU_ASSERT_LINE(&d, "/nonexistent/memtris-test.json", "error:", "cannot open");
    diag_free(&d);
}

/* A chain of `len` compute nodes (ids 1000..) between ALLOC 0 (buffer 1) and
 * FREE 1; with `linked` the chain starts at the ALLOC, else the ALLOC is a
 * separate root (and 70 more buffers make the far check run in chunks). */
static char *far_free_graph(int len, int linked)
{
    size_t cap = 64 + (size_t)len * 64 + 70 * 200, n = 0;
    char *j = malloc(cap);
    assert_non_null(j);
    n += (size_t)sprintf(j + n,
                         "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1}, "
                         "{\"Id\": 1, \"Op\": \"FREE\", \"BufId\": 1}");
    for (int i = 0; i < len; i++)
        n += (size_t)sprintf(j + n, ", {\"Id\": %d, \"Op\": \"X\"}", 1000 + i);
    for (int k = 0; k < 70; k++)
        n += (size_t)sprintf(j + n,
                             ", {\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": %d}, "
                             "{\"Id\": %d, \"Op\": \"FREE\", \"BufId\": %d}",
                             10 + 2 * k, 100 + k, 11 + 2 * k, 100 + k);
    n += (size_t)sprintf(j + n, "], \"Edges\": [");
    if (linked) n += (size_t)sprintf(j + n, "[0, 1000], ");
    for (int i = 1; i < len; i++) n += (size_t)sprintf(j + n, "[%d, %d], ", 999 + i, 1000 + i);
    for (int k = 0; k < 70; k++) /* each extra buffer's FREE waits for the whole chain too */
        n += (size_t)sprintf(j + n, "[%d, %d], [%d, %d], ", 10 + 2 * k, 1000, 1000 + len - 1,
                             11 + 2 * k);
    n += (size_t)sprintf(j + n, "[%d, 1]]}", 1000 + len - 1);
    return j;
}

/* A FREE far from its ALLOC (beyond the backward search's budget) is still
 * checked exactly, both ways. */
static void free_far_from_alloc(void **state)
{
    (void)state;
    diag d;
    char *j = far_free_graph(3000, 1);
    graph *g = tu_load(j, &d);
    if (!g) tu_print_diag(&d);
    assert_non_null(g);
    graph_free(g);
    diag_free(&d);
    free(j);
    j = far_free_graph(3000, 0);
    g = tu_load(j, &d);
    assert_null(g);
    assert_int_equal(d.nerrors, 1);
    TU_ASSERT_LINE(&d, "FREE node 1 of buffer 1 does not depend on ALLOC node 0");
    diag_free(&d);
    free(j);
}

/* Loading reports progress: growing byte counts, ending at the total. */
typedef struct progress_log {
    size_t calls, last, total;
    int monotonic;
} progress_log;

static void on_progress(void *ctx, size_t done, size_t total)
{
    progress_log *p = ctx;
    if (p->calls && done < p->last) p->monotonic = 0;
    p->calls++;
    p->last = done;
    p->total = total;
}

static void load_reports_progress(void **state)
{
    (void)state;
    /* A graph of some size: a chain of 20000 compute nodes. */
    size_t cap = 2 << 20, len = 0;
    char *json = malloc(cap);
    assert_non_null(json);
    len += (size_t)sprintf(json + len, "{\"Nodes\": [");
    for (int i = 0; i < 20000; i++)
        len += (size_t)sprintf(json + len, "%s{\"Id\": %d, \"Op\": \"X\"}", i ? ", " : "", i);
    len += (size_t)sprintf(json + len, "], \"Edges\": [");
    for (int i = 1; i < 20000; i++)
        len += (size_t)sprintf(json + len, "%s[%d, %d]", i > 1 ? ", " : "", i - 1, i);
    len += (size_t)sprintf(json + len, "]}");
    progress_log p = {0, 0, 0, 1};
    load_opts opts = {on_progress, &p, 0, 0};
    diag d;
    diag_init(&d, TU_SOURCE);
    graph *g = load_buffer(json, len, TU_SOURCE, &d, &opts, NULL);
    assert_non_null(g);
    assert_true(p.calls >= 3);
    assert_true(p.monotonic);
    assert_int_equal(p.total, len);
    assert_int_equal(p.last, len);
    graph_free(g);
    diag_free(&d);
    free(json);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(duplicate_id),
        cmocka_unit_test(duplicate_id_after_an_earlier_duplicate),
        cmocka_unit_test(edge_endpoint_not_a_node),
        cmocka_unit_test(self_loop),
        cmocka_unit_test(edge_listed_twice),
        cmocka_unit_test(cycle_printed_from_smallest_id),
        cmocka_unit_test(two_node_cycle),
        cmocka_unit_test(two_allocs_of_one_buffer),
        cmocka_unit_test(free_of_unknown_buffer),
        cmocka_unit_test(two_frees_of_one_buffer),
        cmocka_unit_test(free_not_depending_on_alloc),
        cmocka_unit_test(free_depending_on_alloc_by_a_long_path),
        cmocka_unit_test(alloc_never_freed),
        cmocka_unit_test(inputs_naming_unknown_buffer),
        cmocka_unit_test(free_size_differs_from_alloc),
        cmocka_unit_test(free_with_matching_size_is_quiet),
        cmocka_unit_test(unknown_fields_ignored),
        cmocka_unit_test(ids_non_contiguous_and_unsorted),
        cmocka_unit_test(optional_name_latency_stream_kept),
        cmocka_unit_test(category_phase_measured_kept),
        cmocka_unit_test(bad_category_phase_measured),
        cmocka_unit_test(empty_graph_loads),
        cmocka_unit_test(buffer_display_names),
        cmocka_unit_test(many_leaks_keep_few_lines),
        cmocka_unit_test(many_errors_keep_few_lines),
        cmocka_unit_test(too_many_nodes_is_too_large),
        cmocka_unit_test(load_file_reports_missing_file),
        cmocka_unit_test(load_reports_progress),
        cmocka_unit_test(free_far_from_alloc),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
