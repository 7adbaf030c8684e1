/* test_budget_graph.c: a memory budget's plan as a graph (budget_plan_graph): on random small
 * graphs with random legal plans (runs, reruns, frees, offloads, fetches) and greedy's plans at
 * every budget, and on the training samples with greedy's and Chen's plans, the plan graph
 * validates, policy given replays it at budget_check's peak, its reruns, offloads and fetches
 * are the plan's (names, Ops, Stream 1, new BufIds), and it survives graph_write and the
 * loader unchanged in peak. A plan the checker refuses makes no graph. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include "testutil.h"
#include "sched/budget/budget.h"
#include "sched/graph/graph_write.h"
#include "sched/graph/validate.h"
#include "sched/policy/policy.h"
#include "util/outbuf.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int rnd(uint64_t *s, int n) { return (int)(rng_next(s) % (uint64_t)n); }

/* A random graph of m compute nodes in the exporter's shape: node v's ALLOCs before it, its
 * FREEs after its buffers' last reader; node 0 an Input, some nodes "Rerun": false, one
 * weight present from the start (read through Inputs alone, never freed), the last output
 * kept. */
static void random_json(char *out, size_t cap, uint64_t *s)
{
    enum { M = 8, B = 12 };
    int m = 3 + rnd(s, M - 2), nb = 0, prod[B], last[B], id = 1;
    unsigned in[M] = {0}, mk[M] = {0};
    int64_t size[B];
    for (int v = 0; v < m && nb < B; v++) {
        for (int k = v && nb + 1 < B && rnd(s, 4) == 0 ? 2 : 1; k > 0; k--) {
            mk[v] |= 1u << nb;
            prod[nb] = v;
            size[nb++] = 100 * (1 + rnd(s, 6));
        }
        for (int j = 0; v && j < 1 + rnd(s, 2); j++) {
            int b = rnd(s, nb);
            if (!(mk[v] >> b & 1)) in[v] |= 1u << b;
        }
    }
    for (int b = 0; b < nb; b++) last[b] = prod[b];
    for (int v = 0; v < m; v++)
        for (int b = 0; b < nb; b++)
            if (in[v] >> b & 1) last[b] = v;
    unsigned keep = 1u << (nb - 1) | (rnd(s, 3) == 0 ? 1u << rnd(s, nb) : 0);
    size_t n = (size_t)snprintf(out, cap,
                                "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 50, "
                                "\"BufId\": 99, \"Name\": \"w\", \"Category\": \"weight\"}");
    char edges[4096] = "";
    size_t le = 0;
    int nid[M], aid[B];
    for (int v = 0; v < m; v++) {
        for (int b = 0; b < nb; b++)
            if (mk[v] >> b & 1) {
                aid[b] = id++;
                n += (size_t)snprintf(out + n, cap - n,
                                      ", {\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": %lld, "
                                      "\"BufId\": %d, \"Category\": \"activation\"}",
                                      aid[b], (long long)size[b], b);
                le += (size_t)snprintf(edges + le, sizeof edges - le, "[%d, %d], ", aid[b], id);
            }
        nid[v] = id++;
        n += (size_t)snprintf(out + n, cap - n,
                              ", {\"Id\": %d, \"Op\": \"%s\", \"Name\": \"n%d\", \"Latency\": %d, "
                              "\"Phase\": \"forward\"%s, \"Inputs\": [99",
                              nid[v], v ? "Op" : "Input", v, 1 + rnd(s, 5),
                              v && rnd(s, 6) == 0 ? ", \"Rerun\": false" : "");
        for (int b = 0; b < nb; b++)
            if ((in[v] | mk[v]) >> b & 1) n += (size_t)snprintf(out + n, cap - n, ", %d", b);
        n += (size_t)snprintf(out + n, cap - n, "]}");
        for (int b = 0; b < nb; b++)
            if (in[v] >> b & 1)
                le += (size_t)snprintf(edges + le, sizeof edges - le, "[%d, %d], ", nid[prod[b]],
                                       nid[v]);
        for (int b = 0; b < nb; b++)
            if (last[b] == v && !(keep >> b & 1)) {
                n += (size_t)snprintf(out + n, cap - n,
                                      ", {\"Id\": %d, \"Op\": \"FREE\", \"BufId\": %d}", id, b);
                le += (size_t)snprintf(edges + le, sizeof edges - le, "[%d, %d], ", nid[v], id++);
            }
    }
    assert_true(n < cap && le >= 2 && le < sizeof edges);
    edges[le - 2] = 0;
    snprintf(out + n, cap - n, "], \"Edges\": [%s]}", edges);
}

