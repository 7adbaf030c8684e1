/* test_load.c: the loader's validation rules of syntax and fields, one test
 * per rule, through load_buffer on inline JSON: the JSON itself, Nodes and
 * Edges, each node's fields and numbers; each message names the position
 * (the graph's rules: test_load_graph.c). */
#include "testutil.h"

/* A node that is fine everywhere it is used below. */
#define N0 "{\"Id\": 0, \"Op\": \"X\"}"

/* ------------------------------------------------------------ syntax */

static void not_json_reports_position(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("hello", TU_SOURCE ":1:1: error:", "hello");
}

static void syntax_error_on_line_3(void **state)
{
    (void)state;
    /* "bogus" starts at line 3, column 19. */
    const char *json = "{\"Nodes\": [\n"
                       "  {\"Id\": 0, \"Op\": \"X\"},\n"
                       "  {\"Id\": 1, \"Op\": bogus}\n"
                       "], \"Edges\": []}\n";
    TU_EXPECT_ERROR(json, TU_SOURCE ":3:19: error:", "bogus");
}

static void syntax_error_missing_comma_on_line_3(void **state)
{
    (void)state;
    /* The second key on line 3 (column 13) follows a value without a comma. */
    const char *json = "{\"Nodes\": [\n"
                       "  {\"Id\": 0, \"Op\": \"X\"},\n"
                       "  {\"Id\": 1  \"Op\": \"X\"}\n"
                       "], \"Edges\": []}\n";
    TU_EXPECT_ERROR(json, TU_SOURCE ":3:13: error:");
}

static void syntax_error_column_points_at_offending_char(void **state)
{
    (void)state;
    /* A trailing comma in an object: the '}' at line 3, column 23 is where
     * a key was expected. */
    const char *json = "{\"Nodes\": [\n"
                       "  {\"Id\": 0, \"Op\": \"X\"},\n"
                       "  {\"Id\": 1, \"Op\": \"X\",}\n"
                       "], \"Edges\": []}\n";
    TU_EXPECT_ERROR(json, TU_SOURCE ":3:23: error:", "'}");
}

static void syntax_column_counts_utf8_characters(void **state)
{
    (void)state;
    /* "é" is two bytes but one column: "bogus" is at column 41. */
    const char *json =
        "{\"Nodes\": [{\"Id\": 0, \"Name\": \"\xc3\xa9\", \"Op\": bogus}], \"Edges\": []}";
    TU_EXPECT_ERROR(json, TU_SOURCE ":1:41: error:");
}

static void truncated_between_nodes(void **state)
{
    (void)state;
    /* Ends right after a node: the end of input is line 2, column 23. */
    const char *json = "{\"Nodes\": [\n"
                       "  {\"Id\": 0, \"Op\": \"X\"}";
    TU_EXPECT_ERROR(json, TU_SOURCE ":2:23: error:", "unexpected end of input");
}

static void truncated_inside_a_node(void **state)
{
    (void)state;
    /* The file stops in the middle of the node on line 3; the end of input
     * is line 3, column 22. A truncated file should be reported as such. */
    const char *json = "{\"Nodes\": [\n"
                       "  {\"Id\": 0, \"Op\": \"X\"},\n"
                       "  {\"Id\": 1, \"Op\": \"X\"";
    TU_EXPECT_ERROR(json, TU_SOURCE ":3:22: error:", "unexpected end of input");
}

static void truncated_inside_an_edge(void **state)
{
    (void)state;
    const char *json = "{\"Nodes\": [" N0 "], \"Edges\": [[0, 1";
    TU_EXPECT_ERROR(json, TU_SOURCE ":1:", "unexpected end of input");
}

