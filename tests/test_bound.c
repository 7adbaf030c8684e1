/* test_bound.c: policy_lower_bound (must-live sets, pairs and sets of nodes)
 * and policy_closure_bound (minimum cuts) against brute force: never above
 * the least peak of any topological order, never below the plain bound (or
 * the bound given), strictly above it somewhere, and exact, which starts from
 * both, still proves its optimum where it did. */
#include "testutil.h"
#include <math.h>

/* The least peak over every topological order, by dynamic programming over
 * the sets of nodes run. */
static int64_t dp_min_peak(const graph *g)
{
    uint32_t n = g->n, full = (1u << n) - 1;
    assert_true(n <= 20);
    uint32_t *need = calloc(n + 1, sizeof *need);
    int64_t *best = malloc(((size_t)full + 1) * sizeof *best);
    int64_t *mem = calloc((size_t)full + 1, sizeof *mem);
    assert_true(need && best && mem);
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1]; e++) need[v] |= 1u << g->pred[e];
    for (uint32_t s = 0; s <= full; s++) best[s] = INT64_MAX;
    best[0] = 0;
    for (uint32_t s = 0; s <= full; s++) {
        if (best[s] == INT64_MAX) continue;
        for (uint32_t u = 0; u < n; u++) {
            if (s >> u & 1 || (need[u] & s) != need[u]) continue;
            uint32_t t = s | 1u << u;
            mem[t] = mem[s] + g->change[u];
            int64_t p = best[s] > mem[t] ? best[s] : mem[t];
            if (p < best[t]) best[t] = p;
        }
    }
    int64_t r = best[full];
    free(need);
    free(best);
    free(mem);
    return r;
}

/* old <= new <= optimum on g; counts where new passes old. */
static void check_bound(const graph *g, const char *what, int *raised, int *optimal)
{
    int64_t opt = dp_min_peak(g), plain = policy_lower_bound_plain(g);
    int64_t lb = policy_lower_bound(g);
    if (lb < plain || lb > opt)
        fail_msg("%s: bound %lld, plain %lld, optimum %lld", what, (long long)lb, (long long)plain,
                 (long long)opt);
    *raised += lb > plain;
    *optimal += lb == opt;
    /* a deadline already past, or no work, keeps the plain bound at least */
    solve_ctx c = {0};
    int64_t none = policy_lower_bound_until(g, &c, 1e-9, 0);
    assert_true(none >= plain && none <= lb);
}

/* lb <= closure <= optimum; counts where it passes the must-live bound (the
 * default cap's: nodes, pairs and sets) and where it meets the optimum. */
static void check_closure(const graph *g, const char *what, int *above, int *optimal)
{
    int64_t opt = dp_min_peak(g), ml = policy_lower_bound(g);
    int64_t cb = policy_closure_bound(g, NULL, HUGE_VAL, UINT64_MAX, 0, INT64_MAX);
    if (cb > opt)
        fail_msg("%s: closure bound %lld above the optimum %lld", what, (long long)cb,
                 (long long)opt);
    /* from a bound: never below it */
    assert_true(policy_closure_bound(g, NULL, HUGE_VAL, UINT64_MAX, opt, INT64_MAX) == opt);
    /* the two together, as exact takes them: still sound */
    int64_t both = policy_lower_bound_from(g, NULL, HUGE_VAL, POLICY_BOUND_CAP, cb);
    if (both > opt || both < cb || both < ml)
        fail_msg("%s: bounds together %lld, closure %lld, must-live %lld, optimum %lld", what,
                 (long long)both, (long long)cb, (long long)ml, (long long)opt);
    *above += cb > ml;
    *optimal += cb == opt;
}

static void bound_is_sound_on_random_graphs(void **state)
{
    (void)state;
    uint64_t st = 20261203;
    int raised = 0, optimal = 0, above = 0, closed = 0;
    for (int i = 0; i < 3000; i++) {
        tu_gen t;
        tu_gen_make(&t, &st, 1 + (uint32_t)(i % 16));
        graph *g = tu_load_text(t.json);
        char what[32];
        snprintf(what, sizeof what, "graph %d", i);
        check_bound(g, what, &raised, &optimal);
        check_closure(g, what, &above, &closed);
        graph_free(g);
        tu_gen_free(&t);
    }
    assert_true(raised > 0);
    print_message("random: raised on %d graphs, the optimum on %d\n", raised, optimal);
    print_message("closure: above must-live on %d graphs, the optimum on %d\n", above, closed);
    assert_true(closed >= 2700); /* 2967 of 3000 when written */
}

static void bound_is_sound_on_generated_graphs(void **state)
{
    (void)state;
    static const char *const kinds[] = {"random", "branch", "chain", "alloc-heavy", "randwire"};
    int raised = 0, optimal = 0, above = 0, closed = 0;
    for (int k = 0; k < 5; k++) {
        const gen_kind *gk = gen_kind_find(kinds[k]);
        if (!gk) continue;
        for (uint32_t nodes = gk->min_nodes; nodes <= 18; nodes++)
            for (uint64_t seed = 1; seed <= 8; seed++) {
                graph *g = tu_gen_load(kinds[k], nodes, seed);
                if (g->n > 18) {
                    graph_free(g);
                    continue;
                }
                char what[64];
                snprintf(what, sizeof what, "%s %u seed %llu", kinds[k], nodes,
                         (unsigned long long)seed);
                check_bound(g, what, &raised, &optimal);
                check_closure(g, what, &above, &closed);
                graph_free(g);
            }
    }
    assert_true(raised > 0);
    print_message("closure: above must-live on %d graphs, the optimum on %d\n", above, closed);
    assert_true(closed >= 288); /* 320 when written */
}

