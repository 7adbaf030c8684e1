/* test_ui_live.c: the live list (l) and the names on the arena's side of the screen, on
 * samples/resnet18_train.json stepped in its own order (given) at a step in the backward: every
 * category's header with its total first, then its largest buffers as the room allows; the
 * cursor scrolls it (Up, Down, PgUp, PgDn, Home, End with the focus) and Enter folds a group or
 * shows all of it; buffers by their ALLOC names, never "b12" or "node 48"; the stacked curve's
 * legend names every category or ends in "+N"; no word cut at any size from 80x24. */
#include "ui/live_rows.h"
#include "uiutil.h"
#include "sched/policy/bycat.h"

extern const policy policy_given;

/* resnet18_train under given, the cursor 150 steps into the backward pass. */
static app *open_backward(fixture *f, int w, int h)
{
    f->g = tu_load_sample("resnet18_train.json", NULL);
    assert_int_equal(
        app_init(&f->a, f->g, "resnet18_train.json", &policy_given, NULL, 0, NULL, NULL), 0);
    app *a = &f->a;
    uint32_t k = 0;
    while (k < a->st[0].r.n && graph_phase(f->g, a->st[0].r.order[k]) != GRAPH_PHASE_BACKWARD) k++;
    assert_true(k < a->st[0].r.n);
    app_jump(a, k + 150);
    app_resize(a, w, h);
    return a;
}

/* The live panel's rows as text (one string, rows joined by '\n'), drawn at w x h. */
static char *panel_text(app *a, int w, int h, int utf8, rect *out)
{
    canvas cv;
    assert_int_equal(canvas_init(&cv, w, h, utf8), 0);
    a->utf8 = utf8;
    app_resize(a, w, h);
    view_render(&cv, a, NULL);
    if (cv.cuts) fail_msg("%dx%d: a word cut at column %d, row %d", w, h, cv.cut[0].x, cv.cut[0].y);
    int p = app_live_panel(a);
    assert_true(p >= 0);
    rect r = a->lay.r[p];
    char *s = malloc((size_t)r.h * ((size_t)r.w * 4 + 1) + 1), *q = s;
    for (int y = r.y; y < r.y + r.h; y++) {
        for (int x = r.x; x < r.x + r.w; x++) {
            uint32_t ch = cv.c[y * cv.w + x].ch;
            if (ch < 0x80) *q++ = (char)ch;
            else if (ch < 0x800) {
                *q++ = (char)(0xC0 | (ch >> 6));
                *q++ = (char)(0x80 | (ch & 0x3F));
            } else {
                *q++ = (char)(0xE0 | (ch >> 12));
                *q++ = (char)(0x80 | ((ch >> 6) & 0x3F));
                *q++ = (char)(0x80 | (ch & 0x3F));
            }
        }
        *q++ = '\n';
    }
    *q = 0;
    canvas_free(&cv);
    if (out) *out = r;
    return s;
}

/* Each category's header at the cursor's step, biggest first: "weight: 122 buffers, 44.6 MiB". */
static int headers(const app *a, char out[GRAPH_NCAT][96])
{
    const graph *g = a->g;
    int64_t bytes[GRAPH_NCAT] = {0}, key[GRAPH_NCAT];
    uint32_t n[GRAPH_NCAT] = {0};
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (step_buf_live(&a->st[0], b)) {
            bytes[graph_buf_category(g, b)] += g->buf_size[b];
            n[graph_buf_category(g, b)]++;
        }
    for (int c = 0; c < GRAPH_NCAT; c++) key[c] = n[c] ? bytes[c] + 1 : 0;
    int order[GRAPH_NCAT], nc = bycat_order(key, order);
    for (int j = 0; j < nc; j++) {
        char b1[32];
        int c = order[j];
        snprintf(out[j], 96, "%s: %u buffer%s, %s", bycat_word(c), n[c], n[c] == 1 ? "" : "s",
                 units_bytes(b1, sizeof b1, bytes[c], 0));
    }
    return nc;
}

/* Every category's header, in order, before a buffer row once the list is scrolled to its top;
 * at 80x24 all of them on the screen at once. */
