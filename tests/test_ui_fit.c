/* test_ui_fit.c: the TUI without a terminal: the screen at every size: layout from 1x1 to 300x100,
 * panels inside the canvas, the too-small notice, and no word or number ever cut (canvas_fit, every
 * panel and mode, the fuzzer's finds), and compare's punchline (both peaks, the saving, the gaps)
 * whole on screen at every size from 80x24. */
#define _GNU_SOURCE
#include <ctype.h>
#include "uiutil.h"
#include "util/optimal.h"
#include "util/units.h"

/* Panels never overlap and stay on screen, at every size and in both modes. */
static void test_layout_all_sizes(void **state)
{
    (void)state;
    for (int compare = 0; compare <= 1; compare++)
        for (int w = 1; w <= 300; w++)
            for (int h = 1; h <= 100; h++) {
                layout l;
                layout_compute(w, h, compare, &l);
                if (w < LAYOUT_MIN_W || h < LAYOUT_MIN_H) {
                    assert_true(l.too_small);
                    continue;
                }
                assert_false(l.too_small);
                assert_true(l.used[P_STATUS] && l.used[P_READY] && l.used[P_CURVE]);
                assert_int_equal(l.used[P_TETRIS], !compare);
                assert_int_equal(l.used[P_READY2], compare);
                for (int p = 0; p < P_COUNT; p++) {
                    if (!l.used[p]) continue;
                    rect r = l.r[p];
                    if (r.w < 1 || r.h < 1 || r.x < 0 || r.y < 0 || r.x + r.w > w || r.y + r.h > h)
                        fail_msg("%dx%d compare=%d: panel %d at %d,%d %dx%d is off screen", w, h,
                                 compare, p, r.x, r.y, r.w, r.h);
                    for (int q = p + 1; q < P_COUNT; q++) {
                        if (!l.used[q]) continue;
                        rect s = l.r[q];
                        if (r.x < s.x + s.w && s.x < r.x + r.w && r.y < s.y + s.h &&
                            s.y < r.y + r.h)
                            fail_msg("%dx%d compare=%d: panels %d and %d overlap", w, h, compare, p,
                                     q);
                    }
                }
            }
}

/* Rendering at every size never writes outside the canvas (the sanitizer
 * build checks) and says so when the terminal is too small. */
static void test_render_all_sizes(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app_jump(&f.a, 20);
    for (int compare = 0; compare <= 1; compare++) {
        if (compare) app_key(&f.a, 'c');
        for (int w = 1; w <= 300; w += (w < 70 ? 1 : 7))
            for (int h = 1; h <= 100; h += (h < 20 ? 1 : 3)) {
                canvas cv;
                assert_int_equal(canvas_init(&cv, w, h, 1), 0);
                app_resize(&f.a, w, h);
                view_render(&cv, &f.a, NULL);
                if (w < LAYOUT_MIN_W || h < LAYOUT_MIN_H) {
                    /* The notice, as much of it as fits, around the middle row. */
                    const cell *c = &cv.c[(h > 1 ? h / 2 - 1 : 0) * w];
                    int found = 0;
                    for (int x = 0; x < w; x++) found |= c[x].ch != ' ';
                    assert_true(found);
                }
                canvas_free(&cv);
            }
    }
    close_app(&f);
}

static void test_too_small_notice(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    size_t len;
    char *got = render(&f.a, 59, 20, 1, 0, &len);
    assert_non_null(strstr(got, "memtris needs at least 60x16"));
    assert_non_null(strstr(got, "this terminal is 59x20"));
    free(got);
    close_app(&f);
}

