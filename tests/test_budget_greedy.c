/* test_budget_greedy.c: greedy on what it must do well beyond the brute force's small graphs:
 * generated training steps (their weights changed in place by the optimizer) and Capuchin's
 * choice of an offload that hides under compute over a rerun that costs time. Its tests run
 * from test_budget.c's main. */
#include "testutil.h"
#include "test_budget.h"
#include "test_gen.h"

/* Generated training steps: in the given order every weight's gradient lives until the
 * optimizer's update, which changes the weight in place, so forward nodes may run again only
 * before their weight's update. Greedy also walks policy priority's order (each update as soon
 * as its gradient is made) and finds plans from 55% of the budget-free peak, costing less as
 * the budget grows; with offload allowed too it never costs more; every plan checked. */
void greedy_on_generated_training(void **state)
{
    (void)state;
    membuf m = gen_json("train", 300, 1);
    graph *g = load_ok(m.p);
    free(m.p);
    budget_model bm;
    model_ok(&bm, g);
    budget_plan given = {0};
    budget_stats st;
    char err[256];
    assert_int_equal(budget_given_plan(&bm, &given), 0);
    assert_int_equal(budget_check(&bm, &given, BUDGET_BANDWIDTH, &st, err, sizeof err), 0);
    int64_t peak = st.peak;
    const int pcts[] = {55, 60, 65};
    double extra[3];
    for (int k = 0; k < 3; k++) {
        budget_plan p = {0};
        budget_outcome o;
        assert_int_equal(budget_greedy(&bm,
                                       &(budget_goal){peak * pcts[k] / 100, BUDGET_ALLOW_RECOMPUTE,
                                                      BUDGET_BANDWIDTH, NULL},
                                       NULL, &p, &o, NULL),
                         0);
        if (!o.found) fail_msg("greedy at %d%%: %s", pcts[k], o.why);
        if (budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err))
            fail_msg("greedy at %d%%: %s", pcts[k], err);
        assert_true(st.peak <= peak * pcts[k] / 100);
        extra[k] = st.extra_ms;
        print_message("gen train 300 at %d%%: extra %.4g ms, %llu reruns\n", pcts[k], extra[k],
                      (unsigned long long)st.reruns);
        budget_plan_free(&p);
    }
    assert_true(extra[2] < extra[1]);
    assert_true(extra[1] < extra[0]);
    /* Offload allowed as well: never more extra time than by recompute alone */
    for (int k = 0; k < 3; k++) {
        budget_plan p = {0};
        budget_outcome o;
        assert_int_equal(budget_greedy(&bm,
                                       &(budget_goal){peak * pcts[k] / 100,
                                                      BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD,
                                                      BUDGET_BANDWIDTH, NULL},
                                       NULL, &p, &o, NULL),
                         0);
        assert_true(o.found);
        if (budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err))
            fail_msg("greedy with offload at %d%%: %s", pcts[k], err);
        print_message("... with offload: extra %.4g ms\n", st.extra_ms);
        assert_true(st.extra_ms <= extra[k]);
        budget_plan_free(&p);
    }
    budget_plan_free(&given);
    budget_model_free(&bm);
    graph_free(g);
}

/* The model along priority's order: its places follow that order, its producers are the
 * given model's, and a plan walked along it replays on the given model. On gen train 300 the
 * given order needs reruns at 75% of its peak where priority's order (updates as soon as their
 * gradients are made) fits with none: greedy's plan there takes no extra time. */
