/* test_ui.c: the TUI without a terminal: golden screens rendered into the
 * canvas (80x24 and 132x40; color and monochrome; UTF-8 and ASCII), layout
 * at every size from 1x1 to 300x100, the keys' effects on the app, and the
 * replay overlay (synthetic goldens; real host replays, cancelled, failed).
 * Goldens are rewritten only when run with --update-golden. */
#define _GNU_SOURCE
#include <dirent.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"
#include "gpu/replay.h"
#include "util/units.h"
#include "sched/place/place.h"
#include "ui/app.h"
#include "ui/hit.h"
#include "ui/view.h"

static int update_golden;

typedef struct fixture {
    graph *g;
    app a;
} fixture;

static void open_app(fixture *f, const char *sample, int compare)
{
    f->g = tu_load_sample(sample, NULL);
    assert_int_equal(
        app_init(&f->a, f->g, sample, policy_find("priority"), policy_find("fifo"), compare, NULL, NULL),
        0);
}

static void close_app(fixture *f)
{
    app_free(&f->a);
    graph_free(f->g);
}

/* open_app, then laid out for a w x h terminal; returns the app. */
static app *open_sized(fixture *f, const char *sample, int w, int h)
{
    open_app(f, sample, 0);
    app_resize(&f->a, w, h);
    return &f->a;
}

/* The screen's dump at w x h, drawn with the views' cache vc (NULL: none). */
static char *render_cached(app *a, view_cache *vc, int w, int h, int utf8, int mono, size_t *len)
{
    canvas cv;
    assert_int_equal(canvas_init(&cv, w, h, utf8), 0);
    a->utf8 = utf8;
    a->mono = mono;
    app_resize(a, w, h);
    view_render(&cv, a, vc);
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    canvas_dump(&cv, f, 1);
    fclose(f);
    canvas_free(&cv);
    return buf;
}

static char *render(app *a, int w, int h, int utf8, int mono, size_t *len)
{
    return render_cached(a, NULL, w, h, utf8, mono, len);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t cap = 0;
    FILE *m = open_memstream(&buf, &cap);
    int c;
    while ((c = fgetc(f)) != EOF) fputc(c, m);
    fclose(f);
    fclose(m);
    *len = cap;
    return buf;
}

/* Compares a rendered screen with tests/golden/NAME.txt. */
static void check_golden(const char *name, const char *got, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/%s.txt", MEMTRIS_SOURCE_DIR, name);
    if (update_golden) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fwrite(got, 1, len, f);
        fclose(f);
        return;
    }
    size_t wlen = 0;
    char *want = slurp(path, &wlen);
    if (!want)
        fail_msg("missing golden %s (run test_ui --update-golden on purpose to create it)", path);
    if (wlen != len || memcmp(want, got, len)) {
        /* Report the first differing line and keep the actual screen. */
        int line = 1;
        size_t i = 0;
        while (i < len && i < wlen && want[i] == got[i]) {
            if (got[i] == '\n') line++;
            i++;
        }
        char out[1024];
        snprintf(out, sizeof out, "%s/%s.actual.txt", MEMTRIS_BINARY_DIR, name);
        FILE *f = fopen(out, "wb");
        if (f) {
            fwrite(got, 1, len, f);
            fclose(f);
        }
        free(want);
        fail_msg("screen %s differs from its golden at line %d; actual screen in %s", name, line,
                 out);
    }
    free(want);
}

/* golden_case with a hook that sets the app up after the keys. */
static void golden_case_with(const char *sample, int compare, uint32_t step, const char *tag,
                             const char *keys, void (*setup)(app *a))
{
    static const int sizes[2][2] = {{80, 24}, {132, 40}};
    fixture f;
    open_app(&f, sample, compare);
    app_jump(&f.a, step);
    for (; keys && *keys; keys++) app_key(&f.a, *keys);
    if (setup) setup(&f.a);
    for (int s = 0; s < 2; s++)
        for (int utf8 = 1; utf8 >= 0; utf8--)
            for (int mono = 0; mono <= 1; mono++) {
                size_t len;
                char *got = render(&f.a, sizes[s][0], sizes[s][1], utf8, mono, &len);
                char name[256];
                snprintf(name, sizeof name, "%s-%dx%d-%s-%s", tag, sizes[s][0], sizes[s][1],
                         utf8 ? "utf8" : "ascii", mono ? "mono" : "color");
                check_golden(name, got, len);
                free(got);
            }
    close_app(&f);
}

static void golden_case(const char *sample, int compare, uint32_t step, const char *tag,
                        const char *keys)
{
    golden_case_with(sample, compare, step, tag, keys, NULL);
}

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

/* Draws a at w x h and fails naming what when a word or number is cut. */
static void expect_no_cuts(app *a, int w, int h, int utf8, const char *what)
{
    canvas cv;
    assert_int_equal(canvas_init(&cv, w, h, utf8), 0);
    a->utf8 = utf8;
    app_resize(a, w, h);
    view_render(&cv, a, NULL);
    if (cv.cuts)
        fail_msg("%s %dx%d step %u: a word cut at column %d, row %d", what, w, h, a->st[0].k,
                 cv.cut[0].x, cv.cut[0].y);
    canvas_free(&cv);
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
    assert_true(a->pool_view && a->pool);
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
    assert_true(a->pol != before && a->pool_view && a->pool);
    assert_int_equal(pool_simulate(f.g, &a->st[0].r, &a->poolp, &s, err, sizeof err), 0);
    assert_memory_equal(a->pool->need, s.need, 150 * sizeof *s.need);
    pool_sim_free(&s);
    app_key(a, 'I');
    assert_false(a->pool_view);
    assert_null(a->pool);
    /* Too much work for a key on the UI's thread: refused at once, said why. */
    a->poolp.iterations = 10000000;
    app_key(a, 'I');
    assert_false(a->pool_view);
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
        assert_true(a->lanes);
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
        assert_int_equal(
            app_init(&a, g, "edge.json", policy_find("priority"), policy_find("fifo"), 0, NULL, NULL), 0);
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

static void place_out(app *a);

/* The command line's --alpha reaches the policies the TUI runs in the
 * background (as every policy on a graph this size is): weighted at alpha
 * 0 keys (score,queued). */
static void test_params_in_background(void **state)
{
    (void)state;
    fixture f;
    app *a = open_sized(&f, "prefetch.json", 132, 40);
    a->ctx.has_alpha = 1; /* as --alpha 0 on the command line */
    a->ctx.alpha = 0;
    a->place_async_min = 0; /* every policy and placer in the background */
    while (strcmp(a->pol->name, "weighted")) {
        app_key(a, 's');
        if (a->placing) place_out(a);
    }
    assert_true(a->st[0].r.alpha == 0);
    size_t len;
    char *s = render(a, 132, 40, 1, 0, &len);
    assert_non_null(strstr(s, "(score,queued)"));
    free(s);
    close_app(&f);
}

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

static void test_keys_stepping(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    uint32_t n = f.g->n;
    app_resize(a, 120, 35);
    assert_int_equal(a->st[0].k, 0);
    app_key(a, ' ');
    app_key(a, 'n');
    app_key(a, K_RIGHT);
    assert_int_equal(a->st[0].k, 3);
    app_key(a, 'p');
    assert_int_equal(a->st[0].k, 2);
    app_key(a, K_LEFT);
    app_key(a, K_BACKSPACE);
    assert_int_equal(a->st[0].k, 0);
    app_key(a, K_LEFT); /* at step 0 it says so */
    assert_int_equal(a->st[0].k, 0);
    assert_non_null(strstr(a->msg, "step 0"));
    app_key(a, K_END);
    assert_int_equal(a->st[0].k, n);
    app_key(a, ' ');
    assert_int_equal(a->st[0].k, n);
    assert_non_null(strstr(a->msg, "last step"));
    app_key(a, K_HOME);
    assert_int_equal(a->st[0].k, 0);
    app_key(a, 'P');
    assert_int_equal(a->st[0].k, a->st[0].r.peak_step);
    uint32_t at;
    assert_int_equal(step_peak(&a->st[0], &at), a->st[0].r.peak);
    close_app(&f);
}

static void type(app *a, const char *s)
{
    for (; *s; s++) app_key(a, *s);
}

static void test_keys_prompts(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    app_key(a, 'g');
    assert_int_equal(a->prompt, 'g');
    type(a, "27");
    app_key(a, K_ENTER);
    assert_int_equal(a->prompt, 0);
    assert_int_equal(a->st[0].k, 27);
    app_key(a, 'g');
    type(a, "9999");
    app_key(a, K_ENTER);
    assert_int_equal(a->st[0].k, 27);
    assert_non_null(strstr(a->msg, "'9999' is not a step: steps run from 0 to 61"));
    app_key(a, 'g');
    type(a, "5");
    app_key(a, K_ESC); /* cancelled */
    assert_int_equal(a->st[0].k, 27);
    app_key(a, '/');
    type(a, "41");
    app_key(a, K_ENTER);
    uint32_t u = graph_find(f.g, 41);
    assert_int_equal(a->st[0].k, a->st[0].r.pos[u] + 1);
    assert_int_equal(step_last(&a->st[0]), u);
    assert_non_null(strstr(a->msg, "node 41"));
    app_key(a, '/');
    type(a, "12345");
    app_key(a, K_ENTER);
    assert_non_null(strstr(a->msg, "no node matches '12345'"));
    assert_int_equal(a->finding, 0);
    /* g refuses what is not a step number, and says so. */
    uint32_t k = a->st[0].k;
    app_key(a, 'g');
    type(a, "abc12");
    app_key(a, K_ENTER);
    assert_int_equal(a->st[0].k, k);
    assert_non_null(strstr(a->msg, "'abc12' is not a step: steps run from 0 to 61"));
    app_key(a, 'g');
    type(a, "2_");
    app_key(a, K_ENTER);
    assert_int_equal(a->st[0].k, k);
    assert_non_null(strstr(a->msg, "'2_' is not a step"));
    close_app(&f);
}

/* / finds by name or op (any case), n and N step through the matches in
 * schedule order, wrapping, and any other key ends the find. */
/* The arena header: "X% over the peak" is (arena - peak) / peak, and each
 * of its figures is whole or absent at every width. */
static void test_arena_over_the_peak(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    int64_t arena = a->pl.arena, peak = a->st[0].r.peak;
    assert_true(arena > peak);
    char want[64];
    snprintf(want, sizeof want, ", %.1f%% over the peak",
             100.0 * (double)(arena - peak) / (double)peak);
    size_t len;
    char *screen = render(a, 200, 40, 1, 0, &len);
    if (!strstr(screen, want)) fail_msg("the arena header does not say '%s'", want);
    /* and, before it, how the plan stands against the bound, as plan says it */
    char gap[64], want2[80];
    snprintf(want2, sizeof want2, ", %s, ", place_gap_words(&a->pl, gap, sizeof gap));
    if (!strstr(screen, want2)) fail_msg("the arena header does not say '%s'", want2);
    assert_false(a->pl.proven);
    assert_non_null(strstr(want2, ", gap 26.3% (bound 7.0 MiB), "));
    free(screen);
    assert_true(place_over_peak(&a->pl, peak) > place_fragmentation(&a->pl, peak));
    app_jump(a, a->st[0].r.peak_step);
    for (int w = 40; w <= 200; w++) {
        screen = render(a, w, 35, 1, 0, &len);
        /* The figures are whole: a number, then its unit or its words. */
        double v;
        char unit[8];
        const char *h = strstr(screen, "high-water");
        if (h &&
            (sscanf(h, "high-water so far %lf %7[A-Za-z]", &v, unit) != 2 || strcmp(unit, "MiB")))
            fail_msg("at %d columns the high-water mark is cut: %.30s", w, h);
        const char *o = strstr(screen, "arena ");
        if (o && (sscanf(o, "arena %lf %7[A-Za-z]", &v, unit) != 2 || strcmp(unit, "MiB")))
            fail_msg("at %d columns the arena is cut: %.30s", w, o);
        o = strstr(screen, "% over the peak");
        if (!o && strstr(screen, ", 35.")) fail_msg("at %d columns 'over the peak' is cut", w);
        o = strstr(screen, ", gap ");
        if (o && !strstr(o, "% (bound 7.0 MiB)"))
            fail_msg("at %d columns the gap is cut: %.30s", w, o);
        if (!o && strstr(screen, ", gap")) fail_msg("at %d columns the gap is cut", w);
        free(screen);
    }
    close_app(&f);
}

/* H shades the plan's holes on the curve (the arena held above the live
 * bytes), says so in the title when it fits, and H again hides them. */
static size_t count_of(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what)) n++;
    return n;
}

