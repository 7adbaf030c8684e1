/* test_ui_lesson.c: memtris lesson without a terminal: the built-in lessons (compiled in, read
 * from no folder) driven through their stops with Space, n and p as the front end would send
 * them, the state checked at each stop, every other key still working in between, and each
 * stop's narration whole on the screen at 80x24 and 200x60. */
#include "uiutil.h"
#include "cli/cli_lesson.h"
#include "ui/app_keys.h"
#include "ui/app_lesson.h"
#include "ui/keys.h"
#include "sched/budget/budget_arg.h"

extern const char *const memtris_lesson_names[];

typedef struct tour {
    lesson ls;
    graph *g;
    app a;
} tour;

/* The built-in lesson name at its first stop, laid out at 80x24. */
static app *open_tour(tour *t, const char *name)
{
    char source[256];
    t->g = cli_lesson_open(name, &t->ls, source, sizeof source);
    assert_non_null(t->g);
    const lesson_stop *s = &t->ls.stops[0];
    assert_int_equal(
        app_init(&t->a, t->g, t->ls.graph, s->pol, policy_find("fifo"), 0, s->plc, tu_quick()), 0);
    t->a.lesson = &t->ls;
    app_resize(&t->a, 80, 24);
    assert_false(app_lesson_go(&t->a, 0) & APP_QUIT);
    assert_int_equal(t->a.lesson_at, 0);
    return &t->a;
}

static void close_tour(tour *t)
{
    app_free(&t->a);
    graph_free(t->g);
    lesson_free(&t->ls);
}

static void line_on_screen(const char *s, size_t len, void *ctx)
{
    const char *screen = ctx;
    char want[256];
    snprintf(want, sizeof want, "%.*s", (int)len, s);
    if (!strstr(screen, want))
        fail_msg("the narration's line '%s' is not whole on:\n%s", want, screen);
}

/* The stop shown: its number and its narration, each line whole, at w x h. */
static void narration_whole(app *a, int w, int h)
{
    size_t n;
    char *got = render(a, w, h, 1, 0, &n);
    char head[64];
    snprintf(head, sizeof head, "Lesson %zu/%zu", a->lesson_at + 1, a->lesson->nstops);
    if (!strstr(got, head)) fail_msg("'%s' is not on:\n%s", head, got);
    lesson_wrap(a->lesson->stops[a->lesson_at].say, w - 2, line_on_screen, got);
    free(got);
    app_resize(a, 80, 24);
}

static void key(app *a, int k) { app_key(a, k); }

static void test_fifo_vs_priority(void **state)
{
    (void)state;
    tour t;
    app *a = open_tour(&t, "fifo-vs-priority");
    /* 1: both orders at step 0, compared */
    assert_true(a->cmp.shown);
    assert_string_equal(a->pol->name, "priority");
    assert_string_equal(a->cmp.pol->name, "fifo");
    assert_int_equal(a->st[0].k, 0);
    narration_whole(a, 80, 24);
    /* 2: Space: where the orders part, step 5 */
    key(a, ' ');
    assert_int_equal(a->lesson_at, 1);
    assert_int_equal(a->st[0].k, 5);
    narration_whole(a, 80, 24);
    /* the other keys work in between: Right steps, the stop stays */
    key(a, K_RIGHT);
    assert_int_equal(a->st[0].k, 6);
    assert_int_equal(a->lesson_at, 1);
    key(a, 'c'); /* compare off: the user explores */
    assert_false(a->cmp.shown);
    /* 3: n sets the next stop up afresh: compare on, at fifo's peak */
    key(a, 'n');
    assert_int_equal(a->lesson_at, 2);
    assert_true(a->cmp.shown);
    assert_int_equal(a->st[0].k, a->st[1].r.peak_step);
    assert_int_equal(a->st[0].k, 30);
    assert_non_null(strstr(a->msg, "peak of fifo at step 30"));
    narration_whole(a, 80, 24);
    narration_whole(a, 200, 60);
    /* p: back to stop 2's screen */
    key(a, 'p');
    assert_int_equal(a->lesson_at, 1);
    assert_int_equal(a->st[0].k, 5);
    /* 4: priority's peak with the live list */
    key(a, 'n');
    key(a, 'n');
    assert_int_equal(a->lesson_at, 3);
    assert_int_equal(a->st[0].k, a->st[0].r.peak_step);
    assert_int_equal(a->arena, ARENA_LIVE);
    narration_whole(a, 80, 24);
    /* 5: why one order is lower */
    key(a, ' ');
    assert_int_equal(a->lesson_at, 4);
    assert_true(a->better);
    narration_whole(a, 80, 24);
    narration_whole(a, 200, 60);
    /* past the last stop: it stays, and says so */
    key(a, 'n');
    assert_int_equal(a->lesson_at, 4);
    assert_non_null(strstr(a->msg, "the last stop (5 of 5)"));
    for (int i = 0; i < 4; i++) key(a, 'p');
    assert_int_equal(a->lesson_at, 0);
    assert_int_equal(a->st[0].k, 0);
    key(a, 'p');
    assert_non_null(strstr(a->msg, "the first stop"));
    /* a find's n is the find's; the help closes on any key */
    key(a, '?');
    assert_int_equal(app_key_mode(a), APP_MODE_HELP);
    key(a, 'n');
    assert_int_equal(a->help, 0);
    assert_int_equal(a->lesson_at, 0);
    assert_true(app_key(a, 'q') & APP_QUIT);
    close_tour(&t);
}

