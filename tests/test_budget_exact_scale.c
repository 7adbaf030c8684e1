/* test_budget_exact_scale.c: what lets the exact budget solver scale to training steps, listed in
 * test_budget.c's main: its bound counts a whole chain of reruns (a version changed in place is
 * made again by its producer and every changer after it); it never makes a child whose bound
 * reaches the incumbent (an eviction of what cannot come back, or whose rerun costs too much),
 * nor keeps a state dominated by another with the same runs. Each proves in a bounded count of
 * states or of the search's clock reads; the brute force agrees on random graphs with versions
 * (test_budget_inplace.c). */
#include "testutil.h"
#include "test_budget.h"
#include "test_gen.h"

/* r buffers x_j of 100 bytes, each made by a node and changed in place by k more (latency 1
 * each), then a node Z that makes a buffer of 1000 bytes, W reading it with 10 bytes of its own,
 * and R reading W's and every x_j at its last version. At 1010 bytes every x_j is evicted for
 * Z, so the least plan makes each again by its whole chain: r (k + 1) reruns. The chains run
 * one after another (Edges), so that the first runs have one order. */
static graph *chains_graph(int r, int k)
{
    char nodes[8192] = "", edges[8192] = "";
    size_t ln = 0, le = 0;
    int id = 0, last[8];
    for (int j = 0; j < r; j++) {
        int a = id++;
        ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln,
                               "{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": 100, \"BufId\": %d},\n",
                               a, 10 + j);
        int prev = a;
        if (j) /* the chains one after another: one order of first runs */
            le += (size_t)snprintf(edges + le, sizeof edges - le, "[%d, %d], ", last[j - 1], id);
        for (int c = 0; c <= k; c++) {
            int v = id++;
            ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln,
                                   "{\"Id\": %d, \"Op\": \"%s\", \"Latency\": 1, \"Inputs\": [%d]",
                                   v, c ? "add_" : "relu", 10 + j);
            if (c)
                ln +=
                    (size_t)snprintf(nodes + ln, sizeof nodes - ln, ", \"InPlace\": [%d]", 10 + j);
            ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln, "},\n");
            le += (size_t)snprintf(edges + le, sizeof edges - le, "[%d, %d], ", prev, v);
            prev = v;
        }
        last[j] = prev;
    }
    int ay = id++, z = id++, aw = id++, w = id++, fy = id++, rr = id++;
    ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln,
                           "{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": 1000, \"BufId\": 1},\n"
                           "{\"Id\": %d, \"Op\": \"big\", \"Latency\": 1, \"Inputs\": [1]},\n"
                           "{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": 10, \"BufId\": 2},\n"
                           "{\"Id\": %d, \"Op\": \"small\", \"Latency\": 1, \"Inputs\": [1, 2]},\n"
                           "{\"Id\": %d, \"Op\": \"FREE\", \"BufId\": 1},\n"
                           "{\"Id\": %d, \"Op\": \"sum\", \"Latency\": 1, \"Inputs\": [2",
                           ay, z, aw, w, fy, rr);
    for (int j = 0; j < r; j++)
        ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln, ", %d", 10 + j);
    ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln, "]}");
    le += (size_t)snprintf(edges + le, sizeof edges - le,
                           "[%d, %d], [%d, %d], [%d, %d], [%d, %d], [%d, %d], [%d, %d]", ay, z, z,
                           w, aw, w, w, fy, w, rr, fy, rr);
    for (int j = 0; j < r; j++) {
        le += (size_t)snprintf(edges + le, sizeof edges - le, ", [%d, %d], [%d, %d]", last[j], z,
                               last[j], rr);
        int f = id++;
        ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln,
                               ",\n{\"Id\": %d, \"Op\": \"FREE\", \"BufId\": %d}", f, 10 + j);
        le += (size_t)snprintf(edges + le, sizeof edges - le, ", [%d, %d]", rr, f);
    }
    int fw = id++;
    ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln,
                           ",\n{\"Id\": %d, \"Op\": \"FREE\", \"BufId\": 2}", fw);
    le += (size_t)snprintf(edges + le, sizeof edges - le, ", [%d, %d]", rr, fw);
    assert_true(ln < sizeof nodes - 1 && le < sizeof edges - 1);
    char *json = malloc(ln + le + 64);
    sprintf(json, "{\"Nodes\": [%s], \"Edges\": [%s]}", nodes, edges);
    graph *g = load_ok(json);
    free(json);
    return g;
}

/* The bound counts the whole chain: after the evictions for Z the bound is already the
 * optimum, so no state past Z is expanded; what it still goes through are the wasted reruns
 * before Z (a rerun of a producer writes over the version present, which its changer then
 * makes again). It proves in 402 states; a bound that counted only each chain's last changer
 * took 869. */
void exact_bounds_whole_chains(void **state)
{
    (void)state;
    const int r = 3, k = 4;
    graph *g = chains_graph(r, k);
    budget_model bm;
    model_ok(&bm, g);
    assert_int_equal(bm.nl, g->nbufs + (uint32_t)(r * k)); /* each change a version */
    budget_proof pf;
    budget_outcome o;
    double extra;
    solve_ctx c = {.max_states = 100000};
    assert_true(exact_checked(&bm, 1010, BUDGET_ALLOW_RECOMPUTE, &c, NULL, &extra, &pf, &o));
    assert_true(pf.proven);
    assert_true(extra == r * (k + 1));
    print_message("chains: proven in %llu states\n", (unsigned long long)pf.states);
    assert_true(pf.states <= 500);
    /* without greedy's plan as the incumbent, the same optimum, found and proven */
    budget_plan none = {0};
    assert_true(exact_checked(&bm, 1010, BUDGET_ALLOW_RECOMPUTE, &c, &none, &extra, &pf, &o));
    assert_true(pf.proven && extra == r * (k + 1));
    /* one byte less than Z's and W's own and no x_j: nothing fits, and it says so */
    assert_false(exact_checked(&bm, 1009, BUDGET_ALLOW_RECOMPUTE, &c, NULL, &extra, &pf, &o));
    assert_true(pf.proven);
    budget_model_free(&bm);
    graph_free(g);
}