void greedy_walks_priority_order(void **state)
{
    (void)state;
    membuf m = gen_json("train", 300, 1);
    graph *g = load_ok(m.p);
    free(m.p);
    budget_model bm, pm;
    model_ok(&bm, g);
    char err[256];
    assert_int_equal(budget_model_init_order(&pm, g, policy_find("priority"), err, sizeof err), 0);
    run r;
    assert_int_equal(policy_run(g, policy_find("priority"), NULL, &r, err, sizeof err), 0);
    uint32_t k = 0, differ = 0;
    for (uint32_t s = 0; s < g->n; s++) {
        uint32_t v = r.order[s];
        if (g->kind[v] != NODE_COMPUTE) continue;
        assert_int_equal(pm.order[k], v);
        assert_int_equal(pm.pos[v], k);
        differ += bm.order[k] != v;
        k++;
    }
    assert_int_equal(k, bm.m);
    assert_true(differ > 0);
    for (uint32_t b = 0; b < g->nbufs; b++) assert_int_equal(pm.producer[b], bm.producer[b]);
    policy_run_free(&r);
    budget_plan given = {0};
    budget_stats st;
    assert_int_equal(budget_given_plan(&bm, &given), 0);
    assert_int_equal(budget_check(&bm, &given, BUDGET_BANDWIDTH, &st, err, sizeof err), 0);
    int64_t budget = st.peak * 75 / 100;
    /* priority's order with no budget: a plan of the given model, under 75%, no extra time */
    budget_plan pp = {0};
    assert_int_equal(budget_given_plan(&pm, &pp), 0);
    if (budget_check(&bm, &pp, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
    assert_true(st.peak <= budget);
    assert_true(st.extra_ms == 0 && st.reruns == 0);
    budget_plan p = {0};
    budget_outcome o;
    assert_int_equal(
        budget_greedy(&bm, &(budget_goal){budget, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL},
                      NULL, &p, &o, NULL),
        0);
    assert_true(o.found);
    assert_int_equal(budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err), 0);
    assert_true(st.peak <= budget);
    assert_true(st.extra_ms == 0 && st.reruns == 0);
    budget_plan_free(&p);
    budget_plan_free(&pp);
    budget_plan_free(&given);
    budget_model_free(&pm);
    budget_model_free(&bm);
    graph_free(g);
}

/* Capuchin: where a buffer may be made again (fwd, 5 ms) or offloaded with its copy hidden
 * under 20 ms of work before its next use, greedy offloads it: no rerun, next to no time. */
void greedy_prefers_hidden_offload(void **state)
{
    (void)state;
    graph *g = load_ok("{\"Nodes\": ["
                       "{\"Id\": 0, \"Op\": \"ALLOC\", \"BufId\": 1, \"Size\": 100},"
                       "{\"Id\": 1, \"Op\": \"Input\", \"Inputs\": [1]},"
                       "{\"Id\": 2, \"Op\": \"ALLOC\", \"BufId\": 2, \"Size\": 1000},"
                       "{\"Id\": 3, \"Op\": \"fwd\", \"Inputs\": [1, 2], \"Latency\": 5},"
                       "{\"Id\": 4, \"Op\": \"ALLOC\", \"BufId\": 3, \"Size\": 1000},"
                       "{\"Id\": 5, \"Op\": \"work\", \"Inputs\": [3], \"Latency\": 10},"
                       "{\"Id\": 6, \"Op\": \"FREE\", \"BufId\": 3},"
                       "{\"Id\": 7, \"Op\": \"ALLOC\", \"BufId\": 4, \"Size\": 1000},"
                       "{\"Id\": 8, \"Op\": \"work\", \"Inputs\": [4], \"Latency\": 10},"
                       "{\"Id\": 9, \"Op\": \"FREE\", \"BufId\": 4},"
                       "{\"Id\": 10, \"Op\": \"ALLOC\", \"BufId\": 5, \"Size\": 100},"
                       "{\"Id\": 11, \"Op\": \"use\", \"Inputs\": [2, 5], \"Latency\": 1},"
                       "{\"Id\": 12, \"Op\": \"FREE\", \"BufId\": 2}],"
                       "\"Edges\": [[0, 1], [1, 3], [2, 3], [3, 5], [4, 5], [5, 6], [6, 8],"
                       "[7, 8], [8, 9], [9, 11], [10, 11], [11, 12]]}");
    budget_model bm;
    model_ok(&bm, g);
    budget_stats st;
    char err[256];
    unsigned allows[] = {BUDGET_ALLOW_RECOMPUTE, BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD};
    for (int a = 0; a < 2; a++) {
        budget_plan p = {0};
        budget_outcome o;
        assert_int_equal(budget_greedy(&bm, &(budget_goal){1200, allows[a], BUDGET_BANDWIDTH, NULL},
                                       NULL, &p, &o, NULL),
                         0);
        assert_true(o.found);
        if (budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
        assert_true(st.peak <= 1200);
        if (a == 0) { /* recompute alone: fwd again */
            assert_int_equal(st.reruns, 1);
            assert_true(st.extra_ms == 5);
        } else { /* 1000 B out and back at 16 GB/s: 125 ns, under the work */
            assert_int_equal(st.reruns, 0);
            assert_int_equal(st.offloaded_bytes, 1000);
            assert_true(st.extra_ms < 0.001);
        }
        budget_plan_free(&p);
    }
    budget_model_free(&bm);
    graph_free(g);
}