static void test_curve_holes(void **state)
{
    (void)state;
    fixture f;
    app *a = open_sized(&f, "demo.json", 132, 40);
    app_jump(a, a->st[0].r.peak_step);
    size_t len;
    char *off = render(a, 132, 40, 1, 0, &len);
    assert_null(strstr(off, "holes shaded"));
    app_key(a, 'H');
    assert_true(a->holes);
    char *on = render(a, 132, 40, 1, 0, &len);
    assert_non_null(strstr(on, " Memory, holes shaded "));
    /* first-fit's arena is 9.5 MiB over a 7 MiB peak: holes to shade */
    assert_true(count_of(on, "\u00b7") > count_of(off, "\u00b7") + 10);
    free(on);
    for (int w = 40; w <= 132; w++) { /* the title's words are whole or absent */
        on = render(a, w, 24, 1, 0, &len);
        const char *t = strstr(on, " Memory");
        if (t && strncmp(t, " Memory, holes shaded ", 22) && strncmp(t, " Memory ", 8))
            fail_msg("at %d columns the curve's title is cut: %.24s", w, t);
        free(on);
    }
    app_key(a, 'H');
    assert_false(a->holes);
    on = render(a, 132, 40, 1, 0, &len);
    assert_string_equal(on, off);
    free(on);
    free(off);
    close_app(&f);
}

/* Messages of a moment give way: the speed's to the play's next step, a
 * selection on the stack to its buffer's FREE (the timeline keeps it). */
