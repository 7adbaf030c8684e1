/* test_budget_repair.c: the repair solver (orders, ruin-and-recreate moves, windows re-solved by
 * exact) and best with it, held to the brute force's optimum on small random graphs and to the
 * proven optimum on generated training steps, every plan checked; bounded by states and walks,
 * never by the clock. Its tests run from test_budget.c's main. */
#include "testutil.h"
#include "test_budget.h"
#include "test_gen.h"

/* A context whose only limits are states (and repair's walks): no clock ever ends a search. */
static solve_ctx states_only(uint64_t states)
{
    solve_ctx c = {0};
    c.seconds = 1e9;
    c.max_states = states;
    return c;
}

/* solver s at budget b: found or not; the plan checked (within b, never below opt); its extra,
 * and what it proved into *proof (may be NULL). */
static int solved(const budget_solver *s, const budget_model *bm, int64_t b, const solve_ctx *c,
                  long opt, double *extra, budget_proof *proof)
{
    budget_plan p = {0};
    budget_outcome o;
    budget_proof pf;
    budget_stats st;
    char err[256];
    assert_int_equal(s->solve(bm, &(budget_goal){b, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, c},
                              NULL, &p, &o, &pf),
                     0);
    if (o.found) {
        if (budget_check(bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err))
            fail_msg("%s: %s", s->name, err);
        assert_true(st.peak <= b);
        if (opt >= 0) assert_true(st.extra_ms >= (double)opt - 1e-9);
        *extra = st.extra_ms;
    }
    if (proof) *proof = pf;
    budget_plan_free(&p);
    return o.found;
}

/* Random small graphs, some changing buffers in place: repair never costs more than greedy's
 * plan it starts from, and finds a plan wherever greedy does; best, with exact held to 2000
 * states, is at most 5% above the brute force's optimum wherever it finds a plan, and finds one
 * in all but a few of the cases that have one. */
void repair_against_brute_force(void **state)
{
    (void)state;
    uint64_t seed = 0x6a09e667f3bcc908ull;
    solve_ctx c = states_only(2000);
    int cases = 0, better = 0, missed = 0, feasible = 0, above = 0;
    double sum_greedy = 0, sum_repair = 0, sum_opt = 0;
    for (int t = 0; t < 60; t++) {
        small sg;
        if (t % 3 == 2) small_random_inplace(&sg, &seed, 12);
        else small_random(&sg, &seed, t % 2 ? 12 : 16);
        graph *g = load_ok(sg.json);
        budget_model bm;
        model_ok(&bm, g);
        int64_t budgets[8], peak;
        size_t nb = budgets_of(&bm, budgets, &peak);
        for (size_t k = 0; k < nb; k++) {
            long opt = brute_capped(&sg, budgets[k], 60000);
            if (opt == -2) continue;
            double eg = 0, er = 0, eb = 0;
            int fg = solved(&budget_solver_greedy, &bm, budgets[k], NULL, opt, &eg, NULL);
            int fr = solved(&budget_solver_repair, &bm, budgets[k], &c, opt, &er, NULL);
            int fb = solved(&budget_solver_best, &bm, budgets[k], &c, opt, &eb, NULL);
            cases++;
            if (opt < 0) {
                assert_false(fg || fr || fb);
                continue;
            }
            feasible++;
            assert_true(!fg || fr);
            if (fg) {
                assert_true(er <= eg + 1e-9);
                better += er < eg - 1e-9;
                above += er > 1.05 * (double)opt + 1e-9;
                assert_true(er <= 1.05 * (double)opt + 1e-9);
                sum_greedy += eg;
                sum_repair += er;
                sum_opt += (double)opt;
            }
            if (fb) assert_true(eb <= 1.05 * (double)opt + 1e-9);
            else missed++;
        }
        budget_model_free(&bm);
        graph_free(g);
    }
    print_message("%d cases, %d with a plan: repair better than greedy in %d; extra time over "
                  "the optimum: greedy +%.1f%%, repair +%.2f%% (over 5%% in %d); best missed %d\n",
                  cases, feasible, better, sum_opt > 0 ? 100 * (sum_greedy / sum_opt - 1) : 0,
                  sum_opt > 0 ? 100 * (sum_repair / sum_opt - 1) : 0, above, missed);
    assert_true(cases >= 200);
    assert_true(better > 0);
    assert_true(sum_repair < sum_greedy);
    assert_true(sum_repair <= 1.05 * sum_opt); /* greedy is far above: 505% on these */
    assert_true(missed * 20 <= feasible);      /* a plan in at least 95% of the cases with one */
}

