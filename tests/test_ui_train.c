/* test_ui_train.c: a training graph in the TUI (tests/data/ui-train.json: Categories, Phases
 * and a Measured peak): the status bar says the cursor's phase, the curve marks where the
 * backward pass starts and draws the measured peak as a labelled row, C stacks the curve by
 * Category with a legend, l groups the live buffers by Category, every word whole at every size
 * from 80x24. */
#include "ui/geom.h"
#include "uiutil.h"

static void open_train(fixture *f)
{
    static const char path[] =
        MEMTRIS_SOURCE_DIR "/tests/data/ui-train.json"; /* the app keeps it */
    f->g = tu_load_path(path, NULL);
    assert_int_equal(
        app_init(&f->a, f->g, path, policy_find("priority"), policy_find("fifo"), 0, NULL, NULL),
        0);
}

/* The first column of ASCII text on row y from x0 (at most x1), with every cell in style st
 * (st < 0: any); -1 when it is not there. */
static int find_on_row(const canvas *cv, int y, int x0, int x1, const char *text, int st)
{
    int len = (int)strlen(text);
    for (int x = x0; x + len <= x1 + 1 && x + len <= cv->w; x++) {
        int i = 0;
        while (i < len && cv->c[y * cv->w + x + i].ch == (unsigned char)text[i] &&
               (st < 0 || cv->c[y * cv->w + x + i].style == st))
            i++;
        if (i == len) return x;
    }
    return -1;
}

/* Whether text in style st is somewhere inside rect r. */
static int has_text(const canvas *cv, rect r, const char *text, int st)
{
    for (int y = r.y; y < r.y + r.h; y++)
        if (find_on_row(cv, y, r.x, r.x + r.w - 1, text, st) >= 0) return 1;
    return 0;
}

/* The first step that pops a backward node. */
static uint32_t first_backward(const app *a)
{
    for (uint32_t t = 0; t < a->st[0].r.n; t++)
        if (graph_phase(a->g, a->st[0].r.order[t]) == GRAPH_PHASE_BACKWARD) return t + 1;
    return 0;
}

/* The status bar names the phase: forward at the start, backward from the first backward step,
 * optimizer at the end; at 80 columns too. */
static void test_phase_in_status(void **state)
{
    (void)state;
    fixture f;
    open_train(&f);
    app *a = &f.a;
    uint32_t b = first_backward(a);
    assert_true(b > 1);
    struct {
        uint32_t k;
        const char *word;
    } at[] = {{0, "  forward  "},
              {b - 1, "  forward  "},
              {b, "  backward  "},
              {a->g->n, "  optimizer  "}};
    for (int w = 80; w <= 200; w += 40)
        for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
            app_jump(a, at[i].k);
            canvas cv;
            assert_int_equal(canvas_init(&cv, w, 24, 1), 0);
            app_resize(a, w, 24);
            view_render(&cv, a, NULL);
            if (find_on_row(&cv, a->lay.r[P_STATUS].y, 0, w - 1, at[i].word, -1) < 0)
                fail_msg("%d wide, step %u: no '%s' in the status bar", w, at[i].k, at[i].word);
            canvas_free(&cv);
        }
    close_app(&f);
}

/* The curve: the measured peak's row labelled "measured" (with its number where there is
 * room), the boundary's dotted column at the first backward step; no word cut at any size. */