static void every_prefix_of_a_valid_file_is_rejected(void **state)
{
    (void)state;
    const char *json =
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 1024, \"BufId\": 1},\n"
        "  {\"Id\": 1, \"Op\": \"Matmul\", \"Inputs\": [1], \"Name\": \"mm\"},\n"
        "  {\"Id\": 2, \"Op\": \"FREE\", \"BufId\": 1}],\n"
        " \"Edges\": [[0, 1], [1, 2]]}";
    size_t len = strlen(json);
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    for (size_t k = 0; k < len; k++) {
        memcpy(buf, json, k);
        buf[k] = 0;
        diag d;
        graph *g = tu_load(buf, &d);
        if (g || d.nerrors == 0 || d.nlines == 0) {
            print_message("prefix of %zu bytes:\n", k);
            tu_print_diag(&d);
        }
        assert_null(g);
        assert_true(d.nerrors >= 1);
        assert_true(d.nlines >= 1);
        /* Every message names the source; positions stay inside the text. */
        unsigned long line, col;
        assert_non_null(strstr(d.lines[0], TU_SOURCE));
        if (sscanf(d.lines[0], TU_SOURCE ":%lu:%lu:", &line, &col) == 2) {
            assert_true(line >= 1 && line <= 4);
            assert_true(col >= 1 && col <= 70);
        }
        diag_free(&d);
    }
    free(buf);
    diag d;
    graph *g = tu_load_ok(json, &d);
    graph_free(g);
    diag_free(&d);
}

static void empty_input(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("", TU_SOURCE ":1:1: error:", "empty input");
    TU_EXPECT_ERROR("  \n\t \n", TU_SOURCE ":1:1: error:", "empty input");
}

static void top_level_not_an_object(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("[1, 2]", TU_SOURCE ":1:1: error:", "top level must be an object", "an array");
    TU_EXPECT_ERROR("\n  \"Nodes\"", TU_SOURCE ":2:3: error:", "top level must be an object",
                    "a string");
}

static void trailing_garbage(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [], \"Edges\": []}\n  xyz",
                    TU_SOURCE ":2:3: error:", "unexpected data after the top-level object");
    TU_EXPECT_ERROR("{\"Nodes\": [], \"Edges\": []} {}",
                    TU_SOURCE ":1:28: error:", "unexpected data after the top-level object");
}

/* A \u0000 inside a string is valid JSON, but every string memtris keeps ends
 * at a NUL: "weight\u0000x" would be read as "weight". Refused in any string
 * (the fields the loader compares, names, keys, Measured's "how"), at the
 * escape's line and column; a string without one (or "\u0001") loads. */
static void nul_inside_a_string(void **state)
{
    (void)state;
    const char *why = "\\u0000 (a NUL character) inside a string: memtris refuses it";
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 4, \"BufId\": 1,\n"
                    "  \"Category\": \"weight\\u0000x\"}], \"Edges\": []}",
                    TU_SOURCE ":2:22: error:", why, "at '\\u0000x\"}]");
    const char *fields[] = {"\"Op\": \"ALL\\u0000OC\"", "\"Op\": \"X\", \"Name\": \"a\\u0000\"",
                            "\"Op\": \"X\", \"Phase\": \"forward\\u0000\"", "\"Op\": \"\\u0000\"",
                            "\"Op\": \"X\", \"Ty\\u0000pe\": 1"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        char json[256];
        snprintf(json, sizeof json, "{\"Nodes\": [{\"Id\": 0, %s}], \"Edges\": []}", fields[i]);
        TU_EXPECT_ERROR(json, TU_SOURCE ":1:", why);
    }
    TU_EXPECT_ERROR("{\"Nod\\u0000es\": [], \"Edges\": []}", TU_SOURCE ":1:6: error:", why);
    TU_EXPECT_ERROR("{\"Nodes\": [" N0 "], \"Edges\": [], \"Measured\": {\"peak\": 1, "
                    "\"how\": \"torch\\u0000\"}}",
                    TU_SOURCE ":1:", why);
    diag d; /* other escapes load as they are */
    graph *g =
        tu_load("{\"Nodes\": [{\"Id\": 0, \"Op\": \"a\\u0001b\\u00e9\"}], \"Edges\": []}", &d);
    assert_non_null(g);
    assert_string_equal(graph_op(g, 0), "a\001b\xc3\xa9");
    graph_free(g);
    diag_free(&d);
}

