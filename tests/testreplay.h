/* testreplay.h: helpers shared by the replay engine's tests (test_replay.c,
 * test_replay_host.c): a graph loaded from JSON text and scheduled by the
 * priority policy, and MiB. */
#ifndef MEMTRIS_TESTREPLAY_H
#define MEMTRIS_TESTREPLAY_H
#include "testutil.h"
#include "gpu/replay.h"

#define MiB ((int64_t)1 << 20)

typedef struct fixture {
    diag d;
    graph *g;
    run r;
} fixture;

static void load_json(fixture *f, const char *json)
{
    f->g = tu_load(json, &f->d);
    if (!f->g) tu_print_diag(&f->d);
    assert_non_null(f->g);
    char err[256];
    assert_int_equal(policy_run(f->g, policy_find("priority"), NULL, &f->r, err, sizeof err), 0);
}

static void unload(fixture *f)
{
    policy_run_free(&f->r);
    graph_free(f->g);
    diag_free(&f->d);
}
#endif
