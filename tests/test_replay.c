/* test_replay.c: the replay engine through a recording backend (what it
 * allocates, writes and gives back, in every mode and on every failure path),
 * and the cuda backend's answer with and without a device (the host backend:
 * test_replay_host.c). */
#include "testutil.h"
#include "gpu/replay.h"
#include "sched/place/place.h"
#include "util/units.h"
#include "testreplay.h"

/* ------------------------------------------------------------ a recording backend */

#define REC_MAX 4096
struct replay_dev {
    uint32_t nslots;
    int64_t bytes[REC_MAX]; /* per slot, 0: empty */
    int64_t held;
    int allocs, releases, fail_at; /* fail_at: the alloc call (1-based) that fails, 0: none */
    int reads, read_fail_at;       /* likewise for read calls (the baseline is read 1) */
    int trims;
    int64_t held_at_trim;
    replay_region touched[REC_MAX];
    int ntouched;
    char err[128];
};

static struct replay_dev *rec_last; /* the device of the last replay, kept by close */
static struct replay_dev rec_state;
static int rec_fail_at, rec_read_fail_at, rec_trim_fails;

static replay_dev *rec_open(int mode, uint32_t nslots, char *err, size_t errcap)
{
    (void)mode;
    if (nslots > REC_MAX) {
        snprintf(err, errcap, "too many slots");
        return NULL;
    }
    memset(&rec_state, 0, sizeof rec_state);
    rec_state.nslots = nslots;
    rec_state.fail_at = rec_fail_at;
    rec_state.read_fail_at = rec_read_fail_at;
    return &rec_state;
}

static void rec_info(replay_dev *d, replay_info *out)
{
    (void)d;
    memset(out, 0, sizeof *out);
    snprintf(out->device, sizeof out->device, "recorder");
}

static int rec_alloc(replay_dev *d, uint32_t slot, int64_t bytes, int *oom)
{
    d->allocs++;
    assert_true(slot < d->nslots);
    assert_int_equal(d->bytes[slot], 0);
    assert_true(bytes > 0);
    if (d->allocs == d->fail_at) {
        *oom = 1;
        snprintf(d->err, sizeof d->err, "no room");
        return -1;
    }
    d->bytes[slot] = bytes;
    d->held += bytes;
    return 0;
}

static int rec_release(replay_dev *d, uint32_t slot)
{
    assert_true(slot < d->nslots);
    assert_true(d->bytes[slot] > 0);
    d->releases++;
    d->held -= d->bytes[slot];
    d->bytes[slot] = 0;
    return 0;
}

static int rec_touch(replay_dev *d, const replay_region *rg, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        assert_true(rg[i].slot < d->nslots);
        assert_true(rg[i].off >= 0 && rg[i].off + rg[i].bytes <= d->bytes[rg[i].slot]);
        assert_true(d->ntouched < REC_MAX);
        d->touched[d->ntouched++] = rg[i];
    }
    return 0;
}

static int rec_read(replay_dev *d, int64_t *used)
{
    if (++d->reads == d->read_fail_at) {
        snprintf(d->err, sizeof d->err, "the meter is broken");
        return -1;
    }
    *used = d->held + 1000; /* a baseline of 1000 */
    return 0;
}

static int rec_trim(replay_dev *d)
{
    d->trims++;
    d->held_at_trim = d->held;
    if (rec_trim_fails) {
        snprintf(d->err, sizeof d->err, "the cache is stuck");
        return -1;
    }
    return 0;
}

static const char *rec_error(replay_dev *d) { return d->err; }

static void rec_close(replay_dev *d)
{
    for (uint32_t s = 0; s < d->nslots; s++)
        assert_int_equal(d->bytes[s], 0); /* the engine gave all back */
    rec_last = d;
}

static const replay_backend recorder = {
    .name = "recorder",
    .label = "the recorder",
    .desc = "a test backend",
    .modes = 0xf,
    .open = rec_open,
    .info = rec_info,
    .alloc = rec_alloc,
    .release = rec_release,
    .touch = rec_touch,
    .read = rec_read,
    .error = rec_error,
    .close = rec_close,
};