/* canvas_fit shortens at a word, never between a number and its unit. */
static void test_canvas_fit(void **state)
{
    (void)state;
    canvas cv;
    assert_int_equal(canvas_init(&cv, 40, 1, 0), 0);
    static const struct {
        int w;
        const char *in, *out;
    } cases[] = {
        {40, "fits whole", "fits whole"},
        {24, "popped ALLOC 26 (+1.5 MiB): the only", "popped ALLOC 26~"},
        {30, "popped node 26 (alloc b14, +1.5 MiB)", "popped node 26 (alloc b14,~"},
        {12, "peak 12.2 MiB at step 3", "peak~"},
        {6, "layer1_0_downsample", "layer~"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        canvas_clear(&cv);
        int w = canvas_fit(&cv, 0, 0, cases[i].w, ST_NORMAL, cases[i].in);
        char got[48];
        for (int x = 0; x < w; x++) got[x] = (char)cv.c[x].ch;
        got[w] = 0;
        assert_string_equal(got, cases[i].out);
        assert_int_equal(cv.cuts, 0);
    }
    canvas_free(&cv);
}

/* Whole pieces only: no panel of any mode, at any width from the smallest
 * laid out to 300 columns, clips a number, a unit or a word (the canvas
 * counts every clip inside a word), on graphs with long names and many
 * steps: a property of every screen, not of a few golden ones. */
static void test_no_cut_words(void **state)
{
    (void)state;
    static const char *const samples[] = {"demo.json", "resnet50.json", "bert_base.json"};
    static const char *const names[P_COUNT] = {"status", "ready",   "ready2", "curve",
                                               "arena",  "summary", "why",    "hints"};
    long cuts[P_COUNT] = {0};
    int failures = 0;
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        fixture f;
        open_app(&f, samples[i], 0);
        app *a = &f.a;
        uint32_t n = f.g->n, at[] = {0, 1, a->st[0].r.peak_step, n / 2, n};
        /* 0: the stack; 1: compare; 2: the timeline; 3: auto-play at 20000
         * steps a second on an ASCII screen; 4: a find typed, then up; 5:
         * the live list; 6: the live list in compare mode; 7: the help; 8:
         * why one order is lower; 9: a long breakpoint typed; 10: the
         * export's prompt with its file name; 11: the legend. */
        for (int mode = 0; mode < 13; mode++) {
            if (mode == 1) app_key(a, 'c');
            if (mode == 2) {
                app_key(a, 'c');
                app_key(a, 't');
            }
            if (mode == 3) {
                app_key(a, 't');
                while (app_steps_per_sec(a) < 20000) app_key(a, '+');
                app_key(a, 'r');
            }
            if (mode == 4) {
                app_key(a, 'r');
                app_key(a, '/');
                type(a, "conv");
                app_key(a, K_ENTER);
            }
            if (mode == 5) {
                app_key(a, 'l'); /* the live list, in compare mode too */
                app_key(a, 'z'); /* and the curve zoomed */
            }
            if (mode == 6) app_key(a, 'c');
            if (mode == 7) app_key(a, '?'); /* the help over it all */
            if (mode == 8) {
                app_key(a, 'w'); /* closes the help */
                app_key(a, 'w'); /* compare's why-lower, in the live list's place */
                assert_true(a->better && a->cmp.shown);
            }
            if (mode == 9) {
                app_key(a, 'b');
                for (int t = 0; t < 20; t++) type(a, "block2.b3.conv ");
            }
            if (mode == 10) {
                app_key(a, K_ESC);
                app_key(a, 'e');
            }
            if (mode == 11) {
                app_key(a, K_ESC);
                app_key(a, 'b');
                type(a, ">=3MiB");
                app_key(a, K_ENTER);
                app_key(a, '?');
                app_key(a, K_TAB);
                assert_int_equal(a->help, 2);
            }
            if (mode == 12) { /* the policies' page, then back to the legend */
                app_key(a, K_TAB);
                assert_int_equal(a->help, 3);
                app_key(a, K_BTAB);
                assert_int_equal(a->help, 2);
                app_key(a, K_TAB);
            }
            for (int h = 24; h <= 60; h += 36)
                for (int w = LAYOUT_MIN_W; w <= 300; w++)
                    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
                        if (mode != 4) app_jump(a, at[k]);
                        canvas cv;
                        assert_int_equal(canvas_init(&cv, w, h, mode != 3), 0);
                        a->utf8 = mode != 3;
                        app_resize(a, w, h);
                        view_render(&cv, a, NULL);
                        for (int c = 0; c < cv.cuts && c < CANVAS_CUTS; c++) {
                            int x = cv.cut[c].x, y = cv.cut[c].y, p = 0;
                            while (p < P_COUNT &&
                                   !(a->lay.used[p] && x >= a->lay.r[p].x &&
                                     x < a->lay.r[p].x + a->lay.r[p].w && y >= a->lay.r[p].y &&
                                     y < a->lay.r[p].y + a->lay.r[p].h))
                                p++;
                            assert_true(p < P_COUNT);
                            cuts[p]++;
                            if (failures++ >= 10) continue;
                            char row[512];
                            for (int xx = 0; xx < w; xx++) {
                                uint32_t ch = cv.c[y * w + xx].ch;
                                row[xx] = ch < 0x80 ? (char)ch : '#';
                            }
                            row[w] = 0;
                            print_message("%s mode %d %dx%d step %u: %s cut at column %d:\n%s\n",
                                          samples[i], mode, w, h, a->st[0].k, names[p], x, row);
                        }
                        canvas_free(&cv);
                    }
        }
        close_app(&f);
    }
    if (failures) {
        for (int p = 0; p < P_COUNT; p++) print_message("%-8s %ld cuts\n", names[p], cuts[p]);
        fail_msg("%d cuts of a number, a unit or a word", failures);
    }
}

