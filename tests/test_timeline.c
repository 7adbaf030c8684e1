/* test_timeline.c: the timeline model (a hand-computed example on two
 * streams, and a reference that solves the model's constraints by plain
 * relaxation on random graphs), the weighted policy (alpha 1 is priority's
 * order on every sample and random graph; what alpha 0 prefers), multiqueue
 * against a direct transcription of the seed's loop, and the loader's
 * checks of Latency and Stream. */
#include <dirent.h>
#include <math.h>
#include "testutil.h"
#include "sched/time/timeline.h"

/* A run whose order is given by Ids (only order is read by timeline_run). */
static void order_by_ids(const graph *g, run *r, const int64_t *ids)
{
    memset(r, 0, sizeof *r);
    r->n = g->n;
    r->order = calloc(g->n, sizeof *r->order);
    assert_non_null(r->order);
    for (uint32_t s = 0; s < g->n; s++) {
        r->order[s] = graph_find(g, ids[s]);
        assert_int_not_equal(r->order[s], GRAPH_NONE);
    }
}

#define HAND                                                                                     \
    "{\"Nodes\": ["                                                                              \
    "{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 100, \"BufId\": 1},"                               \
    "{\"Id\": 2, \"Op\": \"load\", \"Stream\": 1, \"Latency\": 3},"                              \
    "{\"Id\": 3, \"Op\": \"conv\", \"Latency\": 5},"                                             \
    "{\"Id\": 4, \"Op\": \"relu\", \"Stream\": 0, \"Latency\": 1},"                              \
    "{\"Id\": 5, \"Op\": \"FREE\", \"BufId\": 1},"                                               \
    "{\"Id\": 6, \"Op\": \"copy\", \"Stream\": 1, \"Latency\": 2},"                              \
    "{\"Id\": 7, \"Op\": \"ALLOC\", \"Size\": 50, \"BufId\": 2, \"Stream\": 1, \"Latency\": 9}," \
    "{\"Id\": 8, \"Op\": \"use\", \"Stream\": 1, \"Latency\": 1}],"                              \
    "\"Edges\": [[1, 2], [1, 3], [2, 4], [3, 4], [4, 5], [3, 6], [1, 7], [7, 8]]}"

static void expect_times(const graph *g, const timeline *t, const int64_t *ids, const double *st,
                         const double *fin, int n)
{
    for (int k = 0; k < n; k++) {
        uint32_t i = graph_find(g, ids[k]);
        if (t->start[i] != st[k] || t->finish[i] != fin[k])
            fail_msg("node %lld: [%g, %g], expected [%g, %g]", (long long)ids[k], t->start[i],
                     t->finish[i], st[k], fin[k]);
    }
}

/* Worked by hand, as the man page's TIMELINE says the model. */
static void hand_two_streams(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_ok(HAND, &d);
    static const int64_t ids[] = {1, 2, 3, 4, 5, 6, 7, 8};
    assert_int_equal(graph_stream(g, graph_find(g, 7)), -1); /* an ALLOC has no stream */
    assert_true(graph_latency(g, graph_find(g, 7)) == 0);    /* nor a latency */
    assert_int_equal(graph_stream(g, graph_find(g, 3)), 0);  /* no Stream: stream 0 */

    /* Issue order 1 2 3 4 5 7 6 8: the FREE waits for relu (6 ms), and the
     * ALLOC of b2 issued after it waits for the FREE (the allocator serves
     * in issue order), so "use" starts at 7, after "copy" on stream 1. */
    static const int64_t o1[] = {1, 2, 3, 4, 5, 7, 6, 8};
    run r;
    timeline t;
    char err[128];
    order_by_ids(g, &r, o1);
    assert_int_equal(timeline_run(g, &r, &t, err, sizeof err), 0);
    static const double s1[] = {0, 0, 0, 5, 6, 5, 6, 7}, f1[] = {0, 3, 5, 6, 6, 7, 6, 8};
    expect_times(g, &t, ids, s1, f1, 8);
    assert_true(t.makespan == 8);
    assert_int_equal(t.nstreams, 2);
    assert_true(t.busy[0] == 6 && t.busy[1] == 6); /* conv + relu; load + copy + use */
    assert_true(t.critical == 7);                  /* alloc, conv, copy */
    assert_true(t.bound == 7);
    timeline_free(&t);
    free(r.order);

    /* Issue order 1 2 3 7 8 4 5 6: b2's ALLOC happens at once, "use" runs
     * on stream 1 right after "load" (3 to 4), and "copy" after conv: 7. */
    static const int64_t o2[] = {1, 2, 3, 7, 8, 4, 5, 6};
    order_by_ids(g, &r, o2);
    assert_int_equal(timeline_run(g, &r, &t, err, sizeof err), 0);
    static const double s2[] = {0, 0, 0, 5, 6, 5, 0, 3}, f2[] = {0, 3, 5, 6, 6, 7, 0, 4};
    expect_times(g, &t, ids, s2, f2, 8);
    assert_true(t.makespan == 7 && t.makespan == t.bound);
    timeline_free(&t);
    free(r.order);
    graph_free(g);
    diag_free(&d);
}

