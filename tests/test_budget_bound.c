/* test_budget_bound.c: the lower bounds of budget_bound.c, listed in test_budget.c's main: on
 * random graphs of up to 16 compute nodes, with and without buffers changed in place, the
 * bound on the extra time never passes the brute force's optimum (any order) and says no plan
 * fits only where none does, the forced peak is never above a feasible budget, and the bound is
 * strictly positive, and meets the optimum, in a good share of the cases; with offload it
 * stays under exact's plans; budget_fit takes it as its lower_bound_ms and proves plans with
 * it. */
#include <math.h>
#include "testutil.h"
#include "test_budget.h"
#include "sched/budget/budget_bound.h"
#include "sched/budget/budget_fit.h"

/* budget_fit with exact at budget b, where the brute force finds no plan but the bound does
 * not see it: exact's search proves that none fits. */
static int exact_proves_none(const graph *g, int64_t b)
{
    budget_result res = {0};
    budget_request rq = {
        g,    b, 0,   BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, budget_solver_find("exact"),
        NULL, 0, NULL};
    assert_int_equal(budget_fit(&rq, &res), 0);
    assert_true(!res.found && res.exact_none && res.proven_infeasible && b >= res.bound);
    budget_result_free(&res);
    return 1;
}

void bound_against_brute_force(void **state)
{
    (void)state;
    uint64_t seed = 0x510e527fade682d1ull;
    int cases = 0, searched_none = 0, costly = 0, positive = 0, tight = 0, none = 0,
        forced_none = 0, skipped = 0;
    for (int t = 0; t < 160; t++) {
        small sg;
        if (t % 2) small_random_inplace(&sg, &seed, t % 4 == 1 ? 9 : 14);
        else small_random(&sg, &seed, t % 4 == 0 ? 10 : 14);
        graph *g = load_ok(sg.json);
        budget_model bm;
        model_ok(&bm, g);
        budget_bound bb, bo;
        assert_int_equal(budget_bound_init(&bb, &bm, BUDGET_ALLOW_RECOMPUTE), 0);
        assert_int_equal(budget_bound_init(&bo, &bm, BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD),
                         0);
        assert_int_equal(bb.np, bm.m);
        assert_true(bb.peak >= budget_lower_bound(&bm) &&
                    bo.peak == budget_lower_bound_allow(&bm, BUDGET_ALLOW_RECOMPUTE |
                                                                 BUDGET_ALLOW_OFFLOAD));
        int64_t budgets[8], peak;
        size_t nb = budgets_of(&bm, budgets, &peak);
        int64_t more[] = {bb.peak - 1, bb.peak, bb.peak + 100};
        for (size_t k = 0; k < nb + 3; k++) {
            int64_t b = k < nb ? budgets[k] : more[k - nb];
            if (b < 1 || b > peak) continue;
            long opt = brute_capped(&sg, b, 60000);
            if (opt == -2) {
                skipped++;
                continue;
            }
            cases++;
            double lb = budget_bound_ms(&bb, b);
            if (opt < 0) {
                none++;
                forced_none += isinf(lb);
                if (!isinf(lb)) searched_none += exact_proves_none(g, b);
                continue;
            }
            if (lb > (double)opt + 1e-9 || b < bb.peak)
                fail_msg("graph %d budget %lld: bound %g (forced %lld) over the optimum %ld\n%s", t,
                         (long long)b, lb, (long long)bb.peak, opt, sg.json);
            costly += opt > 0;
            positive += lb > 0;
            tight += lb > 0 && lb >= (double)opt - 1e-9;
            /* with offload: never above exact's plan */
            budget_proof pf;
            budget_outcome o;
            double extra;
            if (exact_checked(&bm, b, BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD, NULL, NULL,
                              &extra, &pf, &o))
                assert_true(budget_bound_ms(&bo, b) <= extra + 1e-9);
        }
        budget_bound_free(&bb);
        budget_bound_free(&bo);
        budget_model_free(&bm);
        graph_free(g);
    }
    print_message("bound: %d budgets (%d past the brute force's states), %d with no plan (%d of "
                  "them seen by the forced bytes, %d proven by exact's search); of the %d that "
                  "take extra time, the bound is "
                  "above 0 in %d and meets the optimum in %d\n",
                  cases, skipped, none, forced_none, searched_none, costly, positive, tight);
    assert_true(cases > 500 && none > 20);
    assert_true(forced_none * 2 > none && forced_none + searched_none == none);
    assert_true(positive * 4 > costly && tight * 2 > positive);
}

/* A chain whose middle buffer must be dropped at the last node: the bound is the rerun of its
 * producer, budget_fit says proven optimal with any solver; two buffers that must both go
 * (whole buffers, not bytes); the forced bytes name the buffers a node needs. */
