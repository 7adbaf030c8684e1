/* test_gen_train.c: memtris gen train, a synthetic training step (gen_train.c): exact node
 * counts from the least, the same bytes for a seed, loads with no diagnostic, a Category on
 * every ALLOC and a Phase on every compute node, the phases in Id order, the step's
 * lifetimes (weights all step, gradients until their update, workspaces freed at once,
 * activations until the backward), policy given runs it as written, priority no higher,
 * activations and weights live at the peak (the least graph's peak is in its backward). */
#include "test_gen.h"
#include "sched/policy/bycat.h"

#define TRAIN_MIN 19u

static const gen_kind *train(void) { return kind("train"); }

static void node_counts(void **state)
{
    (void)state;
    static const uint32_t big[] = {999, 1000, 4321, 65537, 100000};
    char err[256];
    for (uint32_t i = 0; i < 120 + 5; i++) {
        uint32_t want = i < 120 ? TRAIN_MIN + i : big[i - 120];
        err[0] = 0;
        gen_graph *g = gen_build(train(), want, 1 + i, err, sizeof err);
        if (!g) fail_msg("train %u: %s", want, err);
        gen_count c = gen_counts(g);
        assert_int_equal(c.nodes, want);
        assert_int_equal(c.nodes, c.ops + 2 * c.buffers);
        gen_free(g);
    }
    assert_int_equal(train()->min_nodes, TRAIN_MIN);
    err[0] = 0;
    assert_null(gen_build(train(), TRAIN_MIN - 1, 1, err, sizeof err));
    assert_non_null(strstr(err, "kind 'train' needs at least 19 nodes"));
}

static void same_seed_same_bytes_train(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {TRAIN_MIN, 1000, 30000};
    for (size_t i = 0; i < 3; i++) {
        membuf a = gen_json("train", sizes[i], 5), b = gen_json("train", sizes[i], 5),
               c = gen_json("train", sizes[i], 6);
        assert_int_equal(a.len, b.len);
        assert_memory_equal(a.p, b.p, a.len);
        if (sizes[i] > TRAIN_MIN && a.len == c.len && memcmp(a.p, c.p, a.len) == 0)
            fail_msg("train %u: seeds 5 and 6 give the same graph", sizes[i]);
        free(a.p);
        free(b.p);
        free(c.p);
    }
}

static graph *load_train(uint32_t n, uint64_t seed)
{
    char what[64];
    snprintf(what, sizeof what, "train-%u-%llu.json", n, (unsigned long long)seed);
    membuf m = gen_json("train", n, seed);
    graph *g = tu_load_clean(m.p, m.len, what);
    free(m.p);
    assert_int_equal(g->n, n);
    return g;
}

/* The compute node that writes buffer b (its ALLOC's compute successor), or GRAPH_NONE for a
 * weight (no op writes it first). */
static uint32_t producer(const graph *g, uint32_t b)
{
    uint32_t a = g->buf_alloc[b];
    if (graph_category(g, a) == GRAPH_CAT_WEIGHT) return GRAPH_NONE;
    assert_int_equal(g->succ_off[a + 1] - g->succ_off[a], 1);
    return g->succ[g->succ_off[a]];
}

/* The last compute node that lists b before its FREE (its FREE's latest predecessor). */
static uint32_t last_user(const graph *g, uint32_t b)
{
    uint32_t f = g->buf_free[b], last = 0;
    for (uint32_t e = g->pred_off[f]; e < g->pred_off[f + 1]; e++)
        if (g->kind[g->pred[e]] == NODE_COMPUTE && g->pred[e] > last) last = g->pred[e];
    return last;
}