/* The same with a cache to trim, as cuda's async pool. */
static const replay_backend recorder_trim = {
    .name = "recorder",
    .label = "the recorder",
    .desc = "a test backend with a cache",
    .modes = 0xf,
    .open = rec_open,
    .info = rec_info,
    .alloc = rec_alloc,
    .release = rec_release,
    .touch = rec_touch,
    .read = rec_read,
    .trim = rec_trim,
    .error = rec_error,
    .close = rec_close,
};

/* ------------------------------------------------------------ helpers */

/* A chain: A1 (3 MiB), A2 (5 MiB), conv reads 1 and writes 2, F1, A3 (1 MiB),
 * relu with no Inputs (its neighbourhood: ALLOC 3 before it, FREE 2 after
 * it), F2, F3. */
static const char chain_json[] =
    "{\"Nodes\": ["
    "{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 3145728, \"BufId\": 1},"
    "{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 5242880, \"BufId\": 2},"
    "{\"Id\": 2, \"Op\": \"Conv\", \"Inputs\": [1, 2]},"
    "{\"Id\": 3, \"Op\": \"FREE\", \"BufId\": 1},"
    "{\"Id\": 4, \"Op\": \"ALLOC\", \"Size\": 1048576, \"BufId\": 3},"
    "{\"Id\": 5, \"Op\": \"Relu\"},"
    "{\"Id\": 6, \"Op\": \"FREE\", \"BufId\": 2},"
    "{\"Id\": 7, \"Op\": \"FREE\", \"BufId\": 3}],"
    "\"Edges\": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7]]}";

/* ------------------------------------------------------------ the engine */

static void raw_mode_allocates_writes_and_gives_back(void **state)
{
    (void)state;
    fixture f;
    load_json(&f, chain_json);
    replay_opts o = {&recorder, REPLAY_RAW, NULL, NULL, NULL};
    replay_result res;
    char err[256];
    rec_fail_at = 0;
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), 0);
    assert_int_equal(res.n, 8);
    assert_int_equal(res.total, 8);
    assert_string_equal(res.backend, "recorder");
    assert_string_equal(res.mode, "raw");
    assert_string_equal(res.policy, "priority");
    assert_string_equal(res.info.device, "recorder");
    assert_int_equal(res.baseline, 1000);
    assert_int_equal(res.opened, 1);
    for (uint32_t s = 0; s < 8; s++) {
        assert_int_equal(res.s[s].step, s);
        assert_int_equal(res.s[s].node, f.g->id[f.r.order[s]]);
        assert_int_equal(res.s[s].predicted, f.r.memory[s]);
        assert_int_equal(res.s[s].measured, f.r.memory[s]); /* raw: exactly the live bytes */
    }
    assert_int_equal(res.predicted_peak, 8 * MiB);
    assert_int_equal(res.measured_peak, 8 * MiB);
    assert_int_equal(res.max_excess, 0);
    assert_int_equal(res.residual, 0);
    assert_true(res.residual_known);
    assert_string_equal(res.residual_error, "");
    assert_int_equal(rec_last->reads, 10); /* the baseline, 8 steps, the residual */
    assert_int_equal(rec_last->allocs, 3);
    assert_int_equal(rec_last->releases, 3);
    /* Conv writes buffers 1 and 2 whole; Relu, with no Inputs, writes 3
     * (its ALLOC precedes it) and 2 (its FREE follows it). */
    assert_int_equal(rec_last->ntouched, 4);
    int64_t want[4] = {3 * MiB, 5 * MiB, 1 * MiB, 5 * MiB};
    int64_t got[4];
    for (int i = 0; i < 4; i++) {
        assert_int_equal(rec_last->touched[i].off, 0);
        got[i] = rec_last->touched[i].bytes;
    }
    /* the pairs in either order within a step */
    assert_true((got[0] == want[0] && got[1] == want[1]) ||
                (got[0] == want[1] && got[1] == want[0]));
    assert_true((got[2] == want[2] && got[3] == want[3]) ||
                (got[2] == want[3] && got[3] == want[2]));
    replay_result_free(&res);
    unload(&f);
}