static void test_messages_of_a_moment(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    while (app_steps_per_sec(a) > 1) app_key(a, '-'); /* down to 1 step a second */
    assert_string_equal(a->msg, "auto-play speed 1 step/s");
    app_key(a, '+');
    assert_string_equal(a->msg, "auto-play speed 2 steps/s");
    app_key(a, 'r');
    app_key(a, '+');
    assert_string_equal(a->msg, "auto-play speed 5 steps/s");
    uint32_t k = a->st[0].k;
    app_tick(a);
    assert_true(a->st[0].k > k);
    assert_string_equal(a->msg, ""); /* the why line explains the pop again */
    app_key(a, 'r');
    /* A buffer selected on the stack, then freed: the selection ends. */
    const graph *g = f.g;
    app_jump(a, 3);
    app_key(a, K_TAB);
    while (a->focus != P_TETRIS) app_key(a, K_TAB);
    app_key(a, K_UP);
    uint32_t b = a->sel;
    assert_true(b != GRAPH_NONE);
    uint32_t freed = a->st[0].r.pos[g->buf_free[b]] + 1;
    app_jump(a, freed - 1);
    assert_int_equal(a->sel, b);
    app_jump(a, freed);
    assert_int_equal(a->sel, GRAPH_NONE);
    /* On the timeline every buffer stays selectable. */
    app_jump(a, 3);
    app_key(a, K_UP);
    b = a->sel;
    app_key(a, 't');
    app_jump(a, a->st[0].r.pos[g->buf_free[b]] + 1);
    assert_int_equal(a->sel, b);
    app_key(a, 't'); /* back to the stack, where b is not live: dropped */
    assert_int_equal(a->sel, GRAPH_NONE);
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
                assert_true(a->better && a->compare);
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

/* Ticks the play until it stops (as the front end would); returns the
 * ticks it took. */
static int play_out(app *a)
{
    int ticks = 0;
    while (a->playing && ticks < 100000) {
        app_tick(a);
        ticks++;
    }
    assert_false(a->playing);
    return ticks;
}

/* The teaching flow: u plays to the peak, d to where the orders part next,
 * breakpoints (b) on a node or a memory threshold stop any play exactly
 * there, even at 20000 steps a second; B clears them. */
static void test_teaching_keys(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    const run *r = &a->st[0].r;
    uint32_t peak = r->peak_step;
    app_key(a, 'u');
    assert_true(a->playing);
    play_out(a);
    assert_int_equal(a->st[0].k, peak);
    char want[160], b1[32];
    snprintf(want, sizeof want, "at the peak of priority: step %u, %s live", peak,
             units_bytes(b1, sizeof b1, r->peak, 0));
    assert_string_equal(a->msg, want);
    app_key(a, 'u'); /* at the peak: from the start again */
    assert_int_equal(a->st[0].k, 0);
    play_out(a);
    assert_int_equal(a->st[0].k, peak);

    /* d: each parting in turn, then "no more" */
    assert_true(a->nparts >= 1);
    app_jump(a, 0);
    for (uint32_t i = 0; i < a->nparts; i++) {
        app_key(a, 'd');
        play_out(a);
        assert_int_equal(a->st[0].k, a->parts[i] + 1);
        snprintf(want, sizeof want, "the orders part at step %u (%u of %u): fifo pops node",
                 a->parts[i] + 1, i + 1, a->nparts);
        assert_non_null(strstr(a->msg, want));
        assert_int_equal(a->st[0].r.order[a->parts[i]] == a->st[1].r.order[a->parts[i]], 0);
    }
    app_key(a, 'd');
    assert_false(a->playing);
    assert_non_null(strstr(a->msg, "the orders do not part after step"));

    /* b on a node: the play stops right after it pops, at full speed */
    while (app_steps_per_sec(a) < 20000) app_key(a, '+');
    app_key(a, 'b');
    type(a, "block2.b3.pool");
    app_key(a, K_ENTER);
    assert_int_equal(a->nbrk, 1);
    assert_non_null(strstr(a->msg, "breakpoint 1: where a node matching 'block2.b3.pool' pops"));
    app_key(a, K_HOME);
    app_key(a, 'r');
    play_out(a);
    uint32_t pool_out = graph_find(f.g, 26), pool = graph_find(f.g, 27);
    uint32_t first = r->pos[pool_out] < r->pos[pool] ? pool_out : pool;
    assert_int_equal(a->st[0].k, r->pos[first] + 1);
    assert_non_null(strstr(a->msg, "breakpoint 1 ('block2.b3.pool'): node"));
    /* b on memory: where live bytes first reach 4 MiB from below */
    app_key(a, 'B');
    assert_int_equal(a->nbrk, 0);
    app_key(a, 'b');
    type(a, ">=4MiB");
    app_key(a, K_ENTER);
    assert_int_equal(a->nbrk, 1);
    app_key(a, K_HOME);
    app_key(a, 'r');
    play_out(a);
    uint32_t k = a->st[0].k, j = 0;
    while (j < f.g->n && r->memory[j] < 4 << 20) j++;
    assert_int_equal(k, j + 1);
    assert_non_null(strstr(a->msg, "reaches 4.0 MiB"));
    /* the stop is not sticky: r goes on to the next crossing or the end */
    app_key(a, 'r');
    play_out(a);
    assert_true(a->st[0].k > k);
    /* what cannot be a breakpoint says so and sets none */
    app_key(a, 'B');
    app_key(a, 'b');
    type(a, ">4 XB");
    app_key(a, K_ENTER);
    assert_non_null(strstr(a->msg, "is not a size"));
    app_key(a, 'b');
    type(a, "no such node");
    app_key(a, K_ENTER);
    assert_non_null(strstr(a->msg, "no node matches 'no such node'"));
    assert_int_equal(a->nbrk, 0);
    app_key(a, 'B');
    assert_string_equal(a->msg, "no breakpoints to clear");
    close_app(&f);
}

/* P in compare mode offers either policy's peak, in turn; u without a
 * compare and d say what they need. */
static void test_peak_of_either(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    uint32_t mine = a->st[0].r.peak_step, other = a->st[1].r.peak_step;
    assert_int_not_equal(mine, other);
    app_key(a, 'P');
    assert_int_equal(a->st[0].k, mine);
    assert_non_null(strstr(a->msg, "peak of priority at step"));
    assert_non_null(strstr(a->msg, "P again: fifo's peak at step"));
    app_key(a, 'P');
    assert_int_equal(a->st[0].k, other);
    assert_non_null(strstr(a->msg, "peak of fifo at step"));
    app_key(a, 'P');
    assert_int_equal(a->st[0].k, mine);
    app_key(a, 'c'); /* compare off: d needs it */
    app_key(a, 'd');
    assert_false(a->playing);
    assert_non_null(strstr(a->msg, "compare two first (c)"));
    close_app(&f);
}

/* e writes the curve and arena of the stepped policy as SVG, the cursor
 * marked, to the file named in its prompt (a name offered); a file that
 * cannot be written says why. */
static void test_export_svg(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_jump(a, 18);
    app_key(a, 'e');
    assert_int_equal(a->prompt, 'e');
    assert_string_equal(a->pbuf, "demo-priority-step18.svg");
    char dir[] = "/tmp/memtris-export-XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/view.svg", dir);
    while (a->pbuf[0]) app_key(a, K_BACKSPACE);
    type(a, path);
    app_key(a, K_ENTER);
    assert_int_equal(a->prompt, 0);
    char want[320];
    snprintf(want, sizeof want,
             "wrote %s: the curve and the first-fit arena of priority at step 18", path);
    assert_string_equal(a->msg, want);
    size_t len = 0;
    char *svg = slurp(path, &len);
    assert_non_null(svg);
    assert_non_null(strstr(svg, "class=\"cursor\""));
    assert_non_null(strstr(svg, ", at step 18 of 61</text>"));
    assert_non_null(strstr(svg, "</svg>\n"));
    free(svg);
    assert_int_equal(remove(path), 0);
    snprintf(path, sizeof path, "%s/no/such/dir.svg", dir);
    app_key(a, 'e');
    while (a->pbuf[0]) app_key(a, K_BACKSPACE);
    type(a, path);
    app_key(a, K_ENTER);
    snprintf(want, sizeof want, "cannot write %s: No such file or directory", path);
    assert_string_equal(a->msg, want);
    assert_int_equal(rmdir(dir), 0);
    close_app(&f);
}

/* ? shows the keys; Tab turns to the legend (every glyph, the key tuple,
 * the file's full path, the breakpoints) and back; any other key closes. */
static void test_help_legend(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_key(a, 'b');
    type(a, "block1.add");
    app_key(a, K_ENTER);
    app_key(a, 'b');
    type(a, ">2MiB");
    app_key(a, K_ENTER);
    app_key(a, '?');
    size_t len;
    char *s = render(a, 80, 24, 1, 1, &len);
    assert_non_null(strstr(s, " Keys "));
    assert_non_null(strstr(s, "u  d               play to peak; to where orders part"));
    /* Every key line fits at 80x24, the last included. */
    assert_non_null(strstr(s, "H  T  I            holes; streams over time; pool view"));
    assert_non_null(strstr(s, "? F1 h   q F10     this help, the legend, policies; quit"));
    assert_non_null(strstr(s, "Tab: the legend"));
    free(s);
    app_key(a, K_TAB);
    s = render(a, 80, 24, 1, 1, &len);
    assert_non_null(strstr(s, " Legend "));
    assert_non_null(strstr(s, "\u28ff         curve: the stepped policy, steps done"));
    assert_non_null(strstr(s, "\u25b2         the peak; \u25c0 \u25b6 when zoomed away from it"));
    assert_non_null(strstr(s, "(c,t,id)  priority's key: the smallest pops"));
    assert_non_null(strstr(s, "file: demo.json"));
    assert_non_null(strstr(s, "breakpoints: 'block1.add', >=2.0 MiB"));
    free(s);
    s = render(a, 80, 24, 0, 1, &len); /* ASCII: its own glyphs */
    assert_non_null(strstr(s, "^         the peak; < > when zoomed away from it"));
    free(s);
    app_key(a, K_TAB); /* the policies: every one of the table, in whole words */
    s = render(a, 80, 24, 1, 1, &len);
    assert_non_null(strstr(s, " Policies "));
    for (size_t i = 0; policy_at(i); i++) {
        char name[32];
        snprintf(name, sizeof name, "%-12s", policy_at(i)->name);
        assert_non_null(strstr(s, name));
    }
    /* At 80x24 the page is too short for every description: one line a
     * policy, as much as fits in whole words; at 132x40 they are whole. */
    assert_non_null(strstr(s, "exact       the proven minimum peak: a best-first\u2026"));
    assert_non_null(strstr(s, "Tab: the keys"));
    free(s);
    s = render(a, 132, 40, 1, 1, &len);
    assert_non_null(strstr(s, "exact       the proven minimum peak: a best-first search"));
    assert_non_null(strstr(s, "            over the sets of nodes run, within"));
    assert_non_null(strstr(s, "multiqueue  the seed's multi-queue loop: ready queues"));
    free(s);
    app_key(a, K_TAB);
    assert_int_equal(a->help, 1);
    app_key(a, 'x');
    assert_int_equal(a->help, 0);
    assert_false(a->quit);
    close_app(&f);
}