/* JSON text is UTF-8: a string with a byte that is not (a damaged file, a
 * Latin-1 name) is refused at that byte, not shown as garbage later. */
static void invalid_utf8_in_a_string(void **state)
{
    (void)state;
    TU_EXPECT_ERROR(
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"X\", \"Name\": \"caf\xe9\"}], \"Edges\": []}",
        TU_SOURCE ":1:45: error:", "invalid UTF-8 inside a string", "at '\\xe9\"}]");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 0, \"Op\": \"\xc0\xaf\"}], \"Edges\": []}",
                    TU_SOURCE ":1:", "invalid UTF-8"); /* overlong '/' */
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 0, \"Op\": \"\xed\xa0\x80\"}], \"Edges\": []}",
                    TU_SOURCE ":1:", "invalid UTF-8"); /* a surrogate */
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 0, \"Op\": \"\xf4\x90\x80\x80\"}], \"Edges\": []}",
                    TU_SOURCE ":1:", "invalid UTF-8"); /* past U+10FFFF */
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 0, \"Op\": \"\xe2\x82\"}], \"Edges\": []}",
                    TU_SOURCE ":1:", "invalid UTF-8"); /* cut short */
    diag d;                                            /* and the real thing loads */
    graph *g = tu_load("{\"Nodes\": [{\"Id\": 0, \"Op\": \"\xe2\x82\xac \xf0\x9f\x98\x80 "
                       "caf\xc3\xa9\"}], \"Edges\": []}",
                       &d);
    assert_non_null(g);
    assert_string_equal(graph_op(g, 0), "\xe2\x82\xac \xf0\x9f\x98\x80 caf\xc3\xa9");
    graph_free(g);
    diag_free(&d);
}

static void utf8_byte_order_mark(void **state)
{
    (void)state;
    /* Editors on Windows often start JSON files with a UTF-8 byte order mark
     * (cJSON itself skips it). Either the file loads, or the message must
     * not contradict itself by rejecting an object for not being one. */
    diag d;
    graph *g = tu_load("\xef\xbb\xbf{\"Nodes\": [" N0 "], \"Edges\": []}", &d);
    int contradiction =
        !g && tu_find_line(&d, "must be an object", "found an object", (const char *)NULL) >= 0;
    if (!g) tu_print_diag(&d);
    graph_free(g);
    diag_free(&d);
    if (contradiction) fail_msg("a file starting with a UTF-8 BOM is rejected as not an object");
}

/* ------------------------------------------------------ Nodes and Edges */

static void edges_before_nodes(void **state)
{
    (void)state;
    diag d;
    graph *g =
        tu_load("{\"Edges\": [[0, 1]], \"Nodes\": [" N0 ", {\"Id\": 1, \"Op\": \"Y\"}]}", &d);
    assert_non_null(g);
    assert_int_equal(d.nerrors, 0);
    assert_int_equal(g->nedges, 1);
    assert_int_equal(g->succ[g->succ_off[graph_find(g, 0)]], graph_find(g, 1));
    graph_free(g);
    diag_free(&d);
}

static void missing_nodes(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Edges\": []}", TU_SOURCE ":1:13: error:", "missing \"Nodes\"", "ends here");
}

static void missing_edges(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [" N0 "]}\n", TU_SOURCE ":1:", "error:", "missing \"Edges\"",
                    "ends here");
}

static void nodes_wrong_type(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": {\"a\": 1}, \"Edges\": []}",
                    TU_SOURCE ":1:11: error:", "\"Nodes\" must be an array", "an object");
    TU_EXPECT_ERROR("{\"Nodes\": [" N0 ", 7], \"Edges\": []}",
                    "error:", "Nodes[1] must be an object", "a number");
}