static void every_header_first(void **state)
{
    (void)state;
    static const int sizes[][2] = {{80, 24}, {100, 30}, {120, 40}, {200, 60}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        fixture f;
        app *a = open_backward(&f, sizes[i][0], sizes[i][1]);
        app_key(a, 'l');
        char want[GRAPH_NCAT][96];
        int nc = headers(a, want);
        assert_true(nc >= 5); /* weight, gradient, activation, workspace, input... */
        assert_string_equal(want[0], "weight: 122 buffers, 44.6 MiB");
        char *s = panel_text(a, sizes[i][0], sizes[i][1], 1, NULL);
        const char *at = s;
        for (int j = 0; j < nc; j++) {
            const char *h = strstr(at, want[j]);
            if (!h)
                fail_msg("%dx%d: no header '%s' (in order):\n%s", sizes[i][0], sizes[i][1], want[j],
                         s);
            at = h + 1;
        }
        free(s);
        /* The rows: every header, then shares; in the room the panel gives. */
        live_rows lr;
        assert_int_equal(app_live_rows(a, &lr), 0);
        int room = a->lay.r[app_live_panel(a)].h - 4, heads = 0;
        for (uint32_t r = 0; r < lr.n; r++) heads += lr.row[r].kind == LIVE_HEAD;
        assert_int_equal(heads, nc);
        if ((int)lr.n > room)
            fail_msg("%dx%d: %u rows in %d", sizes[i][0], sizes[i][1], lr.n, room);
        live_rows_free(&lr);
        close_app(&f);
    }
}

/* Fails where panel text s names a buffer "b12" or a node "node 48". */
static void expect_no_ids(const char *s)
{
    if (strstr(s, "node ")) fail_msg("a node by its id:\n%s", s);
    for (const char *p = s; (p = strchr(p, 'b')); p++)
        if ((p == s || p[-1] == ' ') && p[1] >= '0' && p[1] <= '9')
            fail_msg("an id in the list: %.12s\n%s", p, s);
}

/* Buffers by their ALLOC names (shortened from the left), never "b12" nor "node 48"; the
 * selected buffer's details by name too. */
static void names_not_ids(void **state)
{
    (void)state;
    fixture f;
    app *a = open_backward(&f, 200, 60);
    app_key(a, 'l');
    char *s = panel_text(a, 200, 60, 1, NULL);
    if (!strstr(s, "param.layer4.0.conv2.weight ") && !strstr(s, "param.layer4.1.conv1.weight "))
        fail_msg("no weight by its name:\n%s", s);
    expect_no_ids(s);
    free(s);
    for (int utf8 = 0; utf8 <= 1; utf8++) { /* 80x24: shortened from the left where they must */
        s = panel_text(a, 80, 24, utf8, NULL);
        expect_no_ids(s);
        free(s);
    }
    char d[512], nm[128];
    uint32_t b = graph_find_buf(a->g, 1); /* param.conv1.weight.out */
    app_buffer_details(a, b, d, sizeof d);
    assert_string_equal(graph_buf_display(a->g, b, nm, sizeof nm), "param.conv1.weight");
    assert_non_null(strstr(d, "param.conv1.weight: "));
    assert_null(strstr(d, "node "));
    close_app(&f);
}

/* Tab gives the list the focus; End goes to its last row (the bottom border says "rows a-n of
 * n"), Home to its first; Enter on a header shows all of its group, Enter again folds it; on
 * "and N more" it shows them all; a buffer at the cursor is selected, by name in the why line. */
