/* test_ui_replay.c: the TUI without a terminal: the replay (R) in the TUI: the overlay and the
 * status bar, real host replays in the background, cancelled, failed and fallen back, auto-play's
 * pace while one runs, and saved replays the fuzzer found. */
#define _GNU_SOURCE
#include "uiutil.h"

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
    assert_true(has(a, 180, 40, "| host: Linux 6.1 x86_64"));
    /* Narrower: the backend without the device, then the reading without its
     * difference (at 60 columns, the smallest laid out, the reading still
     * fits: the policy goes after it); never a piece cut in the middle. */
    int short_tag = 0, short_reading = 0;
    for (int w = 60; w <= 180; w++) {
        short_tag |= status_has(a, w, 40, "(+512.0 KiB)") && status_has(a, w, 40, "  | host") &&
                     !status_has(a, w, 40, "| host: ");
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
        if (a->place.job) place_out(a);
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
    assert_false(a.cmp.shown);
    assert_ptr_equal(a.placer, before);
    app_key(&a, K_ESC);
    assert_non_null(strstr(a.msg, "cancelling the replay"));
    assert_true(has(&a, 120, 35, "cancelling..."));
    /* A second Esc is Esc again: it clears the selection, stops play. */
    a.play.playing = 1;
    app_key(&a, K_ESC);
    assert_false(a.play.playing);
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
    assert_true(a.play.playing);
    app_key(&a, K_ESC);
    assert_false(a.play.playing);
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
    a->play.speed = 0; /* 1 step a second */
    app_key(a, 'r');
    assert_true(a->play.playing);
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
    uiu_args(argc, argv);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_overlay),
        cmocka_unit_test(test_replay_key),
        cmocka_unit_test(test_replay_cancel),
        cmocka_unit_test(test_replay_backends),
        cmocka_unit_test(test_replay_autoplay_pace),
        cmocka_unit_test(test_replay_far_below_zero),
        cmocka_unit_test(test_replay_device_controls),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
