/* test_exact.c: the policies beyond fifo and priority (dfs, postorder, lpmf,
 * bfs, best, exact) against brute force: exact's peak is the least over every
 * topological order, every order is valid and peaks where it says, best is
 * the least of its members, the bounds never pass the optimum, and the
 * search's limits give a valid order with an honest gap. */
#include "testutil.h"
#include "sched/graph/solve_watch.h"
#include "util/optimal.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

/* The least peak over every topological order, by dynamic programming over
 * the sets of nodes run (every order passes through 2^n such sets). */
static int64_t dp_min_peak(const graph *g)
{
    uint32_t n = g->n, full = (1u << n) - 1;
    assert_true(n <= 22);
    uint32_t *need = calloc(n + 1, sizeof *need);
    int64_t *best = malloc(((size_t)full + 1) * sizeof *best);
    int64_t *mem = calloc((size_t)full + 1, sizeof *mem);
    assert_true(need && best && mem);
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1]; e++) need[v] |= 1u << g->pred[e];
    for (uint32_t s = 0; s <= full; s++) best[s] = INT64_MAX;
    best[0] = 0; /* the peak is at least 0 */
    for (uint32_t s = 0; s <= full; s++) {
        if (best[s] == INT64_MAX) continue;
        for (uint32_t u = 0; u < n; u++) {
            if (s >> u & 1 || (need[u] & s) != need[u]) continue;
            uint32_t t = s | 1u << u;
            mem[t] = mem[s] + g->change[u];
            int64_t p = best[s] > mem[t] ? best[s] : mem[t];
            if (p < best[t]) best[t] = p;
        }
    }
    int64_t r = best[full];
    free(need);
    free(best);
    free(mem);
    return r;
}

/* The same by trying every topological order, one by one (small n only). */
static void all_orders(const graph *g, uint32_t done, uint32_t k, int64_t mem, int64_t peak,
                       int64_t *least)
{
    if (peak >= *least) return; /* no order through here does better */
    if (k == g->n) {
        *least = peak;
        return;
    }
    for (uint32_t u = 0; u < g->n; u++) {
        if (done >> u & 1) continue;
        int ready = 1;
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1] && ready; e++)
            ready = done >> g->pred[e] & 1;
        if (!ready) continue;
        int64_t m = mem + g->change[u];
        all_orders(g, done | 1u << u, k + 1, m, m > peak ? m : peak, least);
    }
}

/* r is a topological order of g whose memory and peak are what it says. */
static void check_valid(const graph *g, const run *r, const char *name)
{
    uint8_t *seen = calloc(g->n + 1, 1);
    assert_non_null(seen);
    int64_t mem = 0, peak = 0;
    for (uint32_t s = 0; s < g->n; s++) {
        uint32_t u = r->order[s];
        if (u >= g->n || seen[u]) fail_msg("%s: step %u repeats or invents a node", name, s + 1);
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++)
            if (!seen[g->pred[e]])
                fail_msg("%s: node %lld runs before its predecessor %lld", name,
                         (long long)g->id[u], (long long)g->id[g->pred[e]]);
        seen[u] = 1;
        mem += g->change[u];
        if (r->memory[s] != mem) fail_msg("%s: memory after step %u is wrong", name, s + 1);
        if (mem > peak) peak = mem;
    }
    if (r->peak != peak)
        fail_msg("%s: reports peak %lld, replays to %lld", name, (long long)r->peak,
                 (long long)peak);
    assert_true(r->lower_bound <= r->peak);
    free(seen);
}

/* Runs every policy on g; checks validity, best and exact against opt (the
 * least peak), and the bounds. */