static void arena_mode_writes_at_planned_offsets(void **state)
{
    (void)state;
    fixture f;
    load_json(&f, chain_json);
    placement pl;
    char err[256];
    assert_int_equal(place_run(f.g, &f.r, placer_find("first-fit"), 64, NULL, &pl, err, sizeof err),
                     0);
    replay_opts o = {&recorder, REPLAY_ARENA, &pl, NULL, NULL};
    replay_result res;
    rec_fail_at = 0;
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), 0);
    assert_int_equal(rec_last->allocs, 1); /* the arena, once */
    assert_int_equal(rec_last->releases, 1);
    assert_int_equal(res.held, pl.arena);
    assert_string_equal(res.placer, "first-fit");
    for (uint32_t s = 0; s < res.n; s++) assert_int_equal(res.s[s].measured, pl.arena);
    for (int i = 0; i < rec_last->ntouched; i++) {
        const replay_region *x = &rec_last->touched[i];
        assert_int_equal(x->slot, 0);
        int found = 0;
        for (uint32_t b = 0; b < f.g->nbufs; b++)
            found |= pl.offset[b] == x->off && f.g->buf_size[b] == x->bytes;
        assert_true(found);
    }
    assert_int_equal(rec_last->ntouched, 4);
    replay_result_free(&res);
    place_free(&pl);
    unload(&f);
}

/* Pool: blocks of 2^n kept for their class; the bytes held at the end are
 * the pool placer's reserved bytes (align 64, as `memtris plan`). */
static void pool_mode_reuses_blocks(void **state)
{
    (void)state;
    fixture f;
    load_json(&f, "{\"Nodes\": ["
                  "{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 3000000, \"BufId\": 1},"
                  "{\"Id\": 1, \"Op\": \"FREE\", \"BufId\": 1},"
                  "{\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 4000000, \"BufId\": 2},"
                  "{\"Id\": 3, \"Op\": \"ALLOC\", \"Size\": 1000, \"BufId\": 3},"
                  "{\"Id\": 4, \"Op\": \"FREE\", \"BufId\": 2},"
                  "{\"Id\": 5, \"Op\": \"FREE\", \"BufId\": 3}],"
                  "\"Edges\": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]]}");
    replay_opts o = {&recorder, REPLAY_POOL, NULL, NULL, NULL};
    replay_result res;
    char err[256];
    rec_fail_at = 0;
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), 0);
    assert_int_equal(rec_last->allocs,
                     2); /* 3 MB and 4 MB share the 4 MiB class; 1000 B takes 1 KiB */
    assert_int_equal(res.held, 4 * MiB + 1024);
    placement pl;
    assert_int_equal(
        place_run(f.g, &f.r, placer_find("pool"), PLACE_ALIGN_DEFAULT, NULL, &pl, err, sizeof err),
        0);
    assert_int_equal(pl.reserved, res.held);
    assert_int_equal(res.s[res.n - 1].measured, res.held); /* never given back during the run */
    assert_int_equal(res.residual, 0);                     /* given back at the end */
    place_free(&pl);
    replay_result_free(&res);
    unload(&f);
    /* 20 and 40 bytes: both one 64-byte block, as the pool placer has it */
    load_json(&f,
              "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 20, \"BufId\": 1},"
              "{\"Id\": 1, \"Op\": \"FREE\", \"BufId\": 1},"
              "{\"Id\": 2, \"Op\": \"ALLOC\", \"Size\": 40, \"BufId\": 2},"
              "{\"Id\": 3, \"Op\": \"FREE\", \"BufId\": 2}], \"Edges\": [[0, 1], [1, 2], [2, 3]]}");
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), 0);
    assert_int_equal(res.held, 64);
    assert_int_equal(
        place_run(f.g, &f.r, placer_find("pool"), PLACE_ALIGN_DEFAULT, NULL, &pl, err, sizeof err),
        0);
    assert_int_equal(pl.reserved, 64);
    place_free(&pl);
    replay_result_free(&res);
    unload(&f);
}

/* A failing ALLOC stops the replay: the error names the step, the node, the
 * buffer and the request; the steps before it are kept; nothing is leaked. */
