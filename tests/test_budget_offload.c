/* test_budget_offload.c: memory budgets below the weights (ZeRO-Offload, FSDP's CPU offload):
 * buffers present from the start that start on the host (BUDGET_HOST), never-freed ones that end
 * there, the checker's words for each wrong use, the bound with offload, greedy's and exact's
 * plans under the weights and optimizer state together, the plan graph, and greedy's prefetch
 * that hides a weight's fetch under the layer before. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "sched/budget/budget.h"
#include "sched/budget/budget_fit.h"
#include "sched/policy/policy.h"

/* A training step: weights W1 (BufId 1), W2 (2) and their optimizer state (3, 4), 100 B each,
 * present from the start and never freed; two layers forward (Ids 7, 9), two backward (12, 15)
 * making the gradients (8, 10), two updates in place (19, 21). Every node 1 ms. The updates
 * read 300 B; the weights and state are 400 B. */
static const char *STEP =
    "{\"Nodes\":[{\"Id\":0,\"Op\":\"ALLOC\",\"BufId\":1,\"Size\":100,\"Category\":\"weight\"},"
    "{\"Id\":1,\"Op\":\"ALLOC\",\"BufId\":2,\"Size\":100,\"Category\":\"weight\"},"
    "{\"Id\":2,\"Op\":\"ALLOC\",\"BufId\":3,\"Size\":100,\"Category\":\"optimizer\"},"
    "{\"Id\":3,\"Op\":\"ALLOC\",\"BufId\":4,\"Size\":100,\"Category\":\"optimizer\"},"
    "{\"Id\":4,\"Op\":\"ALLOC\",\"BufId\":5,\"Size\":10},"
    "{\"Id\":5,\"Op\":\"Input\",\"Inputs\":[5],\"Latency\":1},"
    "{\"Id\":6,\"Op\":\"ALLOC\",\"BufId\":6,\"Size\":10},"
    "{\"Id\":7,\"Op\":\"f1\",\"Inputs\":[5,1,6],\"Phase\":\"forward\",\"Latency\":1},"
    "{\"Id\":8,\"Op\":\"ALLOC\",\"BufId\":7,\"Size\":10},"
    "{\"Id\":9,\"Op\":\"f2\",\"Inputs\":[6,2,7],\"Phase\":\"forward\",\"Latency\":1},"
    "{\"Id\":10,\"Op\":\"ALLOC\",\"BufId\":8,\"Size\":100,\"Category\":\"gradient\"},"
    "{\"Id\":11,\"Op\":\"ALLOC\",\"BufId\":9,\"Size\":10},"
    "{\"Id\":12,\"Op\":\"b2\",\"Inputs\":[7,6,2,8,9],\"Phase\":\"backward\",\"Latency\":1},"
    "{\"Id\":13,\"Op\":\"FREE\",\"BufId\":7},"
    "{\"Id\":14,\"Op\":\"ALLOC\",\"BufId\":10,\"Size\":100,\"Category\":\"gradient\"},"
    "{\"Id\":15,\"Op\":\"b1\",\"Inputs\":[9,5,1,10],\"Phase\":\"backward\",\"Latency\":1},"
    "{\"Id\":16,\"Op\":\"FREE\",\"BufId\":9},{\"Id\":17,\"Op\":\"FREE\",\"BufId\":6},"
    "{\"Id\":18,\"Op\":\"FREE\",\"BufId\":5},"
    "{\"Id\":19,\"Op\":\"sgd\",\"Inputs\":[8,4,2],\"InPlace\":[4,2],\"Phase\":\"optimizer\","
    "\"Latency\":1},"
    "{\"Id\":20,\"Op\":\"FREE\",\"BufId\":8},"
    "{\"Id\":21,\"Op\":\"sgd\",\"Inputs\":[10,3,1],\"InPlace\":[3,1],\"Phase\":\"optimizer\","
    "\"Latency\":1},"
    "{\"Id\":22,\"Op\":\"FREE\",\"BufId\":10}],\"Edges\":[[4,5],[6,7],[8,9],[10,12],[11,12],[14,15]"
    ",[5,7],[7,9],[9,12],[12,15],[15,19],[19,21],[12,13],[15,16],[15,17],[15,18],[19,20],[21,22]]}";

