/* test_ui_curve.c: the memory curve's panel: a pan moves the window and not the cursor, the x
 * axis's cursor label stands at the plot's cursor column (at End too), and in compare mode the
 * two orders part without colour (a dotted curve, a second ASCII glyph) with both names in the
 * legend at every width; e in compare mode writes both curves to one SVG, labels apart, asking
 * before it overwrites. */
/* geom.h first: its parameter "timeline" would shadow uiutil.h's includes' timeline */
#include "ui/geom.h"
#include "uiutil.h"

/* The screen as a canvas (the tests read cells, not the dump). */
static void draw(app *a, canvas *cv, int w, int h, int utf8, int mono)
{
    assert_int_equal(canvas_init(cv, w, h, utf8), 0);
    a->utf8 = utf8;
    a->mono = mono;
    app_resize(a, w, h);
    view_render(cv, a, NULL);
}

/* The curve panel's geometry and window, as view_curve draws them. */
static void curve_geom(const app *a, int utf8, geom_curve *gm, geom_window *win)
{
    assert_true(geom_curve_of(a->lay.r[P_CURVE], utf8, gm));
    app_curve_window(a, &win->lo, &win->span);
}

/* The column of the cursor's mark on the x axis: the one cell of the axis
 * row in the cursor's style that is the cursor glyph; -1 when none. */
static int axis_tick(const canvas *cv, const geom_curve *gm, int utf8)
{
    int at = -1;
    for (int x = gm->plot.x; x < gm->plot.x + gm->plot.w; x++) {
        const cell *c = &cv->c[gm->axis_y * cv->w + x];
        if (c->style == ST_CURSOR && c->ch == (utf8 ? 0x2502u : '|')) {
            assert_int_equal(at, -1);
            at = x;
        }
    }
    return at;
}

/* At every width and at steps 0, the middle and End (n), zoomed and not,
 * the axis's tick is the plot's cursor column. */
static void test_cursor_tick_lines_up(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    uint32_t n = f.g->n, ks[] = {0, 1, n / 2, n - 1, n};
    for (int zoom = 0; zoom < 2; zoom++)
        for (int w = 80; w <= 200; w += 7)
            for (int utf8 = 0; utf8 < 2; utf8++)
                for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
                    app_jump(a, ks[i]);
                    if (zoom) {
                        app_key(a, '0');
                        app_key(a, 'z');
                        app_key(a, 'z');
                    }
                    canvas cv;
                    draw(a, &cv, w, 24 + w / 5, utf8, 1);
                    geom_curve gm;
                    geom_window win;
                    curve_geom(a, utf8, &gm, &win);
                    int curx = geom_cursor_x(&gm, ks[i], win);
                    assert_true(curx >= gm.plot.x && curx < gm.plot.x + gm.plot.w);
                    int tick = axis_tick(&cv, &gm, utf8);
                    if (tick != curx)
                        fail_msg("%dx%d %s step %u zoom %d: tick at %d, cursor at %d", w,
                                 24 + w / 5, utf8 ? "utf8" : "ascii", ks[i], zoom, tick, curx);
                    canvas_free(&cv);
                }
    close_app(&f);
}

/* Zoomed in, < and > move the window and leave the cursor: two pans back
 * and two on come back to the same window with the cursor where it was;
 * while the window does not hold the cursor, its step points off the edge
 * and no plot column claims it; a step brings the window back to it. */
static void test_pan_moves_the_view(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    uint32_t n = f.g->n, lo0, span0, lo, span;
    app_jump(a, n - 8);
    app_key(a, 'z');
    app_key(a, 'z');
    app_curve_window(a, &lo0, &span0);
    assert_true(span0 < n + 1);
    app_key(a, '<');
    app_key(a, '<');
    assert_int_equal(a->st[0].k, n - 8);
    app_curve_window(a, &lo, &span);
    assert_true(lo < lo0 && n - 8 >= lo + span); /* the cursor is right of the window */
    canvas cv;
    draw(a, &cv, 120, 35, 1, 1);
    geom_curve gm;
    geom_window win;
    curve_geom(a, 1, &gm, &win);
    assert_int_equal(geom_cursor_x(&gm, a->st[0].k, win), -1);
    assert_int_equal(axis_tick(&cv, &gm, 1), -1);
    canvas_free(&cv);
    size_t len;
    char *s = render(a, 120, 35, 1, 1, &len), want[32];
    snprintf(want, sizeof want, "%u\u25b6", n - 8);
    if (!strstr(s, want)) fail_msg("no '%s' in:\n%s", want, s);
    free(s);
    app_key(a, '>');
    app_key(a, '>');
    app_curve_window(a, &lo, &span);
    assert_int_equal(lo, lo0);
    assert_int_equal(span, span0);
    assert_int_equal(a->st[0].k, n - 8);
    /* Pan away again, then a step: the window comes back to the cursor. */
    app_key(a, '<');
    app_key(a, '<');
    app_key(a, ' ');
    app_curve_window(a, &lo, &span);
    assert_true(a->st[0].k >= lo && a->st[0].k < lo + span);
    close_app(&f);
}