static void test_greedy_loses(void **state)
{
    (void)state;
    tour t;
    app *a = open_tour(&t, "greedy-loses");
    assert_true(a->cmp.shown);
    assert_string_equal(a->cmp.pol->name, "exact");
    assert_int_equal(a->st[0].r.peak, 11 << 20);
    assert_int_equal(a->st[1].r.peak, 10 << 20);
    key(a, 'n');
    assert_int_equal(a->st[0].k, 1);
    key(a, 'n');
    assert_int_equal(a->st[0].k, 3); /* priority's peak */
    key(a, 'n');
    assert_int_equal(a->st[0].k, 1); /* exact's */
    narration_whole(a, 80, 24);
    close_tour(&t);
}

static void test_holes(void **state)
{
    (void)state;
    tour t;
    app *a = open_tour(&t, "holes");
    assert_false(a->cmp.shown);
    assert_string_equal(a->placer->name, "first-fit");
    assert_int_equal(a->st[0].k, a->st[0].r.peak_step);
    assert_true(a->pl.arena > a->st[0].r.peak); /* first-fit's holes */
    key(a, 'n');
    assert_true(a->holes);
    key(a, 'n');
    assert_int_equal(a->arena, ARENA_TIMELINE);
    assert_false(a->holes); /* afresh: the last stop's H is gone */
    key(a, 'n');
    assert_string_equal(a->placer->name, "best");
    assert_int_equal(a->pl.arena, a->st[0].r.peak);
    narration_whole(a, 80, 24);
    key(a, 'p');
    assert_string_equal(a->placer->name, "first-fit");
    close_tour(&t);
}

/* Bytes as the narration writes them ("44.6 MiB"), checked against a figure of the stop. */
static void mib(int64_t v, const char *want)
{
    char b[32];
    assert_string_equal(units_bytes(b, sizeof b, v, 0), want);
}

/* The bytes of Category cat live at the stepped policy's cursor; *n: how many buffers. */
static int64_t live_of(const app *a, int cat, int *n)
{
    int64_t sum = 0;
    *n = 0;
    for (uint32_t b = 0; b < a->g->nbufs; b++)
        if (graph_buf_category(a->g, b) == cat && step_buf_live(&a->st[0], b)) {
            sum += a->g->buf_size[b];
            ++*n;
        }
    return sum;
}

/* The status bar at 80x24 holds text. */
static void status_says(app *a, const char *text)
{
    size_t n;
    char *got = render(a, 80, 24, 1, 0, &n);
    char *nl = strchr(got, '\n');
    if (nl) *nl = 0;
    if (!strstr(got, text)) fail_msg("'%s' is not in the status bar '%s'", text, got);
    free(got);
    app_resize(a, 80, 24);
}