static void check_all(const graph *g, int64_t opt, const char *what)
{
    char err[256];
    int64_t members = INT64_MAX;
    const policy *first_min = NULL;
    int64_t lb = policy_lower_bound(g);
    if (lb > opt)
        fail_msg("%s: lower bound %lld above the optimum %lld", what, (long long)lb,
                 (long long)opt);
    for (size_t i = 0; policy_at(i); i++) {
        const policy *p = policy_at(i);
        run r;
        /* given: the random graphs' Ids are no order (test_bycat and test_cli run it). */
        if (p->kind == POLICY_BASELINE) continue;
        if (policy_run(g, p, NULL, &r, err, sizeof err)) fail_msg("%s %s: %s", what, p->name, err);
        check_valid(g, &r, p->name);
        if (r.peak < opt)
            fail_msg("%s: %s peaks at %lld, below the optimum %lld", what, p->name,
                     (long long)r.peak, (long long)opt);
        if (r.lower_bound > opt) fail_msg("%s: %s's bound passes the optimum", what, p->name);
        if (p->kind == POLICY_HEURISTIC && r.peak < members) {
            members = r.peak;
            first_min = p;
        }
        if (p->kind == POLICY_PORTFOLIO) {
            if (r.peak != members || r.found_by != first_min)
                fail_msg("%s: best peaks %lld found by %s, its members' least is %lld by %s", what,
                         (long long)r.peak, r.found_by ? r.found_by->name : "none",
                         (long long)members, first_min->name);
        }
        if (p->kind == POLICY_EXACT) {
            if (r.peak != opt || !r.optimal || r.lower_bound != opt)
                fail_msg("%s: exact peaks %lld (bound %lld, optimal %d), the optimum is %lld", what,
                         (long long)r.peak, (long long)r.lower_bound, r.optimal, (long long)opt);
            assert_int_equal(r.search.stopped, SOLVE_DONE);
        }
        policy_run_free(&r);
    }
}

static void exact_equals_brute_force(void **state)
{
    (void)state;
    uint64_t st = 20261203;
    for (int i = 0; i < 3000; i++) {
        tu_gen t;
        tu_gen_make(&t, &st, 1 + (uint32_t)(i % 12));
        graph *g = tu_load_text(t.json);
        int64_t opt = dp_min_peak(g);
        if (g->n <= 8) { /* and every order, one at a time, agrees with the sets */
            int64_t least = INT64_MAX;
            all_orders(g, 0, 0, 0, 0, &least);
            if (least != opt)
                fail_msg("graph %d: every order gives %lld, the sets %lld", i, (long long)least,
                         (long long)opt);
        }
        char what[32];
        snprintf(what, sizeof what, "graph %d", i);
        check_all(g, opt, what);
        graph_free(g);
        tu_gen_free(&t);
    }
}

/* policy_best_after: the least peak of an order that begins with the first
 * s + 1 steps of fifo's, proven, as every such order tried one by one says. */
static void best_after_equals_brute_force(void **state)
{
    (void)state;
    uint64_t st = 20261205;
    char err[128];
    for (int i = 0; i < 400; i++) {
        tu_gen t;
        tu_gen_make(&t, &st, 1 + (uint32_t)(i % 9));
        graph *g = tu_load_text(t.json);
        run r;
        assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &r, err, sizeof err), 0);
        uint32_t done = 0;
        int64_t mem = 0, peak = 0;
        for (uint32_t s = 0; s < g->n; s++) {
            done |= 1u << r.order[s];
            mem += g->change[r.order[s]];
            peak = mem > peak ? mem : peak;
            int64_t least = INT64_MAX, got = -1;
            all_orders(g, done, s + 1, mem, peak, &least);
            int proven = 0;
            assert_int_equal(policy_best_after(g, r.order, s, NULL, &got, &proven), 0);
            if (got != least || !proven)
                fail_msg("graph %d, after step %u: %lld (proven %d), every order %lld", i, s + 1,
                         (long long)got, proven, (long long)least);
        }
        policy_run_free(&r);
        graph_free(g);
        tu_gen_free(&t);
    }
}

/* Generated graphs of up to 16 nodes in the exporter's shape. */
static void exact_equals_brute_force_on_generated(void **state)
{
    (void)state;
    static const char *const kinds[] = {"random", "branch", "chain", "alloc-heavy"};
    for (int k = 0; k < 4; k++)
        for (uint32_t nodes = gen_kind_find(kinds[k])->min_nodes; nodes <= 16; nodes++)
            for (uint64_t seed = 1; seed <= 12; seed++) {
                graph *g = tu_gen_load(kinds[k], nodes, seed);
                char what[64];
                snprintf(what, sizeof what, "%s %u seed %llu", kinds[k], nodes,
                         (unsigned long long)seed);
                check_all(g, dp_min_peak(g), what);
                graph_free(g);
            }
}

/* On graphs too big for brute force: exact is at most every heuristic and
 * proves its peak; the samples and generated graphs of the targets. */
