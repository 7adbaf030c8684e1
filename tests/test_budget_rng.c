/* test_budget_rng.c: random ops run again as torch.utils.checkpoint(preserve_rng_state=True)
 * does: from a generator state of BUDGET_RNG_BYTES, saved before the first run and counted from
 * then to the last rerun (budget_check); greedy and exact find the plans that rerun a dropout
 * where "Rerun": false proves that none fits; the plan graph shows the state as an ALLOC "rng
 * state of NAME" and its FREE, at the checker's peak. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "sched/budget/budget.h"
#include "sched/graph/validate.h"
#include "sched/policy/policy.h"

/* x -> f1 -> A (small) -> dropout -> M (large) -> f2 -> Y; the backward reads Y, then M. The
 * budget-free plan holds M, Y and GY together (300000 bytes); M made again by rerunning the
 * dropout from A (held, 10000) takes 210000 and the state: 215072. Without the rerun M must be
 * present with Y and GY: no plan under 300000. %s: the dropout's Rerun field, or nothing. */
static const char *const DROP =
    "{\"Nodes\": ["
    "{\"Id\": 0, \"Op\": \"ALLOC\", \"BufId\": 1, \"Size\": 10000},"
    "{\"Id\": 1, \"Op\": \"Input\", \"Name\": \"x\", \"Inputs\": [1], \"Phase\": \"forward\"},"
    "{\"Id\": 2, \"Op\": \"ALLOC\", \"BufId\": 2, \"Size\": 10000},"
    "{\"Id\": 3, \"Op\": \"linear\", \"Name\": \"f1\", \"Inputs\": [1, 2], \"Phase\": \"forward\","
    " \"Latency\": 1},"
    "{\"Id\": 4, \"Op\": \"FREE\", \"BufId\": 1},"
    "{\"Id\": 5, \"Op\": \"ALLOC\", \"BufId\": 3, \"Size\": 100000},"
    "{\"Id\": 6, \"Op\": \"dropout\", \"Name\": \"drop\", \"Inputs\": [2, 3], \"Phase\": "
    "\"forward\", \"Latency\": 2%s},"
    "{\"Id\": 7, \"Op\": \"ALLOC\", \"BufId\": 4, \"Size\": 100000},"
    "{\"Id\": 8, \"Op\": \"linear\", \"Name\": \"f2\", \"Inputs\": [3, 4], \"Phase\": \"forward\","
    " \"Latency\": 1},"
    "{\"Id\": 9, \"Op\": \"FREE\", \"BufId\": 2},"
    "{\"Id\": 10, \"Op\": \"ALLOC\", \"BufId\": 5, \"Size\": 100000},"
    "{\"Id\": 11, \"Op\": \"mse_bw\", \"Inputs\": [4, 5], \"Phase\": \"backward\", \"Latency\": 1},"
    "{\"Id\": 12, \"Op\": \"FREE\", \"BufId\": 4},"
    "{\"Id\": 13, \"Op\": \"ALLOC\", \"BufId\": 6, \"Size\": 10000},"
    "{\"Id\": 14, \"Op\": \"native_dropout_backward\", \"Inputs\": [5, 3, 6], \"Phase\": "
    "\"backward\","
    " \"Latency\": 1},"
    "{\"Id\": 15, \"Op\": \"FREE\", \"BufId\": 5},"
    "{\"Id\": 16, \"Op\": \"FREE\", \"BufId\": 3},"
    "{\"Id\": 17, \"Op\": \"ALLOC\", \"BufId\": 7, \"Size\": 10000},"
    "{\"Id\": 18, \"Op\": \"linear_bw\", \"Inputs\": [6, 7], \"Phase\": \"backward\","
    " \"Latency\": 1},"
    "{\"Id\": 19, \"Op\": \"FREE\", \"BufId\": 6}],"
    " \"Edges\": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 8], [8, 9],"
    " [9, 10], [10, 11], [11, 12], [12, 13], [13, 14], [14, 15], [15, 16], [16, 17], [17, 18],"
    " [18, 19]]}";

static graph *drop_graph(const char *rerun)
{
    char json[4096];
    snprintf(json, sizeof json, DROP, rerun);
    return tu_load_text(json);
}

