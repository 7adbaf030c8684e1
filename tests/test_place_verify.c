/* test_place_verify.c: the verifier names bad plans, place_run_checked tells a failure from a
 * bad plan; scale, overflow, cancel, empty plans and graphs the fuzzer found. Part of
 * test_place. */
#include <dirent.h>
#include "testutil.h"
#include "test_place.h"
#include "sched/place/place.h"
#include "sched/graph/solve_watch.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

/* ------------------------------------------------------------ verifier */

/* A plan made by hand from offsets (align given). */
static void hand_plan(const graph *g, placement *pl, int64_t align, const int64_t *off)
{
    memset(pl, 0, sizeof *pl);
    pl->placer = "hand";
    pl->align = align;
    pl->offset = calloc((size_t)g->nbufs + 1, sizeof *pl->offset);
    for (uint32_t b = 0; b < g->nbufs; b++) pl->offset[b] = off[b];
}

void verify_names_overlapping_buffers(void **state)
{
    (void)state;
    diag d;
    /* buffers 7 and 9 live together, 8 after 7 is freed */
    graph *g = chain_graph("A7:100 A9:100 F7 A8:100 F8 F9", &d);
    run r;
    char err[512];
    assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &r, err, sizeof err), 0);
    uint32_t b7 = graph_find_buf(g, 7), b8 = graph_find_buf(g, 8), b9 = graph_find_buf(g, 9);
    int64_t off[3];
    placement pl;
    off[b7] = 0;
    off[b9] = 50;
    off[b8] = 200;
    hand_plan(g, &pl, 1, off);
    assert_int_equal(place_verify(g, &r, &pl, err, sizeof err), -1);
    assert_non_null(strstr(err, "buffers 7 [0, 100) and 9 [50, 150)"));
    assert_non_null(strstr(err, "step 2"));
    place_free(&pl);
    /* 8 reuses 7's bytes after 7 is freed: fine; over 9's: not. */
    off[b7] = 0;
    off[b9] = 100;
    off[b8] = 0;
    hand_plan(g, &pl, 1, off);
    if (place_verify(g, &r, &pl, err, sizeof err)) fail_msg("%s", err);
    place_free(&pl);
    off[b8] = 199;
    hand_plan(g, &pl, 1, off);
    assert_int_equal(place_verify(g, &r, &pl, err, sizeof err), -1);
    assert_non_null(strstr(err, "9 [100, 200)"));
    assert_non_null(strstr(err, "8 [199, 299)"));
    place_free(&pl);
    /* touching blocks do not overlap */
    off[b8] = 200;
    hand_plan(g, &pl, 1, off);
    assert_int_equal(place_verify(g, &r, &pl, err, sizeof err), 0);
    place_free(&pl);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

void verify_names_misaligned_buffers(void **state)
{
    (void)state;
    diag d;
    graph *g = chain_graph("A5:100 A6:10 F5 F6", &d);
    run r;
    char err[512];
    assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &r, err, sizeof err), 0);
    int64_t off[2];
    off[graph_find_buf(g, 5)] = 0;
    off[graph_find_buf(g, 6)] = 160;
    placement pl;
    hand_plan(g, &pl, 64, off);
    assert_int_equal(place_verify(g, &r, &pl, err, sizeof err), -1);
    assert_non_null(strstr(err, "buffer 6 is at offset 160, not a multiple of 64"));
    place_free(&pl);
    off[graph_find_buf(g, 6)] = 128; /* 100 bytes take 128 at align 64 */
    hand_plan(g, &pl, 64, off);
    assert_int_equal(place_verify(g, &r, &pl, err, sizeof err), 0);
    place_free(&pl);
    off[graph_find_buf(g, 6)] = 64; /* inside buffer 5's span */
    hand_plan(g, &pl, 64, off);
    assert_int_equal(place_verify(g, &r, &pl, err, sizeof err), -1);
    assert_non_null(strstr(err, "buffers 5 [0, 128) and 6 [64, 128)"));
    place_free(&pl);
    off[graph_find_buf(g, 6)] = -64;
    hand_plan(g, &pl, 64, off);
    assert_int_equal(place_verify(g, &r, &pl, err, sizeof err), -1);
    assert_non_null(strstr(err, "buffer 6 is at offset -64, below 0"));
    place_free(&pl);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

