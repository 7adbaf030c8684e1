/* test_place.c: first-fit placement: on random graphs and both policies, no
 * two buffers live at the same time overlap, offsets are aligned, and the
 * result equals a plain first fit over a sorted list (the reference); the
 * arena overflow is an error. */
#include "testutil.h"
#include "sched/place.h"

/* Reference: live blocks in an array sorted by offset, scanned from 0. */
static int64_t reference_first_fit(const graph *g, const run *r, int64_t align, int64_t *off)
{
    uint32_t *live = malloc(((size_t)g->nbufs + 1) * sizeof *live), nlive = 0;
    int64_t top = 0;
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s], b = g->buf[u];
        if (g->kind[u] == NODE_ALLOC) {
            int64_t span = place_span(g->buf_size[b], align), at = 0;
            uint32_t i = 0;
            for (; i < nlive; i++) {
                int64_t o = off[live[i]];
                if (o - at >= span && span > 0) break;
                if (span == 0 && o >= at) break;
                at = o + place_span(g->buf_size[live[i]], align);
            }
            memmove(live + i + 1, live + i, (nlive - i) * sizeof *live);
            live[i] = b;
            nlive++;
            off[b] = at;
            if (at + span > top) top = at + span;
        } else if (g->kind[u] == NODE_FREE) {
            uint32_t i = 0;
            while (i < nlive && live[i] != b) i++;
            memmove(live + i, live + i + 1, (nlive - i - 1) * sizeof *live);
            nlive--;
        }
    }
    free(live);
    return top;
}

static void check_plan(const graph *g, const run *r, const placement *pl)
{
    /* Lifetimes in steps: [alloc, free) */
    for (uint32_t a = 0; a < g->nbufs; a++) {
        assert_int_equal(pl->offset[a] % pl->align, 0);
        int64_t sa = place_span(g->buf_size[a], pl->align);
        assert_true(pl->offset[a] + sa <= pl->arena);
        uint32_t a0 = r->pos[g->buf_alloc[a]], a1 = g->buf_free[a] == GRAPH_NONE ? r->n : r->pos[g->buf_free[a]];
        for (uint32_t b = a + 1; b < g->nbufs; b++) {
            int64_t sb = place_span(g->buf_size[b], pl->align);
            uint32_t b0 = r->pos[g->buf_alloc[b]], b1 = g->buf_free[b] == GRAPH_NONE ? r->n : r->pos[g->buf_free[b]];
            if (a0 >= b1 || b0 >= a1 || !sa || !sb) continue;   /* not live together */
            if (pl->offset[a] < pl->offset[b] + sb && pl->offset[b] < pl->offset[a] + sa)
                fail_msg("buffers %lld and %lld overlap", (long long)g->buf_id[a], (long long)g->buf_id[b]);
        }
    }
}

static void random_graphs(void **state)
{
    (void)state;
    uint64_t st = 42;
    for (int t = 0; t < 300; t++) {
        tu_gen gen;
        tu_gen_make(&gen, &st, 1 + tu_below(&st, 150));
        diag d;
        graph *g = tu_load(gen.json, &d);
        assert_non_null(g);
        for (size_t p = 0; policy_at(p); p++) {
            run r;
            char err[256];
            assert_int_equal(policy_run(g, policy_at(p), &r, err, sizeof err), 0);
            int64_t aligns[] = {1, 64, 4096};
            for (int k = 0; k < 3; k++) {
                placement pl;
                assert_int_equal(place_run(g, &r, placer_find("first-fit"), aligns[k], &pl, err, sizeof err), 0);
                check_plan(g, &r, &pl);
                if (place_verify(g, &r, &pl, err, sizeof err)) fail_msg("verify: %s", err);
                int64_t *ref = calloc((size_t)g->nbufs + 1, sizeof *ref);
                assert_int_equal(reference_first_fit(g, &r, aligns[k], ref), pl.arena);
                for (uint32_t b = 0; b < g->nbufs; b++)
                    if (g->buf_size[b]) assert_int_equal(ref[b], pl.offset[b]);
                assert_true(pl.arena >= r.peak);
                for (uint32_t s = 1; s < r.n; s++) assert_true(pl.hwm[s] >= pl.hwm[s - 1]);
                free(ref);
                place_free(&pl);
            }
            policy_run_free(&r);
        }
        graph_free(g);
        diag_free(&d);
        tu_gen_free(&gen);
    }
}

/* Many buffers live at once: placement stays a log-time operation per
 * buffer (this would take minutes with a linear scan per ALLOC). */
static void many_live_buffers(void **state)
{
    (void)state;
    uint32_t nb = 200000;
    tu_str j = {0};
    tu_printf(&j, "{\"Nodes\": [");
    for (uint32_t i = 0; i < nb; i++)
        tu_printf(&j, "%s{\"Id\": %u, \"Op\": \"ALLOC\", \"Size\": %u, \"BufId\": %u}, "
                      "{\"Id\": %u, \"Op\": \"FREE\", \"BufId\": %u}", i ? ", " : "", 2 * i, 64 + i % 7 * 64, i,
                  2 * i + 1, i);
    tu_printf(&j, ", {\"Id\": %u, \"Op\": \"Barrier\"}], \"Edges\": [", 2 * nb);
    for (uint32_t i = 0; i < nb; i++) tu_printf(&j, "%s[%u, %u], [%u, %u]", i ? ", " : "", 2 * i, 2 * nb, 2 * nb, 2 * i + 1);
    tu_printf(&j, "]}");
    diag d;
    graph *g = tu_load(j.s, &d);
    assert_non_null(g);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("fifo"), &r, err, sizeof err), 0);
    placement pl;
    assert_int_equal(place_run(g, &r, placer_find("first-fit"), 64, &pl, err, sizeof err), 0);
    assert_int_equal(pl.arena, r.peak);   /* all live at once, packed with no hole */
    place_free(&pl);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
    free(j.s);
}

static void arena_overflow_is_an_error(void **state)
{
    (void)state;
    /* 1024 leaked ALLOCs of 2^53-1 bytes: the live total, 2^63-1024, fits in
     * 2^63-1, but rounded up to 64 bytes each (2^53) they make 2^63. */
    tu_str j = {0};
    tu_printf(&j, "{\"Nodes\": [");
    for (int i = 0; i < 1024; i++)
        tu_printf(&j, "%s{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": 9007199254740991, \"BufId\": %d}", i ? ", " : "", i, i);
    tu_printf(&j, "], \"Edges\": []}");
    diag d;
    graph *g = tu_load(j.s, &d);
    assert_non_null(g);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("priority"), &r, err, sizeof err), 0);
    placement pl;
    if (place_run(g, &r, placer_find("first-fit"), 1, &pl, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(pl.arena, r.peak);
    place_free(&pl);
    assert_int_equal(place_run(g, &r, placer_find("first-fit"), 64, &pl, err, sizeof err), -1);
    assert_non_null(strstr(err, "the arena would pass 2^63-1 bytes"));
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
    free(j.s);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_graphs),
        cmocka_unit_test(many_live_buffers),
        cmocka_unit_test(arena_overflow_is_an_error),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