/* training-step: every figure its narration gives is the stop's. */
static void test_training_step(void **state)
{
    (void)state;
    tour t;
    app *a = open_tour(&t, "training-step");
    const graph *g = a->g;
    int n, all = 0;
    int64_t weights = 0, grads = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        all += graph_buf_category(g, b) == GRAPH_CAT_WEIGHT;
        if (graph_buf_category(g, b) == GRAPH_CAT_WEIGHT) weights += g->buf_size[b];
        if (graph_buf_category(g, b) == GRAPH_CAT_GRADIENT) grads += g->buf_size[b];
    }
    /* 1: the weights, every one live, nothing else */
    assert_string_equal(a->pol->name, "given");
    assert_int_equal(a->st[0].k, 122);
    assert_true(a->stacked);
    assert_int_equal(live_of(a, GRAPH_CAT_WEIGHT, &n), weights);
    assert_int_equal(n, 122);
    assert_int_equal(all, 122);
    assert_int_equal(step_memory(&a->st[0]), weights);
    mib(weights, "44.6 MiB");
    status_says(a, "mem 44.6 MiB");
    /* 2: the forward's last step */
    key(a, ' ');
    assert_int_equal(a->st[0].k, 432);
    assert_int_equal(graph_phase(g, a->st[0].r.order[432]), GRAPH_PHASE_BACKWARD); /* next pop */
    status_says(a, "step 432/1139  forward  mem 58.5 MiB");
    mib(live_of(a, GRAPH_CAT_ACTIVATION, &n), "13.5 MiB");
    mib(live_of(a, GRAPH_CAT_INPUT, &n), "384.0 KiB");
    assert_int_equal(live_of(a, GRAPH_CAT_WEIGHT, &n), weights);
    /* 3: the peak, in the backward, at a convolution backward's workspace */
    key(a, ' ');
    assert_int_equal(a->st[0].k, a->st[0].r.peak_step);
    assert_int_equal(a->st[0].k, 535);
    status_says(a, "step 535/1139  backward  mem 123.8 MiB");
    uint32_t u = step_last(&a->st[0]);
    assert_int_equal(graph_category(g, u), GRAPH_CAT_WORKSPACE);
    assert_non_null(strstr(graph_name(g, u), "convolution_backward"));
    mib(g->buf_size[g->buf[u]], "36.1 MiB");
    mib(live_of(a, GRAPH_CAT_GRADIENT, &n), "29.5 MiB");
    /* 4: the measured line, within 4 bytes of the prediction */
    key(a, ' ');
    assert_int_equal(a->st[0].k, 535);
    assert_int_equal(g->measured_peak - a->st[0].r.peak, 4);
    mib(g->measured_peak, "123.8 MiB");
    /* 5: the backward done, every gradient live, the optimizer next */
    key(a, ' ');
    assert_int_equal(a->st[0].k, 891);
    assert_int_equal(live_of(a, GRAPH_CAT_GRADIENT, &n), grads);
    mib(grads, "44.6 MiB");
    status_says(a, "mem 89.2 MiB");
    uint32_t first_opt = GRAPH_NONE;
    for (uint32_t k = 0; k < a->st[0].r.n && first_opt == GRAPH_NONE; k++)
        if (graph_phase(g, a->st[0].r.order[k]) == GRAPH_PHASE_OPTIMIZER) first_opt = k;
    assert_int_equal(first_opt, 891); /* the 892nd pop: the first update */
    /* 6: priority against the framework's order, at priority's peak */
    key(a, ' ');
    assert_string_equal(a->pol->name, "priority");
    assert_true(a->cmp.shown);
    assert_string_equal(a->cmp.pol->name, "given");
    assert_int_equal(a->st[0].k, a->st[0].r.peak_step);
    assert_int_equal(a->st[0].k, 498);
    mib(a->st[0].r.peak, "103.6 MiB");
    mib(live_of(a, GRAPH_CAT_GRADIENT, &n), "9.0 MiB");
    mib(a->st[1].r.peak - a->st[0].r.peak, "20.2 MiB");
    for (uint32_t k = 0; k < a->st[0].k; k++) /* updates run inside the backward */
        if (graph_phase(g, a->st[0].r.order[k]) == GRAPH_PHASE_OPTIMIZER) first_opt = k;
    assert_true(first_opt < a->st[0].k);
    narration_whole(a, 80, 24);
    close_tour(&t);
}

/* budget: every figure its narration gives is the stop's, as the status bar and the why line
 * show them. */
