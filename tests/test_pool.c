/* test_pool.c: the pools of 'memtris iterate' on hand-made needs and graphs
 * (man memtris, iterate): the elastic pool's grows, shrinks, idle count and
 * floor, the static pool, the size-class pool's blocks reused across
 * iterations, the seeded factors, and each iteration's need against a plain
 * recomputation of the scaled live peak. */
#include <math.h>
#include "testutil.h"
#include "sched/time/pool.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

static void elastic(const int64_t *need, uint32_t n, int64_t emax, pool_point *out)
{
    pool_elastic(need, n, emax, out);
    for (uint32_t i = 0; i < n; i++) assert_true(out[i].cap >= need[i]);
}

/* Starts at 50% of the expected maximum; grows at exactly the iteration
 * whose need passes it, by 1.5 (rounded up) as many times as it takes. */
static void test_elastic_grows(void **state)
{
    (void)state;
    int64_t need[] = {400, 600, 1200, 1688, 1689};
    pool_point p[5];
    elastic(need, 5, 1000, p);
    assert_int_equal(p[0].cap, 500); /* ceil(1000 / 2) */
    assert_int_equal(p[0].grow, 0);
    assert_int_equal(p[0].allocs, 1); /* the first arena */
    assert_int_equal(p[1].cap, 750);  /* 600 > 500: x1.5 */
    assert_int_equal(p[1].grow, 1);
    assert_int_equal(p[1].allocs, 1);
    assert_int_equal(p[2].cap, 1688); /* 1200 > 750: 1125, then ceil(1687.5) */
    assert_int_equal(p[2].grow, 2);
    assert_int_equal(p[3].cap, 1688); /* fits exactly: no event */
    assert_int_equal(p[3].grow, 0);
    assert_int_equal(p[3].allocs, 0);
    assert_int_equal(p[4].cap, 2532);
    assert_int_equal(p[4].grow, 1);
    int64_t odd[] = {2};
    elastic(odd, 1, 3, p); /* ceil(3 / 2) = 2 */
    assert_int_equal(p[0].cap, 2);
}

/* Shrinks one step at the end of the 10th idle iteration in a row, not the
 * 9th; again after 10 more; never below the floor (no event there). */
static void test_elastic_shrinks(void **state)
{
    (void)state;
    int64_t need[41];
    need[0] = 1100; /* 500 -> 750 -> 1125 */
    for (int i = 1; i < 41; i++) need[i] = 100;
    pool_point p[41];
    elastic(need, 41, 1000, p);
    assert_int_equal(p[0].cap, 1125);
    assert_int_equal(p[0].grow, 2);
    for (int i = 1; i <= 9; i++) {
        assert_int_equal(p[i].cap, 1125);
        assert_int_equal(p[i].shrink, 0);
    }
    assert_int_equal(p[10].shrink, 1); /* the 10th idle iteration */
    assert_int_equal(p[10].cap, 750);  /* 1125 / 1.5 */
    assert_int_equal(p[10].allocs, 1);
    for (int i = 11; i <= 19; i++) assert_int_equal(p[i].shrink, 0);
    assert_int_equal(p[20].shrink, 1);
    assert_int_equal(p[20].cap, 500); /* the floor */
    for (int i = 21; i < 41; i++) {   /* at the floor: idle, but nothing to shrink */
        assert_int_equal(p[i].cap, 500);
        assert_int_equal(p[i].shrink, 0);
        assert_int_equal(p[i].allocs, 0);
    }
}

/* A busy iteration (need above cap / 1.5) restarts the idle count; the
 * shrink stops at the floor, not at cap / 1.5, when that is below it. */
static void test_elastic_idle_reset(void **state)
{
    (void)state;
    int64_t need[17] = {1100, 100, 100, 100, 100, 100, 751 /* > 1125 / 1.5 */};
    for (int i = 7; i < 17; i++) need[i] = 750; /* <= 750: idle */
    pool_point p[17];
    elastic(need, 17, 1000, p);
    for (int i = 0; i < 16; i++) assert_int_equal(p[i].shrink, 0);
    assert_int_equal(p[16].shrink, 1); /* the 10th idle after the busy one */
    assert_int_equal(p[16].cap, 750);
    /* a higher floor: 1200 / 2 = 600 < 1125 / 1.5 = 750: shrinks to 750;
     * with floor 800 (emax 1600) it stops at 800 */
    int64_t hi[11] = {1100};
    for (int i = 1; i < 11; i++) hi[i] = 500;
    elastic(hi, 11, 1600, p);
    assert_int_equal(p[0].cap, 1200); /* 800 -> 1200 */
    assert_int_equal(p[10].shrink, 1);
    assert_int_equal(p[10].cap, 800);
}