/* A placer with a bug: every buffer at offset 0. */
static int place_all_at_zero(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                             const solve_ctx *c, placement *pl, char *err, size_t errcap)
{
    (void)c;
    (void)r;
    (void)lt;
    (void)align;
    (void)err;
    (void)errcap;
    for (uint32_t b = 0; b < g->nbufs; b++) pl->offset[b] = 0;
    return 0;
}

/* place_run_checked (plan() above gets PLACE_OK from it): a placer that
 * fails, its message kept; a plan that does not verify, named as an
 * internal error with the placer, the graph and the buffers; no plan left. */
void run_checked_tells_failure_from_a_bad_plan(void **state)
{
    (void)state;
    planned x;
    plan(&x, "A7:100 A9:100 F7 F9", "best", 64);
    assert_int_equal(x.pl.arena, 256);
    char err[512];
    placement pl;
    assert_int_equal(
        place_run_checked(x.g, &x.r, placer_find("first-fit"), 3, tu_quick(), &pl, err, sizeof err),
        PLACE_FAILED);
    assert_string_equal(err, "alignment 3 is not a power of two");
    assert_null(pl.offset);
    const placer broken = {
        .name = "broken", .desc = "every buffer at 0", .place = place_all_at_zero};
    assert_int_equal(place_run_checked(x.g, &x.r, &broken, 64, tu_quick(), &pl, err, sizeof err),
                     PLACE_INVALID);
    assert_string_equal(err, "internal error: placer broken made an invalid plan for " TU_SOURCE
                             ": buffers 7 [0, 128) "
                             "and 9 [0, 128) are live together at step 2 and overlap");
    assert_null(pl.offset);
    assert_null(pl.hwm);
    place_free(&pl);
    unplan(&x);
}

/* ------------------------------------------------------------ scale and limits */

/* Many buffers live at once: the online placers and the coloring stay
 * log-time per buffer (a linear scan per ALLOC would take minutes), and
 * greedy by size and best, whose buffers each overlap all the others, read
 * unions of packed buffers rather than every overlapping buffer (all pairs
 * would be 2 x 10^10). */
void many_live_buffers(void **state)
{
    (void)state;
    uint32_t nb = 200000;
    tu_str j = {0};
    tu_printf(&j, "{\"Nodes\": [");
    for (uint32_t i = 0; i < nb; i++)
        tu_printf(&j,
                  "%s{\"Id\": %u, \"Op\": \"ALLOC\", \"Size\": %u, \"BufId\": %u}, "
                  "{\"Id\": %u, \"Op\": \"FREE\", \"BufId\": %u}",
                  i ? ", " : "", 2 * i, 64 + i % 7 * 64, i, 2 * i + 1, i);
    tu_printf(&j, ", {\"Id\": %u, \"Op\": \"Barrier\"}], \"Edges\": [", 2 * nb);
    for (uint32_t i = 0; i < nb; i++)
        tu_printf(&j, "%s[%u, %u], [%u, %u]", i ? ", " : "", 2 * i, 2 * nb, 2 * nb, 2 * i + 1);
    tu_printf(&j, "]}");
    diag d;
    graph *g = tu_load(j.s, &d);
    assert_non_null(g);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("fifo"), tu_quick(), &r, err, sizeof err), 0);
    static const char *const fast[] = {"first-fit", "best-fit",    "pool",
                                       "coloring",  "greedy-size", "best"};
    for (int k = 0; k < 6; k++) {
        placement pl;
        assert_int_equal(
            place_run(g, &r, placer_find(fast[k]), 64, tu_quick(), &pl, err, sizeof err), 0);
        if (k != 2 && k != 3)
            assert_int_equal(pl.arena, r.peak); /* all live at once, packed with no hole */
        if (k == 3) assert_int_equal(pl.arena, (int64_t)nb * 448); /* one 448-byte block each */
        if (place_verify(g, &r, &pl, err, sizeof err)) fail_msg("%s: %s", fast[k], err);
        place_free(&pl);
    }
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
    free(j.s);
}

