/* test_budget_inplace.c: memory budgets on graphs whose nodes change buffers in place
 * ("InPlace"), listed in test_budget.c's main: on random graphs of up to 16 compute nodes, some
 * nodes changing a buffer they read, exact equals the brute force over (ran, present, version)
 * states at every budget (the same least extra time, proven; none where none fits), greedy's
 * plans pass the checker and are never better than the optimum, and with offload every plan
 * passes the checker. */
#include "testutil.h"
#include "test_budget.h"

/* Whether exact's plan at budget b runs a node that changes a buffer in place twice (makes a
 * version again). */
static int reruns_a_change(const budget_model *bm, int64_t b)
{
    budget_plan p = {0};
    budget_outcome o;
    budget_proof pf;
    assert_int_equal(budget_exact(bm,
                                  &(budget_goal){b, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL},
                                  NULL, &p, &o, &pf),
                     0);
    uint32_t *runs = calloc(bm->g->n + 1, sizeof *runs);
    int again = 0;
    for (size_t k = 0; k < p.n; k++) {
        uint32_t v = p.ev[k].x;
        if (p.ev[k].op != BUDGET_RUN || !runs[v]++) continue;
        for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++)
            again |= bm->ver[bm->wr[e]] > 0;
    }
    free(runs);
    budget_plan_free(&p);
    return again;
}

void inplace_against_brute_force(void **state)
{
    (void)state;
    uint64_t seed = 0x6a09e667f3bcc909ull;
    int cases = 0, feasible = 0, found = 0, changed = 0, skipped = 0, remade = 0;
    for (int t = 0; t < 120; t++) {
        small sg;
        small_random_inplace(&sg, &seed, t % 2 ? 9 : 14);
        graph *g = load_ok(sg.json);
        budget_model bm;
        model_ok(&bm, g);
        changed += bm.nl > g->nbufs;
        int64_t budgets[8], peak;
        size_t nb = budgets_of(&bm, budgets, &peak);
        assert_true(brute(&sg, peak) == 0); /* the given plan itself */
        for (size_t k = 0; k < nb; k++) {
            int64_t b = budgets[k];
            long opt = brute_capped(&sg, b, 60000);
            if (opt == -2) {
                skipped++;
                continue;
            }
            cases++;
            feasible += opt >= 0;
            budget_proof pf;
            budget_outcome o;
            double extra;
            int f = exact_checked(&bm, b, BUDGET_ALLOW_RECOMPUTE, NULL, NULL, &extra, &pf, &o);
            if (f != (opt >= 0) || (f && extra != (double)opt))
                fail_msg("graph %d budget %lld: brute force %ld, exact %s %g (%s)\n%s", t,
                         (long long)b, opt, f ? "a plan" : "none", extra, o.why, sg.json);
            assert_true(pf.proven);
            if (f && opt > 0) remade += reruns_a_change(&bm, b);
            found += greedy_checked(&bm, b, BUDGET_ALLOW_RECOMPUTE, opt);
            greedy_checked(&bm, b, BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD, -1);
            exact_checked(&bm, b, BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD, NULL, NULL, &extra,
                          &pf, &o);
        }
        budget_model_free(&bm);
        graph_free(g);
    }
    print_message(
        "in place: %d graphs with changes, %d budgets (%d feasible, %d past the brute "
        "force's states): exact equals it (%d plans make a version again); greedy found %d\n",
        changed, cases, feasible, skipped, remade, found);
    assert_true(changed > 60 && feasible > cases / 3 && feasible < cases && remade > 0);
    assert_true(found * 10 >= feasible * 5);
}
