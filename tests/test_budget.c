/* test_budget.c: memory budgets (sched/budget): the model's rules (who writes, who may run
 * again, "Rerun" in the loader), the independent checker on hand-made plans (each wrong event
 * named, the offload timeline by hand), and greedy against a brute force over (ran, present)
 * states on small random graphs: every plan greedy makes passes the checker, within the budget,
 * never better than the optimum; no plan where the brute force finds none; the lower bound
 * never above the least budget the brute force finds. Then the training samples and the
 * solve_ctx limits. */
#include "testutil.h"
#include "test_budget.h"
#include "sched/graph/solve_watch.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

/* ------------------------------------------------------------ small graphs */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int rnd(uint64_t *s, int n) { return (int)(rng_next(s) % (uint64_t)n); }

/* Ids in the given order: before node v, the ALLOCs of what it makes; after, the FREEs of the
 * buffers whose last reader (else producer) it is. */
static void small_json(small *g)
{
    int last[MAXB], mk[MAXB]; /* mk: what made the version of b a node reads */
    for (int b = 0; b < g->nb; b++) last[b] = -1;
    for (int v = 0; v < g->m; v++)
        for (int b = 0; b < g->nb; b++)
            if ((g->out[v] | g->in[v]) >> b & 1) last[b] = v;
    char nodes[12000] = "", edges[6000] = "";
    int id = 0, nid[MAXN], aid[MAXB], fid[MAXB];
    size_t ln = 0, le = 0;
    for (int v = 0; v < g->m; v++) {
        for (int b = 0; b < g->nb; b++)
            if (g->out[v] >> b & 1) {
                aid[b] = id++;
                ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln,
                                       "{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": %lld, "
                                       "\"BufId\": %d},\n",
                                       aid[b], (long long)g->size[b], b);
            }
        nid[v] = id++;
        ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln,
                               "{\"Id\": %d, \"Op\": \"%s\", \"Latency\": %d%s, \"Inputs\": [",
                               nid[v], v == 0 ? "Input" : "Op", g->lat[v],
                               v && !g->rerun[v] ? ", \"Rerun\": false" : "");
        int first = 1;
        for (int b = 0; b < g->nb; b++)
            if ((g->in[v] | g->out[v]) >> b & 1) {
                ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln, "%s%d", first ? "" : ", ", b);
                first = 0;
            }
        ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln, "]");
        for (int b = 0, lead = 1; b < g->nb; b++)
            if (g->chg[v] >> b & 1) {
                ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln, "%s%d",
                                       lead ? ", \"InPlace\": [" : ", ", b);
                lead = 0;
            }
        ln += (size_t)snprintf(nodes + ln, sizeof nodes - ln, "%s},\n", g->chg[v] ? "]" : "");
        for (int b = 0; b < g->nb; b++) {
            if (g->out[v] >> b & 1) {
                le += (size_t)snprintf(edges + le, sizeof edges - le, "[%d, %d], ", aid[b], nid[v]);
                mk[b] = v;
            }
            if (g->in[v] >> b & 1)
                le += (size_t)snprintf(edges + le, sizeof edges - le, "[%d, %d], ", nid[mk[b]],
                                       nid[v]);
        }
        for (int b = 0; b < g->nb; b++)
            if (g->chg[v] >> b & 1) mk[b] = v;
        if (g->chained && v)
            le += (size_t)snprintf(edges + le, sizeof edges - le, "[%d, %d], ", nid[v - 1], nid[v]);
        for (int b = 0; b < g->nb; b++)
            if (last[b] == v && !(g->keep >> b & 1)) {
                fid[b] = id++;
                ln +=
                    (size_t)snprintf(nodes + ln, sizeof nodes - ln,
                                     "{\"Id\": %d, \"Op\": \"FREE\", \"BufId\": %d},\n", fid[b], b);
                le += (size_t)snprintf(edges + le, sizeof edges - le, "[%d, %d], ", nid[v], fid[b]);
            }
    }
    assert_true(ln >= 2 && ln < sizeof nodes && le < sizeof edges); /* nothing cut */
    if (ln >= 2 && ln < sizeof nodes) nodes[ln - 2] = 0;            /* the last ",\n" */
    if (le >= 2 && le < sizeof edges) edges[le - 2] = 0;
    snprintf(g->json, sizeof g->json, "{\"Nodes\": [%s], \"Edges\": [%s]}", nodes, edges);
}