static void exact_beats_every_heuristic(void **state)
{
    (void)state;
    static const char *const samples[] = {
        "demo.json",     "fanout.json",       "greedy-not-optimal.json", "xla-counterexample.json",
        "resnet50.json", "mobilenet_v2.json", "efficientnet_b0.json",    "bert_base.json"};
    char err[256];
    for (int i = 0; i < 12; i++) {
        graph *g = i < 8 ? tu_load_sample(samples[i], NULL)
                         : tu_gen_load(i < 10 ? "randwire" : "random",
                                       i < 10 ? 60u + 120u * (uint32_t)(i - 8) : 40u, (uint64_t)i);
        run x;
        if (policy_run(g, policy_find("exact"), NULL, &x, err, sizeof err)) fail_msg("%s", err);
        check_valid(g, &x, "exact");
        if (!x.optimal) fail_msg("exact did not prove graph %d", i);
        for (size_t p = 0; policy_at(p); p++) {
            run r;
            assert_int_equal(policy_run(g, policy_at(p), NULL, &r, err, sizeof err), 0);
            check_valid(g, &r, policy_at(p)->name);
            if (r.peak < x.peak) fail_msg("graph %d: %s beats exact", i, policy_at(p)->name);
            policy_run_free(&r);
        }
        policy_run_free(&x);
        graph_free(g);
    }
}

/* XLA's own counterexample to its List scheduler (hlo_memory_scheduler.cc:
 * List peaks at 6 units, the optimum is 5), in memtris's ALLOC/FREE model:
 * the optimum is 5 MiB; fifo and bfs miss it, the others find it. */
static void xla_counterexample(void **state)
{
    (void)state;
    graph *g = tu_load_sample("xla-counterexample.json", NULL);
    static const struct {
        const char *name;
        int64_t mib;
    } want[] = {{"fifo", 8}, {"bfs", 7}, {"priority", 5}, {"exact", 5}};
    assert_int_equal(dp_min_peak(g), 5 << 20);
    char err[256];
    for (int i = 0; i < 4; i++) {
        run r;
        assert_int_equal(policy_run(g, policy_find(want[i].name), NULL, &r, err, sizeof err), 0);
        if (r.peak != want[i].mib << 20)
            fail_msg("%s: peak %lld, expected %lld MiB", want[i].name, (long long)r.peak,
                     (long long)want[i].mib);
        policy_run_free(&r);
    }
    graph_free(g);
}

/* Past a limit: a valid order, a bound at most the optimum, no false claim. */
static void limits_give_an_honest_gap(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 300, 1);
    char err[256];
    run full, r;
    assert_int_equal(policy_run(g, policy_find("exact"), NULL, &full, err, sizeof err), 0);
    assert_true(full.optimal);
    assert_true(full.search.ran && full.search.states > 100);
    static const solve_ctx lims[] = {{.max_states = 50}, {.seconds = 1e-9}};
    static const int why[] = {SOLVE_STATES, SOLVE_TIME};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(policy_run(g, policy_find("exact"), &lims[i], &r, err, sizeof err), 0);
        check_valid(g, &r, "exact at a limit");
        assert_int_equal(r.search.stopped, why[i]);
        if (r.lower_bound > full.peak || r.peak < full.peak)
            fail_msg("limit %d: bound %lld, peak %lld around the optimum %lld", i,
                     (long long)r.lower_bound, (long long)r.peak, (long long)full.peak);
        assert_int_equal(r.optimal, r.peak == r.lower_bound);
        assert_false(r.optimal); /* this graph's gap does not close in 50 states */
        char words[128];
        optimal_phrase(words, sizeof words, r.peak, r.lower_bound, r.optimal, OPTIMAL_LONG);
        assert_non_null(strstr(words, "not proven optimal: "));
        assert_non_null(strstr(words, "% above the lower bound "));
        policy_run_free(&r);
    }
    /* Cancelled from another thread (here: before it starts): best's first
     * order, said to be cancelled, with an honest bound. */
    solve_watch ctl = {0};
    atomic_store(&ctl.cancel, 1);
    solve_ctx c = {.watch = &ctl};
    assert_int_equal(policy_run(g, policy_find("exact"), &c, &r, err, sizeof err), 0);
    check_valid(g, &r, "exact cancelled");
    assert_int_equal(r.search.stopped, SOLVE_CANCELLED);
    assert_true(r.lower_bound <= full.peak && r.peak >= full.peak);
    policy_run_free(&r);
    policy_run_free(&full);
    graph_free(g);
}