void arena_overflow_is_an_error(void **state)
{
    (void)state;
    /* 1024 leaked ALLOCs of 2^53-1 bytes: the live total, 2^63-1024, fits in
     * 2^63-1, but rounded up to 64 bytes each (2^53) they make 2^63. */
    tu_str j = {0};
    tu_printf(&j, "{\"Nodes\": [");
    for (int i = 0; i < 1024; i++)
        tu_printf(&j,
                  "%s{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": 9007199254740991, \"BufId\": %d}",
                  i ? ", " : "", i, i);
    tu_printf(&j, "], \"Edges\": []}");
    diag d;
    graph *g = tu_load(j.s, &d);
    assert_non_null(g);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &r, err, sizeof err), 0);
    for (size_t i = 0; placer_at(i); i++) {
        const placer *p = placer_at(i);
        placement pl;
        /* Unaligned, all fit but the pool, whose 2^53-byte classes make 2^63. */
        int rc = place_run(g, &r, p, 1, tu_quick(), &pl, err, sizeof err);
        if (!strcmp(p->name, "pool")) {
            assert_int_equal(rc, -1);
            assert_non_null(strstr(err, "the arena would pass 2^63-1 bytes"));
        } else {
            if (rc) fail_msg("%s: %s", p->name, err);
            assert_int_equal(pl.arena, r.peak);
            place_free(&pl);
        }
        assert_int_equal(place_run(g, &r, p, 64, tu_quick(), &pl, err, sizeof err), -1);
        if (!strstr(err, "the arena would pass 2^63-1 bytes")) fail_msg("%s: %s", p->name, err);
        assert_non_null(strstr(err, "buffer "));
    }
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
    free(j.s);
}

/* An empty graph and one of zero-byte buffers: an empty arena. */
/* A placement watched from another thread: asked to stop, a placer either
 * fails with "cancelled" (and leaves no plan) or keeps a whole plan; not
 * asked, it says what it did last. */
void cancelled_placements(void **state)
{
    (void)state;
    diag d;
    graph *g = tu_load_sample("resnet50.json", &d);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &r, err, sizeof err), 0);
    solve_watch ctl = {0};
    solve_ctx c = {.max_states = tu_quick()->max_states, .watch = &ctl};
    for (size_t i = 0; placer_at(i); i++) {
        placement pl;
        assert_int_equal(place_run(g, &r, placer_at(i), 64, &c, &pl, err, sizeof err), 0);
        assert_non_null(atomic_load(&ctl.doing));
        place_free(&pl);
    }
    atomic_store(&ctl.cancel, 1);
    int kept = 0, failed = 0;
    for (size_t i = 0; placer_at(i); i++) {
        placement pl;
        if (place_run(g, &r, placer_at(i), 64, &c, &pl, err, sizeof err) == 0) {
            /* a placer that made its plan anyway (the online ones do not
             * look) keeps it, whole */
            assert_int_equal(place_verify(g, &r, &pl, err, sizeof err), 0);
            place_free(&pl);
            kept++;
        } else {
            assert_string_equal(err, "cancelled");
            assert_null(pl.offset);
            failed++;
        }
    }
    assert_true(kept > 0);   /* first-fit does not look */
    assert_true(failed > 0); /* the greedy and best stop without a plan */
    placement pl;
    assert_int_equal(place_run(g, &r, placer_find("best"), 64, tu_quick(), &pl, err, sizeof err),
                     0);
    place_free(&pl);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

void empty_plans(void **state)
{
    (void)state;
    diag d;
    graph *g = chain_graph("A1:0 C A2:0 F1", &d);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &r, err, sizeof err), 0);
    for (size_t i = 0; placer_at(i); i++) {
        placement pl;
        assert_int_equal(place_run(g, &r, placer_at(i), 64, tu_quick(), &pl, err, sizeof err), 0);
        assert_int_equal(pl.arena, 0);
        assert_int_equal(place_verify(g, &r, &pl, err, sizeof err), 0);
        place_free(&pl);
    }
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

/* tests/data/fuzz/load-*.json: graphs that tests/fuzz found breaking a
 * placer, each placed by every placer with every alignment and verified.
 * load-greedy-empty-fringe.json: the greedy read an empty fringe as
 * NULL + 0, undefined (clang's UBSan stops there, so the fuzz and clang
 * sanitizer builds catch a return of it). */
void fuzz_found_graphs(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/data/fuzz", MEMTRIS_SOURCE_DIR);
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int count = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        if (strncmp(e->d_name, "load-", 5)) continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        diag d;
        diag_init(&d, path);
        graph *g = load_file(path, &d, NULL, NULL);
        if (!g) fail_msg("%s does not load", path);
        for (size_t p = 0; policy_at(p); p++) {
            run r;
            char err[256];
            if (policy_run(g, policy_at(p), tu_quick(), &r, err, sizeof err))
                continue; /* past 2^63-1 is refused */
            for (int k = 0; k < 3; k++) every_placer(g, &r, aligns[k]);
            policy_run_free(&r);
        }
        graph_free(g);
        diag_free(&d);
        count++;
    }
    closedir(dp);
    assert_true(count >= 1);
}