/* With exact's cap the sets grow from every node (BOUND_SET 10 nodes, not
 * only from the one that needs the most): never above the optimum, never
 * below the plain cap's bound, and above it somewhere. */
static void sets_from_every_node_are_sound(void **state)
{
    (void)state;
    uint64_t st = 20261204;
    int above = 0, optimal = 0;
    for (int i = 0; i < 200; i++) {
        tu_gen t;
        tu_gen_make(&t, &st, 12 + (uint32_t)(i % 9));
        graph *g = tu_load_text(t.json);
        int64_t opt = dp_min_peak(g), plain = policy_lower_bound(g);
        int64_t lb = policy_lower_bound_until(g, NULL, HUGE_VAL, POLICY_BOUND_CAP);
        if (lb < plain || lb > opt)
            fail_msg("graph %d: bound %lld, plain cap %lld, optimum %lld", i, (long long)lb,
                     (long long)plain, (long long)opt);
        above += lb > plain;
        optimal += lb == opt;
        graph_free(g);
        tu_gen_free(&t);
    }
    print_message("sets from every node: above the plain cap on %d, the optimum on %d\n", above,
                  optimal);
    assert_true(optimal > 0);
}

/* Exact still proves its optimum on small graphs, and its bound is sound. */
static void exact_still_proves(void **state)
{
    (void)state;
    uint64_t st = 7;
    for (int i = 0; i < 400; i++) {
        tu_gen t;
        tu_gen_make(&t, &st, 1 + (uint32_t)(i % 14));
        graph *g = tu_load_text(t.json);
        run r;
        char err[256];
        assert_int_equal(policy_run(g, policy_find("exact"), NULL, &r, err, sizeof err), 0);
        int64_t opt = dp_min_peak(g);
        if (r.peak != opt || !r.optimal || r.lower_bound != opt)
            fail_msg("graph %d: exact %lld (bound %lld), optimum %lld", i, (long long)r.peak,
                     (long long)r.lower_bound, (long long)opt);
        policy_run_free(&r);
        graph_free(g);
        tu_gen_free(&t);
    }
}

/* A past deadline, no work allowed, or a graph past POLICY_CLOSURE_MAX nodes:
 * the bound it was given, unchanged. */
static void closure_limits_keep_the_given_bound(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 200, 1);
    solve_ctx c = {0};
    assert_int_equal(policy_closure_bound(g, &c, -HUGE_VAL, UINT64_MAX, 7, INT64_MAX), 7);
    assert_int_equal(policy_closure_bound(g, NULL, HUGE_VAL, 0, 7, INT64_MAX), 7);
    assert_true(policy_closure_bound(g, NULL, HUGE_VAL, UINT64_MAX, 7, INT64_MAX) > 7);
    graph_free(g);
    graph *big = tu_gen_load("chain", POLICY_CLOSURE_MAX + 2, 1);
    assert_true(big->n > POLICY_CLOSURE_MAX);
    assert_int_equal(policy_closure_bound(big, NULL, HUGE_VAL, UINT64_MAX, 5, INT64_MAX), 5);
    graph_free(big);
}

/* Freeing a buffer early means running its readers, whose outputs stay: the
 * closure bound counts that where the must-live bound does not. On issue 46's
 * randwire 600 seed 3 it is 47.0 MiB (a node alone: 46.25; sets of nodes: the
 * rest), above policy_lower_bound's 39.75 MiB and exact's must-live sets'
 * 42.75; the best order known peaks at 47.25 MiB (the bounds alone, with no
 * clock: the same on any machine). */
static void closure_stronger_on_randwire(void **state)
{
    (void)state;
    static const struct {
        uint32_t n;
        uint64_t seed;
        int64_t closure; /* MiB * 4 */
    } want[] = {{600, 3, 188}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        graph *g = tu_gen_load("randwire", want[i].n, want[i].seed);
        int64_t cb = policy_closure_bound(g, NULL, HUGE_VAL, UINT64_MAX, 0, INT64_MAX);
        int64_t ml = policy_lower_bound(g);
        if (cb != want[i].closure * 262144 || cb <= ml)
            fail_msg("randwire %u seed %llu: closure %lld, must-live %lld", want[i].n,
                     (unsigned long long)want[i].seed, (long long)cb, (long long)ml);
        /* the nodes alone give 46.25 MiB; asked to stop there, the sets do not run */
        assert_int_equal(policy_closure_bound(g, NULL, HUGE_VAL, UINT64_MAX, 0, 185 * 262144),
                         185 * 262144);
        graph_free(g);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bound_is_sound_on_random_graphs),
        cmocka_unit_test(bound_is_sound_on_generated_graphs),
        cmocka_unit_test(sets_from_every_node_are_sound),
        cmocka_unit_test(exact_still_proves),
        cmocka_unit_test(closure_limits_keep_the_given_bound),
        cmocka_unit_test(closure_stronger_on_randwire),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
