/* test_place_exact.c: the exact placer against brute force. On tiny problems
 * (up to 7 buffers) the least arena over every order of placing each buffer
 * at the lowest offset that fits (which reaches an optimum) equals exact's,
 * proven; exact is never above any placer; every plan verifies; the search's
 * limits give a valid plan, a bound that never passes the optimum and no
 * false claim; widths from g->time change the search's order, not the answer;
 * best's bounded run of the search improves its greedy plan within limits. */
#include "testutil.h"
#include "sched/place/place.h"
#include "sched/graph/solve_watch.h"
#include "sched/gen/gen.h"
#include "sched/place/problem.h"

/* A random interval problem as a chain graph: buffer i lives on [lo, hi)
 * of times 0..T; at each time the FREEs come before the ALLOCs. */
typedef struct prob {
    uint32_t n;
    uint32_t lo[16], hi[16];
    int64_t size[16];
} prob;

static void prob_random(prob *p, uint64_t *st, uint32_t n, uint32_t T, int64_t maxsize)
{
    p->n = n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = tu_below(st, T), b = tu_below(st, T);
        if (a > b) {
            uint32_t t = a;
            a = b;
            b = t;
        }
        p->lo[i] = a;
        p->hi[i] = b + 1;
        p->size[i] = 1 + (int64_t)tu_below(st, (uint32_t)maxsize);
    }
}

static graph *prob_graph(const prob *p, int with_time)
{
    tu_str s = {0};
    tu_printf(&s, "{\"Nodes\": [");
    uint32_t id = 0;
    uint32_t T = 0;
    for (uint32_t i = 0; i < p->n; i++) T = p->hi[i] > T ? p->hi[i] : T;
    for (uint32_t t = 0; t <= T; t++) {
        for (uint32_t i = 0; i < p->n; i++)
            if (p->hi[i] == t) {
                tu_printf(&s, "%s{\"Id\": %u, \"Op\": \"FREE\", \"BufId\": %u}", id ? ", " : "", id,
                          i + 1);
                id++;
            }
        for (uint32_t i = 0; i < p->n; i++)
            if (p->lo[i] == t) {
                tu_printf(&s, "%s{\"Id\": %u, \"Op\": \"ALLOC\", \"BufId\": %u, \"Size\": %lld}",
                          id ? ", " : "", id, i + 1, (long long)p->size[i]);
                id++;
            }
    }
    tu_printf(&s, "], \"Edges\": [");
    for (uint32_t k = 1; k < id; k++) tu_printf(&s, "%s[%u, %u]", k > 1 ? ", " : "", k - 1, k);
    tu_printf(&s, "]}");
    graph *g = tu_load_clean(s.s, s.len, "interval problem");
    free(s.s);
    if (with_time) {
        /* The node's time: its buffer's lo or hi, stretched unevenly. */
        g->time = calloc(g->n, sizeof *g->time);
        assert_non_null(g->time);
        for (uint32_t b = 0; b < g->nbufs; b++) {
            uint32_t i = (uint32_t)g->buf_id[b] - 1;
            g->time[g->buf_alloc[b]] = (int64_t)p->lo[i] * p->lo[i] * 7;
            g->time[g->buf_free[b]] = (int64_t)p->hi[i] * p->hi[i] * 7;
        }
    }
    return g;
}

/* The least arena over every order of placing the buffers, each at the
 * lowest offset where it overlaps no placed buffer live with it. */
static void brute(const lifetimes *lt, const int64_t *span, uint32_t nb, uint32_t *perm, uint32_t k,
                  int64_t *off, int64_t top, int64_t *best)
{
    if (top >= *best) return;
    if (k == nb) {
        *best = top;
        return;
    }
    for (uint32_t j = k; j < nb; j++) {
        uint32_t t = perm[k];
        perm[k] = perm[j];
        perm[j] = t;
        uint32_t b = perm[k];
        /* The lowest offset: 0 or the end of a placed overlapping buffer. */
        int64_t o = 0;
        for (int moved = 1; moved;) {
            moved = 0;
            for (uint32_t i = 0; i < k; i++) {
                uint32_t c = perm[i];
                int live =
                    lt->alloc_step[b] < lt->free_step[c] && lt->alloc_step[c] < lt->free_step[b];
                if (live && span[c] && span[b] && o < off[c] + span[c] && off[c] < o + span[b]) {
                    o = off[c] + span[c];
                    moved = 1;
                }
            }
        }
        off[b] = o;
        int64_t t2 = o + span[b] > top ? o + span[b] : top;
        brute(lt, span, nb, perm, k + 1, off, t2, best);
        t = perm[k];
        perm[k] = perm[j];
        perm[j] = t;
    }
}