static void small_make(small *g, uint64_t *s, int maxn, int inplace)
{
    int nchg[MAXB] = {0}, changed = 0;
    memset(g, 0, sizeof *g);
    g->inplace = inplace;
    g->m = 3 + rnd(s, maxn - 2);
    for (int v = 0; v < g->m && g->nb < MAXB; v++) {
        int k = v && g->nb + 1 < MAXB && rnd(s, 4) == 0 ? 2 : 1;
        for (int j = 0; j < k; j++) {
            g->out[v] |= 1u << g->nb;
            g->size[g->nb++] = 100 * (1 + rnd(s, 6));
        }
        if (v) { /* reads one or two buffers made before */
            int avail = 0;
            for (int b = 0; b < g->nb; b++) avail += !(g->out[v] >> b & 1);
            for (int j = 0; j < 1 + rnd(s, 2) && avail; j++) {
                int b = rnd(s, g->nb);
                if (!(g->out[v] >> b & 1)) g->in[v] |= 1u << b;
            }
            int b = g->in[v] ? __builtin_ctz(g->in[v]) : 0; /* changed in place: at most 4 */
            if (g->in[v] & (g->in[v] - 1) && rnd(s, 2)) b = 31 - __builtin_clz(g->in[v]);
            if (inplace && rnd(s, 3) && g->in[v] && nchg[b] < 2 && (nchg[b] || changed < 4)) {
                changed += !nchg[b]++;
                g->chg[v] |= 1u << b;
            }
        }
        g->lat[v] = 1 + rnd(s, 5);
        g->rerun[v] = v > 0 && rnd(s, 6) != 0;
    }
    g->keep = 1u << (g->nb - 1); /* the last output stays */
    if (rnd(s, 3) == 0) g->keep |= 1u << rnd(s, g->nb);
    small_json(g);
}

void small_random(small *g, uint64_t *s, int maxn) { small_make(g, s, maxn, 0); }
void small_random_inplace(small *g, uint64_t *s, int maxn) { small_make(g, s, maxn, 1); }
void small_chain(small *g)
{
    g->chained = 1;
    small_json(g);
}

graph *load_ok(const char *json)
{
    diag d;
    graph *g = tu_load(json, &d);
    if (!g) tu_print_diag(&d);
    assert_non_null(g);
    diag_free(&d);
    return g;
}

void model_ok(budget_model *bm, const graph *g)
{
    char err[256];
    assert_int_equal(budget_model_init(bm, g, err, sizeof err), 0);
}

