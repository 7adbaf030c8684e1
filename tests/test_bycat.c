/* test_bycat.c: a run's live bytes by Category (bycat.h) on a hand-written training
 * step (tests/data/train-small.json): after a step, after every step, at the peak,
 * biggest first, and on graphs without Categories (everything "other"). */
#include "testutil.h"
#include "sched/policy/bycat.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

/* A run of g in its Ids' order (train-small.json's Ids are its nodes' indices), its
 * memory and peak as policy_run makes them. */
static void id_order_run(const graph *g, run *r)
{
    memset(r, 0, sizeof *r);
    r->n = g->n;
    r->order = malloc(g->n * sizeof *r->order);
    assert_non_null(r->order);
    int64_t mem = 0;
    for (uint32_t s = 0; s < g->n; s++) {
        assert_true(g->id[s] == (int64_t)s);
        r->order[s] = s;
        mem += g->change[s];
        if (mem > r->peak) {
            r->peak = mem;
            r->peak_step = s + 1;
        }
    }
}

static int64_t sum(const int64_t *b)
{
    int64_t t = 0;
    for (int c = 0; c < GRAPH_NCAT; c++) t += b[c];
    return t;
}

static void training_step_by_category(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_path(TU_DATA("train-small.json"), &d);
    assert_true(bycat_any(g));
    run r;
    id_order_run(g, &r);
    assert_true(r.peak == 15508);
    assert_int_equal(r.peak_step, 9);
    int64_t at[GRAPH_NCAT];
    run_peak_by_category(g, &r, at);
    assert_true(at[GRAPH_CAT_WEIGHT] == 4000 && at[GRAPH_CAT_GRADIENT] == 4000);
    assert_true(at[GRAPH_CAT_OPTIMIZER] == 4000 && at[GRAPH_CAT_ACTIVATION] == 2000);
    assert_true(at[GRAPH_CAT_INPUT] == 1000 && at[GRAPH_CAT_WORKSPACE] == 500);
    assert_true(at[GRAPH_CAT_OUTPUT] == 8 && at[GRAPH_CAT_NONE] == 0);
    int order[GRAPH_NCAT];
    assert_int_equal(bycat_order(at, order), 7);
    static const int want[] = {GRAPH_CAT_WEIGHT,     GRAPH_CAT_GRADIENT, GRAPH_CAT_OPTIMIZER,
                               GRAPH_CAT_ACTIVATION, GRAPH_CAT_INPUT,    GRAPH_CAT_WORKSPACE,
                               GRAPH_CAT_OUTPUT};
    for (int i = 0; i < 7; i++) assert_int_equal(order[i], want[i]);

    /* The last step: the untagged buffer is "other"; the activations are gone. */
    run_live_by_category(g, &r, g->n - 1, at);
    assert_true(at[GRAPH_CAT_NONE] == 16 && at[GRAPH_CAT_ACTIVATION] == 0);
    assert_true(sum(at) == 8024);
    assert_int_equal(bycat_order(at, order), 4);
    assert_int_equal(order[2], GRAPH_CAT_NONE); /* 16 bytes, before output's 8 */
    assert_int_equal(order[3], GRAPH_CAT_OUTPUT);
    assert_string_equal(bycat_word(order[2]), "other");
    assert_string_equal(bycat_word(GRAPH_CAT_GRADIENT), "gradient");

    /* Every step at once is every step one at a time. */
    int64_t *all = malloc((size_t)g->n * GRAPH_NCAT * sizeof *all);
    assert_non_null(all);
    run_live_by_category_all(g, &r, all);
    for (uint32_t s = 0; s < g->n; s++) {
        run_live_by_category(g, &r, s, at);
        assert_memory_equal(all + (size_t)s * GRAPH_NCAT, at, sizeof at);
    }
    free(all);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

/* Any policy's run: after each step the categories add up to its memory; a graph
 * without Categories has everything under NONE. */
static void sums_are_the_memory(void **state)
{
    (void)state;
    graph *g = tu_load_path(TU_DATA("train-small.json"), NULL);
    graph *plain = tu_load_path(TU_DATA("layers.json"), NULL);
    assert_false(bycat_any(plain));
    const graph *gs[] = {g, plain};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; policy_at(i); i++) {
            run r;
            char err[256] = "";
            if (policy_run(gs[k], policy_at(i), tu_quick(), &r, err, sizeof err)) continue;
            int64_t *all = malloc((size_t)r.n * GRAPH_NCAT * sizeof *all);
            assert_non_null(all);
            run_live_by_category_all(gs[k], &r, all);
            for (uint32_t s = 0; s < r.n; s++) {
                assert_true(sum(all + (size_t)s * GRAPH_NCAT) == r.memory[s]);
                if (k == 1) assert_true(all[(size_t)s * GRAPH_NCAT] == r.memory[s]);
            }
            int64_t at[GRAPH_NCAT];
            run_peak_by_category(gs[k], &r, at);
            assert_true(sum(at) == r.peak);
            free(all);
            policy_run_free(&r);
        }
    graph_free(g);
    graph_free(plain);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(training_step_by_category),
        cmocka_unit_test(sums_are_the_memory),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