static void edges_wrong_type(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [" N0 "], \"Edges\": 5}", "error:", "\"Edges\" must be an array",
                    "a number");
    TU_EXPECT_ERROR("{\"Nodes\": [" N0 "], \"Edges\": [[0]]}", "error:", "Edges[0] must be a pair");
    TU_EXPECT_ERROR("{\"Nodes\": [" N0 "], \"Edges\": [[0, 1, 2]]}",
                    "error:", "Edges[0] must be a pair");
    TU_EXPECT_ERROR("{\"Nodes\": [" N0 "], \"Edges\": [\"0-1\"]}",
                    "error:", "Edges[0] must be a pair", "a string");
}

static void nodes_appearing_twice(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [" N0 "], \"Edges\": [], \"Nodes\": []}",
                    TU_SOURCE ":1:48: error:", "\"Nodes\" appears twice");
}

/* ------------------------------------------------------ node fields */

static void missing_id(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [" N0 ", {\"Op\": \"X\"}], \"Edges\": []}",
                    TU_SOURCE ":1:", "Nodes[1] has no \"Id\"");
}

static void id_wrong_type(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": \"3\", \"Op\": \"X\"}], \"Edges\": []}",
                    "error:", "Nodes[0]", "\"Id\" must be a non-negative integer", "a string");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": null, \"Op\": \"X\"}], \"Edges\": []}",
                    "error:", "Nodes[0]", "\"Id\"", "null");
}

static void missing_op(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 3}], \"Edges\": []}",
                    "error:", "Nodes[0] (Id 3) has no \"Op\"");
}

static void op_wrong_type(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 3, \"Op\": 4}], \"Edges\": []}",
                    "error:", "Nodes[0] (Id 3)", "\"Op\" must be a string", "a number");
}

static void alloc_without_size(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 3, \"Op\": \"ALLOC\", \"BufId\": 1}], \"Edges\": []}",
                    "error:", "Nodes[0] (Id 3)", "ALLOC has no \"Size\"");
}

static void size_wrong_type(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 3, \"Op\": \"ALLOC\", \"Size\": \"1\", \"BufId\": 1}], "
                    "\"Edges\": []}",
                    "error:", "Nodes[0] (Id 3)", "\"Size\"", "a string");
}

static void alloc_without_bufid(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 3, \"Op\": \"ALLOC\", \"Size\": 1}], \"Edges\": []}",
                    "error:", "Nodes[0] (Id 3)", "ALLOC has no \"BufId\"");
}

static void free_without_bufid(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 3, \"Op\": \"FREE\"}], \"Edges\": []}",
                    "error:", "Nodes[0] (Id 3)", "FREE has no \"BufId\"");
}

static void bufid_wrong_type(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 3, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": \"1\"}], "
                    "\"Edges\": []}",
                    "error:", "Nodes[0] (Id 3)", "\"BufId\" must be a non-negative integer",
                    "a string");
}

/* ------------------------------------------------------ numbers */

static void non_integer_number(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 1.5, \"Op\": \"X\"}], \"Edges\": []}",
                    TU_SOURCE ":1:12: error:", "\"Id\"", "1.5", "not an integer");
    TU_EXPECT_ERROR(
        "{\"Nodes\": [{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 1.5, \"BufId\": 1}], \"Edges\": []}",
        "error:", "\"Size\"", "1.5", "not an integer");
    TU_EXPECT_ERROR("{\"Nodes\": [" N0 "], \"Edges\": [[0, 1.5]]}", "error:", "Edges[0]", "1.5",
                    "not an integer");
}

static void negative_number(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": -3, \"Op\": \"X\"}], \"Edges\": []}", "error:", "\"Id\"",
                    "-3", "negative");
    TU_EXPECT_ERROR(
        "{\"Nodes\": [{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": -1, \"BufId\": 1}], \"Edges\": []}",
        "error:", "Nodes[0] (Id 1)", "\"Size\"", "-1", "negative");
    TU_EXPECT_ERROR(
        "{\"Nodes\": [{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": -2}], \"Edges\": []}",
        "error:", "\"BufId\"", "-2", "negative");
}