/* greedy at budget: its plan checked (within the budget, never better than opt), or none. */
int greedy_checked(const budget_model *bm, int64_t budget, unsigned allow, long opt)
{
    budget_plan p = {0};
    budget_outcome o;
    budget_stats st;
    char err[256];
    assert_int_equal(budget_greedy(bm, &(budget_goal){budget, allow, BUDGET_BANDWIDTH, NULL}, NULL,
                                   &p, &o, NULL),
                     0);
    if (o.found) {
        if (budget_check(bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
        assert_true(st.peak <= budget);
        if (allow == BUDGET_ALLOW_RECOMPUTE) {
            assert_true(opt >= 0);
            assert_true(st.extra_ms >= (double)opt);
        }
    } else {
        assert_int_equal(o.stopped, SOLVE_DONE);
        assert_true(o.why[0]);
    }
    budget_plan_free(&p);
    return o.found;
}

static void greedy_against_brute_force(void **state)
{
    (void)state;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int cases = 0, feasible = 0, found = 0, optimal = 0;
    for (int t = 0; t < 160; t++) {
        small sg;
        small_random(&sg, &seed, 7);
        graph *g = load_ok(sg.json);
        budget_model bm;
        model_ok(&bm, g);
        budget_plan given = {0};
        budget_stats st;
        char err[256];
        assert_int_equal(budget_given_plan(&bm, &given), 0);
        if (budget_check(&bm, &given, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
        assert_true(st.extra_ms == 0 && st.reruns == 0);
        int64_t peak = st.peak, lb = budget_lower_bound(&bm);
        assert_true(lb <= peak);
        assert_true(brute(&sg, peak) == 0); /* the given plan itself */
        int64_t budgets[] = {lb - 1, lb, lb + 100, (lb + peak) / 2, peak - 100, peak};
        for (size_t k = 0; k < sizeof budgets / sizeof budgets[0]; k++) {
            int64_t b = budgets[k];
            if (b < 1 || b > peak) continue;
            long opt = brute(&sg, b);
            if (b < lb) assert_true(opt < 0); /* the bound is sound */
            cases++;
            feasible += opt >= 0;
            int f = greedy_checked(&bm, b, BUDGET_ALLOW_RECOMPUTE, opt);
            if (opt < 0) assert_false(f);
            found += f;
            greedy_checked(&bm, b, BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD, -1);
            greedy_checked(&bm, b, BUDGET_ALLOW_OFFLOAD, -1);
            if (f) {
                budget_plan p = {0};
                budget_outcome o;
                budget_greedy(&bm,
                              &(budget_goal){b, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, NULL},
                              NULL, &p, &o, NULL);
                budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err);
                optimal += st.extra_ms == (double)opt;
                budget_plan_free(&p);
            }
        }
        budget_plan_free(&given);
        budget_model_free(&bm);
        graph_free(g);
    }
    print_message("%d budgets: %d feasible, greedy found %d (%d of them optimal)\n", cases,
                  feasible, found, optimal);
    assert_true(found * 10 >= feasible * 6); /* greedy finds most plans that exist */
}

/* ------------------------------------------------------------ the checker */

/* In (an Input) makes x; A makes y; C reads x and y, makes z; x and y freed after C, z kept. */
static const char *const TRIO =
    "{\"Nodes\": ["
    "{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 100, \"BufId\": 1},"
    "{\"Id\": 1, \"Op\": \"Input\", \"Inputs\": [1]},"
    "{\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 100, \"BufId\": 2},"
    "{\"Id\": 3, \"Op\": \"A\", \"Latency\": 50, \"Inputs\": [2]},"
    "{\"Id\": 4, \"Op\": \"ALLOC\", \"Size\": 100, \"BufId\": 3},"
    "{\"Id\": 5, \"Op\": \"C\", \"Latency\": 10, \"Inputs\": [1, 2, 3]},"
    "{\"Id\": 6, \"Op\": \"FREE\", \"BufId\": 1},"
    "{\"Id\": 7, \"Op\": \"FREE\", \"BufId\": 2}],"
    "\"Edges\": [[0, 1], [2, 3], [4, 5], [1, 5], [3, 5], [5, 6], [5, 7]]}";

static int check_events(const budget_model *bm, const uint32_t (*ev)[2], size_t n, double bw,
                        budget_stats *st, char *err, size_t cap)
{
    budget_plan p = {0};
    for (size_t k = 0; k < n; k++) assert_int_equal(budget_plan_push(&p, ev[k][0], ev[k][1]), 0);
    int r = budget_check(bm, &p, bw, st, err, cap);
    budget_plan_free(&p);
    return r;
}

static void checker_offload_timeline(void **state)
{
    (void)state;
    graph *g = load_ok(TRIO);
    budget_model bm;
    model_ok(&bm, g);
    uint32_t in = graph_find(g, 1), a = graph_find(g, 3), c = graph_find(g, 5);
    uint32_t x = graph_find_buf(g, 1), y = graph_find_buf(g, 2), z = graph_find_buf(g, 3);
    assert_false(bm.rerunnable[in]);
    assert_true(bm.rerunnable[a] && bm.rerunnable[c]);
    assert_int_equal(bm.producer[z], c);
    assert_int_equal(budget_lower_bound(&bm), 300);
    const uint32_t ev[][2] = {{BUDGET_RUN, in},  {BUDGET_OFFLOAD, x}, {BUDGET_RUN, a},
                              {BUDGET_FETCH, x}, {BUDGET_RUN, c},     {BUDGET_FREE, x},
                              {BUDGET_FREE, y}};
    budget_stats st;
    char err[256] = "";
    /* 1000 bytes a second: each copy of x takes 100 ms. A waits for x's bytes (100 ms),
     * ends at 150; the fetch ends at 200; C starts then, ends at 210; alone: 60 ms. */
    if (check_events(&bm, ev, 7, 1000, &st, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(st.peak, 300);
    assert_true(st.makespan_ms == 210);
    assert_true(st.extra_ms == 150);
    assert_int_equal(st.offloaded_bytes, 100);
    assert_int_equal(st.reruns, 0);
    budget_model_free(&bm);
    graph_free(g);
}

static void expect_wrong(const budget_model *bm, const uint32_t (*ev)[2], size_t n,
                         const char *words)
{
    budget_stats st;
    char err[256] = "";
    assert_int_equal(check_events(bm, ev, n, BUDGET_BANDWIDTH, &st, err, sizeof err), -1);
    if (!strstr(err, words)) fail_msg("'%s' does not say '%s'", err, words);
}

static void checker_names_the_wrong_event(void **state)
{
    (void)state;
    graph *g = load_ok(TRIO);
    budget_model bm;
    model_ok(&bm, g);
    uint32_t in = graph_find(g, 1), a = graph_find(g, 3), c = graph_find(g, 5);
    uint32_t x = graph_find_buf(g, 1), y = graph_find_buf(g, 2), z = graph_find_buf(g, 3);
    const uint32_t missing[][2] = {
        {BUDGET_RUN, in}, {BUDGET_RUN, a}, {BUDGET_FREE, x}, {BUDGET_RUN, c}};
    expect_wrong(&bm, missing, 4, "event 4 (run Id 5): it reads BufId 1, which is not present");
    const uint32_t again[][2] = {{BUDGET_RUN, in}, {BUDGET_RUN, in}};
    expect_wrong(&bm, again, 2, "event 2 (run Id 1): this node cannot be rerun");
    const uint32_t absent[][2] = {{BUDGET_FREE, y}};
    expect_wrong(&bm, absent, 1, "event 1 (free BufId 2): it is not present");
    const uint32_t fetch[][2] = {{BUDGET_RUN, a}, {BUDGET_FREE, y}, {BUDGET_FETCH, y}};
    expect_wrong(&bm, fetch, 3, "event 3 (fetch BufId 2): it was never offloaded");
    const uint32_t unrun[][2] = {{BUDGET_RUN, in}, {BUDGET_RUN, a}};
    expect_wrong(&bm, unrun, 2, "node Id 5 never runs");
    const uint32_t gone[][2] = {
        {BUDGET_RUN, in}, {BUDGET_RUN, a}, {BUDGET_RUN, c}, {BUDGET_FREE, z}};
    expect_wrong(&bm, gone, 4, "BufId 3, which the graph never frees, is not present");
    budget_model_free(&bm);
    graph_free(g);
    /* A first run before a node the Edges put first (A -> B with no buffer between). */
    graph *h = load_ok("{\"Nodes\": [{\"Id\": 0, \"Op\": \"A\"}, {\"Id\": 1, \"Op\": \"B\"}],"
                       " \"Edges\": [[0, 1]]}");
    model_ok(&bm, h);
    const uint32_t order[][2] = {{BUDGET_RUN, 1}, {BUDGET_RUN, 0}};
    expect_wrong(&bm, order, 2, "event 1 (run Id 1): its first run comes before");
    budget_model_free(&bm);
    graph_free(h);
}

/* ------------------------------------------------------------ the model */

static void who_may_run_again(void **state)
{
    (void)state;
    graph *g = load_ok("{\"Nodes\": ["
                       "{\"Id\": 0, \"Op\": \"Input\"},"
                       "{\"Id\": 1, \"Op\": \"Input\", \"Rerun\": true},"
                       "{\"Id\": 2, \"Op\": \"add_\", \"Phase\": \"optimizer\"},"
                       "{\"Id\": 3, \"Op\": \"native_Dropout\"},"
                       "{\"Id\": 4, \"Op\": \"Conv\", \"Rerun\": false},"
                       "{\"Id\": 5, \"Op\": \"Conv\", \"Phase\": \"backward\"},"
                       "{\"Id\": 6, \"Op\": \"dropout\", \"Rerun\": false},"
                       "{\"Id\": 7, \"Op\": \"bernoulli_\", \"Rerun\": true},"
                       "{\"Id\": 8, \"Op\": \"native_dropout_backward\"}], \"Edges\": []}");
    budget_model bm;
    model_ok(&bm, g);
    /* a random op runs again from its generator state, unless it says "Rerun": false */
    const int want[] = {0, 1, 0, 1, 0, 1, 0, 1, 1}, rng[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    for (uint32_t i = 0; i < 9; i++) {
        assert_int_equal(bm.rerunnable[graph_find(g, i)], want[i]);
        assert_int_equal(bm.rng[graph_find(g, i)], rng[i]);
    }
    assert_int_equal(graph_rerun(g, graph_find(g, 4)), GRAPH_RERUN_NO);
    assert_int_equal(graph_rerun(g, graph_find(g, 1)), GRAPH_RERUN_YES);
    assert_int_equal(graph_rerun(g, graph_find(g, 0)), GRAPH_RERUN_NONE);
    budget_model_free(&bm);
    graph_free(g);
}

static void rerun_field_errors(void **state)
{
    (void)state;
    diag d;
    graph *g =
        tu_load("{\"Nodes\": [{\"Id\": 3, \"Op\": \"Conv\", \"Rerun\": 1}], \"Edges\": []}", &d);
    assert_null(g);
    assert_true(tu_find_line(&d, "Nodes[0] (Id 3)",
                             "\"Rerun\" must be true or false, found a number", NULL) >= 0);
    diag_free(&d);
    g = tu_load("{\"Nodes\": [{\"Id\": 3, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": 1, "
                "\"Rerun\": false}], \"Edges\": []}",
                &d);
    assert_null(g);
    assert_true(tu_find_line(&d, "\"Rerun\" belongs on a compute node, not on an ALLOC", NULL) >=
                0);
    diag_free(&d);
}

/* ------------------------------------------------------------ samples, limits */

static void training_samples(void **state)
{
    (void)state;
    const char *names[] = {"resnet18_train.json", "transformer_block_train.json"};
    for (int k = 0; k < 2; k++) {
        graph *g = tu_load_sample(names[k], NULL);
        budget_model bm;
        model_ok(&bm, g);
        budget_plan given = {0};
        budget_stats st;
        char err[256];
        assert_int_equal(budget_given_plan(&bm, &given), 0);
        if (budget_check(&bm, &given, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
        int64_t peak = st.peak, lb = budget_lower_bound(&bm);
        for (int pct = 60; pct >= 50; pct -= 10) {
            int64_t b = peak * pct / 100;
            unsigned allows[] = {BUDGET_ALLOW_RECOMPUTE,
                                 BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD};
            for (int a = 0; a < 2; a++) {
                int f = greedy_checked(&bm, b, allows[a], 0);
                print_message("%s at %d%% (%s): %s\n", names[k], pct,
                              a ? "recompute,offload" : "recompute", f ? "a plan" : "none found");
                if (!f) assert_true(b >= lb); /* greedy never fails where the bound says */
            }
        }
        /* resnet18 fits in 80% by recompute alone (its batch norms update their running
         * statistics in place, so none runs again, and its ReLUs change their outputs in place:
         * those are kept; the convolutions' workspaces come back with them), and in 50% with
         * offload */
        if (k == 0) {
            assert_true(greedy_checked(&bm, peak * 80 / 100, BUDGET_ALLOW_RECOMPUTE, 0));
            assert_true(greedy_checked(&bm, peak * 50 / 100,
                                       BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD, 0));
        }
        /* Chen's baseline: a whole plan, checked, every rerun a forward node's */
        budget_plan cp = {0};
        budget_outcome co;
        assert_int_equal(budget_chen(&bm, NULL, &cp, &co), 0);
        assert_true(co.found);
        if (budget_check(&bm, &cp, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
        assert_true(st.reruns > 0);
        for (size_t e = 0; e < cp.n; e++)
            if (cp.ev[e].op == BUDGET_RUN && graph_phase(g, cp.ev[e].x) != GRAPH_PHASE_FORWARD) {
                size_t before = 0;
                for (size_t q = 0; q < e; q++)
                    before += cp.ev[q].op == BUDGET_RUN && cp.ev[q].x == cp.ev[e].x;
                assert_int_equal(before, 0);
            }
        budget_plan_free(&cp);
        /* Recompute every cheap op: checked; every rerun a forward node's, the cheap ones'
         * among them (the transformer has some: gelu, views, adds; resnet18's ReLUs are in
         * place); a costly one reruns only to make what a cheap one reads again */
        assert_int_equal(budget_cheap(&bm, NULL, &cp, &co), 0);
        assert_true(co.found);
        if (budget_check(&bm, &cp, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
        size_t cheap_reruns = 0;
        for (size_t e = 0; e < cp.n; e++) {
            uint32_t v = cp.ev[e].x;
            size_t before = 0;
            for (size_t q = 0; cp.ev[e].op == BUDGET_RUN && q < e; q++)
                before += cp.ev[q].op == BUDGET_RUN && cp.ev[q].x == v;
            if (before) {
                assert_int_equal(graph_phase(g, v), GRAPH_PHASE_FORWARD);
                cheap_reruns += budget_cheap_op(graph_op(g, v)) != 0;
            }
        }
        print_message("%s: recompute every cheap op: peak %lld, %llu reruns (%zu cheap)\n",
                      names[k], (long long)st.peak, (unsigned long long)st.reruns, cheap_reruns);
        if (k == 1) assert_true(cheap_reruns > 0);
        budget_plan_free(&cp);
        budget_plan_free(&given);
        budget_model_free(&bm);
        graph_free(g);
    }
    /* Which ops are cheap: pointwise and views, not the costly ops with such a word inside. */
    const char *cheap[] = {"add", "relu_", "gelu", "view", "t", "mul", "Threshold", "clone"};
    const char *dear[] = {"addmm",       "matmul",
                          "convolution", "native_batch_norm",
                          "_softmax",    "max_pool2d_with_indices",
                          "embedding",   "Linear"};
    for (size_t i = 0; i < 8; i++) {
        if (!budget_cheap_op(cheap[i])) fail_msg("%s is cheap", cheap[i]);
        if (budget_cheap_op(dear[i])) fail_msg("%s is not cheap", dear[i]);
    }
    /* Without Phases: no baseline. */
    graph *g = load_ok(TRIO);
    budget_model bm;
    model_ok(&bm, g);
    budget_plan cp = {0};
    budget_outcome co;
    assert_int_equal(budget_chen(&bm, NULL, &cp, &co), 0);
    assert_false(co.found);
    assert_int_equal(cp.n, 0);
    assert_int_equal(budget_cheap(&bm, NULL, &cp, &co), 0);
    assert_false(co.found);
    assert_int_equal(cp.n, 0);
    budget_plan_free(&cp);
    budget_model_free(&bm);
    graph_free(g);
}

static double fake_now;
static double fake_clock(void) { return fake_now += 1000; }

static void greedy_honours_limits(void **state)
{
    (void)state;
    graph *g = tu_load_sample("resnet18_train.json", NULL);
    budget_model bm;
    model_ok(&bm, g);
    budget_plan p = {0};
    budget_outcome o;
    solve_ctx c = {.seconds = 1, .clock = fake_clock};
    assert_int_equal(
        budget_greedy(&bm, &(budget_goal){70000000, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, &c},
                      NULL, &p, &o, NULL),
        0);
    assert_false(o.found);
    assert_int_equal(o.stopped, SOLVE_TIME);
    budget_plan_free(&p);
    solve_watch w = {0};
    atomic_store(&w.cancel, 1);
    solve_ctx cc = {.watch = &w};
    assert_int_equal(
        budget_greedy(&bm, &(budget_goal){70000000, BUDGET_ALLOW_RECOMPUTE, BUDGET_BANDWIDTH, &cc},
                      NULL, &p, &o, NULL),
        0);
    assert_false(o.found);
    assert_int_equal(o.stopped, SOLVE_CANCELLED);
    budget_plan_free(&p);
    budget_model_free(&bm);
    graph_free(g);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(greedy_against_brute_force),
        cmocka_unit_test(checker_offload_timeline),
        cmocka_unit_test(checker_names_the_wrong_event),
        cmocka_unit_test(who_may_run_again),
        cmocka_unit_test(rerun_field_errors),
        cmocka_unit_test(training_samples),
        cmocka_unit_test(greedy_honours_limits),
        cmocka_unit_test(greedy_prefers_hidden_offload),
        cmocka_unit_test(exact_against_brute_force),
        cmocka_unit_test(exact_with_offload),
        cmocka_unit_test(exact_honours_limits),
        cmocka_unit_test(best_of_the_solvers),
        cmocka_unit_test(greedy_on_generated_training),
        cmocka_unit_test(greedy_walks_priority_order),
        cmocka_unit_test(inplace_against_brute_force),
        cmocka_unit_test(repair_against_brute_force),
        cmocka_unit_test(repair_on_generated_training),
        cmocka_unit_test(repair_honours_limits),
        cmocka_unit_test(bound_against_brute_force),
        cmocka_unit_test(bound_proves_in_fit),
        cmocka_unit_test(exact_bounds_whole_chains),
        cmocka_unit_test(exact_drops_doomed_evictions),
        cmocka_unit_test(exact_dominance_on_present_sets),
        cmocka_unit_test(exact_fixed_order_against_brute_force),
        cmocka_unit_test(exact_bound_from_memory),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