static int64_t brute_arena(const graph *g, const run *r, int64_t align)
{
    lifetimes lt = {0};
    assert_int_equal(place_lifetimes(g, r, &lt), 0);
    int64_t span[16], off[16], best = INT64_MAX;
    uint32_t perm[16];
    assert_true(g->nbufs <= 16);
    for (uint32_t b = 0; b < g->nbufs; b++) {
        span[b] = place_span(g->buf_size[b], align);
        perm[b] = b;
    }
    brute(&lt, span, g->nbufs, perm, 0, off, 0, &best);
    place_lifetimes_free(&lt);
    return best;
}

/* exact without best's plan: its search finds every plan itself. */
static const placer cold = {.name = "exact-cold", .place = place_exact_cold};

static void plan_ok(const graph *g, const run *r, const char *name, int64_t align,
                    const solve_ctx *c, placement *pl)
{
    char err[512] = "";
    const placer *p = strcmp(name, cold.name) ? placer_find(name) : &cold;
    int rc = place_run_checked(g, r, p, align, c, pl, err, sizeof err);
    if (rc != PLACE_OK) fail_msg("%s: %s", name, err);
}

/* Exact equals brute force on 1500 random problems of 1 to 7 buffers, and
 * says it is proven; no placer goes below it. */
static void test_exact_is_optimal(void **state)
{
    (void)state;
    uint64_t st = 42;
    int searched = 0;
    for (int trial = 0; trial < 1500; trial++) {
        prob p;
        uint32_t n = 1 + tu_below(&st, 7);
        prob_random(&p, &st, n, 2 + tu_below(&st, 8), trial % 3 ? 8 : 1000);
        graph *g = prob_graph(&p, trial % 2);
        run r;
        char err[256];
        assert_int_equal(policy_run(g, policy_baseline(), NULL, &r, err, sizeof err), 0);
        int64_t align = trial % 5 == 4 ? 4 : 1;
        int64_t opt = brute_arena(g, &r, align);
        placement pl;
        plan_ok(g, &r, "exact", align, NULL, &pl);
        if (pl.arena != opt || !pl.proven || pl.bound != opt)
            fail_msg("trial %d (%u buffers, align %lld): exact %lld (bound %lld, proven %d), "
                     "brute force %lld",
                     trial, n, (long long)align, (long long)pl.arena, (long long)pl.bound,
                     pl.proven, (long long)opt);
        placement c;
        plan_ok(g, &r, cold.name, align, NULL, &c);
        if (c.arena != opt || !c.proven)
            fail_msg("trial %d: exact from a stack %lld, optimum %lld", trial, (long long)c.arena,
                     (long long)opt);
        searched += c.search.ran;
        place_free(&c);
        for (size_t i = 0; placer_at(i); i++) {
            placement q;
            plan_ok(g, &r, placer_at(i)->name, align, NULL, &q);
            assert_true(q.arena >= opt);
            assert_true(q.bound <= opt);
            if (q.proven) assert_int_equal(q.arena, opt);
            place_free(&q);
        }
        place_free(&pl);
        policy_run_free(&r);
        graph_free(g);
    }
    print_message("the search ran on %d of 1500 problems\n", searched);
    assert_true(searched > 600); /* the rest: a stack already at the bound */
}

/* Larger random problems (12 to 16 buffers, where best misses now and then):
 * exact is never above any placer, its plan verifies, and a proven plan
 * meets its bound. */