static void number_above_2_53(void **state)
{
    (void)state;
    TU_EXPECT_ERROR(
        "{\"Nodes\": [{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 9007199254740992, \"BufId\": 1}], "
        "\"Edges\": []}",
        "error:", "\"Size\"", "9007199254740992", "above 2^53-1");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 9007199254740992, \"Op\": \"X\"}], \"Edges\": []}",
                    "error:", "\"Id\"", "9007199254740992", "above 2^53-1");
}

static void huge_number(void **state)
{
    (void)state;
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 1e400, \"BufId\": 1}], "
                    "\"Edges\": []}",
                    "error:", "Nodes[0] (Id 1)", "\"Size\"", "out of range");
    TU_EXPECT_ERROR("{\"Nodes\": [{\"Id\": 1e400, \"Op\": \"X\"}], \"Edges\": []}",
                    "error:", "\"Id\"", "out of range");
}

static void size_exactly_2_53_minus_1_accepted(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_ok(
        "{\"Nodes\": [{\"Id\": 9007199254740991, \"Op\": \"ALLOC\", \"Size\": 9007199254740991, "
        "\"BufId\": 9007199254740991}, {\"Id\": 1, \"Op\": \"FREE\", \"BufId\": 9007199254740991}],"
        " \"Edges\": [[9007199254740991, 1]]}",
        &d);
    assert_int_equal(d.nwarnings, 0);
    assert_int_equal(g->nbufs, 1);
    assert_true(g->buf_size[0] == GRAPH_MAX_SIZE);
    assert_true(g->buf_id[0] == (int64_t)9007199254740991);
    uint32_t a = graph_find(g, 9007199254740991), f = graph_find(g, 1);
    assert_int_equal(a, 0);
    assert_int_equal(f, 1);
    assert_true(g->change[a] == GRAPH_MAX_SIZE);
    assert_true(g->change[f] == -GRAPH_MAX_SIZE);
    graph_free(g);
    diag_free(&d);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(not_json_reports_position),
        cmocka_unit_test(syntax_error_on_line_3),
        cmocka_unit_test(syntax_error_missing_comma_on_line_3),
        cmocka_unit_test(syntax_error_column_points_at_offending_char),
        cmocka_unit_test(syntax_column_counts_utf8_characters),
        cmocka_unit_test(truncated_between_nodes),
        cmocka_unit_test(truncated_inside_a_node),
        cmocka_unit_test(truncated_inside_an_edge),
        cmocka_unit_test(every_prefix_of_a_valid_file_is_rejected),
        cmocka_unit_test(empty_input),
        cmocka_unit_test(top_level_not_an_object),
        cmocka_unit_test(trailing_garbage),
        cmocka_unit_test(utf8_byte_order_mark),
        cmocka_unit_test(edges_before_nodes),
        cmocka_unit_test(missing_nodes),
        cmocka_unit_test(missing_edges),
        cmocka_unit_test(nodes_wrong_type),
        cmocka_unit_test(edges_wrong_type),
        cmocka_unit_test(nodes_appearing_twice),
        cmocka_unit_test(missing_id),
        cmocka_unit_test(id_wrong_type),
        cmocka_unit_test(missing_op),
        cmocka_unit_test(op_wrong_type),
        cmocka_unit_test(alloc_without_size),
        cmocka_unit_test(size_wrong_type),
        cmocka_unit_test(alloc_without_bufid),
        cmocka_unit_test(free_without_bufid),
        cmocka_unit_test(bufid_wrong_type),
        cmocka_unit_test(non_integer_number),
        cmocka_unit_test(negative_number),
        cmocka_unit_test(number_above_2_53),
        cmocka_unit_test(huge_number),
        cmocka_unit_test(size_exactly_2_53_minus_1_accepted),
        cmocka_unit_test(invalid_utf8_in_a_string),
        cmocka_unit_test(nul_inside_a_string),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