/* A clock injected through the context: one second a reading; from the
 * reading cancel_at on, it also sets cancel_watch's flag (when set). */
static uint32_t step_clock_reads;
static uint32_t cancel_at;
static solve_watch *cancel_watch;
static double step_clock(void)
{
    if (cancel_watch && step_clock_reads + 1 >= cancel_at) atomic_store(&cancel_watch->cancel, 1);
    return (double)++step_clock_reads;
}

/* The time limit is measured on the context's clock: the search proves
 * the optimum within the default limit, but on a clock that steps a second
 * a reading half a second is over at the first look: SOLVE_TIME, with
 * best's first order and an honest gap. */
static void exact_stops_on_the_context_clock(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 300, 1);
    char err[256];
    run r;
    solve_ctx c = {0};
    assert_int_equal(policy_run(g, policy_find("exact"), &c, &r, err, sizeof err), 0);
    assert_true(r.search.ran);
    assert_int_equal(r.search.stopped, SOLVE_DONE);
    int64_t optimum = r.peak;
    policy_run_free(&r);
    c = (solve_ctx){.seconds = 0.5, .clock = step_clock};
    step_clock_reads = 0;
    assert_int_equal(policy_run(g, policy_find("exact"), &c, &r, err, sizeof err), 0);
    check_valid(g, &r, "exact on a stepping clock");
    assert_int_equal(r.search.stopped, SOLVE_TIME);
    assert_true(step_clock_reads <= 5); /* the start, best's first member, the first look */
    assert_true(r.lower_bound <= optimum && r.peak >= optimum);
    assert_false(r.optimal);
    policy_run_free(&r);
    graph_free(g);
}

/* Exact run with c on g: a valid order, a bound at most opt, a peak at
 * least opt, both opt when it says it is done. Returns why it stopped. */
static solve_stop check_sound(const graph *g, const solve_ctx *c, int64_t opt, const char *what)
{
    char err[256];
    run r;
    if (policy_run(g, policy_find("exact"), c, &r, err, sizeof err)) fail_msg("%s: %s", what, err);
    check_valid(g, &r, what);
    if (r.lower_bound > opt || r.peak < opt)
        fail_msg("%s: bound %lld, peak %lld around the optimum %lld", what,
                 (long long)r.lower_bound, (long long)r.peak, (long long)opt);
    solve_stop why = r.search.stopped;
    if (why == SOLVE_DONE && (r.peak != opt || !r.optimal))
        fail_msg("%s: done at %lld, the optimum is %lld", what, (long long)r.peak, (long long)opt);
    policy_run_free(&r);
    return why;
}

/* Small random graphs at every kind of limit: the bound never passes the
 * optimum (brute force), the order is valid, and done means proven. */
static void limits_keep_the_bound_sound(void **state)
{
    (void)state;
    uint64_t st = 24;
    for (int i = 0; i < 600; i++) {
        tu_gen t;
        tu_gen_make(&t, &st, 4 + (uint32_t)(i % 13));
        graph *g = tu_load_text(t.json);
        int64_t opt = dp_min_peak(g);
        const solve_ctx lims[] = {
            {.max_states = 1 + (uint64_t)(i % 7)}, {.max_memory = 1}, {.max_memory = 20000}};
        for (int l = 0; l < 3; l++) check_sound(g, &lims[l], opt, "a small graph at a limit");
        graph_free(g);
        tu_gen_free(&t);
    }
}

/* On a clock that steps a millisecond a reading, the limit falls in every
 * phase in turn (best's members, the cuts, the pieces, the search): each
 * stops within a few readings of it, with a valid order and a sound bound;
 * a cancel at that reading is noticed as soon. */