/* Two cuts the TUI fuzzer found (tests/fuzz/corpus/tui/cut-*): the arena's
 * "no buffer is ever allocated" on a graph without ALLOCs, and the replay's
 * progress line ("Esc: c") at narrow widths. Every width, both heights. */
static void test_cut_fuzz_finds(void **state)
{
    (void)state;
    diag d;
    graph *g =
        tu_load("{\"Nodes\": [{\"Id\": 0, \"Op\": \"Input\"}, {\"Id\": 1, \"Op\": \"Relu\"}],"
                " \"Edges\": [[0, 1]]}",
                &d);
    assert_non_null(g);
    app a;
    assert_int_equal(app_init(&a, g, "no-alloc.json", policy_find("priority"), policy_find("fifo"),
                              0, NULL, NULL),
                     0);
    for (int t = 0; t < 2; t++, a.arena = ARENA_TIMELINE)
        for (int w = LAYOUT_MIN_W; w <= 300; w++)
            for (int h = LAYOUT_MIN_H; h <= 50; h += 17) assert_int_equal(cuts_at(&a, w, h, t), 0);
    app_free(&a);
    graph_free(g);
    diag_free(&d);
    fixture f;
    open_app(&f, "demo.json", 0);
    setup_progress(&f.a);
    for (int w = LAYOUT_MIN_W; w <= 300; w++) assert_int_equal(cuts_at(&f.a, w, 24, w & 1), 0);
    f.a.rp.cancelled = 1;
    for (int w = LAYOUT_MIN_W; w <= 300; w++) assert_int_equal(cuts_at(&f.a, w, 24, w & 1), 0);
    f.a.rp.running = 0;
    close_app(&f);
}

/* Whether num stands whole in text: not inside a longer number or word. */
static int whole_in(const char *text, const char *num)
{
    size_t n = strlen(num);
    for (const char *p = strstr(text, num); p; p = strstr(p + 1, num)) {
        char b = p > text ? p[-1] : ' ', e = p[n];
        if (isdigit((unsigned char)b) || b == '.' || b == '+' || b == '-') continue;
        if (isalnum((unsigned char)e) || (e == '.' && isdigit((unsigned char)p[n + 1]))) continue;
        return 1;
    }
    return 0;
}

/* The screen's characters at w x h, no styles. Not inlined, as render: gcc
 * 12 takes open_memstream's result for a dangling pointer. */
static __attribute__((noinline)) char *screen_text(app *a, int w, int h)
{
    canvas cv;
    assert_int_equal(canvas_init(&cv, w, h, 1), 0);
    app_resize(a, w, h);
    view_render(&cv, a, NULL);
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    canvas_dump(&cv, f, 0);
    fclose(f);
    canvas_free(&cv);
    return buf;
}

/* What `memtris compare` prints for the two orders, formatted as it does
 * (cli_compare.c): each peak (units_bytes), the saving against fifo
 * (optimal_pct and units_bytes) and each peak against the optimum (the
 * vs-optimum cell, optimal_phrase OPTIMAL_CELL, with compare's bound over
 * the runs: cli_prove); "-" cells say nothing and are not looked for. */
