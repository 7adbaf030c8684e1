/* test_ui_lesson.c: memtris lesson without a terminal: the built-in lessons (compiled in, read
 * from no folder) driven through their stops with Space, n and p as the front end would send
 * them, the state checked at each stop, every other key still working in between, and each
 * stop's narration whole on the screen at 80x24 and 200x60. */
#include "uiutil.h"
#include "cli/cli_lesson.h"
#include "ui/app_keys.h"
#include "ui/app_lesson.h"
#include "ui/keys.h"

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
        cmocka_unit_test(test_every_stop_whole),
        cmocka_unit_test(test_golden_stop),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