/* STEP as fx2memtris exports a step: the Input node (Id 5) makes the weights and state too, and
 * they are freed at the end. Recompute alone, that node's 410 B are the bound. */
/* STEP with three changes: Input's Inputs, the FREEs after the last node, the edges. */
static char *exported(void)
{
    const char *from[] = {"\"Inputs\":[5],", "\"BufId\":10}],", "[21,22]]"};
    const char *to[] = {
        "\"Inputs\":[5,1,2,3,4],",
        "\"BufId\":10},{\"Id\":23,\"Op\":\"FREE\",\"BufId\":1},"
        "{\"Id\":24,\"Op\":\"FREE\",\"BufId\":2},{\"Id\":25,\"Op\":\"FREE\",\"BufId\":3},"
        "{\"Id\":26,\"Op\":\"FREE\",\"BufId\":4}],",
        "[21,22],[0,5],[1,5],[2,5],[3,5],[21,23],[21,24],[21,25],[21,26]]"};
    char *out = malloc(strlen(STEP) + 400), *w = out;
    const char *r = STEP;
    assert_non_null(out);
    for (int k = 0; k < 3; k++) {
        const char *at = strstr(r, from[k]);
        assert_non_null(at);
        memcpy(w, r, (size_t)(at - r));
        w += at - r;
        w += sprintf(w, "%s", to[k]);
        r = at + strlen(from[k]);
    }
    strcpy(w, r);
    return out;
}

/* Four layers (Ids 7, 10, 13, 16), each reading its weight (BufIds 1 to 4, 100 B, present from
 * the start, never freed) and the activation before; 1 ms each. */
static const char *CHAIN =
    "{\"Nodes\":[{\"Op\":\"ALLOC\",\"BufId\":1,\"Size\":100,\"Category\":\"weight\",\"Id\":0},"
    "{\"Op\":\"ALLOC\",\"BufId\":2,\"Size\":100,\"Category\":\"weight\",\"Id\":1},"
    "{\"Op\":\"ALLOC\",\"BufId\":3,\"Size\":100,\"Category\":\"weight\",\"Id\":2},"
    "{\"Op\":\"ALLOC\",\"BufId\":4,\"Size\":100,\"Category\":\"weight\",\"Id\":3},"
    "{\"Op\":\"ALLOC\",\"BufId\":10,\"Size\":10,\"Id\":4},"
    "{\"Op\":\"Input\",\"Inputs\":[10],\"Latency\":1,\"Id\":5},"
    "{\"Op\":\"ALLOC\",\"BufId\":11,\"Size\":10,\"Id\":6},"
    "{\"Op\":\"layer\",\"Inputs\":[10,1,11],\"Phase\":\"forward\",\"Latency\":1,\"Id\":7},"
    "{\"Op\":\"FREE\",\"BufId\":10,\"Id\":8},{\"Op\":\"ALLOC\",\"BufId\":12,\"Size\":10,\"Id\":9},"
    "{\"Op\":\"layer\",\"Inputs\":[11,2,12],\"Phase\":\"forward\",\"Latency\":1,\"Id\":10},"
    "{\"Op\":\"FREE\",\"BufId\":11,\"Id\":11},{\"Op\":\"ALLOC\",\"BufId\":13,\"Size\":10,\"Id\":12}"
    ","
    "{\"Op\":\"layer\",\"Inputs\":[12,3,13],\"Phase\":\"forward\",\"Latency\":1,\"Id\":13},"
    "{\"Op\":\"FREE\",\"BufId\":12,\"Id\":14},{\"Op\":\"ALLOC\",\"BufId\":14,\"Size\":10,\"Id\":15}"
    ","
    "{\"Op\":\"layer\",\"Inputs\":[13,4,14],\"Phase\":\"forward\",\"Latency\":1,\"Id\":16},"
    "{\"Op\":\"FREE\",\"BufId\":13,\"Id\":17},"
    "{\"Op\":\"FREE\",\"BufId\":14,\"Id\":18}],\"Edges\":[[4,5],[6,7],[5,7],[7,8],[9,10],[7,10],["
    "10,11],[12,13],[10,13],[13,14],[15,16],[13,16],[16,17],[16,18]]}";

