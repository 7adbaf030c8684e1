/* test_place_cases.c: exact cases by hand for each placer (chains of tokens), best against
 * the greedy and its work limit, determinism and the lower bound. Part of test_place. */
#include <dirent.h>
#include "testutil.h"
#include "test_place.h"
#include "sched/place/place.h"
#include "sched/graph/solve_watch.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

/* ------------------------------------------------------------ exact cases */

/* A graph from a line of tokens, one node each, run in that order (a chain
 * of edges): "A<buf>:<size>" allocates, "F<buf>" frees, "C" computes. */
graph *chain_graph(const char *spec, diag *d)
{
    tu_str j = {0};
    tu_printf(&j, "{\"Nodes\": [");
    int n = 0;
    for (char *p = (char *)(uintptr_t)spec; *p;) {
        while (*p == ' ') p++;
        if (!*p) break;
        if (n) tu_printf(&j, ", ");
        if (*p == 'A') {
            long buf = strtol(p + 1, &p, 10);
            assert_true(*p == ':');
            long long size = strtoll(p + 1, &p, 10);
            tu_printf(&j, "{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": %lld, \"BufId\": %ld}", n,
                      size, buf);
        } else if (*p == 'F') {
            long buf = strtol(p + 1, &p, 10);
            tu_printf(&j, "{\"Id\": %d, \"Op\": \"FREE\", \"BufId\": %ld}", n, buf);
        } else {
            assert_true(*p == 'C');
            p++;
            tu_printf(&j, "{\"Id\": %d, \"Op\": \"Op\"}", n);
        }
        n++;
    }
    tu_printf(&j, "], \"Edges\": [");
    for (int i = 1; i < n; i++) tu_printf(&j, "%s[%d, %d]", i > 1 ? ", " : "", i - 1, i);
    tu_printf(&j, "]}");
    graph *g = tu_load(j.s, d);
    free(j.s);
    assert_non_null(g);
    return g;
}

/* Places the chain with one placer; the plan must verify. */
void plan(planned *x, const char *spec, const char *placer_name, int64_t align)
{
    char err[256];
    x->g = chain_graph(spec, &x->d);
    assert_int_equal(policy_run(x->g, policy_find("priority"), tu_quick(), &x->r, err, sizeof err),
                     0);
    assert_non_null(placer_find(placer_name));
    if (place_run_checked(x->g, &x->r, placer_find(placer_name), align, tu_quick(), &x->pl, err,
                          sizeof err) != PLACE_OK)
        fail_msg("%s", err);
}

int64_t offset_of(const planned *x, int64_t bufid)
{
    return x->pl.offset[graph_find_buf(x->g, bufid)];
}

void unplan(planned *x)
{
    place_free(&x->pl);
    policy_run_free(&x->r);
    graph_free(x->g);
    diag_free(&x->d);
}

/* Gaps of 100 (at 0) and 50 (at 110) are free when 50 bytes are asked for:
 * first fit takes the lower, best fit the one that fits exactly, so the 100
 * bytes asked next still fit for best fit and not for first fit. */
void best_fit_takes_the_smaller_gap(void **state)
{
    (void)state;
    const char *spec = "A1:100 A2:10 A3:50 A4:10 F1 F3 A5:50 A6:100";
    planned ff, bf;
    plan(&ff, spec, "first-fit", 1);
    plan(&bf, spec, "best-fit", 1);
    assert_int_equal(offset_of(&ff, 5), 0);
    assert_int_equal(offset_of(&bf, 5), 110);
    assert_int_equal(offset_of(&ff, 6), 170);
    assert_int_equal(offset_of(&bf, 6), 0);
    assert_int_equal(ff.pl.arena, 270);
    assert_int_equal(bf.pl.arena, 170);
    unplan(&ff);
    unplan(&bf);
    /* Equal gaps: the lowest. */
    plan(&bf, "A1:50 A2:10 A3:50 A4:10 F3 F1 A5:40", "best-fit", 1);
    assert_int_equal(offset_of(&bf, 5), 0);
    unplan(&bf);
}

/* Sizes round up to powers of two; a freed block serves the next buffer of
 * its class (the last freed first) and is never given back; a new block is
 * carved at the end of what is reserved. */
