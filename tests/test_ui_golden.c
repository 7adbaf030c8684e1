/* test_ui_golden.c: the TUI's golden screens (80x24, 132x40; colour, mono; UTF-8, ASCII), the
 * pool view, the lanes, the replay's overlay and every sample in both modes. Goldens are rewritten
 * only when run with --update-golden. */
#define _GNU_SOURCE
#include "uiutil.h"

static void test_golden_demo(void **state)
{
    (void)state;
    golden_case("demo.json", 0, 14, "demo-step14", NULL);
}

static void test_golden_demo_compare(void **state)
{
    (void)state;
    golden_case("demo.json", 1, 30, "demo-compare-step30", NULL);
}

/* I: the pools over iterations in the curve's panel. */
static void test_golden_pool(void **state)
{
    (void)state;
    golden_case("demo.json", 0, 14, "demo-pool-step14", "I");
}

/* I shows the numbers 'memtris iterate' prints (the same simulation, with
 * the command line's parameters), follows the stepped policy (s), never cuts
 * a word at any width, and I again brings the curve back. */
static void test_pool_view(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "bert_base.json", 0);
    app *a = &f.a;
    a->poolp = (pool_params){150, 0.1, 1.0, 9};
    assert_int_equal(app_key(a, 'I'), APP_REDRAW);
    assert_true(a->curve == CURVE_POOL && a->pool);
    pool_sim s;
    char err[256];
    assert_int_equal(pool_simulate(f.g, &a->st[0].r, &a->poolp, &s, err, sizeof err), 0);
    assert_int_equal(a->pool->n, 150);
    assert_memory_equal(a->pool->need, s.need, 150 * sizeof *s.need);
    for (int k = 0; k < POOL_NKINDS; k++) {
        assert_int_equal(a->pool->tot[k].peak_cap, s.tot[k].peak_cap);
        assert_int_equal(a->pool->tot[k].reallocs, s.tot[k].reallocs);
    }
    pool_sim_free(&s);
    for (int h = 24; h <= 40; h += 16)
        for (int w = LAYOUT_MIN_W; w <= 300; w += 3)
            for (int utf8 = 0; utf8 <= 1; utf8++) expect_no_cuts(a, w, h, utf8, "the pool view");
    const policy *before = a->pol;
    app_key(a, 's'); /* the next policy: the pools follow */
    assert_true(a->pol != before && a->curve == CURVE_POOL && a->pool);
    assert_int_equal(pool_simulate(f.g, &a->st[0].r, &a->poolp, &s, err, sizeof err), 0);
    assert_memory_equal(a->pool->need, s.need, 150 * sizeof *s.need);
    pool_sim_free(&s);
    app_key(a, 'I');
    assert_false(a->curve == CURVE_POOL);
    assert_null(a->pool);
    /* Too much work for a key on the UI's thread: refused at once, said why. */
    a->poolp.iterations = 10000000;
    app_key(a, 'I');
    assert_false(a->curve == CURVE_POOL);
    assert_null(a->pool);
    assert_non_null(strstr(a->msg, "the pool view simulates at most 2e+08 node-iterations"));
    close_app(&f);
}

static void test_golden_seed(void **state)
{
    (void)state;
    golden_case("seed-example.json", 0, 1, "seed-step1", NULL);
}

static void test_golden_timeline(void **state)
{
    (void)state;
    golden_case("demo.json", 0, 20, "demo-timeline-step20", "t");
}

/* T: the streams over time on the teaching graph of prefetched weights,
 * at the step where priority has issued layer 1's copy. */
static void test_golden_lanes(void **state)
{
    (void)state;
    golden_case("prefetch.json", 0, 12, "prefetch-lanes-step12", "T");
}

/* The lanes and the status bar's makespan: what they say, never cut, at
 * every size, on a graph with latencies and on one without. */
static void test_lanes(void **state)
{
    (void)state;
    static const char *const samples[] = {"prefetch.json", "demo.json"};
    for (size_t i = 0; i < 2; i++) {
        fixture f;
        app *a = open_sized(&f, samples[i], 132, 40);
        size_t len;
        char *plain = render(a, 132, 40, 1, 0, &len);
        /* The status bar gives the makespan when the graph has latencies. */
        if (i == 0) assert_non_null(strstr(plain, "  makespan 20.0 ms"));
        else assert_null(strstr(plain, "makespan"));
        app_key(a, 'T');
        assert_true(a->curve == CURVE_LANES);
        char *on = render(a, 220, 50, 1, 0, &len);
        if (i == 0) {
            assert_non_null(
                strstr(on, " Streams over time: makespan 20.0 ms, none under 14.0 ms "));
            assert_non_null(strstr(on, "s1"));
        } else {
            assert_non_null(strstr(on, "No node takes time"));
        }
        /* A click there is no step: the curve is not shown. */
        uint32_t k = a->st[0].k;
        const rect *cr = &a->lay.r[P_CURVE];
        app_click(a, cr->x + cr->w / 2, cr->y + cr->h / 2);
        assert_int_equal(a->st[0].k, k);
        uint32_t n = f.g->n, at[] = {0, 1, a->st[0].r.peak_step, n / 2, n};
        for (int h = 24; h <= 60; h += 36)
            for (int w = LAYOUT_MIN_W; w <= 300; w++)
                for (size_t s = 0; s < 5; s++)
                    for (int utf8 = 0; utf8 <= 1; utf8++) {
                        app_jump(a, at[s]);
                        expect_no_cuts(a, w, h, utf8, samples[i]);
                    }
        a->utf8 = 1;
        app_key(a, 'T');
        app_jump(a, k);
        char *off = render(a, 132, 40, 1, 0, &len);
        assert_string_equal(off, plain);
        free(off);
        free(on);
        free(plain);
        close_app(&f);
    }
}

