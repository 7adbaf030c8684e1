/* test_ui_start.c: the app's start spread over threads (app_start.c) gives
 * what the same calls give one after the other: the lower bound, the stepped
 * side's order, its checked placement and its timeline, with and without
 * compare mode, on a generated graph and a sample; and the threads' parts
 * alone (app_bounding, app_placing) their calls' answers. */
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
    app_placing_start(&s, g, &r, p, NULL);
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

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_as_one_by_one),
        cmocka_unit_test(test_parts_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