static void failure_stops_and_gives_everything_back(void **state)
{
    (void)state;
    fixture f;
    load_json(&f, chain_json);
    replay_opts o = {&recorder, REPLAY_RAW, NULL, NULL, NULL};
    replay_result res;
    char err[512];
    rec_fail_at = 2; /* buffer 2's ALLOC, position 1: step 2 as users count */
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), -1);
    rec_fail_at = 0;
    assert_non_null(strstr(err, "step 2 (node 1, ALLOC of buffer 2)"));
    assert_non_null(strstr(err, "out of memory allocating 5.0 MiB (5242880 bytes)"));
    assert_non_null(strstr(err, "3.0 MiB held"));
    assert_non_null(strstr(err, "no room"));
    assert_non_null(strstr(err, "recorder backend, mode raw"));
    assert_int_equal(res.n, 1);
    assert_int_equal(rec_last->releases,
                     1); /* buffer 1, given back; close checks all slots are empty */
    assert_int_equal(res.residual, 0);
    replay_result_free(&res);
    /* the arena's own allocation failing */
    placement pl;
    assert_int_equal(place_run(f.g, &f.r, placer_find("best"), 64, NULL, &pl, err, sizeof err), 0);
    o.mode = REPLAY_ARENA;
    o.pl = &pl;
    rec_fail_at = 1;
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), -1);
    rec_fail_at = 0;
    assert_non_null(strstr(err, "step 1 (")); /* the arena comes with the first step */
    assert_non_null(strstr(err, "out of memory allocating the arena of 8.0 MiB"));
    assert_int_equal(res.n, 0);
    replay_result_free(&res);
    place_free(&pl);
    /* a pool block names the request too */
    o.mode = REPLAY_POOL;
    o.pl = NULL;
    rec_fail_at = 1;
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), -1);
    rec_fail_at = 0;
    assert_non_null(strstr(err, "out of memory allocating a pool block of 4.0 MiB (4194304 bytes) "
                                "for a request of 3145728 bytes"));
    replay_result_free(&res);
    unload(&f);
}

/* The reading after everything was given back fails: the replay is whole
 * (status 0, every step), its residual unknown, never a 0 that was not
 * read, with the backend's reason. */
static void failed_last_reading_leaves_the_residual_unknown(void **state)
{
    (void)state;
    fixture f;
    load_json(&f, chain_json);
    replay_opts o = {&recorder, REPLAY_RAW, NULL, NULL, NULL};
    replay_result res;
    char err[256];
    rec_fail_at = 0;
    rec_read_fail_at = 10; /* 1 baseline + 8 steps, then the residual */
    int rc = replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err);
    rec_read_fail_at = 0;
    assert_int_equal(rc, 0);
    assert_int_equal(res.n, 8);
    assert_int_equal(rec_last->held, 0); /* still all given back */
    assert_false(res.residual_known);
    assert_int_equal(res.residual, 0);
    assert_string_equal(res.residual_error,
                        "the reading after giving everything back failed: the meter is broken");
    replay_result_free(&res);

    /* A step fails (out of memory), then the last reading fails too: the
     * step's error is the replay's, the residual unknown with its own. */
    rec_fail_at = 2; /* step 1's ALLOC; reads: baseline, step 0, then the residual */
    rec_read_fail_at = 3;
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), -1);
    rec_fail_at = rec_read_fail_at = 0;
    assert_non_null(strstr(err, "out of memory allocating 5.0 MiB"));
    assert_int_equal(res.n, 1);
    assert_false(res.residual_known);
    assert_non_null(strstr(res.residual_error, "the meter is broken"));
    replay_result_free(&res);

    /* The baseline cannot be read: nothing replayed, nothing to compare. */
    rec_read_fail_at = 1;
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), -1);
    rec_read_fail_at = 0;
    assert_string_equal(err,
                        "recorder backend: cannot read the memory in use: the meter is broken");
    assert_int_equal(res.n, 0);
    assert_false(res.residual_known);
    assert_string_equal(res.residual_error, "the replay stopped before its first reading");
    replay_result_free(&res);
    unload(&f);
}

/* A backend with a cache is trimmed once, after every slot was given back
 * and before the last reading; when the trim fails, the residual is unknown
 * (a reading over an untrimmed cache would blame the replay). */
