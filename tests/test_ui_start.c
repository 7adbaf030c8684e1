/* test_ui_start.c: the app's start spread over threads (app_start.c) gives
 * what the same calls give one after the other: the lower bound, the stepped
 * side's order, its checked placement and its timeline, with and without
 * compare mode, on a generated graph and a sample; and the threads' parts
 * alone (app_bounding, app_placing) their calls' answers; the plan's check
 * deferred past app_init (app_start_defer_check): the same plan once it
 * passed, and an invalid plan (injected by the test hook) stops the app at
 * its next key or tick with place_run_checked's message. */
#define _GNU_SOURCE
#include "uiutil.h"
#include "sched/time/timeline.h"
#include "ui/app_start.h"

/* a (made by app_init on g) against the calls made here one by one. */
static void same_as_one_by_one(const app *a, const graph *g, const policy *pol)
{
    assert_int_equal(a->bound, policy_lower_bound(g));
    run r;
    char err[256];
    assert_int_equal(policy_run(g, pol, NULL, &r, err, sizeof err), 0);
    assert_int_equal(a->st[0].r.n, r.n);
    assert_memory_equal(a->st[0].r.order, r.order, (size_t)r.n * sizeof *r.order);
    placement pl;
    assert_int_equal(place_run_checked(g, &r, placer_find("first-fit"), PLACE_ALIGN_DEFAULT, NULL,
                                       &pl, err, sizeof err),
                     PLACE_OK);
    assert_int_equal(a->pl.arena, pl.arena);
    assert_int_equal(a->pl.bound, pl.bound);
    assert_memory_equal(a->pl.offset, pl.offset, (size_t)g->nbufs * sizeof *pl.offset);
    timeline tl;
    assert_int_equal(timeline_run(g, &r, &tl, err, sizeof err), 0);
    assert_true(a->tl.makespan == tl.makespan);
    assert_int_equal(a->tl.n, tl.n);
    timeline_free(&tl);
    place_free(&pl);
    policy_run_free(&r);
}

static void test_start_as_one_by_one(void **state)
{
    (void)state;
    diag d;
    graph *gs[2] = {tu_gen_load("randwire", 3000, 1), tu_load_sample("resnet18_train.json", &d)};
    diag_free(&d);
    const policy *pol = policy_find("priority"), *cmp = policy_find("fifo");
    for (int i = 0; i < 2; i++)
        for (int compare = 0; compare <= 1; compare++) {
            app a;
            assert_int_equal(app_init(&a, gs[i], "t", pol, cmp, compare, NULL, NULL), 0);
            same_as_one_by_one(&a, gs[i], pol);
            assert_int_equal(a.cmp.have, compare);
            app_free(&a);
        }
    for (int i = 0; i < 2; i++) graph_free(gs[i]);
}

static void test_parts_alone(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 2000, 2);
    app_bounding b;
    app_bounding_start(&b, g);
    assert_int_equal(app_bounding_wait(&b), policy_lower_bound(g));
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &r, err, sizeof err), 0);
    const placer *p = placer_find("best-fit");
    app_placing s;
    app_placing_start(&s, g, &r, p, NULL, 1);
    placement got, want;
    assert_int_equal(app_placing_wait(&s, &got, err, sizeof err), 0);
    assert_int_equal(place_run_checked(g, &r, p, PLACE_ALIGN_DEFAULT, NULL, &want, err, sizeof err),
                     PLACE_OK);
    assert_int_equal(got.arena, want.arena);
    assert_memory_equal(got.offset, want.offset, (size_t)g->nbufs * sizeof *got.offset);
    place_free(&got);
    place_free(&want);
    policy_run_free(&r);
    graph_free(g);
}

static void test_deferred_check_passes(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 3000, 4);
    const policy *pol = policy_find("priority");
    for (int compare = 0; compare <= 1; compare++) {
        app a;
        app_start_defer_check();
        assert_int_equal(app_init(&a, g, "t", pol, policy_find("fifo"), compare, NULL, NULL), 0);
        assert_int_equal(app_start_take_defer(), 0); /* app_init took the request */
        assert_true(a.check.started);
        assert_int_equal(app_check_wait(&a), 0);
        same_as_one_by_one(&a, g, pol);
        assert_int_equal(app_key(&a, K_RESIZE) & APP_QUIT, 0);
        assert_int_equal(app_tick(&a) & APP_QUIT, 0);
        app_free(&a);
    }
    app a; /* a check still running when the app goes: app_free waits for it */
    app_start_defer_check();
    assert_int_equal(app_init(&a, g, "t", pol, NULL, 0, NULL, NULL), 0);
    app_free(&a);
    assert_int_equal(app_init(&a, g, "t", pol, NULL, 0, NULL, NULL), 0);
    assert_false(a.check.started); /* not asked for: checked before app_init returns */
    app_free(&a);
    graph_free(g);
}

static uint32_t hook_nbufs; /* the graph's buffers, for the hook */
static void all_at_zero(placement *pl)
{
    memset(pl->offset, 0, (size_t)hook_nbufs * sizeof *pl->offset);
}

static void test_deferred_check_fails(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 3000, 5);
    const policy *pol = policy_find("priority");
    for (int by_key = 0; by_key <= 1; by_key++) {
        app a;
        app_start_defer_check();
        hook_nbufs = g->nbufs;
        app_start_check_hook = all_at_zero;
        assert_int_equal(app_init(&a, g, "t", pol, NULL, 0, NULL, NULL), 0);
        app_start_check_hook = NULL;
        app_reaction r = by_key ? app_key(&a, K_RESIZE) : app_tick(&a);
        assert_true(r & APP_QUIT);
        assert_non_null(strstr(a.err, "internal error: placer first-fit made an invalid plan"));
        assert_int_equal(app_check_wait(&a), -1); /* asked again: the same answer */
        app_free(&a);
    }
    graph_free(g);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_as_one_by_one),
        cmocka_unit_test(test_parts_alone),
        cmocka_unit_test(test_deferred_check_passes),
        cmocka_unit_test(test_deferred_check_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