/* Whether node v may run now: its reads present and, for a first run, the nodes before it in
 * the given order run. */
static int can_run(const budget_model *bm, uint32_t v, const uint8_t *present, const int *ran,
                   uint32_t next)
{
    if (ran[v] ? !bm->rerunnable[v] : bm->pos[v] != next) return 0;
    for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
        if (!present[bm->rd[e]]) return 0;
    return 1;
}

/* A random plan over bm: random runs, reruns, frees, offloads and fetches. Whole and legal or
 * not; the caller keeps those the checker passes. */
static void random_plan(const budget_model *bm, uint64_t *s, budget_plan *p)
{
    const graph *g = bm->g;
    uint8_t present[64] = {0}, host[64] = {0};
    int ran[128] = {0};
    assert_true(g->nbufs <= 64 && g->n <= 128);
    for (uint32_t b = 0; b < g->nbufs; b++) present[b] = bm->producer[b] == GRAPH_NONE;
    uint32_t next = 0;
    for (int step = 0; step < 200 && next < bm->m; step++) {
        uint32_t v = bm->order[rnd(s, (int)bm->m)], b = (uint32_t)rnd(s, (int)g->nbufs);
        int what = rnd(s, 6);
        if (what <= 1) v = bm->order[next];
        if (what <= 2 && can_run(bm, v, present, ran, next)) {
            assert_int_equal(budget_plan_push(p, BUDGET_RUN, v), 0);
            if (!ran[v]++) next++;
            for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) present[bm->wr[e]] = 1;
        } else if (what == 3 && present[b] && bm->producer[b] != GRAPH_NONE) {
            assert_int_equal(budget_plan_push(p, BUDGET_FREE, b), 0);
            present[b] = 0;
        } else if (what == 4 && present[b]) {
            assert_int_equal(budget_plan_push(p, BUDGET_OFFLOAD, b), 0);
            present[b] = 0;
            host[b] = 1;
        } else if (what == 5 && !present[b] && host[b]) {
            assert_int_equal(budget_plan_push(p, BUDGET_FETCH, b), 0);
            present[b] = 1;
        }
    }
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (bm->keep[b] && !present[b] && host[b])
            assert_int_equal(budget_plan_push(p, BUDGET_FETCH, b), 0);
}

/* Plan p as a graph: checked against the checker's stats, replayed by policy given, written
 * and loaded back. Returns the plan graph's node count. */