/* The model's constraints as edges (u must finish before v starts): the
 * graph's edges, each stream's issue order, and the ALLOC/FREE issue order;
 * solved by relaxing every constraint until nothing moves. */
static void reference(const graph *g, const uint32_t *order, double *start, double *finish,
                      double *makespan, double *critical)
{
    uint32_t n = g->n, ncons = 0;
    uint32_t *cu = calloc((size_t)g->nedges + 2 * n + 1, sizeof *cu);
    uint32_t *cv = calloc((size_t)g->nedges + 2 * n + 1, sizeof *cv);
    assert_true(cu && cv);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++) {
            cu[ncons] = u;
            cv[ncons++] = g->succ[e];
        }
    uint32_t edges = ncons;
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t p = s; p-- > 0;) { /* the latest earlier node of the same lane */
            int ls = g->kind[order[s]] == NODE_COMPUTE
                         ? (g->stream && g->stream[order[s]] >= 0 ? (int)g->stream[order[s]] : 0)
                         : -1;
            int lp = g->kind[order[p]] == NODE_COMPUTE
                         ? (g->stream && g->stream[order[p]] >= 0 ? (int)g->stream[order[p]] : 0)
                         : -1;
            if (ls == lp) {
                cu[ncons] = order[p];
                cv[ncons++] = order[s];
                break;
            }
        }
    double *lat = calloc(n, sizeof *lat), *chain = calloc(n, sizeof *chain);
    assert_true(lat && chain);
    for (uint32_t i = 0; i < n; i++) {
        lat[i] =
            g->kind[i] == NODE_COMPUTE && g->latency && !isnan(g->latency[i]) ? g->latency[i] : 0;
        start[i] = 0;
        finish[i] = lat[i];
        chain[i] = lat[i];
    }
    for (int moved = 1; moved;) {
        moved = 0;
        for (uint32_t c = 0; c < ncons; c++) {
            if (finish[cu[c]] > start[cv[c]]) {
                start[cv[c]] = finish[cu[c]];
                finish[cv[c]] = start[cv[c]] + lat[cv[c]];
                moved = 1;
            }
            if (c < edges && chain[cu[c]] + lat[cv[c]] > chain[cv[c]]) {
                chain[cv[c]] = chain[cu[c]] + lat[cv[c]];
                moved = 1;
            }
        }
    }
    *makespan = *critical = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (finish[i] > *makespan) *makespan = finish[i];
        if (chain[i] > *critical) *critical = chain[i];
    }
    free(lat);
    free(chain);
    free(cu);
    free(cv);
}

/* Random latencies (some absent, some 0) and streams (some absent). */
static void add_time(graph *g, uint64_t *st)
{
    free(g->latency);
    free(g->stream);
    g->latency = calloc(g->n, sizeof *g->latency);
    g->stream = calloc(g->n, sizeof *g->stream);
    assert_true(g->latency && g->stream);
    uint32_t streams = 1 + tu_below(st, 4);
    for (uint32_t i = 0; i < g->n; i++) {
        uint32_t k = tu_below(st, 10);
        /* Quarter-ms steps keep every sum exact, as the model's are. */
        g->latency[i] = k == 0 ? (double)NAN : k == 1 ? 0 : (double)(1 + tu_below(st, 40)) / 4;
        g->stream[i] = tu_below(st, 5) == 0 ? -1 : (int64_t)tu_below(st, streams);
    }
}