/* Categories, Phases and their order; Ids 0..n-1 in order, every edge forward. */
static void check_tags(const graph *g)
{
    int phase = GRAPH_PHASE_FORWARD, seen[GRAPH_NPHASE] = {0};
    for (uint32_t i = 0; i < g->n; i++) {
        assert_int_equal(g->id[i], i);
        for (uint32_t e = g->succ_off[i]; e < g->succ_off[i + 1]; e++) assert_true(g->succ[e] > i);
        if (g->kind[i] == NODE_ALLOC && graph_category(g, i) == GRAPH_CAT_NONE)
            fail_msg("ALLOC %u (%s) has no Category", i, name_of(g, i));
        if (g->kind[i] != NODE_COMPUTE) continue;
        int p = graph_phase(g, i);
        if (p == GRAPH_PHASE_NONE) fail_msg("node %u (%s) has no Phase", i, name_of(g, i));
        if (p < phase)
            fail_msg("node %u (%s) is %s after a %s node", i, name_of(g, i), graph_phase_word(p),
                     graph_phase_word(phase));
        phase = p;
        seen[p]++;
    }
    for (int p = GRAPH_PHASE_FORWARD; p < GRAPH_NPHASE; p++) assert_true(seen[p] > 0);
}

/* What each Category's buffers do: weights exist before the Input node and until after the
 * Output node, each read by one forward layer; gradients live until an optimizer update;
 * activations until a backward node; forward workspaces die at their op. */
static void check_lifetimes(const graph *g)
{
    uint32_t in = GRAPH_NONE, out = GRAPH_NONE, weights = 0, layers = 0;
    for (uint32_t i = 0; i < g->n; i++)
        if (g->kind[i] == NODE_COMPUTE && strcmp(graph_op(g, i), "Input") == 0) in = i;
        else if (g->kind[i] == NODE_COMPUTE && strcmp(graph_op(g, i), "Output") == 0) out = i;
    assert_true(in != GRAPH_NONE && out != GRAPH_NONE);
    assert_int_equal(graph_phase(g, in), GRAPH_PHASE_FORWARD);
    assert_int_equal(graph_phase(g, out), GRAPH_PHASE_OPTIMIZER);
    for (uint32_t b = 0; b < g->nbufs; b++) {
        int cat = graph_buf_category(g, b);
        uint32_t p = producer(g, b), last = last_user(g, b);
        switch (cat) {
        case GRAPH_CAT_WEIGHT:
            weights++;
            assert_true(g->buf_alloc[b] < in && g->buf_free[b] > out);
            break;
        case GRAPH_CAT_GRADIENT:
            assert_int_equal(graph_phase(g, p), GRAPH_PHASE_BACKWARD);
            assert_int_equal(graph_phase(g, last), GRAPH_PHASE_OPTIMIZER);
            assert_true(strstr(name_of(g, last), ".sgd") != NULL);
            break;
        case GRAPH_CAT_ACTIVATION:
            /* saved for a backward, or the loss's (sum's backward needs none) */
            assert_int_equal(graph_phase(g, p), GRAPH_PHASE_FORWARD);
            if (strcmp(name_of(g, last), "loss") != 0)
                assert_int_equal(graph_phase(g, last), GRAPH_PHASE_BACKWARD);
            break;
        case GRAPH_CAT_WORKSPACE:
            if (graph_phase(g, p) == GRAPH_PHASE_FORWARD) assert_int_equal(last, p);
            else assert_int_equal(graph_phase(g, last), GRAPH_PHASE_BACKWARD);
            break;
        case GRAPH_CAT_INPUT:
        case GRAPH_CAT_OUTPUT: break;
        default: fail_msg("buffer %u has Category %d", b, cat);
        }
    }
    /* Every forward layer (not Input, not the loss) reads exactly one weight. */
    for (uint32_t c = 0; c < g->n; c++) {
        if (g->kind[c] != NODE_COMPUTE || graph_phase(g, c) != GRAPH_PHASE_FORWARD || c == in ||
            strcmp(name_of(g, c), "loss") == 0)
            continue;
        uint32_t w = 0;
        for (uint32_t k = 0; k < g->in_off[c + 1] - g->in_off[c]; k++)
            w += graph_buf_category(g, input_buf(g, c, k)) == GRAPH_CAT_WEIGHT;
        assert_int_equal(w, 1);
        layers++;
    }
    assert_int_equal(layers, weights);
}