/* Ticks until the background placement ends (the front end's poll). */
static void place_out(app *a)
{
    for (int i = 0; a->placing && i < 200000; i++) {
        app_tick(a);
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    assert_null(a->placing);
}

/* On a big graph a and s place in the background: a progress line with
 * Esc to cancel, the old arena until the new one is taken; keys that need
 * the plan wait. (The bound is lowered here so that the demo counts as big.) */
static void test_place_background(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    a->place_async_min = 0;
    app_jump(a, 20);
    app_key(a, 'a');
    assert_non_null(a->placing);
    size_t len;
    char *s = render(a, 100, 30, 1, 1, &len);
    assert_non_null(strstr(s, " Placing 20 buffers with best-fit"));
    assert_non_null(strstr(s, "Esc: cancel"));
    free(s);
    app_key(a, 's');
    assert_string_equal(a->msg, "'s' waits until placing ends; Esc cancels it");
    place_out(a);
    assert_string_equal(a->placer->name, "best-fit");
    assert_string_equal(a->pl.placer, "best-fit");
    assert_non_null(strstr(a->msg, "placer best-fit: arena"));
    /* cancelled: the arena stays */
    app_key(a, 'a');
    assert_non_null(a->placing);
    app_key(a, K_ESC);
    assert_null(a->placing);
    assert_string_equal(a->msg, "placer pool cancelled; the arena is as it was");
    assert_string_equal(a->placer->name, "best-fit");
    /* s: the new policy's run placed in the background, the step kept */
    app_key(a, 's');
    assert_non_null(a->placing);
    assert_string_equal(a->pol->name, "priority");
    place_out(a);
    assert_string_equal(a->pol->name, "dfs");
    assert_string_equal(a->cmp_pol->name, "fifo");
    assert_int_equal(a->st[0].k, 20);
    assert_int_equal(a->st[1].k, 20);
    assert_string_equal(a->pl.placer, "best-fit");
    assert_non_null(strstr(a->msg, "policy dfs:"));
    /* and a placement left running when the app ends is stopped */
    app_key(a, 'a');
    close_app(&f);
}

/* In compare mode l lists the stepped side's live buffers, then the
 * other's, then gives the summary back. */
static void test_live_of_either(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    app_resize(a, 120, 35);
    app_jump(a, 30);
    size_t len;
    const char *titles[] = {" Live at step 30 of priority ", " Live at step 30 of fifo ",
                            " Compare "};
    for (int i = 0; i < 3; i++) {
        app_key(a, 'l');
        char *s = render(a, 120, 35, 0, 1, &len);
        assert_non_null(strstr(s, titles[i]));
        free(s);
    }
    close_app(&f);
}

/* l lists the buffers live at the cursor, largest first, summing to the
 * live memory; P then shows the peak's. */
static void test_live_list(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_key(a, 'P');
    app_key(a, 'l');
    assert_true(a->live);
    const graph *g = f.g;
    const stepper *s = &a->st[0];
    uint32_t n = 0, big = GRAPH_NONE;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (step_buf_live(s, b)) {
            n++;
            if (big == GRAPH_NONE || g->buf_size[b] > g->buf_size[big]) big = b;
        }
    char want[128], b1[32];
    snprintf(want, sizeof want, "%u buffers, %s: the live memory", n,
             units_bytes(b1, sizeof b1, step_memory(s), 0));
    size_t len;
    char *screen = render(a, 132, 40, 1, 0, &len);
    if (!strstr(screen, want)) fail_msg("the live list does not say '%s':\n%s", want, screen);
    char title[64];
    snprintf(title, sizeof title, " Live at step %u of priority ", s->k);
    assert_non_null(strstr(screen, title));
    /* The largest first: its row is the first after the header. */
    const char *h = strstr(screen, "live for");
    assert_non_null(h);
    snprintf(want, sizeof want, "b%lld ", (long long)g->buf_id[big]);
    const char *row = strchr(h, '\n');
    assert_non_null(row);
    const char *first = strstr(row, "b");
    assert_true(first && !strncmp(first, want, strlen(want)));
    free(screen);
    app_key(a, 'l');
    assert_false(a->live);
    close_app(&f);
}

/* z zooms the curve around the cursor, < and > pan, 0 fits; the cursor
 * stays in the window, clicks land on the window's steps, and the peak's
 * mark points off the edge when the window does not hold it. */
static void test_curve_zoom(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    uint32_t n = f.g->n, lo, span, peak = a->st[0].r.peak_step;
    app_curve_window(a, &lo, &span);
    assert_int_equal(lo, 0);
    assert_int_equal(span, n + 1);
    app_key(a, 'P');
    app_key(a, 'z');
    app_curve_window(a, &lo, &span);
    assert_int_equal(span, (n + 1) / 2);
    assert_true(lo <= peak && peak < lo + span);
    char want[64];
    snprintf(want, sizeof want, " Memory, steps %u-%u ", lo, lo + span - 1);
    size_t len;
    char *screen = render(a, 120, 35, 1, 0, &len);
    if (!strstr(screen, want)) fail_msg("no '%s' in:\n%s", want, screen);
    free(screen);
    /* A click on the plot's left edge is the window's first step. */
    rect r = a->lay.r[P_CURVE];
    assert_true(app_click(a, r.x + 12, r.y + 2));
    assert_int_equal(a->st[0].k, lo);
    /* Pan on until the peak is left behind: its mark points back at it. */
    while (a->zoom_lo + a->zoom_span < n + 1) app_key(a, '>');
    app_curve_window(a, &lo, &span);
    assert_true(lo > peak);
    assert_true(a->st[0].k >= lo && a->st[0].k < lo + span); /* the cursor came along */
    screen = render(a, 120, 35, 1, 0, &len);
    snprintf(want, sizeof want, "\u25c0peak %u", peak);
    if (!strstr(screen, want)) fail_msg("no '%s' in:\n%s", want, screen);
    free(screen);
    /* Stepping out of the window moves it. */
    app_jump(a, 2);
    app_curve_window(a, &lo, &span);
    assert_true(lo <= 2 && 2 < lo + span);
    /* Z and 0 zoom out; with the focus on the curve, + and - zoom too. */
    app_key(a, '0');
    assert_int_equal(a->zoom_span, 0);
    while (a->focus != P_CURVE) app_key(a, K_TAB);
    uint32_t speed = app_steps_per_sec(a);
    app_key(a, '+');
    assert_int_equal(a->zoom_span, (n + 1) / 2);
    assert_int_equal(app_steps_per_sec(a), speed);
    app_key(a, 'Z');
    assert_int_equal(a->zoom_span, 0);
    close_app(&f);
}

/* w, in compare mode: at the worse policy's peak step, what it holds that
 * the other does not after as many pops (and the other way round), summing
 * to the gap between the curves there. */
static void test_why_better(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_key(a, 'w');
    assert_false(a->better);
    assert_non_null(strstr(a->msg, "compare two first"));
    app_key(a, 'c');
    app_key(a, 'w');
    assert_true(a->better);
    const graph *g = f.g;
    const run *pr = &a->st[0].r, *fr = &a->st[1].r; /* priority, fifo */
    assert_true(fr->peak > pr->peak);
    uint32_t k = fr->peak_step, n = 0;
    int64_t sum = 0, back = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        uint32_t fb = g->buf_free[b];
        int in_f = fr->pos[g->buf_alloc[b]] < k && (fb == GRAPH_NONE || fr->pos[fb] >= k);
        int in_p = pr->pos[g->buf_alloc[b]] < k && (fb == GRAPH_NONE || pr->pos[fb] >= k);
        if (in_f && !in_p) {
            n++;
            sum += g->buf_size[b];
        }
        if (in_p && !in_f) back += g->buf_size[b];
    }
    assert_int_equal(sum - back, fr->memory[k - 1] - pr->memory[k - 1]);
    char want[128], b1[32];
    snprintf(want, sizeof want, "fifo holds %u buffers priority does not, %s:", n,
             units_bytes(b1, sizeof b1, sum, 0));
    size_t len;
    char *screen = render(a, 132, 40, 1, 0, &len);
    if (!strstr(screen, want)) fail_msg("no '%s' in:\n%s", want, screen);
    snprintf(want, sizeof want, "at step %u, fifo's peak: fifo ", k);
    assert_non_null(strstr(screen, want));
    assert_non_null(strstr(screen, " Why priority is lower "));
    assert_non_null(strstr(screen, "the orders part at step 5"));
    free(screen);
    close_app(&f);
}

static void test_keys_find(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    const graph *g = f.g;
    const run *r = &a->st[0].r;
    uint32_t count = 0, first = UINT32_MAX, last = 0;
    for (uint32_t u = 0; u < g->n; u++)
        if (strcasestr(graph_name(g, u), "conv") || strcasestr(graph_op(g, u), "conv")) {
            count++;
            if (r->pos[u] + 1 < first) first = r->pos[u] + 1;
            if (r->pos[u] + 1 > last) last = r->pos[u] + 1;
        }
    assert_true(count > 2);
    app_key(a, '/');
    type(a, "CoNv");
    app_key(a, K_ENTER);
    assert_int_equal(a->st[0].k, first);
    assert_true(a->finding);
    char want[64];
    snprintf(want, sizeof want, "match 1 of %u", count);
    if (!strstr(a->msg, want)) fail_msg("'%s' does not say '%s'", a->msg, want);
    app_key(a, 'n');
    snprintf(want, sizeof want, "match 2 of %u", count);
    assert_non_null(strstr(a->msg, want));
    uint32_t second = a->st[0].k;
    assert_true(second > first);
    app_key(a, 'N');
    assert_int_equal(a->st[0].k, first);
    app_key(a, 'N'); /* before the first: from the end again */
    assert_int_equal(a->st[0].k, last);
    assert_non_null(strstr(a->msg, "from the end again"));
    snprintf(want, sizeof want, "match %u of %u", count, count);
    assert_non_null(strstr(a->msg, want));
    app_key(a, 'n');
    assert_int_equal(a->st[0].k, first);
    assert_non_null(strstr(a->msg, "from the start again"));
    /* The hints line says what n and N do while the find is up. */
    size_t len;
    char *screen = render(a, 120, 35, 1, 0, &len);
    assert_non_null(strstr(screen, " Find 'CoNv': nNext match NPrevious EscDone"));
    free(screen);
    /* Esc ends it; then n is the next step again. */
    app_key(a, K_ESC);
    assert_false(a->finding);
    app_key(a, 'n');
    assert_int_equal(a->st[0].k, first + 1);
    /* A name's part finds by name; an op ("ALLOC") finds every ALLOC. */
    app_key(a, '/');
    type(a, "alloc");
    app_key(a, K_ENTER);
    snprintf(want, sizeof want, "of %u", g->nbufs);
    assert_non_null(strstr(a->msg, want));
    close_app(&f);
}