static void test_measured_and_boundary(void **state)
{
    (void)state;
    fixture f;
    open_train(&f);
    app *a = &f.a;
    uint32_t b = first_backward(a);
    for (int utf8 = 0; utf8 < 2; utf8++)
        for (int w = 80; w <= 200; w += 8)
            for (int h = 24; h <= 60; h += 11) {
                app_jump(a, 0);
                canvas cv;
                assert_int_equal(canvas_init(&cv, w, h, utf8), 0);
                a->utf8 = utf8;
                app_resize(a, w, h);
                view_render(&cv, a, NULL);
                rect r = a->lay.r[P_CURVE];
                if (!has_text(&cv, r, " measured", ST_MEASURED))
                    fail_msg("%dx%d %s: no measured label", w, h, utf8 ? "utf8" : "ascii");
                if (w >= 120 && !has_text(&cv, r, " measured 10.5 MiB ", ST_MEASURED) &&
                    !has_text(&cv, r, " measured peak 10.5 MiB", ST_MEASURED))
                    fail_msg("%dx%d %s: no measured peak's number", w, h, utf8 ? "utf8" : "ascii");
                geom_curve gm;
                geom_window win;
                assert_true(geom_curve_of(r, utf8, &gm));
                app_curve_window(a, &win.lo, &win.span);
                int bx = geom_cursor_x(&gm, b, win), marks = 0;
                for (int y = gm.plot.y; y < gm.plot.y + gm.plot.h; y++)
                    marks += cv.c[y * cv.w + bx].ch == (utf8 ? 0x250au : '!');
                if (!marks) fail_msg("%dx%d: no boundary mark at column %d", w, h, bx);
                canvas_free(&cv);
                for (uint32_t k = 0; k <= a->g->n; k += 5) {
                    app_jump(a, k);
                    expect_no_cuts(a, w, h, utf8, "ui-train");
                }
            }
    close_app(&f);
}

/* C stacks the curve by Category: the plot holds the bands' letters (the biggest, activations,
 * above the weights at the peak), the legend names the biggest at the peak in a border, no word
 * cut at any size; C again is the curve; a graph without Categories says why not. */
static void test_stacked_by_category(void **state)
{
    (void)state;
    fixture f;
    open_train(&f);
    app *a = &f.a;
    app_key(a, 'C');
    assert_true(a->stacked);
    for (int utf8 = 0; utf8 < 2; utf8++)
        for (int w = 80; w <= 200; w += 8)
            for (int h = 24; h <= 60; h += 12) {
                app_jump(a, a->st[0].r.peak_step);
                canvas cv;
                assert_int_equal(canvas_init(&cv, w, h, utf8), 0);
                a->utf8 = utf8;
                app_resize(a, w, h);
                view_render(&cv, a, NULL);
                rect r = a->lay.r[P_CURVE];
                geom_curve gm;
                assert_true(geom_curve_of(r, utf8, &gm));
                int wy = -1, ay = -1; /* the lowest row of W, the highest of A */
                for (int y = gm.plot.y; y < gm.plot.y + gm.plot.h; y++)
                    for (int x = gm.plot.x; x < gm.plot.x + gm.plot.w; x++) {
                        uint32_t ch = cv.c[y * cv.w + x].ch;
                        if (ch == 'W') wy = y;
                        if (ch == 'A' && ay < 0) ay = y;
                    }
                if (wy < 0 || ay < 0 || ay >= wy)
                    fail_msg("%dx%d: no activations over the weights (A row %d, W row %d)", w, h,
                             ay, wy);
                rect bottom = {r.x, r.y + r.h - 1, r.w, 1};
                if (!has_text(&cv, bottom, " activation ", ST_AXIS))
                    fail_msg("%dx%d: the legend does not name the activations", w, h);
                canvas_free(&cv);
                for (uint32_t k = 0; k <= a->g->n; k += 7) {
                    app_jump(a, k);
                    expect_no_cuts(a, w, h, utf8, "ui-train stacked");
                }
            }
    app_key(a, 'C');
    assert_false(a->stacked);
    close_app(&f);

    open_app(&f, "demo.json", 0);
    app_key(&f.a, 'C');
    assert_false(f.a.stacked);
    assert_non_null(strstr(f.a.msg, "have none"));
    close_app(&f);
}

/* l groups the live buffers by Category, biggest first, each under a header with its bytes;
 * every buffer row under a header is of its category; no word cut at any size. */