/* The lanes on graphs at the edges: only the streams that run get a lane
 * (one node on stream 63: one lane, s63); every Latency 0 and an empty
 * graph say so; never a word cut. */
static void test_lanes_edges(void **state)
{
    (void)state;
    static const struct {
        const char *json, *want, *never;
    } cases[] = {
        {"{\"Nodes\": [{\"Id\": 7, \"Op\": \"mm\", \"Latency\": 3, \"Stream\": 63}], "
         "\"Edges\": []}",
         "s63", "s0 "},
        {"{\"Nodes\": [{\"Id\": 0, \"Op\": \"mm\", \"Latency\": 0}], \"Edges\": []}",
         "every Latency is 0", "Streams over time: makespan"},
        {"{\"Nodes\": [], \"Edges\": []}", "An empty graph: nothing runs.", "Out of memory"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        diag d;
        graph *g = tu_load(cases[i].json, &d);
        assert_non_null(g);
        app a;
        assert_int_equal(app_init(&a, g, "edge.json", policy_find("priority"), policy_find("fifo"),
                                  0, NULL, NULL),
                         0);
        app_key(&a, 'T');
        size_t len;
        for (int w = LAYOUT_MIN_W; w <= 200; w += 7) {
            char *s = render(&a, w, 30, 1, 0, &len);
            if (w >= 120 && !strstr(s, cases[i].want))
                fail_msg("case %zu at %d columns: no '%s'", i, w, cases[i].want);
            if (strstr(s, cases[i].never)) fail_msg("case %zu: '%s' shown", i, cases[i].never);
            free(s);
            expect_no_cuts(&a, w, 24, 1, cases[i].want);
        }
        app_free(&a);
        graph_free(g);
        diag_free(&d);
    }
}

/* Every committed sample opens in the TUI, at its peak, in both modes. */
static void test_every_sample_renders(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/samples", MEMTRIS_SOURCE_DIR);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int count = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json")) continue;
        fixture f;
        open_app(&f, e->d_name, 0);
        app_jump(&f.a, f.a.st[0].r.peak_step);
        for (int compare = 0; compare <= 1; compare++) {
            if (compare) app_key(&f.a, 'c');
            size_t n;
            char *got = render(&f.a, 120, 35, 1, 0, &n);
            char want[128];
            snprintf(want, sizeof want, "step %u/%u", f.a.st[0].r.peak_step, f.g->n);
            if (!strstr(got, want)) fail_msg("%s: the status bar lacks '%s'", e->d_name, want);
            if (!strstr(got, compare ? "Compare" : "Arena"))
                fail_msg("%s: a panel is missing", e->d_name);
            free(got);
        }
        close_app(&f);
        count++;
    }
    closedir(d);
    assert_true(count >= 8);
}

static void test_golden_replay(void **state)
{
    (void)state;
    golden_case_with("demo.json", 0, 14, "demo-replay-step14", NULL, setup_overlay);
}

static void test_golden_replay_compare(void **state)
{
    (void)state;
    golden_case_with("demo.json", 1, 30, "demo-replay-compare-step30", NULL, setup_overlay);
}

static void test_golden_replay_progress(void **state)
{
    (void)state;
    golden_case_with("demo.json", 0, 14, "demo-replay-progress", NULL, setup_progress);
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_demo),
        cmocka_unit_test(test_golden_demo_compare),
        cmocka_unit_test(test_golden_seed),
        cmocka_unit_test(test_golden_pool),
        cmocka_unit_test(test_pool_view),
        cmocka_unit_test(test_golden_timeline),
        cmocka_unit_test(test_golden_lanes),
        cmocka_unit_test(test_lanes),
        cmocka_unit_test(test_lanes_edges),
        cmocka_unit_test(test_every_sample_renders),
        cmocka_unit_test(test_golden_replay),
        cmocka_unit_test(test_golden_replay_compare),
        cmocka_unit_test(test_golden_replay_progress),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