static void scroll_and_fold(void **state)
{
    (void)state;
    fixture f;
    app *a = open_backward(&f, 80, 24);
    app_key(a, 'l');
    char *s = panel_text(a, 80, 24, 1, NULL);
    free(s);
    for (int t = 0; t < 6 && a->focus != app_live_panel(a); t++) app_key(a, K_TAB);
    assert_int_equal(a->focus, app_live_panel(a));
    uint32_t k = a->st[0].k;
    app_key(a, K_HOME);
    assert_int_equal(a->st[0].k, k); /* the list's first row, not step 0 */
    assert_int_equal(a->live_cur, 0);
    app_key(a, K_ENTER); /* weight: every one of its 122 */
    live_rows lr;
    assert_int_equal(app_live_rows(a, &lr), 0);
    uint32_t weights = 0;
    for (uint32_t r = 0; r < lr.n; r++)
        weights += lr.row[r].kind == LIVE_BUF && lr.row[r].cat == GRAPH_CAT_WEIGHT;
    assert_int_equal(weights, 122);
    uint32_t n = lr.n;
    live_rows_free(&lr);
    s = panel_text(a, 80, 24, 1, NULL); /* the focus: the border says what Enter does */
    if (!strstr(s, " Enter folds ")) fail_msg("no 'Enter folds':\n%s", s);
    free(s);
    app_key(a, K_END);
    assert_int_equal(a->st[0].k, k);
    assert_int_equal(a->live_cur, n - 1);
    rect r;
    s = panel_text(a, 80, 24, 1, &r);
    char want[160];
    int room = r.h - 4;
    snprintf(want, sizeof want, " rows %u-%u of %u ", n - (uint32_t)room + 1, n, n);
    if (!strstr(s, want)) fail_msg("no '%s' at the end:\n%s", want, s);
    free(s);
    app_key(a, K_PGUP);
    assert_int_equal(a->live_cur, n - 1 - (uint32_t)(room - 1));
    app_key(a, K_DOWN);
    assert_int_equal(a->live_cur, n - (uint32_t)(room - 1));
    /* a buffer at the cursor: selected, named in the why line */
    a->live_cur = 1;
    app_key(a, K_UP);
    app_key(a, K_DOWN);
    assert_true(a->sel != GRAPH_NONE);
    assert_int_equal(graph_buf_category(a->g, a->sel), GRAPH_CAT_WEIGHT);
    char nm[128], *screen = render(a, 80, 24, 1, 1, &(size_t){0});
    graph_buf_display(a->g, a->sel, nm, sizeof nm);
    snprintf(want, sizeof want, " %s: ", nm);
    if (!strstr(screen, want)) fail_msg("the why line does not name '%s':\n%s", nm, screen);
    free(screen);
    /* Enter on a weight folds weight (all of it shows): its header alone, the cursor on it */
    app_key(a, K_ENTER);
    assert_int_equal(a->live_fold[GRAPH_CAT_WEIGHT], LIVE_FOLDED);
    assert_int_equal(a->live_cur, 0);
    assert_int_equal(app_live_rows(a, &lr), 0);
    assert_int_equal(lr.row[0].kind, LIVE_HEAD);
    assert_int_equal(lr.row[1].kind, LIVE_HEAD);
    /* "and N more" (a group's share, now that weight leaves room): Enter shows them all */
    uint32_t more = lr.n, rows = lr.n;
    for (uint32_t i = 0; i < lr.n && more == lr.n; i++)
        if (lr.row[i].kind == LIVE_MORE) more = i;
    live_rows_free(&lr);
    s = panel_text(a, 80, 24, 0, NULL);
    assert_non_null(strstr(s, "weight: 122 buffers, 44.6 MiB"));
    free(s);
    if (more < rows) {
        while (a->live_cur < more) app_key(a, K_DOWN);
        assert_int_equal(app_live_rows(a, &lr), 0);
        int cat = lr.row[more].cat;
        uint32_t all = lr.row[more].n;
        live_rows_free(&lr);
        app_key(a, K_ENTER);
        assert_int_equal(a->live_fold[cat], LIVE_OPEN);
        assert_int_equal(app_live_rows(a, &lr), 0);
        assert_true(lr.whole[cat]);
        (void)all;
        live_rows_free(&lr);
    }
    app_key(a, K_HOME);
    app_key(a, K_ENTER); /* weight unfolds: every one again */
    assert_int_equal(a->live_fold[GRAPH_CAT_WEIGHT], LIVE_OPEN);
    close_app(&f);
}

/* A click on a row of the list gives it the focus and puts the cursor there (a buffer's row:
 * that buffer selected), not on the arena hidden under it. */
