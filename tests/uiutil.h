/* uiutil.h: what the TUI's tests (test_ui_*.c) share: an app on a sample, screens rendered and
 * compared with tests/golden (--update-golden rewrites them), the cut-word checks, and helpers
 * that press keys and tick the app until its jobs end. */
#ifndef MEMTRIS_UIUTIL_H
#define MEMTRIS_UIUTIL_H
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

/* The helpers: static, and quiet in a file that does not use them all. */
#define UIU_HELPER static __attribute__((unused))

static int update_golden;

/* The tests' arguments: --update-golden, or the one test to run (ctest
 * runs one at a time). */
UIU_HELPER void uiu_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--update-golden")) update_golden = 1;
        else cmocka_set_test_filter(argv[i]);
    }
}

typedef struct fixture {
    graph *g;
    app a;
} fixture;

UIU_HELPER void open_app(fixture *f, const char *sample, int compare)
{
    f->g = tu_load_sample(sample, NULL);
    assert_int_equal(app_init(&f->a, f->g, sample, policy_find("priority"), policy_find("fifo"),
                              compare, NULL, NULL),
                     0);
}

UIU_HELPER void close_app(fixture *f)
{
    app_free(&f->a);
    graph_free(f->g);
}

/* open_app, then laid out for a w x h terminal; returns the app. */
UIU_HELPER app *open_sized(fixture *f, const char *sample, int w, int h)
{
    open_app(f, sample, 0);
    app_resize(&f->a, w, h);
    return &f->a;
}

/* The screen's dump at w x h, drawn with the views' cache vc (NULL: none).
 * Not inlined: gcc 12 at -O2 takes open_memstream's result for a pointer
 * to the local that receives it (a false -Wdangling-pointer). */
UIU_HELPER __attribute__((noinline)) char *render_cached(app *a, view_cache *vc, int w, int h,
                                                         int utf8, int mono, size_t *len)
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

UIU_HELPER char *render(app *a, int w, int h, int utf8, int mono, size_t *len)
{
    return render_cached(a, NULL, w, h, utf8, mono, len);
}

UIU_HELPER __attribute__((noinline)) char *slurp(const char *path, size_t *len)
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
UIU_HELPER void check_golden(const char *name, const char *got, size_t len)
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
        fail_msg("missing golden %s (run test_ui_golden --update-golden on purpose to create it)",
                 path);
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
UIU_HELPER void golden_case_with(const char *sample, int compare, uint32_t step, const char *tag,
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

UIU_HELPER void golden_case(const char *sample, int compare, uint32_t step, const char *tag,
                            const char *keys)
{
    golden_case_with(sample, compare, step, tag, keys, NULL);
}

/* Draws a at w x h and fails naming what when a word or number is cut. */
UIU_HELPER void expect_no_cuts(app *a, int w, int h, int utf8, const char *what)
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

UIU_HELPER void type(app *a, const char *s)
{
    for (; *s; s++) app_key(a, *s);
}

/* H shades the plan's holes on the curve (the arena held above the live
 * bytes), says so in the title when it fits, and H again hides them. */
UIU_HELPER size_t count_of(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what)) n++;
    return n;
}

/* Ticks the play until it stops (as the front end would); returns the
 * ticks it took. */
UIU_HELPER int play_out(app *a)
{
    int ticks = 0;
    while (a->play.playing && ticks < 100000) {
        app_tick(a);
        ticks++;
    }
    assert_false(a->play.playing);
    return ticks;
}

/* Ticks until the background placement ends (the front end's poll). */
UIU_HELPER void place_out(app *a)
{
    for (int i = 0; a->place.job && i < 200000; i++) {
        app_tick(a);
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    assert_null(a->place.job);
}

/* ---------------------------------------------------------------- replay */

/* A replay made by hand from the stepped run: measured = predicted plus a
 * deterministic excess, so the goldens do not depend on the machine. Steps
 * after `upto` were not reached (upto = n: all). */
UIU_HELPER void synthetic_replay(app *a, uint32_t upto)
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

UIU_HELPER void setup_overlay(app *a) { synthetic_replay(a, UINT32_MAX); }

UIU_HELPER void setup_progress(app *a)
{
    a->rp.running = 1; /* no thread: the fields the view reads */
    a->rp.job_be = replay_backend_find("host");
    a->rp.job_mode = REPLAY_RAW;
    a->rp.done = 27;
    a->rp.total = 61;
}

/* The canvas's clips of a word at w x h (0: whole pieces only). */
UIU_HELPER int cuts_at(app *a, int w, int h, int utf8)
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

UIU_HELPER int has(app *a, int w, int h, const char *text)
{
    size_t n;
    char *got = render(a, w, h, 1, 0, &n);
    int found = strstr(got, text) != NULL;
    free(got);
    return found;
}

/* Whether the first line (the status bar) at w x h holds text. */
UIU_HELPER int status_has(app *a, int w, int h, const char *text)
{
    size_t n;
    char *got = render(a, w, h, 1, 0, &n);
    char *nl = strchr(got, '\n');
    if (nl) *nl = 0;
    int found = strstr(got, text) != NULL;
    free(got);
    return found;
}

/* e's export of a at step k into path, read back (the caller frees it). */
UIU_HELPER char *export_at(app *a, uint32_t k, const char *path)
{
    app_jump(a, k);
    unlink(path);
    assert_int_equal(app_export_svg(a, path), 0);
    size_t len;
    char *svg = slurp(path, &len);
    assert_non_null(svg);
    return svg;
}

/* An SVG's label boxes (data-box: x0 y0 x1 y1) into b (room for cap), pairwise apart (k: the
 * step, for the message). Returns how many. */
UIU_HELPER int svg_label_boxes(const char *svg, double (*b)[4], int cap, uint32_t k)
{
    int n = 0;
    for (const char *p = strstr(svg, "data-box=\""); p; p = strstr(p + 1, "data-box=\"")) {
        assert_true(n < cap);
        assert_int_equal(sscanf(p + 10, "%lf %lf %lf %lf", &b[n][0], &b[n][1], &b[n][2], &b[n][3]),
                         4);
        for (int j = 0; j < n; j++)
            if (!(b[n][2] <= b[j][0] || b[n][0] >= b[j][2] || b[n][3] <= b[j][1] ||
                  b[n][1] >= b[j][3]))
                fail_msg("step %u: label %d over label %d", k, n, j);
        n++;
    }
    return n;
}

UIU_HELPER void nap(void)
{
    struct timespec ts = {0, 2 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

/* Polls the running replay as the UI loop does, until it has finished. */
UIU_HELPER void wait_replay(app *a)
{
    for (int i = 0; a->rp.job && i < 30000; i++) {
        app_tick(a);
        if (a->rp.job) nap();
    }
    assert_null(a->rp.job);
}

#endif