static void test_static_pool(void **state)
{
    (void)state;
    int64_t need[] = {10, 20, 5, 30, 7};
    pool_point p[5];
    pool_static(need, 5, 20, p);
    assert_int_equal(p[0].cap, 20);
    assert_int_equal(p[0].allocs, 1);
    assert_int_equal(p[1].allocs, 0);
    assert_int_equal(p[2].cap, 20);
    assert_int_equal(p[3].cap, 30); /* past the expected maximum: a grow */
    assert_int_equal(p[3].grow, 1);
    assert_int_equal(p[3].allocs, 1);
    assert_int_equal(p[4].cap, 30);
}

/* 2^n blocks (from 64 bytes), the most recently freed of a class first. */
static void test_sizeclass_blocks(void **state)
{
    (void)state;
    pool_sc sc;
    pool_sc_init(&sc);
    int fresh;
    assert_int_equal(pool_sc_take(&sc, 100, &fresh), 0);
    assert_true(fresh);
    assert_int_equal(pool_sc_take(&sc, 128, &fresh), 1);
    assert_true(fresh);
    assert_int_equal(sc.held, 256);
    pool_sc_give(&sc, 0);
    pool_sc_give(&sc, 1);
    assert_int_equal(pool_sc_take(&sc, 65, &fresh), 1); /* the last freed */
    assert_false(fresh);
    assert_int_equal(pool_sc_take(&sc, 1, &fresh), 2); /* 64 bytes: another class */
    assert_true(fresh);
    assert_int_equal(pool_sc_take(&sc, 1000, &fresh), 3);
    assert_int_equal(sc.held, 128 + 128 + 64 + 1024);
    assert_int_equal(pool_class(0), 0); /* never asked: 0-byte buffers take no block */
    assert_int_equal(pool_class(4097), 13);
    pool_sc_free(&sc);
}

static const char two_bufs[] =
    "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 1000, \"BufId\": 1},"
    " {\"Id\": 1, \"Op\": \"FREE\", \"BufId\": 1},"
    " {\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 3000, \"BufId\": 2},"
    " {\"Id\": 3, \"Op\": \"ALLOC\", \"Size\": 0, \"BufId\": 3},"
    " {\"Id\": 4, \"Op\": \"FREE\", \"BufId\": 2}],"
    " \"Edges\": [[0, 1], [1, 2], [2, 3], [3, 4]]}";

/* Across iterations: blocks persist and are reused; only new classes make
 * new blocks (by hand: f 1: 1024 + 4096; f 0.5: 512 + 2048; f 1 and 0.9:
 * none; f 0.3: 512 (300) and 1024 (900): both there). */
static void test_sizeclass_iterations(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load(two_bufs, &d);
    assert_non_null(g);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &r, err, sizeof err), 0);
    pool_sc sc;
    pool_sc_init(&sc);
    uint32_t slot[4] = {GRAPH_NONE, GRAPH_NONE, GRAPH_NONE, GRAPH_NONE};
    pool_walk w = {g, &r, 1.0, slot};
    static const double f[] = {1.0, 0.5, 1.0, 0.9, 0.3};
    static const int64_t fresh[] = {2, 2, 0, 0, 0}, held[] = {5120, 7680, 7680, 7680, 7680};
    for (int i = 0; i < 5; i++) {
        w.f = f[i];
        assert_int_equal(pool_sc_walk(&sc, &w, NULL, NULL), fresh[i]);
        assert_int_equal(sc.held, held[i]);
        for (int b = 0; b < 4; b++) assert_int_equal(slot[b], GRAPH_NONE);
    }
    assert_int_equal(sc.nblocks, 4);
    pool_sc_free(&sc);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

static void test_factors(void **state)
{
    (void)state;
    pool_rng a, b, c;
    pool_rng_seed(&a, 7);
    pool_rng_seed(&b, 7);
    pool_rng_seed(&c, 8);
    int differ = 0;
    for (int i = 0; i < 10000; i++) {
        double x = pool_rng_factor(&a, 0.25, 1.0), y = pool_rng_factor(&b, 0.25, 1.0);
        assert_true(x >= 0.25 && x < 1.0);
        assert_true(x == y);
        differ += x != pool_rng_factor(&c, 0.25, 1.0);
    }
    assert_true(differ > 9900);
    pool_rng_seed(&a, 0); /* splitmix64's first output for seed 0 */
    assert_true(pool_rng_next(&a) == 0xe220a8397b1dcdafull);
    assert_true(pool_rng_factor(&a, 2.0, 2.0) == 2.0);
    assert_int_equal(pool_scaled(0, 0.5), 0);
    assert_int_equal(pool_scaled(3, 0.5), 2);
    assert_int_equal(pool_scaled(1, 0.25), 1);
    assert_int_equal(pool_scaled(1000, 1.0), 1000);
    assert_int_equal(pool_scaled((int64_t)1 << 53, 1024.0), -1);
}