void pool_rounds_and_reuses(void **state)
{
    (void)state;
    const char *spec = "A1:100 F1 A2:120 A3:129 A4:100 A5:64 F5 F3 A6:200";
    for (int k = 0; k < 2; k++) {
        planned x;
        plan(&x, spec, "pool", k ? 64 : 1);
        assert_int_equal(offset_of(&x, 1), 0);   /* class 128 at 0 */
        assert_int_equal(offset_of(&x, 2), 0);   /* reuses buffer 1's block */
        assert_int_equal(offset_of(&x, 3), 128); /* class 256 */
        assert_int_equal(offset_of(&x, 4), 384); /* class 128, none free: a new one */
        assert_int_equal(offset_of(&x, 5), 512); /* class 64 */
        assert_int_equal(offset_of(&x, 6), 128); /* class 256: buffer 3's block */
        assert_int_equal(x.pl.reserved, 576);
        assert_int_equal(x.pl.arena, 576);
        assert_int_equal(x.pl.block[graph_find_buf(x.g, 3)], 256);
        assert_int_equal(x.r.peak, 120 + 100 + 200);
        /* reserved bytes after each step: the hwm */
        static const int64_t hwm[] = {128, 128, 128, 384, 512, 576, 576, 576, 576};
        for (int s = 0; s < 9; s++) assert_int_equal(x.pl.hwm[s], hwm[s]);
        unplan(&x);
    }
    planned x;
    plan(&x, spec, "pool", 4096); /* every class is the alignment */
    assert_int_equal(x.pl.reserved, 4 * 4096);
    unplan(&x);
    /* Last freed, first reused. */
    plan(&x, "A1:60 A2:60 F1 F2 A3:50", "pool", 1);
    assert_int_equal(offset_of(&x, 3), 64);
    unplan(&x);
}

/* Every buffer takes a whole BLOCK_SIZE (the largest buffer): two live
 * together take two blocks however small one is; freed colors are reused
 * smallest first. */
void coloring_wastes_blocks(void **state)
{
    (void)state;
    planned x;
    plan(&x, "A1:100 A2:1000 F1 F2 A3:10 A4:10 F3 F4", "coloring", 1);
    assert_int_equal(offset_of(&x, 1), 0);
    assert_int_equal(offset_of(&x, 2), 1000);
    assert_int_equal(offset_of(&x, 3), 0);
    assert_int_equal(offset_of(&x, 4), 1000);
    assert_int_equal(x.pl.arena, 2000); /* against a peak of 1100 */
    assert_int_equal(x.r.peak, 1100);
    assert_int_equal(x.pl.block[graph_find_buf(x.g, 3)], 1000);
    unplan(&x);
    plan(&x, "A1:100 A2:1000 F1 F2 A3:10 A4:10 F3 F4", "coloring", 64);
    assert_int_equal(x.pl.arena, 2048);
    unplan(&x);
    /* Colors 0, 1, 2 live; 1 is freed, then 0: the next takes 0. */
    plan(&x, "A1:8 A2:8 A3:8 F2 F1 A4:8 A5:8", "coloring", 1);
    assert_int_equal(offset_of(&x, 4), 0);
    assert_int_equal(offset_of(&x, 5), 8);
    assert_int_equal(x.pl.arena, 24);
    unplan(&x);
}

/* The 50 bytes freed below B are too small for C, so first fit stacks C on
 * top; greedy by size places the two 100-byte buffers first and fits A
 * beside B, reaching the lower bound. */
void greedy_size_beats_first_fit(void **state)
{
    (void)state;
    const char *spec = "A1:50 A2:100 F1 A3:100 F2 F3";
    planned ff, gs;
    plan(&ff, spec, "first-fit", 1);
    plan(&gs, spec, "greedy-size", 1);
    assert_int_equal(ff.pl.arena, 250);
    assert_int_equal(offset_of(&gs, 2), 0);
    assert_int_equal(offset_of(&gs, 3), 100);
    assert_int_equal(offset_of(&gs, 1), 100);
    assert_int_equal(gs.pl.arena, 200);
    assert_int_equal(gs.r.peak, 200);
    unplan(&ff);
    unplan(&gs);
}