static int compare_numbers(const app *a, char out[][48])
{
    const run *base = &a->st[1].r, *x = &a->st[0].r;
    int64_t lb = policy_lower_bound(a->g), save = base->peak - x->peak;
    for (int i = 0; i < 2; i++)
        if (a->st[i].r.lower_bound > lb) lb = a->st[i].r.lower_bound;
    int proven = base->peak == lb || x->peak == lb, n = 0;
    units_bytes(out[n++], 48, base->peak, 0);
    units_bytes(out[n++], 48, x->peak, 0);
    if (save > 0) {
        optimal_pct(out[n++], 48, save, base->peak);
        units_bytes(out[n++], 48, save, 0);
    }
    for (int i = 0; i < 2; i++) {
        optimal_phrase(out[n], 48, a->st[i].r.peak, lb, proven, OPTIMAL_CELL);
        if (strcmp(out[n], "-")) n++;
    }
    return n;
}

/* The punchline whole at every size from 80x24 up: in compare mode at the
 * start, at each order's peak (P P) and with the why list (w), both peaks,
 * the saving and each gap to the optimum, as `memtris compare` prints
 * them, stand whole on the screen: every width to 300 at heights 24, 25,
 * 30, 40 and 60, every height to 100 at widths 80, 81, 100, 120 and 200. */
static void test_punchline_every_size(void **state)
{
    (void)state;
    static const char *const samples[] = {"demo.json", "resnet50.json", "bert_base.json",
                                          "greedy-not-optimal.json"};
    static const int hs[] = {24, 25, 30, 40, 60}, ws[] = {80, 81, 100, 120, 200};
    int failures = 0;
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        fixture f;
        open_app(&f, samples[i], 1);
        app *a = &f.a;
        char num[8][48];
        int n = compare_numbers(a, num);
        for (int mode = 0; mode < 3; mode++) {
            if (mode == 1) {
                app_key(a, 'P');
                app_key(a, 'P');
            }
            if (mode == 2) app_key(a, 'w');
            for (int s = 0; s < 221 * 5 + 77 * 5; s++) {
                int w = s < 221 * 5 ? 80 + s / 5 : ws[(s - 221 * 5) / 77];
                int h = s < 221 * 5 ? hs[s % 5] : 24 + (s - 221 * 5) % 77;
                char *txt = screen_text(a, w, h);
                for (int k = 0; k < n; k++)
                    if (!whole_in(txt, num[k]) && failures++ < 5)
                        print_message("%s mode %d %dx%d: \"%s\" not whole on screen:\n%s\n",
                                      samples[i], mode, w, h, num[k], txt);
                free(txt);
            }
        }
        close_app(&f);
    }
    if (failures) fail_msg("%d screens without a number of the punchline", failures);
}

/* The status bar's head (label, file name, policy: all before "step") keeps
 * still while stepping, at every width, alone and in compare mode; the peak
 * stays whenever the file name shows (it outranks it). */
static void test_status_keeps_still(void **state)
{
    (void)state;
    for (int compare = 0; compare <= 1; compare++) {
        fixture f;
        open_app(&f, "resnet50.json", compare);
        for (int w = LAYOUT_MIN_W; w <= 200; w += 3) {
            char head[256] = "";
            for (uint32_t k = 0; k <= f.g->n; k += 1 + f.g->n / 40) {
                app_jump(&f.a, k);
                char *txt = screen_text(&f.a, w, 24);
                char *nl = strchr(txt, '\n'), *st = strstr(txt, "  step ");
                assert_non_null(nl);
                assert_true(st && st < nl);
                *st = 0;
                if (k == 0) snprintf(head, sizeof head, "%s", txt);
                else if (strcmp(head, txt))
                    fail_msg("%dx24 compare=%d step %u: '%s' after '%s'", w, compare, k, txt, head);
                *st = ' ';
                *nl = 0;
                if (strstr(txt, "resnet50.json") && k && !strstr(txt, "peak so far"))
                    fail_msg("%dx24: the file name without the peak: %s", w, txt);
                free(txt);
            }
        }
        close_app(&f);
    }
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_all_sizes),
        cmocka_unit_test(test_render_all_sizes),
        cmocka_unit_test(test_too_small_notice),
        cmocka_unit_test(test_no_cut_words),
        cmocka_unit_test(test_canvas_fit),
        cmocka_unit_test(test_cut_fuzz_finds),
        cmocka_unit_test(test_punchline_every_size),
        cmocka_unit_test(test_status_keeps_still),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