static void trim_before_the_last_reading(void **state)
{
    (void)state;
    fixture f;
    load_json(&f, chain_json);
    replay_opts o = {&recorder_trim, REPLAY_RAW, NULL, NULL, NULL};
    replay_result res;
    char err[256];
    rec_fail_at = rec_read_fail_at = rec_trim_fails = 0;
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), 0);
    assert_int_equal(rec_last->trims, 1);
    assert_int_equal(rec_last->held_at_trim, 0);
    assert_true(res.residual_known);
    assert_int_equal(res.residual, 0);
    replay_result_free(&res);
    rec_trim_fails = 1;
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), 0);
    rec_trim_fails = 0;
    assert_int_equal(res.n, 8);
    assert_int_equal(rec_last->reads, 9); /* no reading after the failed trim */
    assert_false(res.residual_known);
    assert_string_equal(res.residual_error,
                        "giving the backend's cached memory back failed: the cache is stuck");
    replay_result_free(&res);
    unload(&f);
}

static int cancel_after_two(void *ctx, uint32_t done, uint32_t total)
{
    int *calls = ctx;
    (*calls)++;
    assert_int_equal(total, 8);
    return done >= 2;
}

static int cancel_at_once(void *ctx, uint32_t done, uint32_t total)
{
    (void)ctx;
    (void)done;
    (void)total;
    return 1;
}

static void progress_cancels(void **state)
{
    (void)state;
    fixture f;
    load_json(&f, chain_json);
    int calls = 0;
    replay_opts o = {&recorder, REPLAY_RAW, NULL, cancel_after_two, &calls};
    replay_result res;
    char err[256];
    rec_fail_at = 0;
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), -2);
    assert_int_equal(res.n, 2);
    assert_int_equal(calls, 3); /* done = 0, 1, 2 */
    assert_int_equal(rec_last->held, 0);
    assert_int_equal(rec_last->releases, 2);
    assert_true(res.residual_known); /* read after the cancel too */
    replay_result_free(&res);
    /* cancelled as soon as the device opened, before the baseline: unknown */
    o.progress = cancel_at_once;
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), -2);
    assert_int_equal(res.n, 0);
    assert_false(res.residual_known);
    assert_string_equal(res.residual_error, "the replay stopped before its first reading");
    replay_result_free(&res);
    unload(&f);
}

static void modes_and_backends_by_name(void **state)
{
    (void)state;
    for (int m = 0; m < REPLAY_NMODES; m++)
        assert_int_equal(replay_mode_find(replay_mode_name(m)), m);
    assert_int_equal(replay_mode_find("fast"), -1);
    assert_non_null(replay_backend_find("host"));
    assert_non_null(replay_backend_find("cuda"));
    assert_null(replay_backend_find("rocm"));
    assert_null(replay_backend_at(2));
    /* host has no async mode */
    fixture f;
    load_json(&f, chain_json);
    replay_opts o = {replay_backend_find("host"), REPLAY_ASYNC, NULL, NULL, NULL};
    replay_result res;
    char err[256];
    assert_int_equal(replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err), -1);
    assert_string_equal(err, "the host backend has no async mode");
    assert_int_equal(res.opened, 0);
    replay_result_free(&res);
    unload(&f);
}

/* ------------------------------------------------------------ the cuda backend */

/* A cuda replay left nothing behind: its residual was read and is within
 * REPLAY_RESIDUAL_TOLERANCE of 0 (cudaMemGetInfo is device-wide and moves
 * by the driver's 2 MiB pages); the exact figure is printed either way. */
static void cuda_residual_ok(const replay_result *r, const char *what)
{
    if (!r->residual_known) fail_msg("cuda %s: residual unknown: %s", what, r->residual_error);
    print_message("cuda %s: residual %lld bytes (tolerance +-%lld)\n", what, (long long)r->residual,
                  (long long)REPLAY_RESIDUAL_TOLERANCE);
    if (r->residual > REPLAY_RESIDUAL_TOLERANCE || r->residual < -REPLAY_RESIDUAL_TOLERANCE)
        fail_msg("cuda %s: residual %lld bytes, beyond +-%lld", what, (long long)r->residual,
                 (long long)REPLAY_RESIDUAL_TOLERANCE);
}

/* Without CUDA in the build: a clear sentence. With it and no driver or
 * device (CI): the CUDA error, no crash. With a device: a real replay that
 * gives everything back. */