static void test_exact_beats_every_placer(void **state)
{
    (void)state;
    uint64_t st = 7;
    int proven = 0, beat_best = 0;
    for (int trial = 0; trial < 300; trial++) {
        prob p;
        prob_random(&p, &st, 12 + tu_below(&st, 5), 6 + tu_below(&st, 10), 64);
        graph *g = prob_graph(&p, 0);
        run r;
        char err[256];
        assert_int_equal(policy_run(g, policy_baseline(), NULL, &r, err, sizeof err), 0);
        placement ex;
        plan_ok(g, &r, "exact", 1, NULL, &ex);
        proven += ex.proven;
        if (ex.proven) assert_int_equal(ex.arena, ex.bound);
        placement c; /* the search alone finds the same optimum */
        plan_ok(g, &r, cold.name, 1, NULL, &c);
        assert_true(c.proven);
        assert_int_equal(c.arena, ex.arena);
        place_free(&c);
        for (size_t i = 0; placer_at(i); i++) {
            placement q;
            plan_ok(g, &r, placer_at(i)->name, 1, NULL, &q);
            assert_true(ex.arena <= q.arena);
            assert_true(q.bound <= ex.arena);
            if (!strcmp(q.placer, "best") && ex.arena < q.arena) beat_best++;
            place_free(&q);
        }
        place_free(&ex);
        policy_run_free(&r);
        graph_free(g);
    }
    print_message("exact proved %d of 300; below best on %d\n", proven, beat_best);
    assert_int_equal(proven, 300); /* 16 buffers search to the end well within the limits */
}

/* The limit path: with a search of a few nodes the plan still verifies, the
 * bound never passes the optimum (exact's, unlimited: proven equal to brute
 * force above), and "proven" is never claimed falsely. */
static void test_exact_limits_are_honest(void **state)
{
    (void)state;
    uint64_t st = 7;
    int stopped = 0;
    for (int trial = 0; trial < 300; trial++) {
        prob p;
        prob_random(&p, &st, 12 + tu_below(&st, 5), 6 + tu_below(&st, 10), 64);
        graph *g = prob_graph(&p, 0);
        run r;
        char err[256];
        assert_int_equal(policy_run(g, policy_baseline(), NULL, &r, err, sizeof err), 0);
        placement full, pl;
        plan_ok(g, &r, "exact", 1, NULL, &full);
        assert_true(full.proven);
        solve_ctx lim = {.max_states = 1 + (uint64_t)trial % 3};
        plan_ok(g, &r, trial % 2 ? "exact" : cold.name, 1, &lim, &pl);
        assert_true(pl.arena >= full.arena);
        assert_true(pl.bound <= full.arena);
        assert_int_equal(pl.proven, pl.arena == pl.bound);
        if (pl.search.stopped) {
            stopped++;
            assert_int_equal(pl.search.stopped, SOLVE_STATES);
            assert_false(pl.proven && pl.arena > full.arena);
        }
        place_free(&full);
        place_free(&pl);
        policy_run_free(&r);
        graph_free(g);
    }
    print_message("the node limit stopped %d of 300 searches\n", stopped);
    assert_true(stopped > 0); /* the limit was reached, so the path ran */
}

/* A watcher's cancel (the TUI's Esc, the CLI's SIGINT) stops the search at
 * once: the plan it had stands, and says it was cancelled. */
static void test_exact_cancel(void **state)
{
    (void)state;
    uint64_t st = 5;
    prob p;
    prob_random(&p, &st, 16, 12, 64);
    graph *g = prob_graph(&p, 0);
    run r;
    char err[256] = "";
    assert_int_equal(policy_run(g, policy_baseline(), NULL, &r, err, sizeof err), 0);
    solve_watch ctl = {0};
    atomic_store(&ctl.cancel, 1);
    solve_ctx c = {.watch = &ctl};
    placement pl;
    /* cancelled before its search, it keeps the plan it has (the stack) */
    assert_int_equal(place_run(g, &r, &cold, 1, &c, &pl, err, sizeof err), 0);
    assert_int_equal(pl.search.stopped, SOLVE_CANCELLED);
    assert_int_equal(pl.search.states, 0);
    assert_int_equal(place_verify(g, &r, &pl, err, sizeof err), 0);
    place_free(&pl);
    /* and the search itself stopped at once, not at its end */
    lifetimes lt = {0};
    assert_int_equal(place_lifetimes(g, &r, &lt), 0);
    placement q = {0};
    q.offset = calloc(g->nbufs + 1, sizeof *q.offset);
    assert_non_null(q.offset);
    assert_int_equal(place_exact_cold(g, &r, &lt, 1, &c, &q, err, sizeof err), 0);
    assert_int_equal(q.search.stopped, SOLVE_CANCELLED);
    assert_true(q.search.states <= 64);
    place_free(&q);
    place_lifetimes_free(&lt);
    policy_run_free(&r);
    graph_free(g);
}