static void random_against_reference(void **state)
{
    (void)state;
    uint64_t st = 0x7133;
    static const char *const pols[] = {"fifo", "priority", "multiqueue", "weighted", "best"};
    for (int iter = 0; iter < 150; iter++) {
        tu_gen gen;
        tu_gen_make(&gen, &st, 3 + tu_below(&st, 50));
        graph *g = tu_load_text(gen.json);
        add_time(g, &st);
        const policy *p = policy_find(pols[iter % 5]);
        run r;
        timeline t;
        char err[256];
        assert_int_equal(policy_run(g, p, tu_quick(), &r, err, sizeof err), 0);
        assert_int_equal(timeline_run(g, &r, &t, err, sizeof err), 0);
        double *start = calloc(g->n, sizeof *start), *finish = calloc(g->n, sizeof *finish);
        double makespan, critical;
        assert_true(start && finish);
        reference(g, r.order, start, finish, &makespan, &critical);
        for (uint32_t i = 0; i < g->n; i++)
            if (start[i] != t.start[i] || finish[i] != t.finish[i])
                fail_msg("graph %d (%s), node %lld: [%g, %g], reference [%g, %g]", iter, p->name,
                         (long long)g->id[i], t.start[i], t.finish[i], start[i], finish[i]);
        assert_true(makespan == t.makespan);
        assert_true(critical == t.critical);
        double busy = 0, sum = 0;
        for (uint32_t s = 0; s < t.nstreams; s++) {
            sum += t.busy[s];
            if (t.busy[s] > busy) busy = t.busy[s];
        }
        double all = 0;
        for (uint32_t i = 0; i < g->n; i++) all += graph_latency(g, i);
        assert_true(sum == all);
        assert_true(t.bound == (busy > critical ? busy : critical));
        assert_true(t.makespan >= t.bound);
        free(start);
        free(finish);
        timeline_free(&t);
        policy_run_free(&r);
        graph_free(g);
        tu_gen_free(&gen);
    }
}

static void same_order(const graph *g, const char *what)
{
    run a, b;
    char err[256];
    static const solve_ctx alpha1 = {.has_alpha = 1, .alpha = 1};
    assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &a, err, sizeof err), 0);
    assert_int_equal(policy_run(g, policy_find("weighted"), &alpha1, &b, err, sizeof err), 0);
    assert_true(b.alpha == 1);
    for (uint32_t s = 0; s < g->n; s++)
        if (a.order[s] != b.order[s])
            fail_msg("%s: weighted at alpha 1 pops node %lld at step %u, priority %lld", what,
                     (long long)g->id[b.order[s]], s + 1, (long long)g->id[a.order[s]]);
    policy_run_free(&a);
    policy_run_free(&b);
}

/* Alpha 1 is priority's order, on every sample and random graphs with
 * latencies (which alpha 1 must ignore). */
static void weighted_alpha_one_is_priority(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/samples", MEMTRIS_SOURCE_DIR);
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int nsamples = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json")) continue;
        diag d;
        graph *g = tu_load_sample(e->d_name, &d);
        assert_non_null(g);
        same_order(g, e->d_name);
        graph_free(g);
        diag_free(&d);
        nsamples++;
    }
    closedir(dp);
    assert_true(nsamples >= 8);
    /* Changes 2^53 apart at the ends: the scores of 1, 2 and 3 bytes round to
     * one value, and the change that breaks the tie keeps priority's order
     * (the larger Ids first would be the wrong one). */
    graph *h =
        tu_load_text("{\"Nodes\": [{\"Id\": 0, \"Op\": \"in\"},"
                     "{\"Id\": 9, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": 1},"
                     "{\"Id\": 8, \"Op\": \"ALLOC\", \"Size\": 2, \"BufId\": 2},"
                     "{\"Id\": 7, \"Op\": \"ALLOC\", \"Size\": 3, \"BufId\": 3},"
                     "{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 9007199254740991, \"BufId\": 4},"
                     "{\"Id\": 2, \"Op\": \"FREE\", \"BufId\": 4}],"
                     "\"Edges\": [[0, 9], [0, 8], [0, 7], [0, 1], [1, 2]]}");
    same_order(h, "changes 2^53 apart");
    graph_free(h);
    /* A subnormal latency: the latency term stays in [0, 1], no NaN. */
    h = tu_load_text("{\"Nodes\": [{\"Id\": 0, \"Op\": \"mm\", \"Latency\": 1},"
                     "{\"Id\": 5, \"Op\": \"mm\", \"Latency\": 1e-320}], \"Edges\": []}");
    same_order(h, "a subnormal latency");
    graph_free(h);
    uint64_t st = 0xa1fa;
    for (int iter = 0; iter < 100; iter++) {
        tu_gen gen;
        tu_gen_make(&gen, &st, 2 + tu_below(&st, 60));
        graph *g = tu_load_text(gen.json);
        add_time(g, &st);
        same_order(g, "a random graph");
        graph_free(g);
        tu_gen_free(&gen);
    }
}

