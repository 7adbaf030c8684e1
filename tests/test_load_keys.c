/* test_load_keys.c: the single pass's node reader guesses each member's key from gen's order
 * (ALLOC: Id Op Size BufId Name; FREE: Id Op BufId Name; else Id Op Name Inputs Latency) and
 * compares the key's bytes at once. A graph in that order is taken by the single pass alone;
 * every near miss (a longer or shorter key, a repeat, another order, an escape, other white
 * space, the text ending within 16 bytes) gives the walk's graph and messages exactly, whole
 * and cut short at every byte. */
#include "graph_same.h"
#include "sched/graph/load_fast.h"
#include "testutil.h"

/* The graph text[0, len) loaded the one way or the other (walk_only), messages in d. */
static graph *load(const char *text, size_t len, int walk_only, diag *d, load_stats *st)
{
    const load_opts way = {.walk_only = walk_only};
    diag_init(d, TU_SOURCE);
    return load_buffer(text, len, TU_SOURCE, d, &way, st);
}

/* The walk and the single pass on text[0, len): the same messages and graph. */
static void agree(const char *text, size_t len, const char *where)
{
    diag d1, d2;
    graph *slow = load(text, len, 1, &d1, NULL), *fast = load(text, len, 0, &d2, NULL);
    long line = diag_differs(&d1, &d2);
    if (line >= 0)
        fail_msg("%s (%zu bytes): line %ld \"%s\" by the walk, \"%s\" by the single pass", where,
                 len, line, (size_t)line < d1.nlines ? d1.lines[line] : "",
                 (size_t)line < d2.nlines ? d2.lines[line] : "");
    if ((slow == NULL) != (fast == NULL)) fail_msg("%s (%zu bytes): one way failed", where, len);
    const char *what = slow ? graph_differs(slow, fast) : NULL;
    if (what) fail_msg("%s (%zu bytes): %s differs", where, len, what);
    graph_free(slow);
    graph_free(fast);
    diag_free(&d1);
    diag_free(&d2);
}

/* Whole and cut short at every byte. */
static void agree_cut(const char *text, const char *where)
{
    size_t len = strlen(text);
    for (size_t cut = 0; cut <= len; cut++) agree(text, cut, where);
}

#define GEN_NODES                                                                                \
    "{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 1048576, \"BufId\": 1, \"Name\": \"a.out\"},\n"    \
    "{\"Id\": 1, \"Op\": \"Input\", \"Name\": \"a\", \"Inputs\": [1], \"Latency\": 0.012421},\n" \
    "{\"Id\": 2, \"Op\": \"FREE\", \"BufId\": 1, \"Name\": \"free a.out\"}"

static void gen_order_taken_alone(void **state)
{
    (void)state;
    static const char text[] =
        "{\"Nodes\": [\n" GEN_NODES "\n],\n\"Edges\": [\n[0, 1], [1, 2]\n]}\n";
    diag d;
    load_stats st;
    graph *g = load(text, sizeof text - 1, 0, &d, &st);
    assert_non_null(g);
    assert_true(st.syntax_s == 0); /* no walk */
    assert_int_equal(g->n, 3);
    assert_int_equal(g->change[0], 1048576);
    assert_true(g->latency[1] == 0.012421);
    assert_int_equal(g->in_off[2] - g->in_off[1], 1);
    graph_free(g);
    diag_free(&d);
    agree_cut(text, "gen's order");
}

/* Each node object in turn, as the only node but one, in a graph both ways load. */
static void near_misses_agree(void **state)
{
    (void)state;
    static const char *const nodes[] = {
        "{\"Ids\": 5, \"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1}",
        "{\"Iq\": 5, \"Id\": 0, \"Op\": \"ALLOC\", \"Sise\": 9, \"Size\": 8, \"BufIe\": 2, "
        "\"BufId\": 1, \"Namf\": 1}",
        "{\"I\": 5, \"Id\": 0, \"Op\": \"ALLOC\", \"Sizes\": 9, \"Size\": 8, \"BufId\": 1}",
        "{\"Id\": 0, \"Id\": 7, \"Op\": \"ALLOC\", \"Size\": 8, \"Size\": 9, \"BufId\": 1}",
        "{\"Id\": 0, \"Op\": \"ALLOC\", \"Op\": \"FREE\", \"Size\": 8, \"BufIdx\": 2, \"BufId\": "
        "1}",
        "{\"BufId\": 1, \"Size\": 8, \"Op\": \"ALLOC\", \"Id\": 0, \"Name\": \"n\", \"Names\": 1}",
        "{\"\\u0049d\": 0, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1}",
        "{\"Id\":0,\"Op\":\"ALLOC\",\"Size\":8,\"BufId\":1,\"Name\":\"n\"}",
        "{ \"Id\" : 0 ,\n\t\"Op\"\r\n: \"ALLOC\", \"Size\"  :8, \"BufId\": 1}",
        "{\"Id\": 0, \"Op\": \"AXXOC\", \"Size\": 8, \"BufId\": 1, \"Name\": \"n\"}",
        "{\"Id\": 0, \"Op\": \"FXEE\", \"BufId\": 1, \"Name\": \"n\", \"Inputs\": [1]}",
        "{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 8, \"BufId\": 1, \"Name\": \"n\", \"Latency\": "
        "1}",
        "{\"Id\": 0, \"Op\": \"Relu\", \"Name\": \"r\", \"Inputs2\": [1], \"Inputs\": [], "
        "\"Latency_\": 3, \"Latency\": 0.5}",
        "{\"Id\": 0, \"Op\": \"Relu\", \"Name\": \"r\", \"Latency\": 0.5, \"Inputs\": []}",
        "{\"Id\": \"0\", \"Op\": \"Relu\"}",
        "{\"Id\": 0, \"Op\": 3}",
        "{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": -1, \"BufId\": 1}",
        "{\"Id\": 0, \"Op\": \"Relu\", \"Name\": \"r\", \"Inputs\": [1], \"Latency\": -2}",
        "{\"Id\": 0, \"Op\": \"Relu\", \"Name\": \"r\", \"Inputs\": [1], \"Latency\": 0.5}",
        "{\"Id\": 0, \"Op\": \"Relu\", \"Name\": \"r\", \"Inputs\": [1], \"Latency\"",
        "{\"Id\": 0, \"Op\": \"Relu\", \"Name\": \"r\", \"Inputs\": [1], \"Late",
    };
    char text[512], where[64];
    for (size_t k = 0; k < sizeof nodes / sizeof *nodes; k++) {
        snprintf(text, sizeof text,
                 "{\"Nodes\": [%s, {\"Id\": 9, \"Op\": \"Sum\", \"Name\": \"s\"}], \"Edges\": []}",
                 nodes[k]);
        snprintf(where, sizeof where, "node %zu", k);
        agree_cut(text, where);
        /* the node last in the text: its keys within 16 bytes of the end */
        snprintf(text, sizeof text, "{\"Edges\": [], \"Nodes\": [%s]}", nodes[k]);
        agree_cut(text, where);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gen_order_taken_alone),
        cmocka_unit_test(near_misses_agree),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
