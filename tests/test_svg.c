/* test_svg.c: svg.c alone: XML escaping (entities, controls, invalid UTF-8),
 * the human axis steps, and a whole picture written to memory: its frame, one
 * rectangle per buffer, the merging past the cap. */
#include "testutil.h"
#include "sched/place/place.h"
#include "svg/svg.h"

/* What svg_escape writes for s, in a static buffer. */
static const char *escaped(const char *s)
{
    static char out[512];
    FILE *f = fmemopen(out, sizeof out, "w");
    assert_non_null(f);
    svg_escape(f, s);
    fclose(f);
    return out;
}

static void escape_entities_and_bad_bytes(void **state)
{
    (void)state;
    assert_string_equal(escaped("plain name.out"), "plain name.out");
    assert_string_equal(escaped("a<b>&\"c'd"), "a&lt;b&gt;&amp;&quot;c&apos;d");
    assert_string_equal(escaped("tab\tctl\x01\x1f"), "tab\tctl??");
    assert_string_equal(escaped("esc\x1b[31m del\x7f c1\xc2\x9b\xc2\x80"), "esc?[31m del? c1??");
    assert_string_equal(escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
                        "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    assert_string_equal(escaped("bad \xff\xfe end"), "bad ?? end");
    assert_string_equal(escaped("cut \xe2\x82"), "cut ??");   /* truncated sequence */
    assert_string_equal(escaped("long \xc0\xaf"), "long ??"); /* overlong '/' */
    assert_string_equal(escaped("surrogate \xed\xa0\x80"), "surrogate ???"); /* U+D800 */
    assert_string_equal(escaped("nonchar \xef\xbf\xbf"), "nonchar ???");     /* U+FFFF */
}

static void byte_steps_are_human(void **state)
{
    (void)state;
    double unit;
    const char *name;
    double step = svg_byte_step(112.0 * 1048576, &unit, &name);
    assert_string_equal(name, "MiB");
    assert_true(step == 25.0 * 1048576);
    step = svg_byte_step(1536, &unit, &name);
    assert_string_equal(name, "KiB");
    assert_true(step == 0.5 * 1024);
    step = svg_byte_step(3, &unit, &name);
    assert_string_equal(name, "B");
    assert_true(step >= 1);
    step = svg_byte_step(0, &unit, &name);
    assert_string_equal(name, "B");
    assert_true(step == 1);
    step = svg_byte_step(9.2e18, &unit, &name); /* near 2^63: EiB, no overflow */
    assert_string_equal(name, "EiB");
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* Plans g with first fit and draws it with the given cap, and a cursor at
 * step cursor unless it is UINT32_MAX; returns the SVG (free it). */
static char *draw_at(const graph *g, uint32_t cap, uint32_t cursor)
{
    run r;
    placement pl;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("priority"), NULL, &r, err, sizeof err), 0);
    assert_int_equal(place_run(g, &r, placer_find("first-fit"), 64, NULL, &pl, err, sizeof err), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    svg_plan sp = {.g = g,
                   .r = &r,
                   .pl = &pl,
                   .policy = "priority",
                   .max_rects = cap,
                   .has_cursor = cursor != UINT32_MAX,
                   .cursor = cursor};
    assert_int_equal(svg_write_plan(f, &sp, err, sizeof err), 0);
    assert_int_equal(fclose(f), 0);
    place_free(&pl);
    policy_run_free(&r);
    return buf;
}

static char *draw(const graph *g, uint32_t cap) { return draw_at(g, cap, UINT32_MAX); }

static void picture_has_one_rect_per_buffer(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load(
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 1000, \"BufId\": 1, \"Name\": "
        "\"x<y\"},"
        " {\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 3000, \"BufId\": 2},"
        " {\"Id\": 2, \"Op\": \"FREE\", \"BufId\": 1}, {\"Id\": 3, \"Op\": \"FREE\", \"BufId\": 2},"
        " {\"Id\": 4, \"Op\": \"ALLOC\", \"Size\": 0, \"BufId\": 3}],"
        " \"Edges\": [[0, 1], [1, 2], [2, 3]]}",
        &d);
    assert_non_null(g);
    char *s = draw(g, 0);
    const char *head =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"";
    assert_true(strncmp(s, head, strlen(head)) == 0);
    assert_non_null(strstr(s, "</svg>\n"));
    assert_int_equal(count(s, "class=\"buf\""), 2); /* the 0-byte buffer has none */
    assert_int_equal(count(s, "class=\"merged\""), 0);
    assert_non_null(
        strstr(s, "buffer 1 x&lt;y: 1000 B at offset 0 B, allocated at step 2, freed at step 4"));
    assert_non_null(strstr(s, "peak 3.9 KiB at step 3"));
    assert_non_null(strstr(s, "arena 3.9 KiB (high-water mark)"));
    assert_null(strstr(s, "x<y"));
    assert_null(strstr(s, "class=\"cursor\""));
    free(s);

    /* The TUI's export: the cursor's step in the title and as a line, with
     * the bytes live there (step 3, after ALLOC 4, 0 and 1: 1000 + 3000 B). */
    s = draw_at(g, 0, 3);
    assert_int_equal(count(s, "class=\"cursor\""), 1);
    assert_non_null(strstr(s, ", at step 3 of 5</text>"));
    assert_non_null(strstr(s, ">step 3: 3.9 KiB live</text>"));
    free(s);

    /* A cap of 1: the larger buffer drawn, the other merged, and a note. */
    s = draw(g, 1);
    assert_int_equal(count(s, "class=\"buf\""), 1);
    assert_non_null(strstr(s, "buffer 2: 2.9 KiB"));
    assert_int_equal(count(s, "class=\"merged\"") >= 1, 1);
    assert_non_null(strstr(s, "1 smaller buffers"));
    free(s);
    graph_free(g);
    diag_free(&d);
}

static void empty_graph_draws(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load("{\"Nodes\": [], \"Edges\": []}", &d);
    assert_non_null(g);
    char *s = draw(g, 0);
    assert_non_null(strstr(s, "</svg>\n"));
    assert_int_equal(count(s, "class=\"buf\""), 0);
    free(s);
    graph_free(g);
    diag_free(&d);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escape_entities_and_bad_bytes),
        cmocka_unit_test(byte_steps_are_human),
        cmocka_unit_test(picture_has_one_rect_per_buffer),
        cmocka_unit_test(empty_graph_draws),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