static void limits_hold_in_every_phase(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 300, 1);
    char err[256];
    run full;
    assert_int_equal(policy_run(g, policy_find("exact"), NULL, &full, err, sizeof err), 0);
    assert_true(full.optimal);
    solve_watch ctl;
    int stopped = 0, cancelled = 0;
    for (uint32_t t = 2; t < 60; t++) {
        step_clock_reads = 0;
        solve_ctx c = {.seconds = 0.001 * t, .clock = step_clock};
        if (check_sound(g, &c, full.peak, "exact on a stepping clock") == SOLVE_TIME) {
            stopped++;
            if (step_clock_reads > t + 6) fail_msg("limit at %u: %u readings", t, step_clock_reads);
        }
        memset(&ctl, 0, sizeof ctl);
        step_clock_reads = 0;
        cancel_at = t;
        cancel_watch = &ctl;
        c = (solve_ctx){.seconds = 1e6, .clock = step_clock, .watch = &ctl};
        solve_stop why = check_sound(g, &c, full.peak, "exact cancelled");
        cancel_watch = NULL;
        if (why == SOLVE_CANCELLED) {
            cancelled++;
            if (step_clock_reads > t + 6)
                fail_msg("cancel at %u: %u readings", t, step_clock_reads);
        } else assert_int_equal(why, SOLVE_DONE);
    }
    assert_true(stopped > 10 && cancelled > 10);
    policy_run_free(&full);
    graph_free(g);
}

/* Past --max-memory the search ends, SOLVE_MEMORY, with its best order and
 * a sound bound, never an error. */
static void max_memory_ends_the_search(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 300, 1);
    char err[256];
    run full;
    assert_int_equal(policy_run(g, policy_find("exact"), NULL, &full, err, sizeof err), 0);
    assert_true(full.optimal && full.search.states > 2000);
    const int64_t limits[] = {1, 4096, 64 << 10};
    for (int i = 0; i < 3; i++) {
        solve_ctx c = {.max_memory = limits[i]};
        assert_int_equal(check_sound(g, &c, full.peak, "exact at a memory limit"), SOLVE_MEMORY);
    }
    policy_run_free(&full);
    graph_free(g);
}

/* A clock of a millisecond a reading, for the runs cut short below. */
static uint32_t ms_reads;
static double ms_clock(void) { return 0.001 * (double)++ms_reads; }

/* A heuristic run with a deadline on the context's clock (read every 4096
 * steps) stops at it and still makes a whole valid order, SOLVE_TIME: the
 * steps before the stop are the policy's own, the rest first ready, first
 * run, so fifo cut short is fifo's whole order. Without a deadline nothing
 * stops it, not even a cancel. */
static void runs_stop_at_the_deadline_with_a_whole_order(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 30000, 3);
    char err[256];
    const char *names[] = {"fifo", "priority", "bfs"};
    for (int i = 0; i < 3; i++) {
        const policy *p = policy_find(names[i]);
        run whole, cut;
        solve_ctx c = {.clock = ms_clock};
        assert_int_equal(policy_run(g, p, &c, &whole, err, sizeof err), 0);
        assert_int_equal(whole.search.stopped, SOLVE_DONE);
        ms_reads = 0;
        assert_int_equal(policy_run_until(g, p, &c, 0.0025, &cut, err, sizeof err), 0);
        check_valid(g, &cut, names[i]);
        assert_int_equal(cut.search.stopped, SOLVE_TIME);
        assert_true(ms_reads <= 3); /* steps 0, 4096 and 8192 at the latest */
        uint32_t same = policy_diverge(&whole, &cut);
        if (i == 0) assert_int_equal(same, g->n);
        else assert_true(same >= 4096 && same < g->n);
        policy_run_free(&cut);
        policy_run_free(&whole);
    }
    solve_watch ctl;
    memset(&ctl, 0, sizeof ctl);
    atomic_store(&ctl.cancel, 1);
    solve_ctx c = {.watch = &ctl};
    run r;
    assert_int_equal(policy_run(g, policy_find("priority"), &c, &r, err, sizeof err), 0);
    assert_int_equal(r.search.stopped, SOLVE_DONE);
    policy_run_free(&r);
    graph_free(g);
}

/* A cancel (the watcher's flag, set at the fourth reading of the clock) is
 * noticed at the next look, every 4096 steps: a whole valid order,
 * SOLVE_CANCELLED; exact with best's first member cut so returns that order
 * and a sound bound, having read the clock only a few times more. */