/* InPlace: each update (sgd) lists its weight, each decay its gradient, a backward the
 * gradients it adds to; a forward node none; the changed buffer is always the first Input. */
static void check_inplace(const graph *g)
{
    uint32_t sgd = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        if (g->kind[i] != NODE_COMPUTE) continue;
        uint32_t nin = g->in_off[i + 1] - g->in_off[i], k0 = nin;
        for (uint32_t k = 0; k < nin; k++)
            if (graph_input_inplace(g, i, k) && k0 == nin) k0 = k;
        const char *op = graph_op(g, i);
        int phase = graph_phase(g, i);
        if (phase == GRAPH_PHASE_FORWARD) assert_int_equal(k0, nin);
        if (phase != GRAPH_PHASE_OPTIMIZER || strcmp(op, "add_")) continue;
        assert_int_equal(k0, 0);
        uint32_t b = graph_find_buf(g, g->inputs[g->in_off[i]]);
        int cat = graph_buf_category(g, b);
        sgd += cat == GRAPH_CAT_WEIGHT;
        assert_true(cat == GRAPH_CAT_WEIGHT || cat == GRAPH_CAT_GRADIENT);
    }
    assert_true(sgd > 0);
}

static void tagged_and_shaped(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {TRAIN_MIN, TRAIN_MIN + 1, 30, 31, 44, 1000, 4321, 20000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        graph *g = load_train(sizes[i], 1 + i);
        check_tags(g);
        check_lifetimes(g);
        check_inplace(g);
        graph_free(g);
    }
}

/* given runs the step in its Id order; priority peaks no higher; at given's peak activations
 * and weights are live. */
static void given_and_priority(void **state)
{
    (void)state;
    const policy *given = policy_find("given"), *prio = policy_find("priority");
    assert_non_null(given);
    assert_non_null(prio);
    static const struct {
        uint32_t n;
        uint64_t seed;
    } cases[] = {{TRAIN_MIN, 1}, {500, 1}, {2000, 2}, {5000, 3}, {20000, 4}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        graph *g = load_train(cases[i].n, cases[i].seed);
        run rg, rp;
        char err[512] = "";
        if (policy_run(g, given, tu_quick(), &rg, err, sizeof err)) fail_msg("given: %s", err);
        for (uint32_t s = 0; s < g->n; s++) assert_int_equal(rg.order[s], s);
        assert_int_equal(rg.memory[g->n - 1], 0);
        int64_t by[GRAPH_NCAT];
        run_peak_by_category(g, &rg, by);
        if (cases[i].n > TRAIN_MIN) assert_true(by[GRAPH_CAT_ACTIVATION] > 0);
        assert_true(by[GRAPH_CAT_WEIGHT] > 0);
        assert_int_equal(by[GRAPH_CAT_NONE], 0);
        if (policy_run(g, prio, tu_quick(), &rp, err, sizeof err)) fail_msg("priority: %s", err);
        if (rp.peak > rg.peak)
            fail_msg("train %u seed %llu: priority peaks at %lld, given at %lld", cases[i].n,
                     (unsigned long long)cases[i].seed, (long long)rp.peak, (long long)rg.peak);
        /* From a few thousand nodes the late gradients weigh: updating each weight as soon
         * as its gradient exists saves over 10%. */
        if (cases[i].n >= 2000) assert_true(rp.peak * 10 <= rg.peak * 9);
        policy_run_free(&rg);
        policy_run_free(&rp);
        graph_free(g);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(node_counts),
        cmocka_unit_test(same_seed_same_bytes_train),
        cmocka_unit_test(tagged_and_shaped),
        cmocka_unit_test(given_and_priority),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