/* Where the panel's legend is: the top border, or the bottom one. */
static int border_has(const canvas *cv, rect r, uint32_t mark, const char *name)
{
    for (int y = r.y; y < r.y + r.h; y += r.h - 1) {
        char row[1024];
        size_t o = 0;
        for (int x = r.x; x < r.x + r.w && o + 2 < sizeof row; x++) {
            uint32_t ch = cv->c[y * cv->w + x].ch;
            row[o++] = ch == mark ? '@' : ch < 0x80 ? (char)ch : '~';
        }
        row[o] = 0;
        char want[64];
        snprintf(want, sizeof want, "@ %s ", name);
        if (strstr(row, want)) return 1;
    }
    return 0;
}

/* Compare mode without colour (mono, as --no-color and TERM=vt100 draw):
 * at every width from 80 columns, both policies are named in the curve's
 * legend, each after its own mark; the other policy's braille is dotted
 * (each cell's dots one checker parity), and in ASCII its glyph is '+'
 * beside the stepped policy's '#'. */
static void test_two_orders_without_colour(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    app_jump(a, 30);
    for (int w = 80; w <= 200; w += 3)
        for (int utf8 = 0; utf8 < 2; utf8++) {
            int h = w < 120 ? 24 : 60;
            canvas cv;
            draw(a, &cv, w, h, utf8, 1);
            rect r = a->lay.r[P_CURVE];
            uint32_t m1 = utf8 ? 0x28ff : '#', m2 = utf8 ? 0x2895 : '+';
            if (!border_has(&cv, r, m1, "priority") || !border_has(&cv, r, m2, "fifo"))
                fail_msg("%dx%d %s: the legend lacks a policy", w, h, utf8 ? "utf8" : "ascii");
            geom_curve gm;
            assert_true(geom_curve_of(r, utf8, &gm));
            int mine = 0, other = 0;
            for (int y = gm.plot.y; y < gm.plot.y + gm.plot.h; y++)
                for (int x = gm.plot.x; x < gm.plot.x + gm.plot.w; x++) {
                    const cell *c = &cv.c[y * cv.w + x];
                    int st = c->style;
                    if (st == ST_CURVE || st == ST_FUTURE) mine++;
                    if (st != ST_CURVE2 && st != ST_FUTURE2) continue;
                    other++;
                    if (utf8) {
                        uint32_t bits = c->ch - 0x2800;
                        assert_true(c->ch >= 0x2800 && c->ch <= 0x28ff);
                        if ((bits & ~0x95u) && (bits & ~0x6au))
                            fail_msg("%dx%d: a solid cell U+%04X in the dotted curve", w, h, c->ch);
                    } else {
                        assert_true(c->ch == '+' || c->ch == '.');
                    }
                }
            assert_true(mine > 0 && other > 0);
            canvas_free(&cv);
        }
    close_app(&f);
}

/* The label boxes of an SVG (data-box), pairwise apart. */
static void labels_apart(const char *svg, uint32_t k)
{
    double b[16][4];
    assert_true(svg_label_boxes(svg, b, 16, k) >= 2); /* a peak's and the cursor's at least */
}

/* e in compare mode: one SVG with both curves, both names in the title and
 * legend, the why lines; its labels never overlap, at any cursor step
 * (the cursor's beside the peaks' included); an existing file is only
 * overwritten after y (n, Enter, any other key keep it). */
static void test_export_compare(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    app_resize(a, 120, 35);
    char dir[] = "/tmp/memtris-curve-XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/slide.svg", dir);
    uint32_t n = f.g->n;
    for (uint32_t k = 0; k <= n; k++) {
        char *svg = export_at(a, k, path);
        assert_non_null(strstr(svg, "policy priority vs fifo"));
        assert_non_null(strstr(svg, "class=\"curve\""));
        assert_non_null(strstr(svg, "class=\"curve2\""));
        assert_non_null(strstr(svg, ">priority</text>"));
        assert_non_null(strstr(svg, ">fifo</text>"));
        assert_non_null(strstr(svg, "class=\"note\""));
        labels_apart(svg, k);
        free(svg);
    }
    /* The offered name says both; the file exists: asked, n keeps it. */
    char offered[256];
    app_export_name(a, offered, sizeof offered);
    assert_non_null(strstr(offered, "-priority-vs-fifo-step"));
    FILE *o = fopen(path, "w");
    assert_non_null(o);
    fputs("keep me\n", o);
    fclose(o);
    app_key(a, 'e');
    while (a->prompt.buf[0]) app_key(a, K_BACKSPACE);
    type(a, path);
    app_key(a, K_ENTER);
    assert_int_equal(a->prompt.kind, 'o');
    size_t len;
    char *s = render(a, 120, 35, 1, 1, &len);
    assert_non_null(strstr(s, "Overwrite it? y/n (n)"));
    free(s);
    app_key(a, K_ENTER); /* the default: no */
    assert_int_equal(a->prompt.kind, 0);
    char *kept = slurp(path, &len);
    assert_string_equal(kept, "keep me\n");
    free(kept);
    assert_non_null(strstr(a->msg, "not written"));
    app_key(a, 'e');
    while (a->prompt.buf[0]) app_key(a, K_BACKSPACE);
    type(a, path);
    app_key(a, K_ENTER);
    app_key(a, 'y');
    char *svg = slurp(path, &len);
    assert_non_null(strstr(svg, "<svg"));
    free(svg);
    assert_non_null(strstr(a->msg, "wrote"));
    unlink(path);
    rmdir(dir);
    close_app(&f);
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cursor_tick_lines_up),
        cmocka_unit_test(test_pan_moves_the_view),
        cmocka_unit_test(test_two_orders_without_colour),
        cmocka_unit_test(test_export_compare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