static void test_live_by_category(void **state)
{
    (void)state;
    fixture f;
    open_train(&f);
    app *a = &f.a;
    app_jump(a, a->st[0].r.peak_step);
    app_key(a, 'l');
    assert_int_equal(a->arena, ARENA_LIVE);
    int sizes[][2] = {{80, 24}, {120, 35}, {200, 60}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int w = sizes[i][0], h = sizes[i][1];
        canvas cv;
        assert_int_equal(canvas_init(&cv, w, h, 1), 0);
        app_resize(a, w, h);
        view_render(&cv, a, NULL);
        rect r = a->lay.r[P_TETRIS];
        int y0 = -1;
        for (int y = r.y; y < r.y + r.h && y0 < 0; y++)
            if (find_on_row(&cv, y, r.x, r.x + r.w - 1, "activation: 3 buffers, 6.0 MiB",
                            ST_HEADER) >= 0)
                y0 = y;
        if (y0 < 0) fail_msg("%dx%d: no activation header", w, h);
        /* the rows under it, up to the next header: activations */
        for (int y = y0 + 1; y < r.y + r.h - 1; y++) {
            int x = r.x;
            if (cv.c[y * cv.w + x + 2].ch != 'b') break; /* the next header, or the end */
            char id[8] = {0};
            for (int j = 0; j < 7 && cv.c[y * cv.w + x + 3 + j].ch != ' '; j++)
                id[j] = (char)cv.c[y * cv.w + x + 3 + j].ch;
            uint32_t b = graph_find_buf(a->g, atoll(id));
            assert_true(b != GRAPH_NONE);
            assert_int_equal(graph_buf_category(a->g, b), GRAPH_CAT_ACTIVATION);
        }
        canvas_free(&cv);
        if (w >= 120) {
            char *s = render(a, w, h, 1, 1, &(size_t){0});
            assert_non_null(strstr(s, "weight: 2 buffers, 2.0 MiB"));
            free(s);
        }
        for (uint32_t k = 0; k <= a->g->n; k += 3) {
            app_jump(a, k);
            expect_no_cuts(a, w, h, 1, "ui-train live");
            expect_no_cuts(a, w, h, 0, "ui-train live");
        }
        app_jump(a, a->st[0].r.peak_step);
    }
    close_app(&f);
}

/* given (the graph's own order, not yet in the policy table here: taken by its name) beside
 * priority in compare mode: both peaks named in the curve's legend and the summary, no word cut
 * at any size from 80x24. */
extern const policy policy_given;
static void test_compare_beside_given(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/ui-train.json", MEMTRIS_SOURCE_DIR);
    graph *g = tu_load_path(path, NULL);
    app a;
    assert_int_equal(app_init(&a, g, path, policy_find("priority"), &policy_given, 1, NULL, NULL),
                     0);
    assert_true(a.cmp.shown);
    assert_true(a.st[1].r.peak > 0);
    size_t len;
    char *s = render(&a, 120, 35, 1, 1, &len);
    char pk[32], want[64];
    snprintf(want, sizeof want, "given peak %s", units_bytes(pk, sizeof pk, a.st[1].r.peak, 0));
    if (!strstr(s, want)) fail_msg("no '%s' at 120x35:\n%s", want, s);
    free(s);
    for (int w = 80; w <= 200; w += 20)
        for (int h = 24; h <= 48; h += 12)
            for (uint32_t k = 0; k <= g->n; k += 5) {
                app_jump(&a, k);
                expect_no_cuts(&a, w, h, 1, "priority beside given");
                expect_no_cuts(&a, w, h, 0, "priority beside given");
            }
    app_free(&a);
    graph_free(g);
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phase_in_status),
        cmocka_unit_test(test_measured_and_boundary),
        cmocka_unit_test(test_stacked_by_category),
        cmocka_unit_test(test_live_by_category),
        cmocka_unit_test(test_compare_beside_given),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