/* The live peak with scaled sizes, recomputed plainly per buffer. */
static int64_t reference_need(const graph *g, const run *r, double f)
{
    int64_t mem = 0, peak = 0;
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s], b = g->buf[u];
        if (b == GRAPH_NONE || g->kind[u] == NODE_COMPUTE) continue;
        int64_t v = (int64_t)ceil((double)g->buf_size[b] * f);
        mem += g->kind[u] == NODE_ALLOC ? v : -v;
        if (mem > peak) peak = mem;
    }
    return peak;
}

static void test_need_and_simulation(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, "bert_base.json");
    graph *g = load_file(MEMTRIS_SOURCE_DIR "/samples/bert_base.json", &d, NULL, NULL);
    assert_non_null(g);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("priority"), NULL, &r, err, sizeof err), 0);
    int64_t need;
    assert_int_equal(pool_need(g, &r, 1.0, &need, err, sizeof err), 0);
    assert_int_equal(need, r.peak);
    pool_params pp = {200, 0.25, 1.0, 3};
    pool_sim s;
    assert_int_equal(pool_simulate(g, &r, &pp, &s, err, sizeof err), 0);
    assert_int_equal(s.expected_max, r.peak);
    pool_rng rng;
    pool_rng_seed(&rng, 3);
    for (uint32_t i = 0; i < s.n; i++) {
        assert_true(s.factor[i] == pool_rng_factor(&rng, 0.25, 1.0));
        assert_int_equal(s.need[i], reference_need(g, &r, s.factor[i]));
        assert_true(s.need[i] <= s.expected_max);
        assert_int_equal(s.pt[POOL_STATIC][i].cap, s.expected_max);
        /* the size-class pool holds at least what is live at once */
        assert_true(s.pt[POOL_SIZECLASS][i].cap >= s.need[i]);
    }
    assert_int_equal(s.tot[POOL_STATIC].reallocs, 1);
    assert_int_equal(s.tot[POOL_ELASTIC].reallocs,
                     1 + s.tot[POOL_ELASTIC].grows + s.tot[POOL_ELASTIC].shrinks);
    assert_int_equal(s.tot[POOL_SIZECLASS].peak_cap, s.pt[POOL_SIZECLASS][s.n - 1].cap);
    pool_sim_free(&s);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

/* pool_simulate_ticked: its tick after every iteration, i of n, in order;
 * a nonzero return stops it there with the simulation freed. */
typedef struct ticks {
    uint32_t seen, stop_at;
} ticks;

static int count_tick(void *ctx, uint32_t done, uint32_t total)
{
    ticks *t = ctx;
    assert_int_equal(done, t->seen + 1);
    assert_int_equal(total, 50);
    t->seen = done;
    return done == t->stop_at;
}

static void test_ticks(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, "demo.json");
    graph *g = load_file(MEMTRIS_SOURCE_DIR "/samples/demo.json", &d, NULL, NULL);
    assert_non_null(g);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("priority"), NULL, &r, err, sizeof err), 0);
    pool_params pp = {50, 0.25, 1.0, 3};
    pool_sim s;
    ticks t = {0, 0};
    assert_int_equal(pool_simulate_ticked(g, &r, &pp, &s, err, sizeof err, count_tick, &t), 0);
    assert_int_equal(t.seen, 50);
    pool_sim ref;
    assert_int_equal(pool_simulate(g, &r, &pp, &ref, err, sizeof err), 0);
    for (uint32_t i = 0; i < 50; i++) assert_int_equal(s.need[i], ref.need[i]);
    pool_sim_free(&ref);
    pool_sim_free(&s);
    t = (ticks){0, 7};
    assert_int_equal(pool_simulate_ticked(g, &r, &pp, &s, err, sizeof err, count_tick, &t), -1);
    assert_int_equal(t.seen, 7);
    assert_string_equal(err, "stopped after iteration 7 of 50");
    assert_null(s.need);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elastic_grows),
        cmocka_unit_test(test_elastic_shrinks),
        cmocka_unit_test(test_elastic_idle_reset),
        cmocka_unit_test(test_static_pool),
        cmocka_unit_test(test_sizeclass_blocks),
        cmocka_unit_test(test_sizeclass_iterations),
        cmocka_unit_test(test_factors),
        cmocka_unit_test(test_need_and_simulation),
        cmocka_unit_test(test_ticks),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