static void click_a_row(void **state)
{
    (void)state;
    fixture f;
    app *a = open_backward(&f, 120, 40);
    app_key(a, 'l');
    char *s = panel_text(a, 120, 40, 1, NULL);
    free(s);
    int p = app_live_panel(a);
    rect r = a->lay.r[p];
    live_rows lr;
    assert_int_equal(app_live_rows(a, &lr), 0);
    uint32_t buf = lr.n, head = lr.n;
    for (uint32_t i = 1; i < lr.n && i < (uint32_t)(r.h - 4); i++) {
        if (lr.row[i].kind == LIVE_BUF && buf == lr.n) buf = i;
        if (lr.row[i].kind == LIVE_HEAD && head == lr.n) head = i;
    }
    assert_true(buf < lr.n && head < lr.n);
    assert_true(app_click(a, r.x + 4, r.y + 3 + (int)head) != 0);
    assert_int_equal(a->focus, p);
    assert_int_equal(a->live_cur, head);
    assert_int_equal(a->sel, GRAPH_NONE);
    app_click(a, r.x + 4, r.y + 3 + (int)buf);
    assert_int_equal(a->live_cur, buf);
    assert_int_equal(a->sel, lr.row[buf].buf);
    live_rows_free(&lr);
    close_app(&f);
}

/* Scrolled anywhere, folded or not, at every size and step: no word cut. */
static void no_cuts(void **state)
{
    (void)state;
    static const int sizes[][2] = {{80, 24}, {96, 30}, {132, 40}, {200, 60}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        fixture f;
        int w = sizes[i][0], h = sizes[i][1];
        app *a = open_backward(&f, w, h);
        app_key(a, 'l');
        for (int t = 0; t < 6 && a->focus != app_live_panel(a); t++) app_key(a, K_TAB);
        for (uint32_t k = 0; k <= a->g->n; k += 97) {
            app_jump(a, k);
            for (int utf8 = 0; utf8 <= 1; utf8++) {
                expect_no_cuts(a, w, h, utf8, "live");
                app_key(a, K_END);
                expect_no_cuts(a, w, h, utf8, "live at its end");
                app_key(a, K_ENTER);
                expect_no_cuts(a, w, h, utf8, "live folded");
                app_key(a, K_HOME);
                app_key(a, K_ENTER);
                expect_no_cuts(a, w, h, utf8, "live opened");
                app_key(a, K_PGDN);
                expect_no_cuts(a, w, h, utf8, "live a page on");
            }
        }
        close_app(&f);
    }
}

/* A graph without Categories: one list, "and N more (X)" where it does not fit; Enter there
 * shows every buffer and the list scrolls to the last. */
static void flat_list(void **state)
{
    (void)state;
    fixture f;
    f.g = tu_load_sample("resnet50.json", NULL);
    assert_int_equal(app_init(&f.a, f.g, "resnet50.json", &policy_given, NULL, 0, NULL, NULL), 0);
    app *a = &f.a;
    const run *r = &a->st[0].r; /* the step with the most buffers live */
    uint32_t best = 0, most = 0, live = 0;
    for (uint32_t k = 0; k < r->n; k++) {
        uint32_t u = r->order[k];
        live += f.g->kind[u] == NODE_ALLOC;
        live -= f.g->kind[u] == NODE_FREE;
        if (live > most) {
            most = live;
            best = k + 1;
        }
    }
    if (most <= 10) fail_msg("at most %u live", most);
    app_jump(a, best);
    app_key(a, 'l');
    char *s = panel_text(a, 80, 24, 1, NULL);
    if (!strstr(s, " more (")) fail_msg("no 'and N more (X)':\n%s", s);
    free(s);
    for (int t = 0; t < 6 && a->focus != app_live_panel(a); t++) app_key(a, K_TAB);
    app_key(a, K_END);
    app_key(a, K_ENTER);
    live_rows lr;
    assert_int_equal(app_live_rows(a, &lr), 0);
    assert_int_equal(lr.n, lr.nlive);
    live_rows_free(&lr);
    app_key(a, K_END);
    assert_int_equal(a->live_cur, lr.nlive - 1);
    s = panel_text(a, 80, 24, 1, NULL);
    char want[64];
    snprintf(want, sizeof want, "of %u ", lr.nlive);
    assert_non_null(strstr(s, want));
    free(s);
    close_app(&f);
}