static void test_keys_modes(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    app_jump(a, 10);
    /* Compare mode: two steppers in step, two ready panels, the divergence. */
    app_key(a, 'c');
    assert_true(a->compare);
    assert_true(a->lay.used[P_READY2]);
    assert_int_equal(a->st[1].k, 10);
    assert_string_equal(a->st[1].pol->name, "fifo");
    assert_int_equal(a->diverge, policy_diverge(&a->st[0].r, &a->st[1].r));
    assert_true(a->diverge < f.g->n); /* the demo's orders do differ */
    app_key(a, ' ');
    assert_int_equal(a->st[0].k, 11);
    assert_int_equal(a->st[1].k, 11);
    app_key(a, 'c');
    assert_false(a->compare);
    /* Switch policy: every policy of the table in turn, the step kept. */
    static const char *const cycle[] = {"dfs",   "postorder", "lpmf",       "bfs",  "best",
                                        "exact", "weighted",  "multiqueue", "fifo", "priority"};
    for (int i = 0; i < 10; i++) {
        app_key(a, 's');
        /* exact's search runs in the background: the key line says so */
        assert_int_equal(a->placing != NULL, !strcmp(cycle[i], "exact"));
        if (a->placing) place_out(a);
        assert_string_equal(a->pol->name, cycle[i]);
        assert_int_equal(a->st[0].k, 11);
    }
    /* Help overlay: shown, and any key closes it without acting. */
    app_key(a, '?');
    assert_true(a->help);
    app_key(a, ' ');
    assert_false(a->help);
    assert_int_equal(a->st[0].k, 11);
    app_key(a, K_F1);
    assert_true(a->help);
    app_key(a, K_ESC);
    assert_false(a->help);
    /* Focus moves over the panels shown; arrows scroll the focused one. */
    assert_int_equal(a->focus, P_READY);
    app_key(a, K_TAB);
    assert_int_equal(a->focus, P_CURVE);
    app_key(a, K_TAB);
    assert_int_equal(a->focus, P_TETRIS);
    app_key(a, K_TAB);
    assert_int_equal(a->focus, P_READY);
    app_key(a, K_BTAB);
    assert_int_equal(a->focus, P_TETRIS);
    app_key(a, K_TAB);
    app_jump(a, 0);
    app_key(a, K_END);
    app_key(a, K_HOME);
    app_key(a, K_DOWN); /* one ready node at step 0: nothing to scroll */
    assert_int_equal(a->scroll[P_READY], 0);
    app_key(a, 'q');
    assert_true(a->quit);
    close_app(&f);
}

static void test_autoplay(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    assert_int_equal(app_tick_ms(a), -1);
    app_key(a, 'r');
    assert_true(a->playing);
    uint32_t sps = app_steps_per_sec(a);
    app_key(a, '+');
    assert_true(app_steps_per_sec(a) > sps);
    app_key(a, '-');
    assert_int_equal(app_steps_per_sec(a), sps);
    assert_true(app_tick_ms(a) > 0);
    app_tick(a);
    app_tick(a);
    assert_int_equal(a->st[0].k, 2);
    while (a->playing) app_tick(a); /* stops by itself at the end */
    assert_int_equal(a->st[0].k, f.g->n);
    close_app(&f);
}

static void test_click_on_curve(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    rect r = a->lay.r[P_CURVE];
    hit_frame hf = {&a->lay, a->utf8, a->timeline, a->g, &a->st[0], &a->pl, 0, f.g->n + 1, 0};
    /* Outside the plot: no jump. */
    assert_false(hit_test(&hf, r.x, r.y).kind == HIT_STEP);
    assert_false(app_click(a, 0, 0));
    /* The plot's left edge is step 0, its right edge the last step. */
    int x0 = r.x + 12, x1 = r.x + r.w - 3;
    assert_true(app_click(a, x0, r.y + 2));
    assert_int_equal(a->st[0].k, 0);
    assert_true(app_click(a, x1, r.y + 2));
    assert_true(a->st[0].k >= f.g->n - 2);
    /* A click in the middle lands in the middle. */
    assert_true(app_click(a, (x0 + x1) / 2, r.y + 3));
    assert_true(a->st[0].k > f.g->n / 3 && a->st[0].k < 2 * f.g->n / 3);
    close_app(&f);
}

/* Unnamed nodes are called something readable: "alloc b1", "free b1",
 * "Matmul 1" (Op and Id) in the ready queue, the why line and find. */
static void test_unnamed_names(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "seed-example.json", 0);
    app *a = &f.a;
    char lb[GRAPH_LABEL_MAX];
    assert_string_equal(graph_display(f.g, 0, lb, sizeof lb), "alloc b1");
    assert_string_equal(graph_display(f.g, 1, lb, sizeof lb), "Matmul 1");
    assert_string_equal(graph_display(f.g, 2, lb, sizeof lb), "free b1");
    assert_string_equal(graph_label(f.g, 1, lb, sizeof lb), "Matmul");
    size_t len;
    char *s = render(a, 80, 24, 1, 1, &len);
    assert_non_null(strstr(s, "alloc b1")); /* the ready queue's name column */
    free(s);
    app_jump(a, 2);
    assert_non_null(strstr(a->why[0], "popped node 1 (Matmul, 0 B)"));
    s = render(a, 80, 24, 1, 1, &len);
    assert_non_null(strstr(s, "free b1"));
    free(s);
    /* find knows the names shown */
    app_key(a, '/');
    type(a, "free b1");
    app_key(a, K_ENTER);
    assert_int_equal(a->st[0].k, 3);
    assert_non_null(strstr(a->msg, "node 2 (free b1) pops at step 3"));
    close_app(&f);
}

static void test_why_line(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    assert_non_null(strstr(a->why[0], "step 0, nothing popped yet"));
    app_jump(a, 1);
    assert_non_null(strstr(a->why[0], "priority: popped node 0 (alloc b1, +1.0 MiB)"));
    assert_non_null(strstr(a->why[0], "the only ready node"));
    /* Somewhere in the demo a FREE wins a tie or the smallest change; and
     * fifo explains with its queue. */
    int smallest = 0, fifo = 0;
    for (uint32_t k = 1; k <= f.g->n; k++) {
        app_jump(a, k);
        smallest |= strstr(a->why[0], "the smallest change of") != NULL;
        fifo |= strstr(a->why[1], "first in the queue of") != NULL;
    }
    assert_true(smallest);
    assert_true(fifo);
    close_app(&f);
}

/* The arena panel: placers cycle, the timeline toggles, buffers are
 * selected by keys and clicks, and their details are right. */
static void test_arena_keys(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 132, 40);
    app_jump(a, 14);
    assert_string_equal(a->placer->name, "first-fit");
    size_t np = 0;
    while (placer_at(np)) np++;
    for (size_t i = 1; i <= np; i++) {
        app_key(a, 'a');
        if (placer_at(i % np)->searches) { /* exact: always in the background */
            assert_non_null(a->placing);
            size_t len;
            char *sc = render(a, 132, 40, 1, 1, &len);
            assert_non_null(strstr(sc, " Placing 20 buffers with exact"));
            free(sc);
            place_out(a);
        }
        assert_string_equal(a->placer->name, placer_at(i % np)->name);
        assert_string_equal(a->pl.placer, a->placer->name);
        char err[256];
        if (place_verify(f.g, &a->st[0].r, &a->pl, err, sizeof err))
            fail_msg("%s: %s", a->placer->name, err);
        assert_non_null(strstr(a->msg, "over the peak"));
    }
    assert_string_equal(a->placer->name, "first-fit");
    /* Selection: focus the arena, Up/Down walk the live buffers by address. */
    while (a->focus != P_TETRIS) app_key(a, K_TAB);
    assert_int_equal(a->sel, GRAPH_NONE);
    app_key(a, K_UP);
    assert_true(a->sel != GRAPH_NONE);
    uint32_t lowest = a->sel;
    assert_true(step_buf_live(&a->st[0], lowest));
    app_key(a, K_UP);
    assert_true(a->pl.offset[a->sel] > a->pl.offset[lowest]);
    app_key(a, K_DOWN);
    assert_int_equal(a->sel, lowest);
    char d[512];
    app_buffer_details(a, lowest, d, sizeof d);
    char want[64];
    snprintf(want, sizeof want, "b%lld: ", (long long)f.g->buf_id[lowest]);
    assert_non_null(strstr(d, want));
    assert_non_null(strstr(d, "allocated at step"));
    assert_non_null(strstr(d, "used by"));
    size_t n;
    char *got = render(a, 132, 40, 1, 0, &n);
    assert_non_null(strstr(got, want)); /* shown in the why line */
    free(got);
    app_key(a, K_ESC);
    assert_int_equal(a->sel, GRAPH_NONE);
    /* A click on a block selects its buffer; the timeline too. */
    rect r = a->lay.r[P_TETRIS];
    int hit = 0;
    for (int y = r.y + 2; y < r.y + r.h - 1 && !hit; y++)
        hit = app_click(a, r.x + 20, y) && a->sel != GRAPH_NONE;
    assert_true(hit);
    app_key(a, 't');
    assert_true(a->timeline);
    got = render(a, 132, 40, 1, 0, &n);
    assert_non_null(strstr(got, "Timeline: first-fit"));
    free(got);
    a->sel = GRAPH_NONE;
    hit = 0;
    for (int y = r.y + 2; y < r.y + r.h - 2 && !hit; y++)
        for (int x = r.x + 13; x < r.x + r.w - 1 && !hit; x++)
            hit = app_click(a, x, y) && a->sel != GRAPH_NONE;
    assert_true(hit);
    app_key(a, 't');
    assert_false(a->timeline);
    close_app(&f);
}

