/* test_improve.c: exact's window re-search (policy_improve): from any
 * valid order it returns a valid order whose peak is no higher, stops at an
 * injected clock's deadline and at a cancel with a valid order, and exact,
 * with the re-search in its time, says done only when it proved the peak. */
#include "testutil.h"
#include "sched/graph/solve_watch.h"
#include "sched/policy/policy_improve.h"

/* The peak of order on g, failing when it is not a topological order. */
static int64_t replay(const graph *g, const uint32_t *order, const char *what)
{
    uint8_t *seen = calloc(g->n + 1, 1);
    assert_non_null(seen);
    int64_t mem = 0, peak = 0;
    for (uint32_t s = 0; s < g->n; s++) {
        uint32_t u = order[s];
        if (u >= g->n || seen[u]) fail_msg("%s: step %u repeats or invents a node", what, s + 1);
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++)
            if (!seen[g->pred[e]]) fail_msg("%s: node %u runs before a predecessor", what, u);
        seen[u] = 1;
        mem += g->change[u];
        if (mem > peak) peak = mem;
    }
    free(seen);
    return peak;
}

/* fifo's order of g into order, its inverse into rank; returns its peak. */
static int64_t fifo_order(const graph *g, uint32_t *order, uint32_t *rank)
{
    char err[256];
    run r;
    if (policy_run(g, policy_find("fifo"), NULL, &r, err, sizeof err)) fail_msg("fifo: %s", err);
    memcpy(order, r.order, g->n * sizeof *order);
    for (uint32_t s = 0; s < g->n; s++) rank[order[s]] = s;
    int64_t peak = r.peak;
    policy_run_free(&r);
    return peak;
}

/* A clock injected through the context: a millisecond a reading. */
static uint32_t clock_reads;
static double step_clock(void) { return 0.001 * (double)++clock_reads; }

typedef struct trial {
    graph *g;
    tu_gen t;
    uint32_t *order, *rank;
    int64_t before;
} trial;

static void trial_make(trial *T, uint64_t *st, uint32_t n)
{
    tu_gen_make(&T->t, st, n);
    T->g = tu_load_text(T->t.json);
    T->order = malloc((n + 1) * sizeof *T->order);
    T->rank = malloc((n + 1) * sizeof *T->rank);
    assert_true(T->order && T->rank);
    T->before = fifo_order(T->g, T->order, T->rank);
}

static void trial_free(trial *T)
{
    free(T->order);
    free(T->rank);
    graph_free(T->g);
    tu_gen_free(&T->t);
}

/* Under a limit of states alone the windows run out (0, not stopped) or the
 * states do (1, SOLVE_STATES); either way the order is valid,
 * its rank its inverse, its peak at most fifo's, and lower somewhere. */
static void never_worse_never_invalid(void **state)
{
    (void)state;
    uint64_t st = 20261204;
    int lower = 0, ranout = 0;
    for (int i = 0; i < 60; i++) {
        trial T;
        trial_make(&T, &st, 8 + (uint32_t)(i * 7 % 200));
        piece_limits L = {.deadline = 1e30, .max_states = 1u << 13, .max_bytes = 1 << 26};
        L.now = 0;
        improve_stats s = {0};
        int rc = policy_improve(T.g, T.order, T.rank, &L, &s);
        if (rc == 1) assert_int_equal(L.stopped, SOLVE_STATES);
        else if (rc || L.stopped != SOLVE_DONE)
            fail_msg("graph %d: %d, stopped %d", i, rc, L.stopped);
        ranout += rc == 0;
        int64_t after = replay(T.g, T.order, "improved");
        for (uint32_t v = 0; v < T.g->n; v++) assert_int_equal(T.order[T.rank[v]], v);
        if (after > T.before)
            fail_msg("graph %d: %lld after, %lld before", i, (long long)after, (long long)T.before);
        lower += after < T.before;
        assert_true(s.better <= s.windows);
        trial_free(&T);
    }
    assert_true(lower > 0 && ranout > 0);
}

/* On the injected clock the deadline stops it (1, SOLVE_TIME) within a few
 * readings of it, with a valid order no worse; a cancel stops it at once. */
static void deadline_and_cancel(void **state)
{
    (void)state;
    uint64_t st = 4;
    for (int i = 0; i < 40; i++) {
        trial T;
        trial_make(&T, &st, 100 + (uint32_t)i * 5);
        solve_ctx c = {.clock = step_clock};
        clock_reads = 0;
        uint32_t ms = 1 + (uint32_t)i % 5;
        piece_limits L = {.ctx = &c, .deadline = 0.001 * ms, .max_states = 1u << 20};
        L.max_bytes = 1 << 26;
        improve_stats s = {0};
        int rc = policy_improve(T.g, T.order, T.rank, &L, &s);
        if (rc == 1) assert_int_equal(L.stopped, SOLVE_TIME);
        else assert_int_equal(rc, 0); /* ran out of windows before the deadline */
        if (clock_reads > ms + 8) fail_msg("deadline %u ms: %u readings", ms, clock_reads);
        if (replay(T.g, T.order, "at a deadline") > T.before) fail_msg("worse at a deadline");

        solve_watch ctl = {0};
        atomic_store(&ctl.cancel, 1);
        c = (solve_ctx){.watch = &ctl};
        piece_limits K = {.ctx = &c, .deadline = 1e30, .max_states = 1u << 20};
        K.max_bytes = 1 << 26;
        int64_t now = replay(T.g, T.order, "before a cancel");
        assert_int_equal(policy_improve(T.g, T.order, T.rank, &K, &s), 1);
        assert_int_equal(K.stopped, SOLVE_CANCELLED);
        if (replay(T.g, T.order, "cancelled") > now) fail_msg("worse at a cancel");
        trial_free(&T);
    }
}

/* exact on medium graphs with limits that fall in every phase (the pieces'
 * share, the windows, the pieces again): a valid order no worse than best's,
 * a bound at most the peak, and done only with the proof. */
static void exact_done_means_proven(void **state)
{
    (void)state;
    uint64_t st = 12;
    int done = 0, timed = 0;
    for (int i = 0; i < 40; i++) {
        trial T;
        trial_make(&T, &st, 40 + (uint32_t)i * 4);
        char err[256];
        run b, r;
        if (policy_run(T.g, policy_find("best"), NULL, &b, err, sizeof err)) fail_msg("%s", err);
        clock_reads = 0;
        solve_ctx c = {.seconds = 0.002 * (1 + i % 30), .clock = step_clock};
        if (policy_run(T.g, policy_find("exact"), &c, &r, err, sizeof err)) fail_msg("%s", err);
        assert_int_equal(replay(T.g, r.order, "exact"), r.peak);
        assert_true(r.lower_bound <= r.peak && r.lower_bound <= b.peak);
        if (r.search.stopped == SOLVE_DONE && !r.optimal) fail_msg("graph %d: done, not proven", i);
        done += r.search.stopped == SOLVE_DONE;
        timed += r.search.stopped == SOLVE_TIME;
        policy_run_free(&b);
        policy_run_free(&r);
        trial_free(&T);
    }
    assert_true(done > 0 && timed > 0);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(never_worse_never_invalid),
        cmocka_unit_test(deadline_and_cancel),
        cmocka_unit_test(exact_done_means_proven),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