static uint32_t check_plan_graph(const budget_model *bm, const budget_plan *p)
{
    budget_stats st;
    char err[512];
    if (budget_check(bm, p, BUDGET_BANDWIDTH, &st, err, sizeof err)) fail_msg("%s", err);
    graph *pg;
    budget_graph_map map;
    if (budget_plan_graph(bm, p, BUDGET_BANDWIDTH, &pg, &map, err, sizeof err)) fail_msg("%s", err);
    diag d;
    diag_init(&d, "plan");
    assert_int_equal(validate_graph(pg, &d), VALIDATE_OK);
    assert_int_equal(d.nerrors, 0);
    diag_free(&d);
    run r;
    if (policy_run(pg, policy_find("given"), NULL, &r, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(r.peak, st.peak);
    policy_run_free(&r);
    /* Each event's nodes: counted by kind, their Ops, Names, Streams and BufIds. */
    uint64_t count[6] = {0}, rng[2] = {0};
    int64_t most = 0;
    for (uint32_t x = 0; x < bm->g->nbufs; x++)
        if (bm->g->buf_id[x] > most) most = bm->g->buf_id[x];
    for (uint32_t i = 0; i < pg->n; i++) {
        uint32_t k = map.kind[i], x = map.of[i];
        assert_true(k <= BPG_FREE);
        count[k]++;
        assert_int_equal(pg->id[i], i);
        const char *name = graph_name(pg, i);
        size_t len = strlen(name);
        if (k == BPG_RUN || k == BPG_RERUN) {
            assert_string_equal(graph_op(pg, i), graph_op(bm->g, x));
            assert_true(graph_latency(pg, i) == graph_latency(bm->g, x));
            assert_int_equal(graph_phase(pg, i), graph_phase(bm->g, x));
            if (k == BPG_RUN) assert_string_equal(name, graph_name(bm->g, x));
            else assert_true(len > 8 && !strcmp(name + len - 8, " (rerun)"));
        } else if (k == BPG_OFFLOAD || k == BPG_FETCH) {
            assert_string_equal(graph_op(pg, i), k == BPG_FETCH ? "Fetch" : "Offload");
            assert_int_equal(graph_stream(pg, i), 1);
            assert_true(fabs(graph_latency(pg, i) -
                             (double)bm->g->buf_size[x] / BUDGET_BANDWIDTH * 1000) < 1e-12);
        } else if (x == GRAPH_NONE) { /* a random op's generator state, kept for its reruns */
            uint32_t b = pg->buf[i];
            assert_int_equal(pg->buf_size[b], BUDGET_RNG_BYTES);
            assert_true(pg->buf_id[b] > most);
            if (k == BPG_ALLOC) assert_true(!strncmp(name, "rng state of ", 13));
            rng[k == BPG_FREE]++;
        } else {
            uint32_t b = pg->buf[i];
            assert_int_equal(pg->buf_size[b], bm->g->buf_size[x]);
            assert_true(pg->buf_id[b] == bm->g->buf_id[x] || pg->buf_id[b] > most);
            if (k == BPG_ALLOC && pg->buf_id[b] != bm->g->buf_id[x]) {
                assert_int_equal(graph_buf_category(pg, b), graph_buf_category(bm->g, x));
                assert_true(strstr(name, " (rerun)") || strstr(name, " (fetched)"));
            }
        }
    }
    assert_int_equal(count[BPG_RUN], bm->m);
    assert_int_equal(count[BPG_RERUN], st.reruns);
    uint64_t moves[5] = {0};
    for (size_t e = 0; e < p->n; e++) moves[p->ev[e].op]++;
    assert_int_equal(count[BPG_OFFLOAD], moves[BUDGET_OFFLOAD]);
    assert_int_equal(count[BPG_FETCH], moves[BUDGET_FETCH]);
    assert_int_equal(count[BPG_FREE], moves[BUDGET_FREE] + moves[BUDGET_OFFLOAD] + rng[1]);
    assert_int_equal(rng[0], st.rng_states); /* an ALLOC and a FREE each */
    assert_int_equal(rng[1], st.rng_states);
    /* Written and read back: the same peak under given. */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(graph_write(pg, outbuf_file, f, err, sizeof err), 0);
    assert_int_equal(fclose(f), 0);
    graph *back = tu_load(text, &d);
    if (!back) tu_print_diag(&d);
    assert_non_null(back);
    assert_int_equal(back->n, pg->n);
    assert_int_equal(back->nedges, pg->nedges);
    if (policy_run(back, policy_find("given"), NULL, &r, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(r.peak, st.peak);
    policy_run_free(&r);
    diag_free(&d);
    graph_free(back);
    free(text);
    uint32_t n = pg->n;
    budget_graph_map_free(&map);
    graph_free(pg);
    return n;
}

static void random_graphs_and_plans(void **state)
{
    (void)state;
    uint64_t s = 0x2545f4914f6cdd1dull;
    int kept = 0, greedy = 0, moved = 0;
    char json[16384];
    for (int t = 0; t < 120; t++) {
        random_json(json, sizeof json, &s);
        diag d;
        graph *g = tu_load(json, &d);
        if (!g) tu_print_diag(&d);
        assert_non_null(g);
        diag_free(&d);
        budget_model bm;
        char err[256];
        assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
        for (int k = 0; k < 8; k++) {
            budget_plan p = {0};
            budget_stats st;
            random_plan(&bm, &s, &p);
            if (!budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err)) {
                check_plan_graph(&bm, &p);
                kept++;
                moved += st.offloaded_bytes > 0 && st.reruns > 0;
            } else {
                graph *none = (graph *)1;
                assert_int_equal(
                    budget_plan_graph(&bm, &p, BUDGET_BANDWIDTH, &none, NULL, err, sizeof err), -1);
                assert_null(none);
                assert_true(err[0]);
            }
            budget_plan_free(&p);
        }
        budget_plan given = {0};
        budget_stats st;
        assert_int_equal(budget_given_plan(&bm, &given), 0);
        assert_int_equal(budget_check(&bm, &given, BUDGET_BANDWIDTH, &st, err, sizeof err), 0);
        budget_plan_free(&given);
        for (int64_t b = budget_lower_bound(&bm); b <= st.peak; b += 100)
            for (unsigned allow = 1; allow <= 3; allow++) {
                budget_plan p = {0};
                budget_outcome o;
                assert_int_equal(budget_greedy(&bm,
                                               &(budget_goal){b, allow, BUDGET_BANDWIDTH, NULL},
                                               NULL, &p, &o, NULL),
                                 0);
                if (o.found) {
                    check_plan_graph(&bm, &p);
                    greedy++;
                }
                budget_plan_free(&p);
            }
        budget_model_free(&bm);
        graph_free(g);
    }
    print_message("%d random plans, %d with reruns and offloads; %d greedy plans\n", kept, moved,
                  greedy);
    assert_true(kept >= 300 && moved >= 20 && greedy >= 300);
}

static void samples_greedy_and_chen(void **state)
{
    (void)state;
    const char *names[] = {"resnet18_train.json", "transformer_block_train.json"};
    for (int k = 0; k < 2; k++) {
        graph *g = tu_load_sample(names[k], NULL);
        budget_model bm;
        char err[256];
        assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
        budget_plan p = {0};
        budget_stats st;
        assert_int_equal(budget_given_plan(&bm, &p), 0);
        assert_int_equal(budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err), 0);
        assert_int_equal(check_plan_graph(&bm, &p), g->n); /* the given plan: g again */
        budget_plan_free(&p);
        int64_t peak = st.peak;
        for (int pct = 80; pct >= 40; pct -= 10)
            for (unsigned allow = 1; allow <= 3; allow++) {
                budget_outcome o;
                assert_int_equal(
                    budget_greedy(&bm,
                                  &(budget_goal){peak * pct / 100, allow, BUDGET_BANDWIDTH, NULL},
                                  NULL, &p, &o, NULL),
                    0);
                if (o.found) check_plan_graph(&bm, &p);
                budget_plan_free(&p);
            }
        budget_outcome co;
        assert_int_equal(budget_chen(&bm, NULL, &p, &co), 0);
        assert_true(co.found);
        check_plan_graph(&bm, &p);
        budget_plan_free(&p);
        budget_model_free(&bm);
        graph_free(g);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_graphs_and_plans),
        cmocka_unit_test(samples_greedy_and_chen),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
