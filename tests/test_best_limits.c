/* test_best_limits.c: best's members that make their whole order at once
 * (dfs, postorder, lpmf) under a deadline or a cancel: each reads the clock
 * and the watcher every 4096 units of its work and stops within a bounded
 * number of readings, with no order (policy_run_until returns 1); best then
 * keeps the best whole order it has, and best alone keeps --time-limit.
 * Injected clocks (a second a reading) and watchers: no wall time. */
#include "testutil.h"
#include "sched/graph/solve_watch.h"

static const char *const plans[] = {"dfs", "postorder", "lpmf"};

/* A clock of a second a reading, which sets cancel_watch's flag at reading
 * cancel_at (0: never). */
static uint32_t reads, cancel_at;
static solve_watch *cancel_watch;
static double tick_clock(void)
{
    ++reads;
    if (cancel_watch && cancel_at && reads >= cancel_at) atomic_store(&cancel_watch->cancel, 1);
    return (double)reads;
}

static void check_valid(const graph *g, const run *r, const char *name)
{
    uint8_t *seen = calloc(g->n + 1, 1);
    assert_non_null(seen);
    int64_t mem = 0, peak = 0;
    for (uint32_t s = 0; s < g->n; s++) {
        uint32_t u = r->order[s];
        if (u >= g->n || seen[u]) fail_msg("%s: step %u repeats or invents a node", name, s + 1);
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++)
            if (!seen[g->pred[e]]) fail_msg("%s: node %u runs before a predecessor", name, u);
        seen[u] = 1;
        mem += g->change[u];
        if (r->memory[s] != mem) fail_msg("%s: memory after step %u is wrong", name, s + 1);
        if (mem > peak) peak = mem;
    }
    if (r->peak != peak) fail_msg("%s: reports a peak it does not reach", name);
    free(seen);
}

/* Past a deadline (the third reading, at unit 8192 of its work) each plan
 * stops: no order, 1; without a deadline nothing reads the clock, and with
 * one never met the order is the plan's own. */
static void plans_stop_at_the_deadline(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 20000, 3);
    char err[256];
    for (int i = 0; i < 3; i++) {
        const policy *p = policy_find(plans[i]);
        solve_ctx c = {.clock = tick_clock};
        run own, r;
        reads = 0;
        assert_int_equal(policy_run(g, p, &c, &own, err, sizeof err), 0);
        assert_int_equal(reads, 0);
        check_valid(g, &own, plans[i]);
        assert_int_equal(policy_run_until(g, p, &c, 2.5, &r, err, sizeof err), 1);
        if (reads != 3) fail_msg("%s: %u readings to stop, not 3", plans[i], reads);
        assert_null(r.order);
        reads = 0;
        assert_int_equal(policy_run_until(g, p, &c, 1e9, &r, err, sizeof err), 0);
        assert_true(reads >= 3); /* it read the clock as it went */
        assert_int_equal(policy_diverge(&own, &r), g->n);
        policy_run_free(&r);
        policy_run_free(&own);
    }
    graph_free(g);
}

/* A cancel (set at the second reading) stops each plan at its next look;
 * policy_run, which has no deadline, makes its whole order still. */
static void plans_stop_at_a_cancel(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 20000, 3);
    char err[256];
    solve_watch w;
    for (int i = 0; i < 3; i++) {
        const policy *p = policy_find(plans[i]);
        memset(&w, 0, sizeof w);
        solve_ctx c = {.clock = tick_clock, .watch = &w};
        run r;
        reads = 0;
        cancel_at = 2;
        cancel_watch = &w;
        assert_int_equal(policy_run_until(g, p, &c, 1e9, &r, err, sizeof err), 1);
        cancel_watch = NULL;
        if (reads != 2) fail_msg("%s: %u readings to stop, not 2", plans[i], reads);
        assert_int_equal(policy_run(g, p, &c, &r, err, sizeof err), 0);
        check_valid(g, &r, plans[i]);
        policy_run_free(&r);
    }
    graph_free(g);
}

/* best cancelled at every reading of its clock in turn: a whole valid order,
 * at most fifo's peak, within a few readings of the cancel, SOLVE_CANCELLED
 * unless the cancel came with its last reading; an order found by a plan is
 * that plan's own whole order (one cut short is dropped). */
static void best_cancelled_keeps_a_whole_order(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 20000, 5);
    char err[256];
    run fifo, own[3], whole;
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &fifo, err, sizeof err), 0);
    assert_int_equal(policy_run(g, policy_find("best"), NULL, &whole, err, sizeof err), 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(policy_run(g, policy_find(plans[i]), NULL, &own[i], err, sizeof err), 0);
    solve_watch w;
    for (uint32_t k = 1; k <= 400; k++) {
        memset(&w, 0, sizeof w);
        solve_ctx c = {.clock = tick_clock, .watch = &w};
        run r;
        reads = 0;
        cancel_at = k;
        cancel_watch = &w;
        assert_int_equal(policy_run(g, policy_find("best"), &c, &r, err, sizeof err), 0);
        cancel_watch = NULL;
        check_valid(g, &r, "best cancelled");
        assert_true(r.peak <= fifo.peak);
        if (reads >= k && reads > k + 3) fail_msg("cancel at %u: %u readings", k, reads);
        if (reads < k) { /* it ended before the cancel: every reading tried */
            policy_run_free(&r);
            break;
        }
        if (r.search.stopped != SOLVE_CANCELLED) { /* the cancel came with its last reading */
            assert_ptr_equal(r.found_by, whole.found_by);
            assert_int_equal(policy_diverge(&whole, &r), g->n);
        }
        for (int i = 0; i < 3; i++) {
            if (r.found_by != policy_find(plans[i])) continue;
            assert_int_equal(policy_diverge(&own[i], &r), g->n);
            assert_int_equal(r.peak, own[i].peak);
        }
        policy_run_free(&r);
    }
    for (int i = 0; i < 3; i++) policy_run_free(&own[i]);
    policy_run_free(&whole);
    policy_run_free(&fifo);
    graph_free(g);
}

/* best alone keeps --time-limit (the context's seconds): at every limit in
 * readings it ends within a few readings of it, with a whole valid order at
 * most fifo's peak; stopped early it says SOLVE_TIME. */
static void best_keeps_the_time_limit(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 20000, 5);
    char err[256];
    run fifo, whole;
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &fifo, err, sizeof err), 0);
    assert_int_equal(policy_run(g, policy_find("best"), NULL, &whole, err, sizeof err), 0);
    for (uint32_t s = 1; s <= 60; s++) {
        solve_ctx c = {.seconds = s, .clock = tick_clock};
        run r;
        reads = 0;
        assert_int_equal(policy_run(g, policy_find("best"), &c, &r, err, sizeof err), 0);
        if (reads > 1 + s + 3) fail_msg("limit %u: %u readings", s, reads);
        check_valid(g, &r, "best at a limit");
        assert_true(r.peak <= fifo.peak && r.peak >= whole.peak);
        if (s <= 3) assert_int_equal(r.search.stopped, SOLVE_TIME);
        policy_run_free(&r);
    }
    policy_run_free(&whole);
    policy_run_free(&fifo);
    graph_free(g);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plans_stop_at_the_deadline),
        cmocka_unit_test(plans_stop_at_a_cancel),
        cmocka_unit_test(best_cancelled_keeps_a_whole_order),
        cmocka_unit_test(best_keeps_the_time_limit),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