static uint32_t buf(const graph *g, int64_t bufid)
{
    for (uint32_t x = 0; x < g->nbufs; x++)
        if (g->buf_id[x] == bufid) return x;
    fail_msg("no BufId %lld", (long long)bufid);
    return 0;
}

static uint32_t node(const graph *g, int64_t id)
{
    for (uint32_t v = 0; v < g->n; v++)
        if (g->id[v] == id) return v;
    fail_msg("no Id %lld", (long long)id);
    return 0;
}

/* Plan from a script: "h1" host BufId 1, "r5" run Id 5, "f6" free, "o2" offload, "g2" fetch. */
static void script(const graph *g, budget_plan *p, const char *const *ev, size_t n)
{
    p->n = 0;
    for (size_t k = 0; k < n; k++) {
        int64_t x = atoll(ev[k] + 1);
        char c = ev[k][0];
        uint32_t op = c == 'r'   ? BUDGET_RUN
                      : c == 'f' ? BUDGET_FREE
                      : c == 'o' ? BUDGET_OFFLOAD
                      : c == 'g' ? BUDGET_FETCH
                                 : BUDGET_HOST;
        assert_int_equal(budget_plan_push(p, op, op == BUDGET_RUN ? node(g, x) : buf(g, x)), 0);
    }
}

static const char *const GOOD[] = {"h1",  "h2",  "h3", "h4", "r5",  "g1",  "r7", "g2",
                                   "r9",  "r12", "f6", "f7", "r15", "f5",  "f9", "g4",
                                   "r19", "f8",  "o2", "o4", "g3",  "r21", "f10"};
#define NGOOD (sizeof GOOD / sizeof *GOOD)

static void expect_error(const budget_model *bm, const char *const *ev, size_t n, const char *want)
{
    budget_plan p = {0};
    budget_stats st;
    char err[256] = "";
    script(bm->g, &p, ev, n);
    assert_int_equal(budget_check(bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err), -1);
    if (!strstr(err, want)) fail_msg("\"%s\" does not say \"%s\"", err, want);
    budget_plan_free(&p);
}

/* Everything starts on the host: the start holds nothing, the bytes after the first run are its
 * output alone; W2 and its state end on the host at their last version. The checker names each
 * wrong use. */