/* XLA's second order: by size, buffers 2 and 3 (size 2) go first and the
 * last one (1 byte) lands on top, 5 bytes; by lifetime length, 3 then 4
 * first, and buffer 2 fits in the gap it leaves: 4 bytes, the lower bound. */
void greedy_size_keeps_the_lifetime_order(void **state)
{
    (void)state;
    const char *spec = "A2:2 A3:2 F2 A0:1 F3 A1:2 F0 F1";
    planned gs;
    plan(&gs, spec, "greedy-size", 1);
    assert_int_equal(gs.pl.arena, 4);
    assert_int_equal(gs.r.peak, 4);
    assert_non_null(strstr(gs.pl.detail, "temporal"));
    int64_t off[8];
    assert_int_equal(reference_greedy(gs.g, &gs.r, 1, REF_SIZE, REF_BEST, off), 5);
    unplan(&gs);
}

/* Greedy by size takes 4 bytes in either order; the hill-climb of best
 * finds 3, the lower bound (R at 0, P at 1, S at 2, Q at 0). */
void best_beats_greedy(void **state)
{
    (void)state;
    const char *spec = "A2:1 A0:2 F0 A3:1 F2 A1:2 F3 F1";
    planned gs, b;
    plan(&gs, spec, "greedy-size", 1);
    plan(&b, spec, "best", 1);
    assert_int_equal(gs.pl.arena, 4);
    assert_int_equal(b.pl.arena, 3);
    assert_int_equal(b.r.peak, 3);
    unplan(&gs);
    unplan(&b);
    /* The demo sample: 21% over with greedy by size, the bound with best. */
    diag d;
    graph *g = tu_load_sample("demo.json", &d);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &r, err, sizeof err), 0);
    placement p1, p2;
    assert_int_equal(
        place_run(g, &r, placer_find("greedy-size"), 64, tu_quick(), &p1, err, sizeof err), 0);
    assert_int_equal(place_run(g, &r, placer_find("best"), 64, tu_quick(), &p2, err, sizeof err),
                     0);
    assert_true(p1.arena > r.peak);
    assert_int_equal(p2.arena, r.peak);
    place_free(&p1);
    place_free(&p2);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

/* Fourteen buffers cut from MiniMalloc's challenging problem E (a window of
 * its timeline, found by a search over such windows): first-fit, best-fit,
 * greedy-size, xla and greedy-conflicts are 32768 to 157696 bytes above the
 * peak, and the hill-climb of best, which keeps only changes that do not
 * grow the arena, stays at greedy-size's plan: no move of a top buffer it
 * tries helps (best stopped there before its late-acceptance climb).
 * place_climb, which accepts a worse order now and then, reaches the peak:
 * a perfect packing. */
static const char local_minimum[] =
    "A3:36864 A5:507904 F5 A2:30720 A9:239616 A10:334848 F3 F9 A4:194560 A8:117760 A13:15360 "
    "A14:81920 F2 F10 A7:302080 A12:145408 F4 A11:194560 F7 F12 F11 A6:194560 F14 F6 F8 F13 "
    "A1:327680 F1";

void best_leaves_a_local_minimum(void **state)
{
    (void)state;
    static const char *const members[] = {"greedy-size", "xla", "greedy-conflicts", "first-fit",
                                          "best-fit"};
    planned b;
    plan(&b, local_minimum, "best", 1);
    assert_int_equal(b.r.peak, 857088);
    for (int m = 0; m < 5; m++) {
        planned x;
        plan(&x, local_minimum, members[m], 1);
        assert_true(x.pl.arena > x.r.peak);
        unplan(&x);
    }
    assert_int_equal(b.pl.arena, b.r.peak);
    assert_non_null(strstr(b.pl.detail, "late-acceptance"));
    unplan(&b);
}

/* The same schedule placed twice gives the same offsets, for best (whose
 * climbs are bounded by work, with a fixed seed) and the new members. */