/* What keys, clicks and ticks say changed: the front end draws, lays out
 * again or leaves on these alone. */
static void test_reactions(void **state)
{
    (void)state;
    fixture f;
    app *a = open_sized(&f, "demo.json", 120, 35);
    assert_int_equal(app_key(a, ' '), APP_REDRAW);
    assert_int_equal(app_key(a, K_RESIZE), APP_RELAYOUT | APP_REDRAW);
    assert_int_equal(app_key(a, 'c'), APP_RELAYOUT | APP_REDRAW); /* the panels move */
    assert_true(a->lay.used[P_READY2]); /* laid out already, at the last size */
    assert_int_equal(app_key(a, 'c'), APP_RELAYOUT | APP_REDRAW);
    assert_int_equal(app_key(a, 'x'), 0); /* nothing bound, nothing shown */
    app_key(a, 'P');
    assert_true(a->msg[0] != 0);
    assert_int_equal(app_key(a, 'x'), APP_REDRAW); /* ... but it takes the message away */
    assert_int_equal(app_tick(a), 0);              /* not playing, no replay */
    assert_int_equal(app_click(a, 0, 0), 0);
    app_key(a, 'g');
    assert_int_equal(app_key(a, K_RESIZE), APP_RELAYOUT | APP_REDRAW); /* in the prompt too */
    assert_int_equal(a->prompt, 'g');
    app_key(a, K_ESC);
    app_key(a, '?');
    assert_int_equal(app_key(a, 'q'), APP_QUIT); /* from the help too */
    assert_true(a->quit);
    a->quit = 0;
    assert_int_equal(app_key(a, K_F10), APP_QUIT);
    close_app(&f);
}

/* The timeline's raster kept between frames follows the placement: after
 * another placer or policy, a frame drawn with the cache equals one drawn
 * afresh (the cache is keyed on the app's placement generation). */
