/* test_replay_host.c: the replay engine on the real host backend: the
 * measured curve follows the predicted one and returns to the baseline, the
 * engine does not measure itself, and a request too large is out of memory. */
#include "testutil.h"
#include <malloc.h>
#include "gpu/replay.h"
#include "testreplay.h"

/* ------------------------------------------------------------ the host backend */

/* Buffers of 1 to 16 MiB: after every step the process's resident memory
 * above the baseline is the live bytes within TOL (pages rounding, the
 * allocator's own pages, stdio), and after the replay it is back within TOL. */
#define TOL (MiB / 2)

/* The host backend reads this process's resident memory, which in a
 * sanitizer build also holds the sanitizer's own pages: the shadow of every
 * page touched (an eighth of it under AddressSanitizer, several times it
 * under ThreadSanitizer, and not given back when the buffer is unmapped),
 * or the fuzz build's coverage counters. CMake names the sanitizer in
 * MEMTRIS_TEST_SANITIZER ("address", "thread", "fuzz"); there the measured
 * values mean nothing, so these tests say so and skip. */
#ifdef MEMTRIS_TEST_SANITIZER
static int skip_unmeasurable(void)
{
    print_message(
        "SKIP: needs a build without sanitizers: in this %s build the resident "
        "memory the host backend reads holds the sanitizer's own pages, so measured bytes "
        "cannot be compared\n",
        MEMTRIS_TEST_SANITIZER);
    return 1;
}
#else
static int skip_unmeasurable(void) { return 0; }
#endif

static void host_measures_the_predicted_curve(void **state)
{
    (void)state;
    if (skip_unmeasurable()) skip();
    static const char *const modes[] = {"raw", "pool", "arena"};
    tu_str j = {0};
    tu_printf(&j, "{\"Nodes\": [");
    int n = 0, nb = 12;
    for (int b = 1; b <= nb; b++) { /* ALLOC b, compute, FREE b-2 */
        tu_printf(&j, "%s{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": %lld, \"BufId\": %d}",
                  n ? ", " : "", n, (long long)((b % 5 + 1) * 3 * MiB + b * 4096), b);
        n++;
        tu_printf(&j, ", {\"Id\": %d, \"Op\": \"Op\", \"Inputs\": [%d]}", n++, b);
        if (b > 2) tu_printf(&j, ", {\"Id\": %d, \"Op\": \"FREE\", \"BufId\": %d}", n++, b - 2);
    }
    tu_printf(&j, ", {\"Id\": %d, \"Op\": \"FREE\", \"BufId\": %d}", n++, nb - 1);
    tu_printf(&j, ", {\"Id\": %d, \"Op\": \"FREE\", \"BufId\": %d}", n++, nb);
    tu_printf(&j, "], \"Edges\": [");
    for (int i = 1; i < n; i++) tu_printf(&j, "%s[%d, %d]", i > 1 ? ", " : "", i - 1, i);
    tu_printf(&j, "]}");
    fixture f;
    load_json(&f, j.s);
    free(j.s);
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
        int mode = replay_mode_find(modes[m]);
        placement pl;
        char err[256];
        if (mode == REPLAY_ARENA)
            assert_int_equal(
                place_run(f.g, &f.r, placer_find("best"), 4096, NULL, &pl, err, sizeof err), 0);
        replay_opts o = {replay_backend_find("host"), mode, mode == REPLAY_ARENA ? &pl : NULL, NULL,
                         NULL};
        replay_result res;
        if (replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(res.n, f.r.n);
        assert_non_null(strstr(res.info.device, "host"));
        assert_true(res.info.total > 0);
        int64_t pool_held = res.held;
        for (uint32_t s = 0; s < res.n; s++) {
            int64_t want = res.s[s].predicted;
            if (mode == REPLAY_ARENA) want = pl.arena;
            if (mode == REPLAY_POOL) { /* never below the live bytes; the end is checked below */
                if (res.s[s].measured < want - TOL)
                    fail_msg("pool: step %u: measured %lld below the live %lld", s,
                             (long long)res.s[s].measured, (long long)want);
                continue;
            }
            int64_t diff = res.s[s].measured - want;
            if (diff > TOL || diff < -TOL)
                fail_msg("%s: step %u: measured %lld, expected %lld (+-%lld)", modes[m], s,
                         (long long)res.s[s].measured, (long long)want, (long long)TOL);
        }
        if (mode == REPLAY_POOL) {
            int64_t diff = res.s[res.n - 1].measured - pool_held;
            if (diff > TOL || diff < -TOL)
                fail_msg("pool: measured %lld at the end, reserved %lld",
                         (long long)res.s[res.n - 1].measured, (long long)pool_held);
            placement pp;
            assert_int_equal(place_run(f.g, &f.r, placer_find("pool"), PLACE_ALIGN_DEFAULT, NULL,
                                       &pp, err, sizeof err),
                             0);
            assert_int_equal(pp.reserved, pool_held);
            place_free(&pp);
        }
        assert_true(res.residual_known);
        if (res.residual > TOL || res.residual < -TOL)
            fail_msg("%s: %lld bytes above the baseline after the replay", modes[m],
                     (long long)res.residual);
        if (mode == REPLAY_ARENA) place_free(&pl);
        replay_result_free(&res);
    }
    unload(&f);
}

