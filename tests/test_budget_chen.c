/* test_budget_chen.c: Chen's sqrt(n) baseline as published (budget_chen): on every shipped
 * training sample and on `gen train` steps of several sizes and seeds its plan is checked, never
 * peaks above the budget-free peak, reruns only forward nodes, one segment at a time (a
 * segment's reruns together, the segments from the last to the first); a segment whose rerun
 * would pass the budget-free peak keeps its outputs (a graph made for it). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include "testutil.h"
#include "sched/budget/budget.h"

/* Chen's plan of g, checked: its stats, the budget-free peak in *free_peak. Asserts what every
 * plan of the baseline must be; returns its reruns. */
static uint64_t chen_checked(const graph *g, const char *what, budget_stats *st, int64_t *free_peak)
{
    budget_model bm;
    char err[512];
    if (budget_model_init(&bm, g, err, sizeof err)) fail_msg("%s: %s", what, err);
    budget_plan p = {0};
    budget_outcome o;
    assert_int_equal(budget_given_plan(&bm, &p), 0);
    assert_int_equal(budget_check(&bm, &p, BUDGET_BANDWIDTH, st, err, sizeof err), 0);
    *free_peak = st->peak;
    p.n = 0;
    assert_int_equal(budget_chen(&bm, NULL, &p, &o), 0);
    if (!o.found) fail_msg("%s: no plan: %s", what, o.why);
    if (budget_check(&bm, &p, BUDGET_BANDWIDTH, st, err, sizeof err)) fail_msg("%s: %s", what, err);
    if (st->peak > *free_peak)
        fail_msg("%s: Chen's plan peaks at %lld, above the budget-free peak %lld", what,
                 (long long)st->peak, (long long)*free_peak);
    /* the forward nodes' segments, as the baseline cuts them */
    uint32_t nf = 0, k = 1;
    for (uint32_t i = 0; i < bm.m; i++) nf += graph_phase(g, bm.order[i]) == GRAPH_PHASE_FORWARD;
    while ((uint64_t)k * k < nf) k++;
    uint32_t *seg = calloc((size_t)g->n + 1, sizeof *seg), *runs = calloc((size_t)g->n + 1, 4);
    uint8_t *seen = calloc((size_t)nf / k + 2, 1);
    assert_non_null(seg);
    assert_non_null(runs);
    assert_non_null(seen);
    for (uint32_t i = 0, f = 0; i < bm.m; i++)
        if (graph_phase(g, bm.order[i]) == GRAPH_PHASE_FORWARD) seg[bm.order[i]] = f++ / k;
    /* reruns: forward nodes only, each segment's together, from the last segment to the first
     * (each segment at most once: it is made again once, for its backward) */
    uint32_t cur = UINT32_MAX, prev = UINT32_MAX;
    for (size_t e = 0; e < p.n; e++) {
        if (p.ev[e].op != BUDGET_RUN) continue;
        uint32_t v = p.ev[e].x;
        if (!runs[v]++) {
            cur = UINT32_MAX;
            continue;
        }
        assert_int_equal(graph_phase(g, v), GRAPH_PHASE_FORWARD);
        if (seg[v] != cur) {
            if (seen[seg[v]]) fail_msg("%s: segment %u runs again twice", what, seg[v]);
            if (prev != UINT32_MAX && seg[v] >= prev)
                fail_msg("%s: segment %u runs again after segment %u", what, seg[v], prev);
            seen[seg[v]] = 1;
            cur = prev = seg[v];
        }
    }
    free(seg);
    free(runs);
    free(seen);
    budget_plan_free(&p);
    budget_model_free(&bm);
    return st->reruns;
}