void bound_proves_in_fit(void **state)
{
    (void)state;
    const char *json =
        "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 100, \"BufId\": 1},"
        "{\"Id\": 1, \"Op\": \"Input\", \"Inputs\": [1]},"
        "{\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 400, \"BufId\": 2},"
        "{\"Id\": 3, \"Op\": \"Relu\", \"Latency\": 3, \"Inputs\": [1, 2]},"
        "{\"Id\": 4, \"Op\": \"ALLOC\", \"Size\": 300, \"BufId\": 3},"
        "{\"Id\": 5, \"Op\": \"Exp\", \"Latency\": 2, \"Inputs\": [2, 3]},"
        "{\"Id\": 6, \"Op\": \"ALLOC\", \"Size\": 300, \"BufId\": 4},"
        "{\"Id\": 7, \"Op\": \"Add\", \"Latency\": 1, \"Inputs\": [3, 4]},"
        "{\"Id\": 8, \"Op\": \"FREE\", \"BufId\": 3},"
        "{\"Id\": 9, \"Op\": \"Mul\", \"Latency\": 1, \"Inputs\": [2, 4]},"
        "{\"Id\": 10, \"Op\": \"FREE\", \"BufId\": 2}],"
        "\"Edges\": [[0, 1], [1, 3], [2, 3], [3, 5], [4, 5], [5, 7], [6, 7], [7, 8], [7, 9],"
        "[9, 10]]}";
    graph *g = load_ok(json);
    budget_result res = {0};
    const char *solvers[] = {"best", "greedy", "exact"}; /* chain: not a chain (no Phase) */
    for (size_t i = 0; i < 3; i++) {
        budget_request rq = {g,
                             800,
                             0,
                             BUDGET_ALLOW_RECOMPUTE,
                             BUDGET_BANDWIDTH,
                             budget_solver_find(solvers[i]),
                             NULL,
                             0,
                             NULL};
        assert_int_equal(budget_fit(&rq, &res), 0);
        if (!res.found) fail_msg("%s: %s", solvers[i], res.out.why);
        assert_true(res.free_peak == 1100);
        /* at Add (Id 7): 100 + 300 + 300 forced, 400 of buffer 2 must go: Relu again */
        assert_true(res.bound_ms == 3.0);
        assert_true(res.st.extra_ms == 3.0);
        assert_true(res.proof.lower_bound_ms == 3.0 && res.proof.proven);
    }
    budget_result_free(&res);
    graph_free(g);
    /* whole buffers: at R, x (kept, an Input's), c and d leave 100 B of 600 B, so a (2 ms) and
     * b (3 ms), 200 B each, must both go: 5 ms, where dropping bytes fractionally says 3.5 */
    g = load_ok("{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 100, \"BufId\": 1},"
                "{\"Id\": 1, \"Op\": \"Input\", \"Inputs\": [1]},"
                "{\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 200, \"BufId\": 2},"
                "{\"Id\": 3, \"Op\": \"P1\", \"Latency\": 2, \"Inputs\": [1, 2]},"
                "{\"Id\": 4, \"Op\": \"ALLOC\", \"Size\": 200, \"BufId\": 3},"
                "{\"Id\": 5, \"Op\": \"P2\", \"Latency\": 3, \"Inputs\": [1, 3]},"
                "{\"Id\": 6, \"Op\": \"ALLOC\", \"Size\": 300, \"BufId\": 4},"
                "{\"Id\": 7, \"Op\": \"Q\", \"Latency\": 1, \"Inputs\": [1, 4]},"
                "{\"Id\": 8, \"Op\": \"ALLOC\", \"Size\": 100, \"BufId\": 5},"
                "{\"Id\": 9, \"Op\": \"R\", \"Latency\": 1, \"Inputs\": [4, 5]},"
                "{\"Id\": 10, \"Op\": \"FREE\", \"BufId\": 4},"
                "{\"Id\": 11, \"Op\": \"S\", \"Latency\": 1, \"Inputs\": [2, 3, 5]},"
                "{\"Id\": 12, \"Op\": \"FREE\", \"BufId\": 2},"
                "{\"Id\": 13, \"Op\": \"FREE\", \"BufId\": 3},"
                "{\"Id\": 14, \"Op\": \"FREE\", \"BufId\": 5}],"
                "\"Edges\": [[0, 1], [1, 3], [2, 3], [3, 5], [4, 5], [5, 7], [6, 7], [7, 9],"
                "[8, 9], [9, 10], [9, 11], [11, 12], [11, 13], [11, 14]]}");
    budget_request rw = {
        g,    600, 0,   BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, budget_solver_find("greedy"),
        NULL, 0,   NULL};
    res = (budget_result){0};
    assert_int_equal(budget_fit(&rw, &res), 0);
    assert_true(res.found && res.free_peak == 900);
    assert_true(res.bound_ms == 5.0 && res.st.extra_ms == 5.0 && res.proof.proven);
    budget_result_free(&res);
    graph_free(g);
    g = load_ok(json);
    budget_request rq = {
        g,    799, 0,   BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, budget_solver_find("greedy"),
        NULL, 0,   NULL};
    assert_int_equal(budget_fit(&rq, &res), 0);
    assert_false(res.found);
    assert_true(res.proven_infeasible && res.bound == 800);
    uint32_t f[8];
    size_t nf = budget_bound_forced_at(&res.bb, res.bb.peak_at, f, 8);
    int64_t sum = 0;
    for (size_t k = 0; k < nf; k++) sum += g->buf_size[f[k]];
    assert_true(sum == 800); /* at Exp: buffers 1, 2 and 3 */
    budget_result_free(&res);
    graph_free(g);
}