static void test_timeline_cache(void **state)
{
    (void)state;
    fixture f;
    app *a = open_sized(&f, "demo.json", 132, 40);
    view_cache vc = {0};
    app_jump(a, 20);
    app_key(a, 't');
    const char *keys = "assaa";
    for (const char *k = keys;; k++) {
        size_t n1, n2;
        char *cached = render_cached(a, &vc, 132, 40, 1, 0, &n1);
        char *fresh = render(a, 132, 40, 1, 0, &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(cached, fresh, n1);
        free(cached);
        free(fresh);
        if (!*k) break;
        uint64_t gen = a->place_gen;
        app_key(a, *k);
        assert_true(a->place_gen != gen);
    }
    view_cache_free(&vc);
    close_app(&f);
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

/* ---------------------------------------------------------------- replay */

/* A replay made by hand from the stepped run: measured = predicted plus a
 * deterministic excess, so the goldens do not depend on the machine. Steps
 * after `upto` were not reached (upto = n: all). */
static void synthetic_replay(app *a, uint32_t upto)
{
    const run *r = &a->st[0].r;
    replay_result res;
    memset(&res, 0, sizeof res);
    snprintf(res.backend, sizeof res.backend, "host");
    snprintf(res.mode, sizeof res.mode, "raw");
    snprintf(res.policy, sizeof res.policy, "%s", a->pol->name);
    snprintf(res.info.device, sizeof res.info.device, "host: Linux 6.1 x86_64");
    res.total = r->n;
    res.n = upto < r->n ? upto : r->n;
    res.s = calloc((size_t)r->n + 1, sizeof *res.s);
    assert_non_null(res.s);
    for (uint32_t i = 0; i < res.n; i++) {
        replay_sample *x = &res.s[i];
        x->step = i;
        x->node = a->g->id[r->order[i]];
        x->predicted = r->memory[i];
        x->measured = r->memory[i] + (int64_t)(256 + 128 * (i % 5)) * 1024;
        x->ms = 0.5;
    }
    replay_summarize(&res);
    app_set_replay(a, &res);
    assert_null(res.s); /* moved into the app */
}

static void setup_overlay(app *a) { synthetic_replay(a, UINT32_MAX); }

static void setup_progress(app *a)
{
    a->rp.running = 1; /* no thread: the fields the view reads */
    a->rp.job_be = replay_backend_find("host");
    a->rp.job_mode = REPLAY_RAW;
    a->rp.done = 27;
    a->rp.total = 61;
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

/* The canvas's clips of a word at w x h (0: whole pieces only). */
static int cuts_at(app *a, int w, int h, int utf8)
{
    canvas cv;
    assert_int_equal(canvas_init(&cv, w, h, utf8), 0);
    a->utf8 = utf8;
    app_resize(a, w, h);
    view_render(&cv, a, NULL);
    int cuts = cv.cuts;
    canvas_free(&cv);
    return cuts;
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
    assert_int_equal(
        app_init(&a, g, "no-alloc.json", policy_find("priority"), policy_find("fifo"), 0, NULL, NULL), 0);
    for (int t = 0; t < 2; t++, a.timeline = 1)
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

static int has(app *a, int w, int h, const char *text)
{
    size_t n;
    char *got = render(a, w, h, 1, 0, &n);
    int found = strstr(got, text) != NULL;
    free(got);
    return found;
}

/* Whether the first line (the status bar) at w x h holds text. */
static int status_has(app *a, int w, int h, const char *text)
{
    size_t n;
    char *got = render(a, w, h, 1, 0, &n);
    char *nl = strchr(got, '\n');
    if (nl) *nl = 0;
    int found = strstr(got, text) != NULL;
    free(got);
    return found;
}

/* What the overlay shows: the measured value at the cursor, the device, the
 * legend; steps not reached; another policy hides it. */
static void test_replay_overlay(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    assert_null(app_overlay(a));
    synthetic_replay(a, 20);
    assert_non_null(app_overlay(a));
    app_jump(a, 3); /* step 3: sample 2, excess 256 + 256 KiB */
    assert_true(has(a, 132, 40, "mem 3.0 MiB  measured 3.5 MiB (+512.0 KiB)"));
    assert_true(has(a, 132, 40, "measured (host) peak"));
    assert_true(has(a, 160, 40, "| host: Linux 6.1 x86_64"));
    /* Narrower: the backend without the device, then the reading without its
     * difference (at 60 columns, the smallest laid out, the reading still
     * fits: the policy goes after it); never a piece cut in the middle. */
    int short_tag = 0, short_reading = 0;
    for (int w = 60; w <= 160; w++) {
        short_tag |=
            status_has(a, w, 40, "(+512.0 KiB)  | host") && !status_has(a, w, 40, "| host: ");
        short_reading |=
            status_has(a, w, 40, "measured 3.5 MiB") && !status_has(a, w, 40, "measured 3.5 MiB (");
        if (status_has(a, w, 40, "measured") && !status_has(a, w, 40, "measured 3.5 MiB"))
            fail_msg("width %d: a cut reading", w);
        if (status_has(a, w, 40, "measured 3.5 MiB (") && !status_has(a, w, 40, "(+512.0 KiB)"))
            fail_msg("width %d: a cut difference", w);
    }
    if (!short_tag || !short_reading)
        fail_msg("never the backend alone (%d) or the reading alone (%d)", short_tag,
                 short_reading);
    app_jump(a, 25); /* past the steps measured */
    assert_true(has(a, 132, 40, "measured n/a"));
    app_jump(a, 0);
    assert_false(has(a, 132, 40, "measured n/a"));
    /* The y scale takes the measured peak. */
    assert_true(a->replay.measured_peak > a->st[0].r.peak);
    char top[32];
    snprintf(top, sizeof top, "%.1f MiB", (double)a->replay.measured_peak / (1024 * 1024));
    assert_true(has(a, 132, 40, top));
    /* Another policy: the overlay hides and the legend says whose it is. */
    app_key(a, 's');
    assert_string_equal(a->pol->name, "dfs");
    assert_null(app_overlay(a));
    assert_true(has(a, 132, 40, "replay: priority only"));
    assert_false(has(a, 132, 40, "measured (host)"));
    while (a->pol != policy_find("priority")) { /* around the table */
        app_key(a, 's');
        if (a->placing) place_out(a);
    }
    assert_non_null(app_overlay(a));
    /* Compare mode keeps it on the main policy's curve. */
    app_key(a, 'c');
    assert_non_null(app_overlay(a));
    assert_true(has(a, 132, 40, "measured (host) peak"));
    /* A replacement frees the old one (the sanitizer build checks). */
    synthetic_replay(a, UINT32_MAX);
    assert_int_equal(a->replay.n, f.g->n);
    close_app(&f);
}

static void nap(void)
{
    struct timespec ts = {0, 2 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

/* Polls the running replay as the UI loop does, until it has finished. */
static void wait_replay(app *a)
{
    for (int i = 0; a->rp.job && i < 30000; i++) {
        app_tick(a);
        if (a->rp.job) nap();
    }
    assert_null(a->rp.job);
}

/* R on the demo with the host backend: a real replay in the background. */
static void test_replay_key(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    assert_int_equal(app_tick_ms(a), -1);
    app_key(a, 'R');
    assert_non_null(a->rp.job);
    assert_true(a->rp.running);
    assert_non_null(strstr(a->msg, "replaying priority on host (raw)"));
    assert_true(app_tick_ms(a) > 0 && app_tick_ms(a) <= APP_POLL_MS);
    assert_true(has(a, 120, 35, "Replay host raw ["));
    assert_true(has(a, 120, 35, "Esc: cancel"));
    app_key(a, 'R'); /* not polled yet: still running */
    assert_non_null(strstr(a->msg, "a replay is already running"));
    app_key(a, ' '); /* the other keys still work */
    assert_int_equal(a->st[0].k, 1);
    wait_replay(a);
    assert_false(a->rp.running);
    assert_int_equal(app_tick_ms(a), -1);
    assert_non_null(strstr(a->msg, "replay on host (raw): measured peak"));
    assert_true(a->have_replay);
    const replay_result *r = app_overlay(a);
    assert_non_null(r);
    assert_int_equal(r->n, f.g->n);
    assert_int_equal(r->total, f.g->n);
    assert_string_equal(r->policy, "priority");
    for (uint32_t i = 0; i < r->n; i++) {
        assert_int_equal(r->s[i].predicted, a->st[0].r.memory[i]);
        assert_int_equal(r->s[i].node, f.g->id[a->st[0].r.order[i]]);
    }
    assert_true(has(a, 120, 35, "measured (host) peak"));
    assert_true(has(a, 120, 35, "measured ")); /* at step 1, next to mem */
    assert_true(
        has(a, 200, 40, "| host: ")); /* the device where it fits (narrower: test_replay_overlay) */
    /* R again replaces the overlay. */
    app_key(a, 'R');
    assert_non_null(a->rp.job);
    assert_true(has(a, 200, 40, "| host: replaying"));
    wait_replay(a);
    assert_true(a->have_replay);
    assert_int_equal(a->replay.n, f.g->n);
    close_app(&f);
}

/* o: compare against exact's order, searched in the background with the
 * command line's limits: the key line shows the search, Esc cancels it, and
 * its end opens compare mode with the gap said; c with exact as the other
 * side searches in the background too. */
static void test_compare_optimum(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 300, 1); /* the greedy is 35% above the optimum */
    app a;
    assert_int_equal(app_init(&a, g, "rw", policy_find("priority"), policy_find("fifo"), 0, NULL, NULL),
                     0);
    app_resize(&a, 120, 35);
    app_jump(&a, 7);
    app_key(&a, 'o');
    assert_non_null(a.placing);
    assert_true(has(&a, 120, 35, " Searching 300 nodes with exact"));
    assert_true(has(&a, 120, 35, "Esc: cancel"));
    app_key(&a, 's'); /* the schedules wait */
    assert_string_equal(a.msg, "'s' waits until placing ends; Esc cancels it");
    app_key(&a, 'c');
    assert_false(a.compare);
    app_key(&a, K_ESC);
    assert_null(a.placing);
    assert_false(a.compare);
    assert_string_equal(a.msg, "policy exact cancelled; the schedules are as they were");
    /* Again, to the end: compare mode, priority against the proven optimum. */
    app_key(&a, 'o');
    place_out(&a);
    assert_true(a.compare);
    assert_string_equal(a.cmp_pol->name, "exact");
    assert_true(a.st[1].r.optimal);
    assert_int_equal(a.st[1].k, 7);
    assert_string_equal(a.msg,
                        "priority vs exact: within 35.6% of optimal; d: where they part, w: why");
    assert_true(has(&a, 80, 24, a.msg)); /* whole at 80 columns */
    assert_true(has(&a, 120, 35, "optimum 26.0 MiB"));
    app_key(&a, 'o'); /* already there: nothing to search */
    assert_null(a.placing);
    app_free(&a);
    /* The search in the thread keeps the limits this thread set. */
    static const solve_ctx few = {.max_states = 50};
    assert_int_equal(app_init(&a, g, "rw", policy_find("priority"), policy_find("exact"), 0, NULL, &few),
                     0);
    app_resize(&a, 120, 35);
    app_key(&a, 'c');
    assert_non_null(a.placing);
    place_out(&a);
    assert_true(a.compare);
    assert_int_equal(a.st[1].r.search.stopped, SOLVE_STATES);
    assert_false(a.st[1].r.optimal);
    assert_true(has(&a, 120, 35, "bound "));
    app_free(&a);
    graph_free(g);
}

/* Esc before the first poll cancels a long replay; nothing is overlaid.
 * (Should the job have finished every step before it saw the request, it
 * says so and its result is whole.) */
static void test_replay_cancel(void **state)
{
    (void)state;
    graph *g = tu_gen_load("chain", 200000, 1);
    app a;
    assert_int_equal(
        app_init(&a, g, "chain", policy_find("priority"), policy_find("fifo"), 0, NULL, NULL), 0);
    app_resize(&a, 120, 35);
    app_key(&a, 'R');
    assert_non_null(a.rp.job);
    /* While the host measures this process, no new schedule or plan. */
    const placer *before = a.placer;
    for (const char *k = "sca"; *k; k++) {
        app_key(&a, *k);
        assert_non_null(strstr(a.msg, "waits until the replay on the host ends"));
    }
    assert_string_equal(a.pol->name, "priority");
    assert_false(a.compare);
    assert_ptr_equal(a.placer, before);
    app_key(&a, K_ESC);
    assert_non_null(strstr(a.msg, "cancelling the replay"));
    assert_true(has(&a, 120, 35, "cancelling..."));
    /* A second Esc is Esc again: it clears the selection, stops play. */
    a.playing = 1;
    app_key(&a, K_ESC);
    assert_false(a.playing);
    wait_replay(&a);
    if (strstr(a.msg, "replay cancelled ")) { /* during the replay, or before it (Esc counts between
                                                 phases) */
        assert_false(a.have_replay);
        assert_null(app_overlay(&a));
        assert_true(strstr(a.msg, "of 200000") || strstr(a.msg, "before its first step"));
    } else {
        assert_non_null(strstr(a.msg, "finished before Esc"));
        assert_true(a.have_replay);
        assert_int_equal(a.replay.n, g->n);
    }
    /* Esc with no replay running is Esc again: stops auto-play. */
    app_key(&a, 'r');
    assert_true(a.playing);
    app_key(&a, K_ESC);
    assert_false(a.playing);
    /* app_free stops a replay still running. */
    app_key(&a, 'R');
    assert_non_null(a.rp.job);
    app_free(&a);
    graph_free(g);
}

/* A backend of the test's own: opens or not, and runs out of memory at its
 * third allocation. */
struct replay_dev {
    int allocs;
    int64_t held, bytes[64];
};
static int fake_opens;
static atomic_int fake_hold; /* nonzero: reads wait (a replay that takes its time) */

static replay_dev *fake_open(int mode, uint32_t nslots, char *err, size_t errcap)
{
    (void)mode;
    if (!fake_opens || nslots > 64) {
        snprintf(err, errcap, "no device here (a test's)");
        return NULL;
    }
    return calloc(1, sizeof(replay_dev));
}
static void fake_info(replay_dev *d, replay_info *out)
{
    (void)d;
    memset(out, 0, sizeof *out);
    snprintf(out->device, sizeof out->device, "Fake GPU");
}
static int fake_alloc(replay_dev *d, uint32_t slot, int64_t bytes, int *oom)
{
    if (++d->allocs >= 3) {
        *oom = 1;
        return -1;
    }
    d->bytes[slot] = bytes;
    d->held += bytes;
    return 0;
}
static int fake_release(replay_dev *d, uint32_t slot)
{
    d->held -= d->bytes[slot];
    d->bytes[slot] = 0;
    return 0;
}
static int fake_touch(replay_dev *d, const replay_region *rg, uint32_t n)
{
    (void)d, (void)rg, (void)n;
    return 0;
}
static int fake_read(replay_dev *d, int64_t *used)
{
    while (atomic_load(&fake_hold)) nap();
    *used = d->held;
    return 0;
}
static const char *fake_error(replay_dev *d)
{
    (void)d;
    return "the test's device is full";
}
static void fake_close(replay_dev *d) { free(d); }
static const replay_backend fake_cuda = {
    .name = "cuda",
    .label = "CUDA",
    .desc = "a test's",
    .modes = (1u << REPLAY_RAW) | (1u << REPLAY_ARENA) | (1u << REPLAY_POOL) | (1u << REPLAY_ASYNC),
    .caps = REPLAY_CAP_NEEDS_DEVICE | REPLAY_CAP_FALLS_BACK,
    .open = fake_open,
    .info = fake_info,
    .alloc = fake_alloc,
    .release = fake_release,
    .touch = fake_touch,
    .read = fake_read,
    .error = fake_error,
    .close = fake_close,
};

/* A backend that cannot open: named (--backend), the replay fails and says
 * why; not named, R falls back to the host once and says so. A step that
 * fails: the message names it, and the steps before it are drawn. */
static void test_replay_backends(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 132, 40);
    fake_opens = 0;
    a->rp.be = &fake_cuda;
    a->rp.be_auto = 0;
    app_key(a, 'R');
    wait_replay(a);
    assert_non_null(strstr(a->msg, "replay failed: cuda backend: no device here"));
    assert_false(a->have_replay);
    a->rp.be_auto = 1;
    app_key(a, 'R');
    wait_replay(a); /* the first poll starts the host replay */
    assert_true(a->have_replay);
    assert_string_equal(a->replay.backend, "host");
    assert_int_equal(a->replay.n, f.g->n);
    assert_non_null(strstr(a->msg, "cuda unavailable"));
    /* Opens, then runs out of memory at its third allocation. */
    fake_opens = 1;
    a->rp.be_auto = 1; /* a failed step is not a failed open: no fallback */
    app_key(a, 'R');
    wait_replay(a);
    assert_non_null(strstr(a->msg, "replay failed: cuda backend, mode raw: step "));
    assert_non_null(strstr(a->msg, "out of memory"));
    assert_true(a->have_replay);
    assert_string_equal(a->replay.backend, "cuda");
    assert_true(a->replay.n > 0 && a->replay.n < f.g->n);
    assert_true(has(a, 132, 40, "| cuda: Fake GPU"));
    app_jump(a, a->replay.n + 1);
    assert_true(has(a, 132, 40, "measured n/a"));
    /* Mode arena replays the arena panel's placer's plan. */
    a->rp.be = replay_backend_find("host");
    a->rp.mode = REPLAY_ARENA;
    app_key(a, 'a');
    app_key(a, 'R');
    wait_replay(a);
    assert_string_equal(a->replay.mode, "arena");
    assert_string_equal(a->replay.placer, a->placer->name);
    assert_true(has(a, 132, 40, "measured (host, arena)"));
    close_app(&f);
}

/* While a replay runs the loop ticks every APP_POLL_MS; auto-play keeps
 * its own pace (1 step/s: one step every 1000 / APP_POLL_MS ticks). */
static void test_replay_autoplay_pace(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    fake_opens = 1;
    atomic_store(&fake_hold, 1);
    a->rp.be = &fake_cuda;
    a->rp.be_auto = 0;
    app_key(a, 'R');
    assert_non_null(a->rp.job);
    a->speed = 0; /* 1 step a second */
    app_key(a, 'r');
    assert_true(a->playing);
    assert_int_equal(app_tick_ms(a), APP_POLL_MS);
    int ticks = 0;
    while (a->st[0].k == 0 && ticks < 1000) {
        app_tick(a);
        ticks++;
    }
    assert_int_equal(ticks, 1000 / APP_POLL_MS);
    assert_int_equal(a->st[0].k, 1);
    assert_non_null(a->rp.job); /* still held up */
    app_key(a, 'r');
    atomic_store(&fake_hold, 0);
    wait_replay(a);
    assert_int_equal(app_tick_ms(a), -1);
    close_app(&f);
}

/* tests/data/fuzz/replay-measured-far-below.json: a saved replay of the
 * seed example whose reading at step 2 is 2^53-1 bytes below zero. The
 * curve draws it on the plot's bottom row (clamped); the dot's row was
 * converted to int out of range, undefined (found by tests/fuzz; clang's
 * UBSan stops there). */
static void test_replay_far_below_zero(void **state)
{
    (void)state;
    replay_result res;
    char err[512];
    if (replay_load_json(MEMTRIS_SOURCE_DIR "/tests/data/fuzz/replay-measured-far-below.json", &res,
                         err, sizeof err))
        fail_msg("%s", err);
    fixture f;
    open_app(&f, "seed-example.json", 0);
    app *a = &f.a;
    assert_int_equal(replay_check_run(&res, f.g, &a->st[0].r, err, sizeof err), 0);
    app_set_replay(a, &res);
    app_jump(a, 3);
    static const int sizes[][2] = {{80, 24}, {132, 40}, {300, 100}};
    for (int utf8 = 0; utf8 < 2; utf8++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            canvas cv;
            assert_int_equal(canvas_init(&cv, sizes[i][0], sizes[i][1], utf8), 0);
            a->utf8 = utf8;
            app_resize(a, cv.w, cv.h);
            view_render(&cv, a, NULL);
            /* the plot: inside the panel's frame, above the x-axis labels */
            rect r = a->lay.r[P_CURVE];
            int low_measured = -1;
            for (int y = r.y + 1; y <= r.y + r.h - 3; y++)
                for (int x = r.x + 1; x < r.x + r.w - 1; x++)
                    if (cv.c[y * cv.w + x].style == ST_MEASURED) low_measured = y;
            canvas_free(&cv);
            if (low_measured != r.y + r.h - 3)
                fail_msg("%dx%d: the measured curve's lowest row is %d, the plot's %d", sizes[i][0],
                         sizes[i][1], low_measured, r.y + r.h - 3);
        }
    close_app(&f);
}

/* tests/data/fuzz/replay-device-c1-control.json: a saved replay whose
 * device name holds C1 controls (U+0082, and U+009B, CSI to a terminal):
 * the status bar shows '?' for each, never the control (found by
 * tests/fuzz). */
static void test_replay_device_controls(void **state)
{
    (void)state;
    replay_result res;
    char err[512];
    if (replay_load_json(MEMTRIS_SOURCE_DIR "/tests/data/fuzz/replay-device-c1-control.json", &res,
                         err, sizeof err))
        fail_msg("%s", err);
    fixture f;
    open_app(&f, "seed-example.json", 0);
    app *a = &f.a;
    app_set_replay(a, &res);
    app_jump(a, 1);
    assert_true(status_has(a, 200, 40, "| host: gpu??[2J?31m\xc3\xa9"));
    canvas cv;
    assert_int_equal(canvas_init(&cv, 200, 40, 1), 0);
    app_resize(a, cv.w, cv.h);
    view_render(&cv, a, NULL);
    for (int i = 0; i < cv.w * cv.h; i++)
        if (cv.c[i].ch < 0x20 || (cv.c[i].ch >= 0x7f && cv.c[i].ch < 0xa0))
            fail_msg("a control U+%04X at (%d, %d)", cv.c[i].ch, i % cv.w, i / cv.w);
    canvas_free(&cv);
    close_app(&f);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--update-golden")) update_golden = 1;
        else cmocka_set_test_filter(argv[i]); /* ctest runs one test at a time */
    }
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
        cmocka_unit_test(test_params_in_background),
        cmocka_unit_test(test_arena_keys),
        cmocka_unit_test(test_layout_all_sizes),
        cmocka_unit_test(test_render_all_sizes),
        cmocka_unit_test(test_too_small_notice),
        cmocka_unit_test(test_keys_stepping),
        cmocka_unit_test(test_keys_prompts),
        cmocka_unit_test(test_keys_find),
        cmocka_unit_test(test_why_better),
        cmocka_unit_test(test_curve_zoom),
        cmocka_unit_test(test_live_list),
        cmocka_unit_test(test_no_cut_words),
        cmocka_unit_test(test_canvas_fit),
        cmocka_unit_test(test_messages_of_a_moment),
        cmocka_unit_test(test_arena_over_the_peak),
        cmocka_unit_test(test_curve_holes),
        cmocka_unit_test(test_keys_modes),
        cmocka_unit_test(test_autoplay),
        cmocka_unit_test(test_click_on_curve),
        cmocka_unit_test(test_reactions),
        cmocka_unit_test(test_timeline_cache),
        cmocka_unit_test(test_why_line),
        cmocka_unit_test(test_unnamed_names),
        cmocka_unit_test(test_teaching_keys),
        cmocka_unit_test(test_peak_of_either),
        cmocka_unit_test(test_export_svg),
        cmocka_unit_test(test_live_of_either),
        cmocka_unit_test(test_help_legend),
        cmocka_unit_test(test_place_background),
        cmocka_unit_test(test_cut_fuzz_finds),
        cmocka_unit_test(test_every_sample_renders),
        cmocka_unit_test(test_golden_replay),
        cmocka_unit_test(test_golden_replay_compare),
        cmocka_unit_test(test_golden_replay_progress),
        cmocka_unit_test(test_replay_overlay),
        cmocka_unit_test(test_replay_key),
        cmocka_unit_test(test_replay_cancel),
        cmocka_unit_test(test_compare_optimum),
        cmocka_unit_test(test_replay_backends),
        cmocka_unit_test(test_replay_autoplay_pace),
        cmocka_unit_test(test_replay_far_below_zero),
        cmocka_unit_test(test_replay_device_controls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