static void cuda_without_a_device(void **state)
{
    (void)state;
    fixture f;
    load_json(&f, chain_json);
    replay_opts o = {replay_backend_find("cuda"), REPLAY_RAW, NULL, NULL, NULL};
    replay_result res;
    char err[512];
    int rc = replay_run(f.g, &f.r, policy_find("priority"), &o, &res, err, sizeof err);
    if (rc) print_message("SKIP (part): needs a CUDA device: the replay on one is not run\n");
    if (!replay_have_cuda()) {
        assert_int_equal(rc, -1);
        assert_string_equal(err, "cuda backend: memtris was built without CUDA support");
        assert_int_equal(res.opened, 0);
    } else if (rc) {
        print_message("cuda: %s\n", err);
        assert_int_equal(rc, -1);
        assert_non_null(strstr(err, "cuda backend: "));
        assert_non_null(strstr(err, "cudaGetDeviceCount")); /* where it failed, with CUDA's words */
        assert_non_null(strchr(err, '('));
        assert_int_equal(res.n, 0);
        assert_int_equal(res.opened, 0);
    } else {
        print_message("cuda: a device: %s, %s\n", res.info.device, res.info.versions);
        assert_int_equal(res.n, f.r.n);
        assert_true(res.measured_peak >= res.predicted_peak);
        cuda_residual_ok(&res, "raw (first)");
        /* every mode, and out of device memory in the middle: twice the
         * device's memory after 8 MiB; nothing left behind on any path */
        for (int m = 0; m < REPLAY_NMODES; m++) {
            placement pl;
            assert_int_equal(
                place_run(f.g, &f.r, placer_find("best"), 256, NULL, &pl, err, sizeof err), 0);
            replay_opts om = {o.backend, m, &pl, NULL, NULL};
            replay_result rm;
            if (replay_run(f.g, &f.r, policy_find("priority"), &om, &rm, err, sizeof err))
                fail_msg("%s", err);
            print_message("cuda %s: predicted peak %lld, measured peak %lld\n", replay_mode_name(m),
                          (long long)rm.predicted_peak, (long long)rm.measured_peak);
            assert_true(rm.measured_peak >= rm.predicted_peak);
            cuda_residual_ok(&rm, replay_mode_name(m));
            replay_result_free(&rm);
            place_free(&pl);
        }
        int64_t huge = res.info.total * 2;
        replay_result_free(&res);
        char json[512];
        snprintf(json, sizeof json,
                 "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 8388608, \"BufId\": 1},"
                 "{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": %lld, \"BufId\": 2},"
                 "{\"Id\": 2, \"Op\": \"FREE\", \"BufId\": 2}, {\"Id\": 3, \"Op\": \"FREE\", "
                 "\"BufId\": 1}],"
                 "\"Edges\": [[0, 1], [1, 2], [2, 3]]}",
                 (long long)huge);
        fixture h;
        load_json(&h, json);
        for (int m = 0; m < REPLAY_NMODES; m++) {
            placement pl;
            assert_int_equal(
                place_run(h.g, &h.r, placer_find("first-fit"), 256, NULL, &pl, err, sizeof err), 0);
            replay_opts om = {o.backend, m, &pl, NULL, NULL};
            assert_int_equal(
                replay_run(h.g, &h.r, policy_find("priority"), &om, &res, err, sizeof err), -1);
            print_message("cuda %s out of memory: %s\n", replay_mode_name(m), err);
            assert_non_null(strstr(err, "out of memory"));
            if (m != REPLAY_ARENA) { /* arena: the arena itself fails, at step 0 */
                assert_non_null(strstr(err, "step 2 (node 1, ALLOC of buffer 2): out of memory"));
                assert_int_equal(res.n, 1);
            }
            char what[48];
            snprintf(what, sizeof what, "%s after out of memory", replay_mode_name(m));
            cuda_residual_ok(&res, what);
            replay_result_free(&res);
            place_free(&pl);
        }
        unload(&h);
    }
    replay_result_free(&res);
    unload(&f);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(raw_mode_allocates_writes_and_gives_back),
        cmocka_unit_test(arena_mode_writes_at_planned_offsets),
        cmocka_unit_test(pool_mode_reuses_blocks),
        cmocka_unit_test(failure_stops_and_gives_everything_back),
        cmocka_unit_test(failed_last_reading_leaves_the_residual_unknown),
        cmocka_unit_test(trim_before_the_last_reading),
        cmocka_unit_test(progress_cancels),
        cmocka_unit_test(modes_and_backends_by_name),
        cmocka_unit_test(cuda_without_a_device),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