static void test_budget(void **state)
{
    (void)state;
    tour t;
    app *a = open_tour(&t, "budget");
    char b[32];
    /* 1: 90% of the framework's order's peak: greedy's plan */
    assert_true(a->bud.on && !a->bud.as_is);
    assert_true(a->bud.pct_micro == 90 * BUDGET_PCT_ONE);
    mib(a->bud.free_peak, "123.8 MiB");
    mib(a->bud.budget, "111.4 MiB");
    mib(a->bud.st.peak, "111.3 MiB");
    assert_int_equal(a->bud.st.reruns, 12);
    assert_string_equal(units_ms(b, sizeof b, a->bud.st.extra_ms), "9.57 ms");
    assert_non_null(
        strstr(a->msg, "budget 111.4 MiB (90% of 123.8 MiB): peak 111.3 MiB, 12 reruns, +9.57 ms"));
    status_says(a, "budget 111.4 MiB");
    /* 2 and 3: mm_1's output (the last layer's weight gradient) freed at step 510, made again
     * by mm_1 at step 1171, just before the update that reads it; kept, 113.3 MiB */
    key(a, ' ');
    assert_int_equal(a->st[0].k, 510);
    key(a, ' ');
    assert_int_equal(a->st[0].k, 1171);
    uint32_t v = step_last(&a->st[0]);
    assert_true(app_budget_is_rerun(&a->bud, v));
    app_budget_why w = app_budget_why_of(&a->bud, &a->st[0].r, v);
    const graph *g = a->bud.g;
    assert_string_equal(graph_name(g, g->buf_alloc[w.buf]), "mm_1.out");
    assert_int_equal(graph_buf_category(g, w.buf), GRAPH_CAT_GRADIENT);
    mib(g->buf_size[w.buf], "2.0 MiB");
    assert_int_equal(w.freed_step, 510);
    assert_int_equal(w.rerun_step, 1171);
    mib(w.would_peak, "113.3 MiB");
    assert_non_null(strstr(a->msg, "113.3 MiB"));
    assert_non_null(strstr(a->msg, "111.4 MiB"));
    uint32_t next = GRAPH_NONE; /* the next compute node: the update reading it */
    for (uint32_t k = a->st[0].k; k < a->st[0].r.n && next == GRAPH_NONE; k++)
        if (a->g->kind[a->st[0].r.order[k]] == NODE_COMPUTE) next = a->st[0].r.order[k];
    assert_string_equal(graph_name(a->g, next), "add__88");
    uint32_t upd = GRAPH_NONE;
    for (uint32_t i = 0; i < g->n; i++)
        if (!strcmp(graph_name(g, i), "add__88")) upd = i;
    assert_int_equal(graph_phase(g, upd), GRAPH_PHASE_OPTIMIZER);
    /* 4: priority's order fits 111.4 MiB as it is */
    key(a, ' ');
    assert_true(a->bud.on && a->bud.as_is);
    assert_ptr_equal(a->bud.order, policy_find("priority"));
    assert_int_equal(a->bud.st.reruns, 0);
    mib(a->bud.budget, "111.4 MiB");
    mib(a->bud.order_peak, "101.6 MiB");
    assert_non_null(strstr(a->msg, "priority's order already fits in 90% (111.4 MiB)"));
    /* 5: 82%: 20 reruns, 21.7 ms (the sweep's figures: test_lesson_tmux.sh) */
    key(a, ' ');
    assert_true(a->bud.pct_micro == 82 * BUDGET_PCT_ONE);
    assert_int_equal(a->bud.st.reruns, 20);
    assert_string_equal(units_ms(b, sizeof b, a->bud.st.extra_ms), "21.7 ms");
    narration_whole(a, 80, 24);
    close_tour(&t);
}

/* Every stop of every built-in lesson: its narration whole at 80x24 and
 * 200x60, in UTF-8 and ASCII. */
static void test_every_stop_whole(void **state)
{
    (void)state;
    for (int i = 0; memtris_lesson_names[i]; i++) {
        tour t;
        app *a = open_tour(&t, memtris_lesson_names[i]);
        for (size_t s = 0; s < t.ls.nstops; s++) {
            if (s) key(a, ' ');
            assert_int_equal(a->lesson_at, s);
            narration_whole(a, 80, 24);
            narration_whole(a, 200, 60);
            size_t n;
            char *got = render(a, 80, 24, 0, 1, &n);
            assert_non_null(strstr(got, "Space/n next  p back"));
            free(got);
        }
        close_tour(&t);
    }
}

/* Golden screens of a lesson's stop at 80x24 and 200x60 (with styles:
 * the narration's rule, its keys and its text). Regenerate on purpose with
 * build/tests/test_ui_lesson --update-golden. */
static void test_golden_stop(void **state)
{
    (void)state;
    tour t;
    app *a = open_tour(&t, "fifo-vs-priority");
    key(a, 'n');
    key(a, 'n');
    static const int sizes[2][2] = {{80, 24}, {200, 60}};
    for (int i = 0; i < 2; i++) {
        size_t len;
        char *got = render(a, sizes[i][0], sizes[i][1], 1, 0, &len);
        char name[128];
        snprintf(name, sizeof name, "lesson-fifo-vs-priority-stop3-%dx%d-utf8-color", sizes[i][0],
                 sizes[i][1]);
        check_golden(name, got, len);
        free(got);
    }
    close_tour(&t);
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifo_vs_priority),
        cmocka_unit_test(test_greedy_loses),
        cmocka_unit_test(test_holes),
        cmocka_unit_test(test_training_step),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_every_stop_whole),
        cmocka_unit_test(test_golden_stop),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