/* --max-memory: a search with no room stops with SOLVE_MEMORY, never an
 * error: the plan it had stands (whole, not called proven), the bound is
 * the proven one. */
static void test_exact_max_memory(void **state)
{
    (void)state;
    int stopped = 0;
    for (uint64_t st = 1; st <= 20; st++) {
        uint64_t s = st;
        prob p;
        prob_random(&p, &s, 16, 12, 64);
        graph *g = prob_graph(&p, 0);
        run r;
        char err[256] = "";
        assert_int_equal(policy_run(g, policy_baseline(), NULL, &r, err, sizeof err), 0);
        for (int k = 0; k < 2; k++) {
            /* 1 byte: no room for the problem; 4 KiB: little for the search */
            solve_ctx c = {.max_memory = k ? 4096 : 1};
            placement pl;
            assert_int_equal(place_run(g, &r, &cold, 1, &c, &pl, err, sizeof err), 0);
            if (pl.search.ran && !pl.proven) {
                assert_int_equal(pl.search.stopped, SOLVE_MEMORY);
                stopped++;
                assert_true(pl.bound <= pl.arena);
            }
            assert_int_equal(place_verify(g, &r, &pl, err, sizeof err), 0);
            place_free(&pl);
        }
        policy_run_free(&r);
        graph_free(g);
    }
    assert_true(stopped >= 20); /* at least every 1-byte run */
}

/* A clock injected through the context: one second a reading. */
static uint32_t step_clock_reads;
static double step_clock(void) { return (double)++step_clock_reads; }

/* The time limit is measured on the context's clock, whatever the wall
 * clock says: best and the search stop at their first looks past it
 * (SOLVE_TIME); the plan still verifies and is not called proven. The
 * problems: packings of 100 buffers, whose search takes over 64 nodes. */
static void test_exact_stops_on_the_context_clock(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        char err[256] = "";
        problem *pb = gen_packing(100, 1048576, seed, err, sizeof err);
        assert_non_null(pb);
        diag d;
        diag_init(&d, "packing");
        graph *g = problem_graph(pb, &d);
        assert_non_null(g);
        run r;
        assert_int_equal(policy_run(g, policy_baseline(), NULL, &r, err, sizeof err), 0);
        solve_ctx c = {.seconds = 0.5, .max_states = UINT64_MAX, .clock = step_clock};
        for (int w = 0; w < 2; w++) { /* exact from best's plan, then from a stack */
            placement pl;
            step_clock_reads = 0;
            /* from best's plan: 0.5 s, which best uses up at its first look
             * at the shared deadline (it keeps the plan it has), so exact
             * starts no search; from the stack: 1.5 s, so the look before
             * the search (at 1 s) lets it start and its first look at the
             * clock (at 2 s, after 64 nodes) stops it */
            c.seconds = w ? 1.5 : 0.5;
            plan_ok(g, &r, w ? cold.name : "exact", PLACE_ALIGN_DEFAULT, &c, &pl);
            assert_true(pl.search.ran);
            assert_int_equal(pl.search.stopped, SOLVE_TIME);
            assert_int_equal(pl.search.states, w ? 64 : 0);
            if (w) assert_int_equal(step_clock_reads, 3);
            else assert_in_range(step_clock_reads, 3, 8);
            assert_false(pl.proven);
            place_free(&pl);
        }
        policy_run_free(&r);
        graph_free(g);
        diag_free(&d);
        problem_free(pb);
    }
}

/* best with exact_nodes search nodes a buffer for its last step */
static uint64_t best_exact_nodes;
static int best_nodes(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                      const solve_ctx *c, placement *pl, char *err, size_t errcap)
{
    return place_best_limited(g, r, lt, align, c, place_best_greedy_budget(g->nbufs),
                              best_exact_nodes, pl, err, errcap);
}

/* On tests/data/best-misses.csv best's greedy and climbs stop at 752 B, the
 * optimum is 728 (the bound): best's bounded run of exact's search finds it,
 * within its nodes and the context's clock. */