static uint64_t reads;
static double counting_clock(void) { return (double)++reads; }

/* exact on gen train (200 nodes, that seed) at 60% of the budget-free peak within c, proven
 * with a plan that reruns; its states in *states. */
static void train_200_at_60(uint64_t seed, const solve_ctx *c, uint64_t *states)
{
    membuf m = gen_json("train", 200, seed);
    graph *g = load_ok(m.p);
    free(m.p);
    budget_model bm;
    model_ok(&bm, g);
    int64_t budgets[8], peak;
    budgets_of(&bm, budgets, &peak);
    budget_proof pf;
    budget_outcome o;
    double extra;
    reads = 0;
    assert_true(
        exact_checked(&bm, peak * 60 / 100, BUDGET_ALLOW_RECOMPUTE, c, NULL, &extra, &pf, &o));
    print_message("gen train 200 seed %llu at 60%%: %g ms, %s, %llu states, %llu clock reads\n",
                  (unsigned long long)seed, extra, pf.proven ? "proven" : "not proven",
                  (unsigned long long)pf.states, (unsigned long long)reads);
    assert_true(pf.proven && extra > 0);
    *states = pf.states;
    budget_model_free(&bm);
    graph_free(g);
}

/* gen train, 200 nodes, seed 5, at 60% of the budget-free peak: the search proves its optimum
 * within 20000 reads of its clock (it reads it once a state it expands, once every 256 children
 * it makes, and greedy's walks read it too): 708 (3918 without dominance); when it enumerated every
 * set of evictions, those that evict a weight or reach the incumbent included, 20000 reads did not
 * prove it. */
void exact_drops_doomed_evictions(void **state)
{
    (void)state;
    uint64_t states;
    train_200_at_60(5, &(solve_ctx){.seconds = 20000, .clock = counting_clock}, &states);
}

/* Dominance on present sets: of two states with the same runs, one holding every version the
 * other holds at no more cost is kept, the other not. gen train, 200 nodes, seed 1, at 60%: the
 * optimum proven in at most 1500 states (719; 3194 without dominance, as every present set was
 * kept apart); the brute force agrees on random graphs with versions (test_budget_inplace.c)
 * and without (test_budget_exact.c) with dominance on. */
void exact_dominance_on_present_sets(void **state)
{
    (void)state;
    uint64_t states;
    train_200_at_60(1, &(solve_ctx){.max_states = 100000}, &states);
    assert_true(states <= 1500);
}

/* With the order fixed (an Edge from each compute node to the next), the bound from memory
 * (budget_exact_bound.c) is on: on random graphs with versions exact equals the brute force
 * (whose first runs keep that order too) at every budget, proven. */
void exact_fixed_order_against_brute_force(void **state)
{
    (void)state;
    uint64_t seed = 0x510e527fade682d1ull;
    int cases = 0, feasible = 0, reruns = 0;
    for (int t = 0; t < 120; t++) {
        small sg;
        small_random_inplace(&sg, &seed, t % 2 ? 9 : 14);
        small_chain(&sg);
        graph *g = load_ok(sg.json);
        budget_model bm;
        model_ok(&bm, g);
        int64_t budgets[8], peak;
        size_t nb = budgets_of(&bm, budgets, &peak);
        for (size_t k = 0; k < nb; k++) {
            long opt = brute_capped(&sg, budgets[k], 60000);
            if (opt == -2) continue;
            cases++;
            feasible += opt >= 0;
            reruns += opt > 0;
            budget_proof pf;
            budget_outcome o;
            double extra;
            int f =
                exact_checked(&bm, budgets[k], BUDGET_ALLOW_RECOMPUTE, NULL, NULL, &extra, &pf, &o);
            if (f != (opt >= 0) || (f && extra != (double)opt))
                fail_msg("graph %d budget %lld: brute force %ld, exact %s %g (%s)\n%s", t,
                         (long long)budgets[k], opt, f ? "a plan" : "none", extra, o.why, sg.json);
            assert_true(pf.proven);
        }
        budget_model_free(&bm);
        graph_free(g);
    }
    print_message("order fixed: %d budgets (%d feasible, %d with reruns): exact equals the brute "
                  "force\n",
                  cases, feasible, reruns);
    assert_true(feasible > cases / 3 && feasible < cases && reruns > cases / 10);
}

/* The bound from memory where the Edges leave one order (budget_exact_bound.c): on the chains
 * above (one order), at W the x_j (held until R), Z's buffer and W's pass 1010 bytes by 300,
 * and each x_j is made again by its last changer (latency 1) for 100 bytes: the start's bound
 * is 3, what exact reports when it stops after its first state (the other bound says 0 there,
 * nothing being gone yet). */
void exact_bound_from_memory(void **state)
{
    (void)state;
    graph *g = chains_graph(3, 4);
    budget_model bm;
    model_ok(&bm, g);
    budget_proof pf;
    budget_outcome o;
    double extra;
    solve_ctx one = {.max_states = 1};
    assert_true(exact_checked(&bm, 1010, BUDGET_ALLOW_RECOMPUTE, &one, NULL, &extra, &pf, &o));
    assert_int_equal(pf.stopped, SOLVE_STATES);
    assert_false(pf.proven);
    assert_true(pf.lower_bound_ms == 3);
    budget_model_free(&bm);
    graph_free(g);
}