/* t: the timeline names buffers by their ALLOC names (whole or shortened from the left), never
 * by ids, at 80x24 and 200x60, no word cut. */
static void timeline_names(void **state)
{
    (void)state;
    static const int sizes[][2] = {{80, 24}, {200, 60}};
    for (size_t i = 0; i < 2; i++) {
        fixture f;
        int w = sizes[i][0], h = sizes[i][1];
        app *a = open_backward(&f, w, h);
        app_key(a, 't');
        assert_int_equal(a->arena, ARENA_TIMELINE);
        canvas cv;
        assert_int_equal(canvas_init(&cv, w, h, 1), 0);
        a->utf8 = 1;
        app_resize(a, w, h);
        view_render(&cv, a, NULL);
        rect r = a->lay.r[P_TETRIS];
        int labels = 0;
        for (int y = r.y + 2; y < r.y + r.h - 2; y++) {
            char row[512];
            int q = 0;
            for (int x = r.x; x < r.x + r.w; x++) {
                uint32_t ch = cv.c[y * cv.w + x].ch;
                row[q++] = ch == 0x2026 ? '~' : ch < 0x80 ? (char)ch : ' ';
            }
            row[q] = 0;
            labels += strstr(row, "param.") || strchr(row, '~'); /* a name, or its end */
            expect_no_ids(row);
        }
        if (!labels) fail_msg("%dx%d: no buffer named on the timeline", w, h);
        assert_int_equal(cv.cuts, 0);
        canvas_free(&cv);
        close_app(&f);
    }
}

/* C: every category the graph has is in the legend, or the legend ends in "+N", N those left
 * out; at every size from 80x24. */
static void legend_every_category(void **state)
{
    (void)state;
    fixture f;
    app *a = open_backward(&f, 80, 24);
    app_key(a, 'C');
    assert_true(a->stacked);
    int has[GRAPH_NCAT] = {0}, ncat = 0;
    for (uint32_t b = 0; b < a->g->nbufs; b++) has[graph_buf_category(a->g, b)] = 1;
    for (int c = 0; c < GRAPH_NCAT; c++) ncat += has[c];
    assert_true(ncat >= 6);
    for (int w = 80; w <= 200; w += 24)
        for (int h = 24; h <= 60; h += 18) {
            canvas cv;
            assert_int_equal(canvas_init(&cv, w, h, 1), 0);
            a->utf8 = 1;
            app_resize(a, w, h);
            view_render(&cv, a, NULL);
            rect r = a->lay.r[P_CURVE];
            char border[2][1024];
            for (int k = 0; k < 2; k++) {
                int y = k ? r.y : r.y + r.h - 1, q = 0;
                for (int x = r.x; x < r.x + r.w; x++) {
                    uint32_t ch = cv.c[y * cv.w + x].ch;
                    border[k][q++] = ch < 0x80 ? (char)ch : '-';
                }
                border[k][q] = 0;
            }
            int named = 0, plus = 0;
            for (int c = 0; c < GRAPH_NCAT; c++) {
                char e[48];
                snprintf(e, sizeof e, " %c %s ", view_stack_mark(c), bycat_word(c));
                if (has[c]) named += strstr(border[0], e) || strstr(border[1], e);
            }
            for (int k = 0; k < 2 && !plus; k++) {
                const char *p = strstr(border[k], " +");
                if (p) plus = atoi(p + 2);
            }
            if (named + plus != ncat)
                fail_msg("%dx%d: %d named + %d, %d categories:\n%s\n%s", w, h, named, plus, ncat,
                         border[1], border[0]);
            if (cv.cuts) fail_msg("%dx%d: a word cut", w, h);
            canvas_free(&cv);
        }
    close_app(&f);
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_header_first), cmocka_unit_test(names_not_ids),
        cmocka_unit_test(scroll_and_fold),    cmocka_unit_test(no_cuts),
        cmocka_unit_test(flat_list),          cmocka_unit_test(legend_every_category),
        cmocka_unit_test(timeline_names),     cmocka_unit_test(click_a_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