void placers_are_deterministic(void **state)
{
    (void)state;
    static const char *const names[] = {"best", "xla", "greedy-conflicts"};
    uint64_t st = 7;
    for (int t = 0; t < 13; t++) {
        tu_gen gen;
        diag d;
        graph *g;
        if (t < 12) {
            tu_gen_make(&gen, &st, 20 + tu_below(&st, 200));
            g = tu_load(gen.json, &d);
        } else {
            g = chain_graph(local_minimum, &d);
        }
        assert_non_null(g);
        run r;
        char err[256];
        assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &r, err, sizeof err),
                         0);
        for (int k = 0; k < 3; k++) {
            placement p1, p2;
            const placer *p = placer_find(names[k]);
            assert_int_equal(
                place_run_checked(g, &r, p, t % 2 ? 64 : 1, tu_quick(), &p1, err, sizeof err),
                PLACE_OK);
            assert_int_equal(
                place_run_checked(g, &r, p, t % 2 ? 64 : 1, tu_quick(), &p2, err, sizeof err),
                PLACE_OK);
            assert_int_equal(p1.arena, p2.arena);
            assert_memory_equal(p1.offset, p2.offset, g->nbufs * sizeof *p1.offset);
            place_free(&p1);
            place_free(&p2);
        }
        policy_run_free(&r);
        graph_free(g);
        diag_free(&d);
        if (t < 12) tu_gen_free(&gen);
    }
}

/* best with a greedy budget of test_budget units of work */
static uint64_t test_budget;
static int best_with_budget(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                            const solve_ctx *c, placement *pl, char *err, size_t errcap)
{
    return place_best_limited(g, r, lt, align, c, test_budget, PLACE_BEST_EXACT_NODES, pl, err,
                              errcap);
}

/* When the greedy passes its work limit, best stops it and keeps the
 * smallest plan of the other placers, and says so; with no limit it is
 * place_best. The default limit is 32 n log2 n, at least 5e7. */
void best_stops_a_greedy_over_its_work_limit(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_sample("demo.json", &d);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &r, err, sizeof err), 0);
    const placer limited = {
        .name = "best", .desc = "best with a budget", .place = best_with_budget};
    int64_t others = INT64_MAX;
    for (size_t i = 0; placer_at(i); i++) {
        const placer *p = placer_at(i);
        if (!p->in_best) continue;
        placement o;
        assert_int_equal(place_run(g, &r, p, 64, tu_quick(), &o, err, sizeof err), 0);
        if (o.arena < others) others = o.arena;
        place_free(&o);
    }
    placement cut, full, ref;
    test_budget = 0;
    if (place_run(g, &r, &limited, 64, tu_quick(), &cut, err, sizeof err)) fail_msg("%s", err);
    if (place_verify(g, &r, &cut, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(cut.arena, others);
    assert_true(cut.arena > r.peak);
    assert_non_null(cut.detail);
    assert_non_null(strstr(cut.detail, "work limit"));
    test_budget = UINT64_MAX;
    assert_int_equal(place_run(g, &r, &limited, 64, tu_quick(), &full, err, sizeof err), 0);
    assert_int_equal(place_run(g, &r, placer_find("best"), 64, tu_quick(), &ref, err, sizeof err),
                     0);
    assert_int_equal(full.arena, ref.arena);
    assert_int_equal(full.arena, r.peak);
    assert_null(strstr(full.detail, "work limit"));
    place_free(&cut);
    place_free(&full);
    place_free(&ref);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
    assert_int_equal(place_best_greedy_budget(10), 50000000);
    assert_int_equal(place_best_greedy_budget(1u << 20), (uint64_t)32 * (1u << 20) * 20);
}

void lower_bound_counts_aligned_spans(void **state)
{
    (void)state;
    diag d;
    graph *g = chain_graph("A1:1 A2:100 F1 A3:64 F2 F3", &d);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("fifo"), tu_quick(), &r, err, sizeof err), 0);
    assert_int_equal(place_lower_bound(g, &r, 1), 164);
    assert_int_equal(r.peak, 164);
    assert_int_equal(place_lower_bound(g, &r, 64), 64 + 128); /* 2+3: 128 + 64; 1+2: 64 + 128 */
    assert_int_equal(place_lower_bound(g, &r, 4096), 8192);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}