/* 60,000 steps over one 4 MiB buffer: the engine's own arrays (a sample
 * of 40 bytes a step: 2.3 MiB) are resident before the baseline, so the
 * measured bytes stay at the buffer's and return to 0. */
static void host_long_replay_does_not_measure_itself(void **state)
{
    (void)state;
    if (skip_unmeasurable()) skip();
    tu_str j = {0};
    uint32_t n = 60000;
    tu_printf(&j, "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 4194304, \"BufId\": 1}");
    for (uint32_t i = 1; i + 1 < n; i++)
        tu_printf(&j, ", {\"Id\": %u, \"Op\": \"Op\", \"Inputs\": [1]}", i);
    tu_printf(&j, ", {\"Id\": %u, \"Op\": \"FREE\", \"BufId\": 1}], \"Edges\": [", n - 1);
    for (uint32_t i = 1; i < n; i++) tu_printf(&j, "%s[%u, %u]", i > 1 ? ", " : "", i - 1, i);
    tu_printf(&j, "]}");
    fixture f;
    load_json(&f, j.s);
    free(j.s);
    /* Large blocks from fresh mmaps, as in a process that did not just free
     * a large string (glibc would otherwise hand back resident heap pages). */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    replay_opts o = {replay_backend_find("host"), REPLAY_RAW, NULL, NULL, NULL};
    replay_result res;
    char err[256];
    if (replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(res.n, n);
    for (uint32_t s = 0; s + 1 < n; s++) {
        int64_t d = res.s[s].measured - 4 * MiB;
        if (d > TOL || d < -TOL)
            fail_msg("step %u: measured %lld, live 4 MiB", s, (long long)res.s[s].measured);
    }
    assert_true(res.residual_known);
    if (res.residual > TOL || res.residual < -TOL)
        fail_msg("residual %lld", (long long)res.residual);
    replay_result_free(&res);
    unload(&f);
}

/* A request the machine cannot hold (4 PiB) fails as out of memory, after
 * the first buffer; the replay gives that one back. */
static void host_out_of_memory(void **state)
{
    (void)state;
    fixture f;
    load_json(&f, "{\"Nodes\": ["
                  "{\"Id\": 10, \"Op\": \"ALLOC\", \"Size\": 8388608, \"BufId\": 1},"
                  "{\"Id\": 11, \"Op\": \"ALLOC\", \"Size\": 4503599627370496, \"BufId\": 2},"
                  "{\"Id\": 12, \"Op\": \"FREE\", \"BufId\": 2},"
                  "{\"Id\": 13, \"Op\": \"FREE\", \"BufId\": 1}],"
                  "\"Edges\": [[10, 11], [11, 12], [12, 13]]}");
    replay_opts o = {replay_backend_find("host"), REPLAY_RAW, NULL, NULL, NULL};
    replay_result res;
    char err[512];
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), -1);
    assert_non_null(strstr(err, "host backend, mode raw: step 2 (node 11, ALLOC of buffer 2)"));
    assert_non_null(
        strstr(err, "out of memory allocating 4.0 PiB (4503599627370496 bytes) with 8.0 MiB held"));
    assert_int_equal(res.n, 1);
    int64_t d = res.s[0].measured - 8 * MiB;
    assert_true(d < TOL && d > -TOL);
    assert_true(res.residual_known);
    assert_true(res.residual < TOL && res.residual > -TOL);
    replay_result_free(&res);
    unload(&f);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(host_measures_the_predicted_curve),
        cmocka_unit_test(host_long_replay_does_not_measure_itself),
        cmocka_unit_test(host_out_of_memory),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