/* gen train 200 with seed s, its model in *bm, its given plan in *given (may be NULL) and that
 * plan's peak, the budget-free peak, in *peak. */
static graph *train_step(uint64_t s, budget_model *bm, budget_plan *given, int64_t *peak)
{
    membuf m = gen_json("train", 200, s);
    graph *g = load_ok(m.p);
    free(m.p);
    model_ok(bm, g);
    budget_plan own = {0}, *gp = given ? given : &own;
    budget_stats st;
    char err[256];
    assert_int_equal(budget_given_plan(bm, gp), 0);
    if (budget_check(bm, gp, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
    *peak = st.peak;
    budget_plan_free(&own);
    return g;
}

/* Generated training steps at 70% of the budget-free peak, where greedy is far above the
 * optimum (seed 1: 86%): repair's orders and moves reach the optimum that best then proves. */
void repair_on_generated_training(void **state)
{
    (void)state;
    for (uint64_t s = 1; s <= 2; s++) {
        budget_model bm;
        int64_t peak;
        graph *g = train_step(s, &bm, NULL, &peak);
        int64_t b = peak * 70 / 100;
        solve_ctx c = states_only(0);
        double eg = 0, er = 0, eb = 0;
        budget_proof pf;
        assert_true(solved(&budget_solver_greedy, &bm, b, NULL, -1, &eg, NULL));
        assert_true(solved(&budget_solver_repair, &bm, b, &c, -1, &er, NULL));
        assert_true(solved(&budget_solver_best, &bm, b, &c, -1, &eb, &pf));
        assert_true(pf.proven);
        print_message(
            "gen train 200 seed %llu at 70%%: greedy %.6f, repair %.6f, optimum %.6f ms\n",
            (unsigned long long)s, eg, er, eb);
        assert_true(er < eg);
        assert_true(er <= 1.05 * eb + 1e-12);
        budget_model_free(&bm);
        graph_free(g);
    }
}

static double past(void) { return 100.0; }

/* Past its deadline repair stops, says so, and gives no plan it has not found; a seed within the
 * budget is never made worse. */
void repair_honours_limits(void **state)
{
    (void)state;
    budget_model bm;
    budget_plan given = {0}, p = {0};
    int64_t peak;
    graph *g = train_step(1, &bm, &given, &peak);
    budget_stats st;
    budget_outcome o;
    budget_proof pf;
    char err[256];
    solve_ctx c = {0};
    c.deadline = 1.0;
    c.clock = past;
    budget_goal gl = {peak * 70 / 100, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, &c};
    assert_int_equal(budget_repair(&bm, &gl, NULL, &p, &o, &pf), 0);
    assert_false(o.found);
    assert_int_equal(o.stopped, SOLVE_TIME);
    assert_int_equal(pf.stopped, SOLVE_TIME);
    /* The given plan as the seed, at its own peak: kept, at no extra time. */
    gl.budget = peak;
    assert_int_equal(budget_repair(&bm, &gl, &given, &p, &o, &pf), 0);
    assert_true(o.found);
    assert_int_equal(budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err), 0);
    assert_true(st.extra_ms == 0);
    budget_plan_free(&p);
    budget_plan_free(&given);
    budget_model_free(&bm);
    graph_free(g);
}