static void a_cancel_stops_the_first_member(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 30000, 3);
    char err[256];
    solve_watch ctl;
    run r;
    run fifo;
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &fifo, err, sizeof err), 0);
    const char *names[] = {"priority", "exact"};
    for (int i = 0; i < 2; i++) {
        memset(&ctl, 0, sizeof ctl);
        step_clock_reads = 0;
        cancel_at = 4;
        cancel_watch = &ctl;
        solve_ctx c = {.seconds = 1e6, .clock = step_clock, .watch = &ctl};
        assert_int_equal(policy_run_until(g, policy_find(names[i]), &c, 1e6, &r, err, sizeof err),
                         0);
        cancel_watch = NULL;
        check_valid(g, &r, names[i]);
        assert_int_equal(r.search.stopped, SOLVE_CANCELLED);
        assert_true(step_clock_reads <= 8);
        if (i == 1) { /* best's first member is fifo: cut short, it is fifo's order */
            assert_int_equal(policy_diverge(&fifo, &r), g->n);
            assert_true(r.lower_bound <= r.peak && !r.optimal);
        }
        policy_run_free(&r);
    }
    /* a time limit falling in the first member ends exact the same way */
    ms_reads = 0;
    solve_ctx c = {.seconds = 0.0025, .clock = ms_clock};
    assert_int_equal(policy_run(g, policy_find("exact"), &c, &r, err, sizeof err), 0);
    check_valid(g, &r, "exact at a limit in best's first member");
    assert_int_equal(r.search.stopped, SOLVE_TIME);
    assert_true(r.search.ran && ms_reads <= 8);
    assert_int_equal(policy_diverge(&fifo, &r), g->n);
    policy_run_free(&r);
    policy_run_free(&fifo);
    graph_free(g);
}

/* The bound cut short (a clock past the deadline after k readings) is still
 * a lower bound: at most the optimum (brute force) on small graphs, at most
 * the whole plain bound and at least the largest buffer on a large one. */
static void a_cut_bound_stays_a_lower_bound(void **state)
{
    (void)state;
    uint64_t st = 2412;
    for (int i = 0; i < 300; i++) {
        tu_gen t;
        tu_gen_make(&t, &st, 4 + (uint32_t)(i % 13));
        graph *g = tu_load_text(t.json);
        int64_t opt = dp_min_peak(g);
        for (uint32_t k = 1; k < 6; k++) {
            ms_reads = 0;
            solve_ctx c = {.clock = ms_clock};
            int64_t lb = policy_lower_bound_until(g, &c, 0.001 * k, POLICY_BOUND_CAP);
            if (lb > opt)
                fail_msg("graph %d cut at %u: bound %lld above the optimum %lld", i, k,
                         (long long)lb, (long long)opt);
        }
        graph_free(g);
        tu_gen_free(&t);
    }
    graph *g = tu_gen_load("randwire", 30000, 3);
    int64_t largest = 0, whole = policy_lower_bound_plain(g);
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (g->buf_size[b] > largest) largest = g->buf_size[b];
    for (uint32_t k = 1; k < 8; k++) {
        ms_reads = 0;
        solve_ctx c = {.clock = ms_clock};
        int64_t plain = policy_lower_bound_plain_until(g, &c, 0.001 * k);
        int64_t lb = policy_lower_bound_until(g, &c, 0.001 * k, POLICY_BOUND_CAP);
        assert_true(plain >= largest && plain <= whole && lb >= largest);
        assert_true(ms_reads <= 2 * k + 4); /* it stopped near the deadline */
    }
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("fifo"), NULL, &r, err, sizeof err), 0);
    assert_true(policy_lower_bound(g) <= r.peak);
    policy_run_free(&r);
    graph_free(g);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_equals_brute_force),
        cmocka_unit_test(exact_equals_brute_force_on_generated),
        cmocka_unit_test(best_after_equals_brute_force),
        cmocka_unit_test(exact_beats_every_heuristic),
        cmocka_unit_test(xla_counterexample),
        cmocka_unit_test(limits_give_an_honest_gap),
        cmocka_unit_test(exact_stops_on_the_context_clock),
        cmocka_unit_test(limits_keep_the_bound_sound),
        cmocka_unit_test(limits_hold_in_every_phase),
        cmocka_unit_test(max_memory_ends_the_search),
        cmocka_unit_test(runs_stop_at_the_deadline_with_a_whole_order),
        cmocka_unit_test(a_cancel_stops_the_first_member),
        cmocka_unit_test(a_cut_bound_stays_a_lower_bound),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