static void chen_never_above_the_free_peak(void **state)
{
    (void)state;
    const char *samples[] = {"resnet18_train.json", "transformer_block_train.json"};
    for (int k = 0; k < 2; k++) {
        graph *g = tu_load_sample(samples[k], NULL);
        budget_stats st;
        int64_t fp;
        uint64_t reruns = chen_checked(g, samples[k], &st, &fp);
        print_message("%s: Chen peaks at %.1f%% of the budget-free peak, %llu reruns\n", samples[k],
                      100.0 * (double)st.peak / (double)fp, (unsigned long long)reruns);
        assert_true(reruns > 0);
        graph_free(g);
    }
    const uint32_t sizes[] = {30, 60, 200, 1000, 3000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (uint64_t seed = 1; seed <= 5; seed++) {
            graph *g = tu_gen_load("train", sizes[i], seed);
            char what[64];
            snprintf(what, sizeof what, "gen train %u seed %llu", sizes[i],
                     (unsigned long long)seed);
            budget_stats st;
            int64_t fp;
            uint64_t reruns = chen_checked(g, what, &st, &fp);
            if (sizes[i] >= 200) { /* it drops something and saves something */
                assert_true(reruns > 0);
                assert_true(st.peak < fp);
            }
            graph_free(g);
        }
}

/* Segment 0 (f0, f1) drops A, which f0 made beside a large T that only f1 reads; made again
 * before b1, when the gradient G1 is present, T would pass the budget-free peak: segment 0
 * keeps A. Segment 1 (f2, f3) drops C, made again before b0 with nothing large beside it. */
static const char *const HOLD =
    "{\"Nodes\": ["
    "{\"Id\": 0, \"Op\": \"ALLOC\", \"BufId\": 1, \"Size\": 10},"
    "{\"Id\": 1, \"Op\": \"ALLOC\", \"BufId\": 2, \"Size\": 1000},"
    "{\"Id\": 2, \"Op\": \"f0\", \"Name\": \"f0\", \"Phase\": \"forward\", \"Inputs\": [1, 2]},"
    "{\"Id\": 3, \"Op\": \"ALLOC\", \"BufId\": 3, \"Size\": 10},"
    "{\"Id\": 4, \"Op\": \"f1\", \"Name\": \"f1\", \"Phase\": \"forward\", \"Inputs\": [1, 2, 3]},"
    "{\"Id\": 5, \"Op\": \"FREE\", \"BufId\": 2},"
    "{\"Id\": 6, \"Op\": \"ALLOC\", \"BufId\": 4, \"Size\": 10},"
    "{\"Id\": 7, \"Op\": \"f2\", \"Name\": \"f2\", \"Phase\": \"forward\", \"Inputs\": [3, 4]},"
    "{\"Id\": 8, \"Op\": \"ALLOC\", \"BufId\": 5, \"Size\": 10},"
    "{\"Id\": 9, \"Op\": \"f3\", \"Name\": \"f3\", \"Phase\": \"forward\", \"Inputs\": [4, 5]},"
    "{\"Id\": 10, \"Op\": \"ALLOC\", \"BufId\": 6, \"Size\": 2000},"
    "{\"Id\": 11, \"Op\": \"b0\", \"Name\": \"b0\", \"Phase\": \"backward\", \"Inputs\": [4, 5, "
    "6]},"
    "{\"Id\": 12, \"Op\": \"FREE\", \"BufId\": 4},"
    "{\"Id\": 13, \"Op\": \"FREE\", \"BufId\": 5},"
    "{\"Id\": 14, \"Op\": \"ALLOC\", \"BufId\": 7, \"Size\": 10},"
    "{\"Id\": 15, \"Op\": \"b1\", \"Name\": \"b1\", \"Phase\": \"backward\", \"Inputs\": [1, 3, 6, "
    "7]},"
    "{\"Id\": 16, \"Op\": \"FREE\", \"BufId\": 1},"
    "{\"Id\": 17, \"Op\": \"FREE\", \"BufId\": 3},"
    "{\"Id\": 18, \"Op\": \"FREE\", \"BufId\": 6}],"
    " \"Edges\": [[0, 2], [1, 2], [2, 3], [3, 4], [4, 5], [4, 6], [6, 7], [7, 8], [8, 9], [9, 10],"
    " [10, 11], [11, 12], [11, 13], [11, 14], [14, 15], [15, 16], [15, 17], [15, 18]]}";

static void chen_segment_keeps_where_rerun_passes(void **state)
{
    (void)state;
    graph *g = tu_load_text(HOLD);
    budget_stats st;
    int64_t fp;
    chen_checked(g, "hold", &st, &fp);
    assert_int_equal(fp, 2040); /* b0: A, B, C, D, G1 */
    budget_model bm;
    char err[256];
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    budget_plan p = {0};
    budget_outcome o;
    assert_int_equal(budget_chen(&bm, NULL, &p, &o), 0);
    assert_true(o.found);
    /* f2 runs again (segment 1), f0 does not (segment 0 keeps A) */
    int f0 = 0, f2 = 0;
    for (size_t e = 0; e < p.n; e++)
        if (p.ev[e].op == BUDGET_RUN) {
            f0 += g->id[p.ev[e].x] == 2;
            f2 += g->id[p.ev[e].x] == 7;
        }
    assert_int_equal(f0, 1);
    assert_int_equal(f2, 2);
    assert_int_equal(st.reruns, 1);
    budget_plan_free(&p);
    budget_model_free(&bm);
    graph_free(g);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chen_never_above_the_free_peak),
        cmocka_unit_test(chen_segment_keeps_where_rerun_passes),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
