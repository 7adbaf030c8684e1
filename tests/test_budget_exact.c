/* test_budget_exact.c: the exact and best solvers of memory budgets (budget_exact.c,
 * budget_best.c), listed in test_budget.c's main: exact equals the brute force over (ran,
 * present) states on random graphs of up to 16 compute nodes at every budget (feasible ones:
 * the same least extra time, proven, its plan checked; infeasible ones: proven infeasible),
 * seeded with greedy's plan or with none; with offload its bound is sound (never above the
 * recompute optimum, never above its own plan's extra time) and what it proves holds; limits
 * (states, memory, time through an injected clock, a cancel) stop it on a big generated graph
 * with greedy's plan and a sound gap; best is never worse than greedy and proves what exact
 * proves. */
#include "testutil.h"
#include "test_budget.h"
#include "test_gen.h"
#include "sched/graph/solve_watch.h"

int exact_checked(const budget_model *bm, int64_t b, unsigned allow, const solve_ctx *c,
                  const budget_plan *seed, double *extra, budget_proof *pf, budget_outcome *o)
{
    budget_plan p = {0};
    budget_stats st;
    char err[256];
    assert_int_equal(
        budget_exact(bm, &(budget_goal){b, allow, BUDGET_BANDWIDTH, c}, seed, &p, o, pf), 0);
    *extra = -1;
    if (o->found) {
        if (budget_check(bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
        assert_true(st.peak <= b);
        *extra = st.extra_ms;
        assert_true(pf->lower_bound_ms <= st.extra_ms);
        assert_true(!pf->proven || pf->lower_bound_ms == st.extra_ms);
    } else {
        assert_int_equal(p.n, 0);
        assert_true(o->why[0]);
    }
    budget_plan_free(&p);
    return o->found;
}

size_t budgets_of(const budget_model *bm, int64_t *out, int64_t *peak)
{
    budget_plan given = {0};
    budget_stats st;
    char err[256];
    assert_int_equal(budget_given_plan(bm, &given), 0);
    if (budget_check(bm, &given, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
    budget_plan_free(&given);
    int64_t lb = budget_lower_bound(bm), pk = *peak = st.peak;
    int64_t all[] = {lb - 1, lb, lb + 100, lb + 200, (lb + pk) / 2, pk - 200, pk - 100, pk};
    size_t n = 0;
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        if (all[k] >= 1 && all[k] <= pk && (!n || all[k] > out[n - 1])) out[n++] = all[k];
    return n;
}

void exact_against_brute_force(void **state)
{
    (void)state;
    uint64_t seed = 0x2545f4914f6cdd1dull;
    int cases = 0, feasible = 0, big = 0, skipped = 0;
    budget_plan none = {0};
    for (int t = 0; t < 80; t++) {
        small sg;
        small_random(&sg, &seed, t % 2 ? 10 : 16);
        graph *g = load_ok(sg.json);
        budget_model bm;
        model_ok(&bm, g);
        int64_t budgets[8], peak;
        size_t nb = budgets_of(&bm, budgets, &peak);
        for (size_t k = 0; k < nb; k++) {
            int64_t b = budgets[k];
            long opt = brute_capped(&sg, b, 60000);
            budget_proof pf;
            budget_outcome o;
            double extra;
            if (opt == -2) { /* past what the brute force goes through here */
                skipped++;
                continue;
            }
            cases++;
            big += sg.m > 10;
            feasible += opt >= 0;
            for (int s = 0; s < 2; s++) { /* greedy's plan as the incumbent, then none */
                int f = exact_checked(&bm, b, BUDGET_ALLOW_RECOMPUTE, NULL, s ? &none : NULL,
                                      &extra, &pf, &o);
                if (f != (opt >= 0))
                    fail_msg("graph %d budget %lld: brute force %ld, exact %s (%s)", t,
                             (long long)b, opt, f ? "a plan" : "none", o.why);
                assert_true(pf.proven);
                assert_int_equal(pf.stopped, SOLVE_DONE);
                if (f && extra != (double)opt)
                    fail_msg("graph %d budget %lld: brute force %ld ms, exact %g ms", t,
                             (long long)b, opt, extra);
                if (f) assert_true(pf.lower_bound_ms == (double)opt);
            }
        }
        budget_model_free(&bm);
        graph_free(g);
    }
    print_message("%d budgets (%d feasible, %d on graphs of 11 to 16 compute nodes): exact "
                  "equals the brute force (%d past its states left out)\n",
                  cases, feasible, big, skipped);
    assert_true(big > 40 && feasible > cases / 3 && feasible < cases && skipped < cases / 5);
}

void exact_with_offload(void **state)
{
    (void)state;
    uint64_t seed = 0x853c49e6748fea9bull;
    int proven = 0, cases = 0;
    for (int t = 0; t < 60; t++) {
        small sg;
        small_random(&sg, &seed, 9);
        graph *g = load_ok(sg.json);
        budget_model bm;
        model_ok(&bm, g);
        int64_t budgets[8], peak;
        size_t nb = budgets_of(&bm, budgets, &peak);
        for (size_t k = 0; k < nb; k++) {
            int64_t b = budgets[k];
            long opt = brute(&sg, b);
            const unsigned allows[] = {BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD,
                                       BUDGET_ALLOW_OFFLOAD};
            for (int a = 0; a < 2; a++) {
                budget_proof pf;
                budget_outcome o;
                double extra;
                int f = exact_checked(&bm, b, allows[a], NULL, NULL, &extra, &pf, &o);
                cases++;
                if (!f) { /* only a proof or a limit: offload and recompute fit where either does */
                    assert_true(pf.proven);
                    if (a == 0) assert_true(opt < 0);
                    continue;
                }
                /* the bound is sound: no recompute-only plan below it */
                if (a == 0 && opt >= 0) assert_true(pf.lower_bound_ms <= (double)opt);
                if (a == 0 && pf.proven && opt >= 0) assert_true(extra <= (double)opt);
                proven += pf.proven;
            }
        }
        budget_model_free(&bm);
        graph_free(g);
    }
    print_message("with offload: %d of %d budgets proven optimal\n", proven, cases);
    assert_true(proven > 0);
}

static double fake_now;
static double fake_clock(void) { return fake_now += 1000; }

void exact_honours_limits(void **state)
{
    (void)state;
    membuf m = gen_json("train", 100000, 3);
    graph *g = load_ok(m.p);
    free(m.p);
    budget_model bm;
    model_ok(&bm, g);
    int64_t budgets[8], peak;
    budgets_of(&bm, budgets, &peak);
    int64_t b = peak * 60 / 100; /* greedy's plan reruns nodes there */
    budget_proof pf;
    budget_outcome o;
    double extra;
    solve_ctx few = {.max_states = 20};
    assert_true(exact_checked(&bm, b, BUDGET_ALLOW_RECOMPUTE, &few, NULL, &extra, &pf, &o));
    assert_int_equal(pf.stopped, SOLVE_STATES); /* greedy's plan, and a gap */
    assert_true(pf.states <= 20);
    assert_false(pf.proven);
    assert_true(extra > pf.lower_bound_ms);
    solve_ctx small_mem = {.max_memory = 1 << 20};
    exact_checked(&bm, b, BUDGET_ALLOW_RECOMPUTE, &small_mem, NULL, &extra, &pf, &o);
    assert_int_equal(pf.stopped, SOLVE_MEMORY);
    assert_true(pf.states * (bm.m + g->nbufs) / 8 <= 1 << 20);
    /* the clock: greedy itself stops at once; without a seed no plan, and it says why */
    budget_plan none = {0};
    solve_ctx late = {.seconds = 1, .clock = fake_clock};
    assert_false(exact_checked(&bm, b, BUDGET_ALLOW_RECOMPUTE, &late, &none, &extra, &pf, &o));
    assert_int_equal(o.stopped, SOLVE_TIME);
    assert_false(pf.proven);
    assert_non_null(strstr(o.why, "time limit"));
    solve_watch w = {0};
    atomic_store(&w.cancel, 1);
    solve_ctx cancel = {.watch = &w};
    assert_false(exact_checked(&bm, b, BUDGET_ALLOW_RECOMPUTE, &cancel, &none, &extra, &pf, &o));
    assert_int_equal(o.stopped, SOLVE_CANCELLED);
    /* best on a big graph: exact gives up at once (too large), greedy's plan stands */
    budget_plan p = {0};
    assert_int_equal(budget_best(&bm,
                                 &(budget_goal){b, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL},
                                 NULL, &p, &o, &pf),
                     0);
    if (bm.m > BUDGET_BEST_EXACT_NODES) assert_int_equal(pf.stopped, SOLVE_TOO_LARGE);
    budget_plan_free(&p);
    budget_model_free(&bm);
    graph_free(g);
}

void best_of_the_solvers(void **state)
{
    (void)state;
    uint64_t seed = 0x4d595df4d0f33173ull;
    for (int t = 0; t < 40; t++) {
        small sg;
        small_random(&sg, &seed, 10);
        graph *g = load_ok(sg.json);
        budget_model bm;
        model_ok(&bm, g);
        int64_t budgets[8], peak;
        size_t nb = budgets_of(&bm, budgets, &peak);
        for (size_t k = 0; k < nb; k++) {
            long opt = brute(&sg, budgets[k]);
            budget_plan p = {0};
            budget_outcome o;
            budget_proof pf;
            budget_stats st;
            char err[256];
            assert_int_equal(budget_best(&bm,
                                         &(budget_goal){budgets[k], BUDGET_ALLOW_RECOMPUTE,
                                                        BUDGET_BANDWIDTH, NULL},
                                         NULL, &p, &o, &pf),
                             0);
            assert_int_equal(o.found, opt >= 0);
            assert_true(pf.proven);
            if (o.found) {
                if (budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err))
                    fail_msg("%s", err);
                assert_true(st.peak <= budgets[k] && st.extra_ms == (double)opt);
                assert_true(pf.lower_bound_ms == (double)opt);
            }
            budget_plan_free(&p);
        }
        budget_model_free(&bm);
        graph_free(g);
    }
    assert_non_null(budget_solver_find("best"));
    assert_non_null(budget_solver_find("greedy"));
    assert_non_null(budget_solver_find("exact"));
    assert_null(budget_solver_find("chain?"));
}