/* The score's two terms, scaled to [0, 1], on a graph small enough to work
 * out: three ready compute nodes of 1, 2 and 4 ms, and an ALLOC. */
static void weighted_scores(void **state)
{
    (void)state;
    graph *g = tu_load_text("{\"Nodes\": [{\"Id\": 0, \"Op\": \"in\", \"Latency\": 1},"
                            "{\"Id\": 1, \"Op\": \"slow\", \"Latency\": 4},"
                            "{\"Id\": 2, \"Op\": \"mid\", \"Latency\": 2},"
                            "{\"Id\": 3, \"Op\": \"fast\", \"Latency\": 1},"
                            "{\"Id\": 4, \"Op\": \"ALLOC\", \"Size\": 64, \"BufId\": 9},"
                            "{\"Id\": 5, \"Op\": \"FREE\", \"BufId\": 9}],"
                            "\"Edges\": [[0, 1], [0, 2], [0, 3], [0, 4], [4, 5]]}");
    run r;
    char err[256];
    /* alpha 0: latency alone, the fastest first; the ALLOC (no latency)
     * and its FREE last. */
    solve_ctx pp = {.has_alpha = 1, .alpha = 0};
    assert_int_equal(policy_run(g, policy_find("weighted"), &pp, &r, err, sizeof err), 0);
    static const int64_t want0[] = {0, 3, 2, 1, 4, 5};
    for (int s = 0; s < 6; s++) assert_int_equal(g->id[r.order[s]], want0[s]);
    double m, l;
    double sc = policy_weighted_score(g, &r, graph_find(g, 2), &m, &l);
    assert_true(l == 0.5 && m == 64.0 / 128 && sc == 0.5); /* (1/2) / (1/1); (64-0)/(64+64) */
    policy_run_free(&r);
    /* The default 0.7: the FREE scores 0.7 x 1, "fast" 0.7 x 0.5 + 0.3 x 1. */
    assert_int_equal(policy_run(g, policy_find("weighted"), tu_quick(), &r, err, sizeof err), 0);
    assert_true(r.alpha == SOLVE_ALPHA);
    sc = policy_weighted_score(g, &r, graph_find(g, 3), &m, &l);
    assert_true(fabs(sc - (0.7 * 0.5 + 0.3)) < 1e-12);
    static const int64_t want7[] = {0, 3, 2, 1, 4, 5};
    for (int s = 0; s < 6; s++) assert_int_equal(g->id[r.order[s]], want7[s]);
    policy_run_free(&r);
    graph_free(g);
}

/* multiqueue as man memtris, POLICIES, states it (Kahn's algorithm with a
 * FIFO queue per kind of work), written out plainly over the graph's nodes
 * and edges as lists: ready_queues[type], served in priority_order each
 * round, pop(0) within a queue. */
static void seed_multiqueue(const graph *g, const int *priority_order, uint32_t *out)
{
    uint32_t n = g->n, done = 0;
    uint32_t *in_degree = calloc(n, sizeof *in_degree);
    uint32_t *queue[3], len[3] = {0}, head[3] = {0};
    for (int q = 0; q < 3; q++) queue[q] = calloc(n, sizeof *queue[q]);
    assert_true(in_degree && queue[0] && queue[1] && queue[2]);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++) in_degree[g->succ[e]]++;
    /* for node in graph.nodes (in ascending Id, memtris's order of roots) */
    uint32_t *by_id = calloc(n, sizeof *by_id);
    assert_non_null(by_id);
    for (uint32_t i = 0; i < n; i++) by_id[i] = i;
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && g->id[by_id[j - 1]] > g->id[by_id[j]]; j--) {
            uint32_t x = by_id[j];
            by_id[j] = by_id[j - 1];
            by_id[j - 1] = x;
        }