static void test_best_improves_its_greedy_plan(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, "best-misses.csv");
    problem *pb = problem_read(TU_DATA("best-misses.csv"), &d);
    assert_non_null(pb);
    graph *g = problem_graph(pb, &d);
    assert_non_null(g);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_baseline(), NULL, &r, err, sizeof err), 0);
    const placer limited = {
        .name = "best", .desc = "best, its search bounded", .place = best_nodes};
    placement greedy, full;
    best_exact_nodes = 0; /* no search: the greedy's plan */
    assert_int_equal(place_run_checked(g, &r, &limited, 1, NULL, &greedy, err, sizeof err), 0);
    assert_int_equal(greedy.arena, 752);
    best_exact_nodes = PLACE_BEST_EXACT_NODES;
    assert_int_equal(place_run_checked(g, &r, &limited, 1, NULL, &full, err, sizeof err), 0);
    assert_int_equal(full.arena, 728);
    assert_true(full.proven);
    lifetimes lt;
    assert_int_equal(place_lifetimes(g, &r, &lt), 0);
    size_t bytes = ((size_t)g->nbufs + 1) * sizeof(int64_t);
    placement t = greedy;
    t.offset = malloc(bytes);
    assert_non_null(t.offset);
    /* a node budget: never passed; too few nodes leave the plan as it was */
    for (uint64_t max = 1; max <= 4096; max *= 8) {
        memcpy(t.offset, greedy.offset, bytes);
        uint64_t nodes = UINT64_MAX;
        int64_t a = place_exact_improve(g, &r, &lt, 1, NULL, max, &t, &nodes);
        assert_true(nodes <= max);
        assert_true(a == 752 || a == 728);
        if (max == 1) assert_int_equal(a, 752);
        assert_int_equal(place_verify(g, &r, &t, err, sizeof err), 0);
    }
    /* an injected clock past the deadline: the search stops at its first
     * look at it (64 nodes), the plan stands */
    solve_ctx c = {.clock = step_clock, .deadline = 1.5};
    memcpy(t.offset, greedy.offset, bytes);
    step_clock_reads = 0;
    uint64_t nodes = 0;
    int64_t a = place_exact_improve(g, &r, &lt, 1, &c, UINT64_MAX, &t, &nodes);
    assert_int_equal(a, 752);
    assert_true(nodes <= 64);
    assert_in_range(step_clock_reads, 2, 8);
    assert_int_equal(place_verify(g, &r, &t, err, sizeof err), 0);
    free(t.offset);
    place_lifetimes_free(&lt);
    place_free(&greedy);
    place_free(&full);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
    problem_free(pb);
}

/* Every sample: exact's plan verifies and is never above best's. */
static void test_exact_on_samples(void **state)
{
    (void)state;
    static const char *names[] = {"demo.json",
                                  "seed-example.json",
                                  "fanout.json",
                                  "greedy-not-optimal.json",
                                  "xla-counterexample.json",
                                  "resnet50.json",
                                  "mobilenet_v2.json"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        diag d;
        graph *g = tu_load_sample(names[i], &d);
        assert_non_null(g);
        run r;
        char err[256];
        assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &r, err, sizeof err),
                         0);
        placement ex, be;
        plan_ok(g, &r, "exact", PLACE_ALIGN_DEFAULT, tu_quick(), &ex);
        plan_ok(g, &r, "best", PLACE_ALIGN_DEFAULT, tu_quick(), &be);
        assert_true(ex.arena <= be.arena);
        assert_true(ex.bound >= place_lower_bound(g, &r, PLACE_ALIGN_DEFAULT));
        assert_true(ex.bound <= ex.arena);
        place_free(&ex);
        place_free(&be);
        policy_run_free(&r);
        graph_free(g);
        diag_free(&d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_is_optimal),
        cmocka_unit_test(test_exact_beats_every_placer),
        cmocka_unit_test(test_exact_limits_are_honest),
        cmocka_unit_test(test_exact_cancel),
        cmocka_unit_test(test_exact_max_memory),
        cmocka_unit_test(test_exact_stops_on_the_context_clock),
        cmocka_unit_test(test_exact_on_samples),
        cmocka_unit_test(test_best_improves_its_greedy_plan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