static void checker_host_start_and_end(void **state)
{
    (void)state;
    graph *g = tu_load_text(STEP);
    budget_model bm;
    char err[256];
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    assert_int_equal(bm.initial, 400);
    budget_plan p = {0};
    budget_stats st;
    int64_t after[NGOOD];
    script(g, &p, GOOD, NGOOD);
    if (budget_check_memory(&bm, &p, BUDGET_BANDWIDTH, &st, after, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(after[4], 10); /* Input's output, and nothing from the start */
    assert_int_equal(st.peak, 500);
    assert_int_equal(after[NGOOD - 1], 200); /* W1 and its state; W2 and its state hosted */
    assert_int_equal(st.offloaded_bytes, 200);
    budget_plan_free(&p);

    const char *late[] = {"h2", "r5", "h1"};
    expect_error(&bm, late, 3, "event 3 (host BufId 1): a buffer starts on the host only before");
    const char *made[] = {"h6"};
    expect_error(
        &bm, made, 1,
        "event 1 (host BufId 6): it is neither present from the start nor made by an Input");
    const char *twice[] = {"h1", "h1"};
    expect_error(&bm, twice, 2, "event 2 (host BufId 1): it starts on the host already");
    const char *unfetched[] = {"h1", "r5", "r7"};
    expect_error(&bm, unfetched, 3, "event 3 (run Id 7): it reads BufId 1, which is not present");
    const char *old[NGOOD];
    memcpy(old, GOOD, sizeof old);
    old[18] = "f2"; /* W2 changed in place and freed: the host holds the step's start */
    expect_error(&bm, old, NGOOD,
                 "BufId 2, which the graph never frees, is not present (its copy on the host is "
                 "of another version)");
    budget_model_free(&bm);
    graph_free(g);
}

/* With offload the bound counts neither the start nor the never-freed buffers together: only
 * the updates' 300 B; recompute alone, the 400 B of weights and state. */
static void bound_with_offload(void **state)
{
    (void)state;
    graph *g = tu_load_text(STEP);
    budget_model bm;
    char err[256];
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    assert_int_equal(budget_lower_bound(&bm), 400);
    assert_int_equal(budget_lower_bound_allow(&bm, BUDGET_ALLOW_RECOMPUTE), 400);
    assert_int_equal(budget_lower_bound_allow(&bm, BUDGET_ALLOW_OFFLOAD), 300);
    assert_int_equal(budget_lower_bound_allow(&bm, BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD),
                     300);
    budget_model_free(&bm);
    graph_free(g);
}

/* A plan by the solver, checked: its figures in *st, and how many buffers start on the host. */
static int solved(const budget_model *bm, int (*solve)(BUDGET_SOLVER_ARGS), int64_t b,
                  unsigned allow, budget_stats *st, size_t *hosted, budget_proof *pf)
{
    budget_plan p = {0};
    budget_outcome o;
    char err[256];
    assert_int_equal(solve(bm, &(budget_goal){b, allow, BUDGET_BANDWIDTH, NULL}, NULL, &p, &o, pf),
                     0);
    if (o.found) {
        if (budget_check(bm, &p, BUDGET_BANDWIDTH, st, err, sizeof err)) fail_msg("%s", err);
        assert_true(st->peak <= b);
        *hosted = 0;
        while (*hosted < p.n && p.ev[*hosted].op == BUDGET_HOST) ++*hosted;
        for (size_t k = *hosted; k < p.n; k++) assert_int_not_equal(p.ev[k].op, BUDGET_HOST);
        graph *pg;
        if (budget_plan_graph(bm, &p, BUDGET_BANDWIDTH, &pg, NULL, err, sizeof err))
            fail_msg("%s", err);
        run r;
        if (policy_run(pg, policy_find("given"), NULL, &r, err, sizeof err)) fail_msg("%s", err);
        assert_int_equal(r.peak, st->peak); /* the plan graph peaks where the checker says */
        policy_run_free(&r);
        graph_free(pg);
    }
    budget_plan_free(&p);
    return o.found;
}

/* At 300 B, under the 400 B of weights and state: no plan by recompute alone; with offload
 * greedy and exact find one, starting weights on the host; at 299 B exact proves none fits,
 * and the front door says so from the bound. */
static void below_the_weights(void **state)
{
    (void)state;
    graph *g = tu_load_text(STEP);
    budget_model bm;
    budget_stats st;
    budget_proof pf;
    size_t hosted;
    char err[256];
    const unsigned both = BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD;
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    assert_false(solved(&bm, budget_greedy, 300, BUDGET_ALLOW_RECOMPUTE, &st, &hosted, NULL));
    assert_true(solved(&bm, budget_greedy, 300, both, &st, &hosted, NULL));
    assert_true(hosted >= 1 && st.reruns == 0);
    assert_true(solved(&bm, budget_exact, 300, both, &st, &hosted, &pf));
    assert_true(hosted >= 1);
    assert_true(solved(&bm, budget_exact, 300, BUDGET_ALLOW_OFFLOAD, &st, &hosted, &pf));
    assert_false(solved(&bm, budget_exact, 299, both, &st, &hosted, &pf));
    assert_true(pf.proven);
    budget_result res = {0};
    budget_request rq = {.g = g,
                         .budget = 299,
                         .allow = both,
                         .bandwidth = BUDGET_BANDWIDTH,
                         .solver = budget_solver_find("best")};
    assert_int_equal(budget_fit(&rq, &res), 0);
    assert_false(res.found);
    assert_true(res.proven_infeasible);
    assert_int_equal(res.bound, 300);
    budget_result_free(&res);
    budget_result res2 = {0};
    rq.budget = 300;
    assert_int_equal(budget_fit(&rq, &res2), 0);
    assert_true(res2.found);
    budget_result_free(&res2);
    budget_model_free(&bm);
    graph_free(g);
}

/* An exported step: with offload the Input node leaves weights and state on the host (host
 * events; the checker, the plan graph and policy given agree), so greedy and exact fit in the
 * updates' 300 B, under the Input's 410 B; at 299 B exact's search proves that none fits. */
static void input_leaves_them_on_the_host(void **state)
{
    (void)state;
    char *json = exported();
    graph *g = tu_load_text(json);
    free(json);
    budget_model bm;
    budget_stats st;
    budget_proof pf;
    size_t hosted;
    char err[256];
    const unsigned both = BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD;
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    assert_int_equal(bm.initial, 0);
    assert_int_equal(budget_lower_bound(&bm), 410);
    assert_int_equal(budget_lower_bound_allow(&bm, both), 300);
    assert_true(solved(&bm, budget_greedy, 300, both, &st, &hosted, NULL));
    assert_true(hosted >= 1);
    assert_true(solved(&bm, budget_exact, 300, both, &st, &hosted, &pf));
    assert_true(hosted >= 1);
    assert_false(solved(&bm, budget_exact, 299, both, &st, &hosted, &pf));
    assert_true(pf.proven);
    /* By hand: a left on the host by its Input, fetched for f1. */
    const char *ok[] = {"h5", "r5", "g5", "r7"};
    budget_plan p = {0};
    int64_t after[4];
    script(g, &p, ok, 4);
    if (budget_check_memory(&bm, &p, BUDGET_BANDWIDTH, &st, after, err, sizeof err) == 0)
        fail_msg("a partial plan passed");
    assert_true(strstr(err, "never runs") != NULL);
    budget_plan_free(&p);
    const char *unfetched[] = {"h5", "r5", "r7"};
    expect_error(&bm, unfetched, 3, "event 3 (run Id 7): it reads BufId 5, which is not present");
    budget_model_free(&bm);
    graph_free(g);
}

/* Four layers at 230 B, room for two weights: each weight fetched from the host, 0.5 ms a copy
 * (200 kB/s) under 1 ms layers. Greedy fetches a layer's weight while the layer before computes
 * where room allows, so at most one copy waits (0.5 ms), not all four (2 ms). */
static void prefetch_hides_fetches(void **state)
{
    (void)state;
    graph *g = tu_load_text(CHAIN);
    budget_model bm;
    char err[256];
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    budget_plan p = {0};
    budget_outcome o;
    budget_stats st;
    assert_int_equal(budget_greedy(&bm, &(budget_goal){230, BUDGET_ALLOW_OFFLOAD, 200000, NULL},
                                   NULL, &p, &o, NULL),
                     0);
    assert_true(o.found);
    if (budget_check(&bm, &p, 200000, &st, err, sizeof err)) fail_msg("%s", err);
    assert_true(st.peak <= 230);
    assert_true(st.extra_ms <= 0.5 + 1e-9);
    size_t early = 0; /* fetches issued before a run that does not read them */
    for (size_t k = 0; k + 1 < p.n; k++)
        if (p.ev[k].op == BUDGET_FETCH && p.ev[k + 1].op == BUDGET_RUN) {
            uint32_t v = p.ev[k + 1].x, reads = 0;
            for (uint32_t e = bm.rd_off[v]; e < bm.rd_off[v + 1]; e++)
                reads |= bm.phys[bm.rd[e]] == p.ev[k].x;
            early += !reads;
        }
    assert_true(early >= 1);
    budget_plan_free(&p);
    budget_model_free(&bm);
    graph_free(g);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(checker_host_start_and_end),
        cmocka_unit_test(bound_with_offload),
        cmocka_unit_test(below_the_weights),
        cmocka_unit_test(input_leaves_them_on_the_host),
        cmocka_unit_test(prefetch_hides_fetches),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