/* The graph (drop_graph) and its model in *bm. */
static graph *drop_model(const char *rerun, budget_model *bm)
{
    graph *g = drop_graph(rerun);
    char err[512];
    if (budget_model_init(bm, g, err, sizeof err)) fail_msg("%s", err);
    return g;
}

/* Plan p checked, its peak at most cap: its stats, one random op's state kept. */
static budget_stats checked_rng(const budget_model *bm, const budget_plan *p, int64_t cap)
{
    budget_stats st;
    char err[512];
    if (budget_check(bm, p, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
    assert_true(st.peak <= cap);
    assert_int_equal(st.rng_states, 1);
    assert_int_equal(st.rng_bytes, BUDGET_RNG_BYTES);
    return st;
}

/* The dropout node (Id 6). */
static uint32_t dropout(const graph *g) { return graph_find(g, 6); }

/* exact's plan at budget b: found (checked, within b) or not; *none: proven that none fits. */
static int exact_at(const budget_model *bm, int64_t b, budget_plan *p, budget_stats *st, int *none)
{
    budget_outcome o;
    budget_proof pf;
    char err[512];
    budget_goal gl = {b, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL};
    assert_int_equal(budget_exact(bm, &gl, NULL, p, &o, &pf), 0);
    *none = !o.found && pf.proven;
    if (!o.found) return 0;
    assert_true(pf.proven); /* a small graph: the search ends */
    if (budget_check(bm, p, BUDGET_BANDWIDTH, st, err, sizeof err)) fail_msg("%s", err);
    assert_true(st->peak <= b);
    return 1;
}

static void rng_state_counted_and_checked(void **state)
{
    (void)state;
    budget_model bm;
    graph *g = drop_model("", &bm);
    char err[512];
    uint32_t d = dropout(g);
    assert_true(bm.rerunnable[d] && bm.rng[d]);
    budget_plan p = {0};
    budget_stats st;
    int none;
    /* the budget-free plan: nothing reruns, no state */
    assert_int_equal(budget_given_plan(&bm, &p), 0);
    assert_int_equal(budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err), 0);
    assert_int_equal(st.peak, 300000);
    assert_int_equal(st.rng_states, 0);
    p.n = 0;
    /* at 250000 only a rerun of the dropout fits: exact proves its plan */
    assert_true(exact_at(&bm, 250000, &p, &st, &none));
    st = checked_rng(&bm, &p, 250000);
    assert_true(st.extra_ms == 2); /* the dropout's latency: nothing else reruns */
    /* the bytes after each event: the buffers present, and the state from the dropout's first
     * run to its last */
    int64_t *after = malloc((p.n + 1) * sizeof *after);
    uint8_t *pres = calloc(g->nbufs + 1, 1);
    assert_non_null(after);
    assert_non_null(pres);
    assert_int_equal(budget_check_memory(&bm, &p, BUDGET_BANDWIDTH, &st, after, err, sizeof err),
                     0);
    size_t first = p.n, last = 0;
    for (size_t k = 0; k < p.n; k++)
        if (p.ev[k].op == BUDGET_RUN && p.ev[k].x == d) {
            if (first == p.n) first = k;
            last = k;
        }
    assert_true(first < last);
    int64_t most = 0;
    for (size_t k = 0; k < p.n; k++) {
        const budget_event *e = &p.ev[k];
        if (e->op == BUDGET_FREE) pres[e->x] = 0;
        else
            for (uint32_t w = bm.wr_off[e->x]; w < bm.wr_off[e->x + 1]; w++)
                pres[bm.phys[bm.wr[w]]] = 1;
        int64_t bytes = 0;
        for (uint32_t b = 0; b < g->nbufs; b++) bytes += pres[b] ? g->buf_size[b] : 0;
        if (k >= first && k <= last) bytes += BUDGET_RNG_BYTES;
        assert_int_equal(after[k], bytes);
        if (bytes > most) most = bytes;
    }
    assert_int_equal(st.peak, most);
    free(after);
    free(pres);
    /* the same plan where the dropout says "Rerun": false: refused, the node named */
    budget_model hm;
    graph *h = drop_model(", \"Rerun\": false", &hm);
    assert_false(hm.rerunnable[dropout(h)] || hm.rng[dropout(h)]);
    assert_int_equal(budget_check(&hm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err), -1);
    assert_non_null(strstr(err, "(run Id 6): this node cannot be rerun"));
    /* and there no plan fits under 300000: proven */
    budget_plan q = {0};
    assert_false(exact_at(&hm, 299999, &q, &st, &none));
    assert_true(none);
    assert_true(exact_at(&hm, 300000, &q, &st, &none));
    assert_int_equal(st.rng_states, 0);
    /* with the state the least budget is 215072: A held, M made again beside GY and the state */
    assert_true(exact_at(&bm, 215072, &q, &st, &none));
    assert_false(exact_at(&bm, 215071, &q, &st, &none));
    assert_true(none);
    budget_plan_free(&q);
    budget_model_free(&hm);
    graph_free(h);
    budget_plan_free(&p);
    budget_model_free(&bm);
    graph_free(g);
}

static void greedy_reruns_a_dropout(void **state)
{
    (void)state;
    budget_model bm;
    graph *g = drop_model("", &bm);
    budget_plan p = {0};
    budget_outcome o;
    /* greedy counts the state from the first run to the end of its walk, and holds x (what
     * cannot be made again) to its last use: it fits at 230000 */
    budget_goal gl = {230000, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL};
    assert_int_equal(budget_greedy(&bm, &gl, NULL, &p, &o, NULL), 0);
    if (!o.found) fail_msg("greedy: %s", o.why);
    checked_rng(&bm, &p, 230000);
    /* best does at 220000 too (exact's plan), and proves it */
    budget_proof pf;
    gl.budget = 220000;
    assert_int_equal(budget_best(&bm, &gl, NULL, &p, &o, &pf), 0);
    assert_true(o.found && pf.proven);
    checked_rng(&bm, &p, 220000);
    budget_plan_free(&p);
    budget_model_free(&bm);
    graph_free(g);
}

static void plan_graph_shows_the_state(void **state)
{
    (void)state;
    budget_model bm;
    graph *g = drop_model("", &bm);
    char err[512];
    budget_plan p = {0};
    budget_stats st;
    int none;
    assert_true(exact_at(&bm, 250000, &p, &st, &none));
    graph *pg;
    budget_graph_map map;
    if (budget_plan_graph(&bm, &p, BUDGET_BANDWIDTH, &pg, &map, err, sizeof err))
        fail_msg("%s", err);
    diag dg;
    diag_init(&dg, "plan");
    assert_int_equal(validate_graph(pg, &dg), VALIDATE_OK);
    diag_free(&dg);
    run r;
    if (policy_run(pg, policy_find("given"), NULL, &r, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(r.peak, st.peak);
    policy_run_free(&r);
    /* the state: an ALLOC named after the dropout, read by its runs, freed after the last */
    uint32_t alloc = GRAPH_NONE, freed = GRAPH_NONE, readers = 0;
    for (uint32_t i = 0; i < pg->n; i++) {
        if (map.of[i] != GRAPH_NONE) continue;
        if (map.kind[i] == BPG_ALLOC) {
            alloc = i;
            assert_string_equal(graph_name(pg, i), "rng state of drop");
            assert_int_equal(pg->buf_size[pg->buf[i]], BUDGET_RNG_BYTES);
        } else if (map.kind[i] == BPG_FREE) freed = i;
    }
    assert_true(alloc != GRAPH_NONE && freed != GRAPH_NONE && alloc < freed);
    int64_t sid = pg->buf_id[pg->buf[alloc]];
    for (uint32_t i = 0; i < pg->n; i++)
        for (uint32_t e = pg->in_off[i]; e < pg->in_off[i + 1]; e++)
            if (pg->inputs[e] == sid) {
                assert_true(map.kind[i] == BPG_RUN || map.kind[i] == BPG_RERUN);
                assert_int_equal(map.of[i], dropout(g));
                assert_true(i > alloc && i < freed);
                readers++;
            }
    assert_int_equal(readers, 2);
    budget_graph_map_free(&map);
    graph_free(pg);
    budget_plan_free(&p);
    budget_model_free(&bm);
    graph_free(g);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rng_state_counted_and_checked),
        cmocka_unit_test(greedy_reruns_a_dropout),
        cmocka_unit_test(plan_graph_shows_the_state),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