#define TYPE(v) \
    (g->kind[v] != NODE_COMPUTE ? 2 : g->stream && g->stream[v] > 0 /* transfer */ ? 1 : 0)
    for (uint32_t k = 0; k < n; k++)
        if (in_degree[by_id[k]] == 0) queue[TYPE(by_id[k])][len[TYPE(by_id[k])]++] = by_id[k];
    while (head[0] < len[0] || head[1] < len[1] || head[2] < len[2])
        for (int k = 0; k < 3; k++) {
            int q = priority_order[k];
            if (head[q] < len[q]) {
                uint32_t node = queue[q][head[q]++];
                out[done++] = node; /* execute(node) */
                for (uint32_t e = g->succ_off[node]; e < g->succ_off[node + 1]; e++) {
                    uint32_t s = g->succ[e];
                    if (--in_degree[s] == 0) queue[TYPE(s)][len[TYPE(s)]++] = s;
                }
            }
        }
#undef TYPE
    assert_int_equal(done, n);
    free(by_id);
    free(in_degree);
    for (int q = 0; q < 3; q++) free(queue[q]);
}

static void multiqueue_is_the_seeds_loop(void **state)
{
    (void)state;
    uint64_t st = 0x3a3a;
    static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                     {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int iter = 0; iter < 120; iter++) {
        tu_gen gen;
        tu_gen_make(&gen, &st, 2 + tu_below(&st, 60));
        graph *g = tu_load_text(gen.json);
        add_time(g, &st);
        const int *o = orders[iter % 6];
        solve_ctx pp = {.has_order = 1, .order = {(uint8_t)o[0], (uint8_t)o[1], (uint8_t)o[2]}};
        run r;
        char err[256];
        assert_int_equal(policy_run(g, policy_find("multiqueue"), &pp, &r, err, sizeof err), 0);
        uint32_t *want = calloc(g->n, sizeof *want);
        assert_non_null(want);
        seed_multiqueue(g, o, want);
        for (uint32_t s = 0; s < g->n; s++)
            if (r.order[s] != want[s])
                fail_msg("graph %d, order %d%d%d, step %u: node %lld, the seed's loop %lld", iter,
                         o[0], o[1], o[2], s + 1, (long long)g->id[r.order[s]],
                         (long long)g->id[want[s]]);
        free(want);
        policy_run_free(&r);
        graph_free(g);
        tu_gen_free(&gen);
    }
}

/* Bad Latency and Stream values: an error naming the node, no graph. */
static void bad_latency_and_stream(void **state)
{
    (void)state;
    static const struct {
        const char *field, *want;
    } cases[] = {
        {"\"Latency\": -1",
         "\"Latency\" must be a non-negative number of ms up to 1e9, found a negative number"},
        {"\"Latency\": \"2ms\"",
         "\"Latency\" must be a non-negative number of ms up to 1e9, found a string"},
        {"\"Latency\": null",
         "\"Latency\" must be a non-negative number of ms up to 1e9, found null"},
        {"\"Latency\": 1e999", "up to 1e9, found a larger number"},
        {"\"Latency\": 1000000000.5", "up to 1e9, found a larger number"},
        {"\"Stream\": 64", "\"Stream\" must be 0..63, found 64"},
        {"\"Stream\": -1", "\"Stream\" must be a non-negative integer"},
        {"\"Stream\": 1.5", "\"Stream\" must be a non-negative integer"},
        {"\"Stream\": \"1\"", "\"Stream\" must be a non-negative integer"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char json[256];
        snprintf(json, sizeof json,
                 "{\"Nodes\": [{\"Id\": 0, \"Op\": \"in\"}, {\"Id\": 7, \"Op\": \"mm\", %s}],"
                 " \"Edges\": [[0, 7]]}",
                 cases[k].field);
        diag d;
        graph *g = tu_load(json, &d);
        assert_null(g);
        if (tu_find_line(&d, "Nodes[1] (Id 7)", cases[k].want, NULL) < 0) {
            tu_print_diag(&d);
            fail_msg("%s: no line naming Nodes[1] (Id 7) and '%s'", cases[k].field, cases[k].want);
        }
        diag_free(&d);
    }
    /* 63 is the last stream. */
    graph *g = tu_load_text("{\"Nodes\": [{\"Id\": 0, \"Op\": \"in\", \"Stream\": 63}], "
                            "\"Edges\": []}");
    assert_int_equal(graph_stream(g, 0), 63);
    graph_free(g);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_two_streams),
        cmocka_unit_test(random_against_reference),
        cmocka_unit_test(weighted_alpha_one_is_priority),
        cmocka_unit_test(weighted_scores),
        cmocka_unit_test(multiqueue_is_the_seeds_loop),
        cmocka_unit_test(bad_latency_and_stream),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
