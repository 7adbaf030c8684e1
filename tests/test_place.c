/* test_place.c: every placer's plan verified on random graphs and samples, against plain
 * references; best never larger than any placer; the model samples within 2% of the lower
 * bound. Its main lists the tests of test_place_cases.c and test_place_verify.c too. */
#include <dirent.h>
#include "testutil.h"
#include "test_place.h"
#include "sched/place/place.h"
#include "sched/graph/solve_watch.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

const int64_t aligns[3] = {1, 64, 4096};

static uint32_t alloc_at(const graph *g, const run *r, uint32_t b)
{
    return r->pos[g->buf_alloc[b]];
}
static uint32_t free_at(const graph *g, const run *r, uint32_t b)
{
    return g->buf_free[b] == GRAPH_NONE ? r->n : r->pos[g->buf_free[b]];
}
static int live_together(const graph *g, const run *r, uint32_t a, uint32_t b)
{
    return alloc_at(g, r, a) < free_at(g, r, b) && alloc_at(g, r, b) < free_at(g, r, a);
}

/* ------------------------------------------------------------ references */

/* First fit as a plain allocator: live blocks in an array sorted by offset,
 * scanned from 0. */
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

/* Best fit the same way: every gap between live blocks (sorted by offset)
 * is a candidate, the smallest that fits wins, the lowest among equals;
 * else the end of the highest live block. Zero-byte buffers are left out
 * (their offsets are not compared). */
static int64_t reference_best_fit(const graph *g, const run *r, int64_t align, int64_t *off)
{
    uint32_t *live = malloc(((size_t)g->nbufs + 1) * sizeof *live), nlive = 0;
    int64_t top = 0;
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s], b = g->buf[u];
        if (b == GRAPH_NONE || g->buf_size[b] == 0) continue;
        int64_t span = place_span(g->buf_size[b], align);
        if (g->kind[u] == NODE_ALLOC) {
            int64_t at = 0, best = -1, best_len = INT64_MAX;
            uint32_t best_i = nlive;
            for (uint32_t i = 0; i < nlive; i++) {
                int64_t o = off[live[i]];
                if (o - at >= span && o - at < best_len) {
                    best = at;
                    best_len = o - at;
                    best_i = i;
                }
                at = o + place_span(g->buf_size[live[i]], align);
            }
            if (best < 0) best = at;
            memmove(live + best_i + 1, live + best_i, (nlive - best_i) * sizeof *live);
            live[best_i] = b;
            nlive++;
            off[b] = best;
            if (best + span > top) top = best + span;
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

/* The seed's pool: a stack of free blocks per power-of-two class. Returns
 * the bytes reserved. */
static int64_t reference_pool(const graph *g, const run *r, int64_t align, int64_t *off,
                              int64_t *block)
{
    uint32_t *stack[64], depth[64] = {0};
    for (int c = 0; c < 64; c++) stack[c] = malloc(((size_t)g->nbufs + 1) * sizeof **stack);
    int64_t reserved = 0;
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s], b = g->buf[u];
        if (b == GRAPH_NONE || g->buf_size[b] == 0) continue;
        int64_t span = place_span(g->buf_size[b], align), cls = 1;
        int c = 0;
        while (cls < span) {
            cls *= 2;
            c++;
        }
        if (g->kind[u] == NODE_ALLOC) {
            block[b] = cls;
            if (depth[c]) off[b] = off[stack[c][--depth[c]]];
            else {
                off[b] = reserved;
                reserved += cls;
            }
        } else if (g->kind[u] == NODE_FREE) {
            stack[c][depth[c]++] = b;
        }
    }
    for (int c = 0; c < 64; c++) free(stack[c]);
    return reserved;
}

/* Seed 000's pseudocode as written: intervals by start; the colors of the
 * overlapping intervals already colored are used; the smallest other color
 * below max_color, else a new one; offset = color x BLOCK_SIZE (the largest
 * span). Returns colors x BLOCK_SIZE. */
static int64_t reference_coloring(const graph *g, const run *r, int64_t align, int64_t *off)
{
    uint32_t n = g->nbufs, *byst = malloc(((size_t)n + 1) * sizeof *byst), m = 0;
    int64_t *color = malloc(((size_t)n + 1) * sizeof *color), block = 0, max_color = 0;
    char *used = calloc((size_t)n + 1, 1);
    for (uint32_t s = 0; s < r->n; s++) { /* sorted by start time */
        uint32_t u = r->order[s], b = g->buf[u];
        if (g->kind[u] == NODE_ALLOC && g->buf_size[b]) byst[m++] = b;
    }
    for (uint32_t b = 0; b < n; b++)
        if (place_span(g->buf_size[b], align) > block) block = place_span(g->buf_size[b], align);
    for (uint32_t i = 0; i < m; i++) {
        memset(used, 0, (size_t)n + 1);
        for (uint32_t j = 0; j < i; j++)
            if (live_together(g, r, byst[i], byst[j])) used[color[byst[j]]] = 1;
        int64_t c = 0;
        while (c < max_color && used[c]) c++;
        if (c == max_color) max_color++;
        color[byst[i]] = c;
        off[byst[i]] = c * block;
    }
    free(byst);
    free(color);
    free(used);
    return max_color * block;
}

/* The greedy, all pairs: buffers in an order (TFLite's by size, XLA's
 * temporal or spatial, TVM's by conflicts), each at the lowest offset of the
 * smallest gap among the placed buffers live with it, else above them
 * (REF_BEST, TFLite's); REF_XLA counts the room between them and the arena so
 * far as a gap; REF_FIRST takes the lowest gap that fits. Returns the arena. */
int64_t reference_greedy(const graph *g, const run *r, int64_t align, int order, int fit,
                         int64_t *off)
{
    uint32_t n = g->nbufs, *ord = malloc(((size_t)n + 1) * sizeof *ord), m = 0;
    uint32_t *placed = malloc(((size_t)n + 1) * sizeof *placed), np = 0;
    int64_t *meets = calloc((size_t)n + 1, sizeof *meets);
    for (uint32_t b = 0; b < n; b++)
        if (g->buf_size[b]) ord[m++] = b;
    for (uint32_t i = 0; i < m; i++) /* the buffers each meets (TVM's conflicts) */
        for (uint32_t j = 0; j < m; j++)
            if (i != j && live_together(g, r, ord[i], ord[j])) meets[ord[i]]++;
    /* insertion sort by the order's keys */
    for (uint32_t i = 1; i < m; i++)
        for (uint32_t j = i; j > 0; j--) {
            uint32_t x = ord[j - 1], y = ord[j];
            int64_t sx = place_span(g->buf_size[x], align), sy = place_span(g->buf_size[y], align);
            int64_t lx = free_at(g, r, x) - alloc_at(g, r, x),
                    ly = free_at(g, r, y) - alloc_at(g, r, y);
            int64_t kx[3] = {-sx, alloc_at(g, r, x), 0}, ky[3] = {-sy, alloc_at(g, r, y), 0};
            if (order == REF_LIFETIME) {
                kx[0] = -lx;
                kx[1] = -sx;
                kx[2] = alloc_at(g, r, x);
                ky[0] = -ly;
                ky[1] = -sy;
                ky[2] = alloc_at(g, r, y);
            } else if (order == REF_SPATIAL || order == REF_CONFLICTS) {
                kx[0] = order == REF_SPATIAL ? -sx : -meets[x];
                kx[1] = order == REF_SPATIAL ? -lx : -sx;
                kx[2] = alloc_at(g, r, x);
                ky[0] = order == REF_SPATIAL ? -sy : -meets[y];
                ky[1] = order == REF_SPATIAL ? -ly : -sy;
                ky[2] = alloc_at(g, r, y);
            }
            int greater = kx[0] != ky[0]   ? kx[0] > ky[0]
                          : kx[1] != ky[1] ? kx[1] > ky[1]
                                           : kx[2] > ky[2];
            if (!greater) break;
            ord[j - 1] = y;
            ord[j] = x;
        }
    int64_t arena = 0;
    for (uint32_t i = 0; i < m; i++) {
        uint32_t x = ord[i], k = 0;
        uint32_t *ov = malloc(((size_t)np + 1) * sizeof *ov);
        for (uint32_t j = 0; j < np; j++)
            if (live_together(g, r, x, placed[j])) ov[k++] = placed[j];
        for (uint32_t a = 1; a < k; a++) /* by offset */
            for (uint32_t b = a; b > 0 && off[ov[b - 1]] > off[ov[b]]; b--) {
                uint32_t t = ov[b];
                ov[b] = ov[b - 1];
                ov[b - 1] = t;
            }
        int64_t need = place_span(g->buf_size[x], align), prev = 0, best = -1, best_gap = INT64_MAX;
        for (uint32_t j = 0; j < k; j++) {
            int64_t gap = off[ov[j]] - prev;
            if (gap >= need && gap < best_gap && !(fit == REF_FIRST && best >= 0)) {
                best = prev;
                best_gap = gap;
            }
            int64_t end = off[ov[j]] + place_span(g->buf_size[ov[j]], align);
            if (end > prev) prev = end;
        }
        if (fit == REF_XLA && arena - prev >= need && arena - prev < best_gap) best = prev;
        off[x] = best >= 0 ? best : prev;
        if (off[x] + need > arena) arena = off[x] + need;
        placed[np++] = x;
        free(ov);
    }
    free(ord);
    free(placed);
    free(meets);
    return arena;
}

/* ------------------------------------------------------------ checks */

/* All pairs: every offset aligned, every span inside the arena, no two
 * buffers live together overlap (nor their blocks, where a placer holds
 * blocks); the high-water marks rise to the arena. */
static void check_plan(const graph *g, const run *r, const placement *pl)
{
    for (uint32_t a = 0; a < g->nbufs; a++) {
        assert_int_equal(pl->offset[a] % pl->align, 0);
        int64_t sa = pl->block ? pl->block[a] : place_span(g->buf_size[a], pl->align);
        if (pl->block) assert_true(sa >= place_span(g->buf_size[a], pl->align));
        assert_true(pl->offset[a] + sa <= pl->arena);
        for (uint32_t b = a + 1; b < g->nbufs; b++) {
            int64_t sb = pl->block ? pl->block[b] : place_span(g->buf_size[b], pl->align);
            if (!live_together(g, r, a, b) || !sa || !sb) continue;
            if (pl->offset[a] < pl->offset[b] + sb && pl->offset[b] < pl->offset[a] + sa)
                fail_msg("%s: buffers %lld and %lld overlap", pl->placer, (long long)g->buf_id[a],
                         (long long)g->buf_id[b]);
        }
    }
    for (uint32_t s = 1; s < r->n; s++) assert_true(pl->hwm[s] >= pl->hwm[s - 1]);
    if (r->n) assert_int_equal(pl->hwm[r->n - 1], pl->arena);
    assert_int_equal(pl->reserved, pl->arena);
}

static void expect_offsets(const graph *g, const placement *pl, const int64_t *want,
                           const char *what)
{
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (g->buf_size[b] && want[b] != pl->offset[b])
            fail_msg("%s, align %lld: buffer %lld at %lld, the reference says %lld", what,
                     (long long)pl->align, (long long)g->buf_id[b], (long long)pl->offset[b],
                     (long long)want[b]);
}

/* Runs every placer on one schedule and alignment: the verifier and the
 * all-pairs check accept each plan, the arena is at least the lower bound,
 * the references agree, and best is the smallest. */
void every_placer(const graph *g, const run *r, int64_t align)
{
    char err[512];
    int64_t lb = place_lower_bound(g, r, align);
    assert_true(lb >= r->peak);
    if (align == 1) assert_int_equal(lb, r->peak);
    int64_t arena[16], best = -1;
    size_t np = placer_count();
    assert_true(np <= 16);
    int64_t *ref = calloc((size_t)g->nbufs + 1, sizeof *ref),
            *ref2 = calloc((size_t)g->nbufs + 1, sizeof *ref2);
    int64_t *blk = calloc((size_t)g->nbufs + 1, sizeof *blk);
    for (size_t i = 0; i < np; i++) {
        const placer *p = placer_at(i);
        placement pl;
        if (place_run(g, r, p, align, tu_quick(), &pl, err, sizeof err))
            fail_msg("%s: %s", p->name, err);
        if (place_verify(g, r, &pl, err, sizeof err))
            fail_msg("%s, align %lld: %s", p->name, (long long)align, err);
        check_plan(g, r, &pl);
        assert_true(pl.arena >= lb);
        arena[i] = pl.arena;
        if (!strcmp(p->name, "first-fit")) {
            assert_int_equal(reference_first_fit(g, r, align, ref), pl.arena);
            expect_offsets(g, &pl, ref, p->name);
        } else if (!strcmp(p->name, "best-fit")) {
            assert_int_equal(reference_best_fit(g, r, align, ref), pl.arena);
            expect_offsets(g, &pl, ref, p->name);
        } else if (!strcmp(p->name, "pool")) {
            assert_int_equal(reference_pool(g, r, align, ref, blk), pl.arena);
            assert_int_equal(pl.reserved, pl.arena);
            expect_offsets(g, &pl, ref, p->name);
            for (uint32_t b = 0; b < g->nbufs; b++)
                if (g->buf_size[b]) assert_int_equal(pl.block[b], blk[b]);
        } else if (!strcmp(p->name, "coloring")) {
            assert_int_equal(reference_coloring(g, r, align, ref), pl.arena);
            expect_offsets(g, &pl, ref, p->name);
        } else if (!strcmp(p->name, "greedy-size")) {
            /* the smaller of the two orders; the size order on a tie */
            int64_t a = reference_greedy(g, r, align, REF_SIZE, REF_BEST, ref),
                    b = reference_greedy(g, r, align, REF_LIFETIME, REF_BEST, ref2);
            assert_int_equal(a <= b ? a : b, pl.arena);
            expect_offsets(g, &pl, a <= b ? ref : ref2, p->name);
            assert_non_null(pl.detail);
        } else if (!strcmp(p->name, "xla")) {
            /* the smaller of the spatial and temporal orders; spatial on a tie */
            int64_t a = reference_greedy(g, r, align, REF_SPATIAL, REF_XLA, ref),
                    b = reference_greedy(g, r, align, REF_LIFETIME, REF_XLA, ref2);
            assert_int_equal(a <= b ? a : b, pl.arena);
            expect_offsets(g, &pl, a <= b ? ref : ref2, p->name);
        } else if (!strcmp(p->name, "greedy-conflicts")) {
            assert_int_equal(reference_greedy(g, r, align, REF_CONFLICTS, REF_FIRST, ref),
                             pl.arena);
            expect_offsets(g, &pl, ref, p->name);
        } else if (!strcmp(p->name, "best")) {
            best = pl.arena;
        }
        place_free(&pl);
    }
    assert_true(best >= 0);
    for (size_t i = 0; i < np; i++) {
        if (placer_at(i)->searches) { /* exact starts from best's plan */
            if (arena[i] > best)
                fail_msg("%s's arena %lld is larger than best's, %lld (align %lld)",
                         placer_at(i)->name, (long long)arena[i], (long long)best,
                         (long long)align);
        } else if (best > arena[i]) {
            fail_msg("best's arena %lld is larger than %s's, %lld (align %lld)", (long long)best,
                     placer_at(i)->name, (long long)arena[i], (long long)align);
        }
    }
    free(ref);
    free(ref2);
    free(blk);
}

/* ------------------------------------------------------------ random graphs */

/* Graphs first .. count-1 of the sequence seed starts (the ones before
 * first are made and passed over, so a sequence can be split in tests). */
static void random_graphs_part(uint64_t seed, int first, int count, uint32_t min_nodes,
                               uint32_t max_nodes)
{
    uint64_t st = seed;
    for (int t = 0; t < count; t++) {
        tu_gen gen;
        tu_gen_make(&gen, &st, min_nodes + tu_below(&st, max_nodes - min_nodes + 1));
        if (t < first) {
            tu_gen_free(&gen);
            continue;
        }
        diag d;
        graph *g = tu_load(gen.json, &d);
        assert_non_null(g);
        for (size_t p = 0; policy_at(p); p++) {
            /* The time-aware orders are more topological orders of the same
             * graphs, placed in every_sample; test_timeline checks them. */
            if (policy_at(p)->kind == POLICY_TIMED) continue;
            if (policy_at(p)->kind == POLICY_BASELINE) continue; /* given: Ids are no order */
            run r;
            char err[256];
            assert_int_equal(policy_run(g, policy_at(p), tu_quick(), &r, err, sizeof err), 0);
            for (int k = 0; k < 3; k++) every_placer(g, &r, aligns[k]);
            policy_run_free(&r);
        }
        graph_free(g);
        diag_free(&d);
        tu_gen_free(&gen);
    }
}

static void random_graphs_from(uint64_t seed, int count, uint32_t min_nodes, uint32_t max_nodes)
{
    random_graphs_part(seed, 0, count, min_nodes, max_nodes);
}

/* 400 small random graphs in all, in four tests so that each stays short,
 * and four larger ones, one a test, whose lifetimes span many blocks of
 * greedy's tree. */

static void random_graphs(void **state)
{
    (void)state;
    random_graphs_from(42, 100, 1, 150);
}
static void random_graphs_2(void **state)
{
    (void)state;
    random_graphs_from(43, 100, 1, 150);
}
static void random_graphs_3(void **state)
{
    (void)state;
    random_graphs_from(44, 100, 1, 150);
}
static void random_graphs_4(void **state)
{
    (void)state;
    random_graphs_from(45, 100, 1, 150);
}
/* The four large graphs in two tests (each well inside the time a test
 * gets under the sanitizers). */
static void random_large_graphs(void **state)
{
    (void)state;
    random_graphs_part(46, 0, 1, 400, 1500);
}
static void random_large_graphs_2(void **state)
{
    (void)state;
    random_graphs_part(46, 1, 2, 400, 1500);
}
static void random_large_graphs_3(void **state)
{
    (void)state;
    random_graphs_part(46, 2, 3, 400, 1500);
}
static void random_large_graphs_4(void **state)
{
    (void)state;
    random_graphs_part(46, 3, 4, 400, 1500);
}

/* ------------------------------------------------------------ samples */

static void every_sample(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/samples", MEMTRIS_SOURCE_DIR);
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int count = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json")) continue;
        diag d;
        graph *g = tu_load_sample(e->d_name, &d);
        for (size_t p = 0; policy_at(p); p++) {
            run r;
            char err[256];
            assert_int_equal(policy_run(g, policy_at(p), tu_quick(), &r, err, sizeof err), 0);
            for (int k = 0; k < 3; k++) every_placer(g, &r, aligns[k]);
            policy_run_free(&r);
        }
        graph_free(g);
        diag_free(&d);
        count++;
    }
    closedir(dp);
    assert_true(count >= 8);
}

/* The target: greedy-size and best within 2% of the lower bound (the
 * schedule's peak live bytes) on the model samples, both policies, at the
 * default alignment and unaligned. */
static void model_samples_near_the_lower_bound(void **state)
{
    (void)state;
    static const char *const models[] = {"resnet50.json", "mobilenet_v2.json",
                                         "efficientnet_b0.json", "bert_base.json"};
    for (int m = 0; m < 4; m++) {
        diag d;
        graph *g = tu_load_sample(models[m], &d);
        for (size_t p = 0; policy_at(p); p++) {
            run r;
            char err[256];
            assert_int_equal(policy_run(g, policy_at(p), tu_quick(), &r, err, sizeof err), 0);
            int64_t al[] = {1, PLACE_ALIGN_DEFAULT};
            for (int k = 0; k < 2; k++)
                for (int q = 0; q < 2; q++) {
                    placement pl;
                    const char *name = q ? "best" : "greedy-size";
                    assert_int_equal(place_run(g, &r, placer_find(name), al[k], tu_quick(), &pl,
                                               err, sizeof err),
                                     0);
                    if ((double)pl.arena > 1.02 * (double)r.peak)
                        fail_msg("%s, %s, %s, align %lld: arena %lld is %.2f%% over the lower "
                                 "bound %lld",
                                 models[m], policy_at(p)->name, name, (long long)al[k],
                                 (long long)pl.arena,
                                 100.0 * (double)(pl.arena - r.peak) / (double)r.peak,
                                 (long long)r.peak);
                    place_free(&pl);
                }
            policy_run_free(&r);
        }
        graph_free(g);
        diag_free(&d);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_graphs),
        cmocka_unit_test(random_graphs_2),
        cmocka_unit_test(random_graphs_3),
        cmocka_unit_test(random_graphs_4),
        cmocka_unit_test(random_large_graphs),
        cmocka_unit_test(random_large_graphs_2),
        cmocka_unit_test(random_large_graphs_3),
        cmocka_unit_test(random_large_graphs_4),
        cmocka_unit_test(every_sample),
        cmocka_unit_test(model_samples_near_the_lower_bound),
        cmocka_unit_test(best_fit_takes_the_smaller_gap),
        cmocka_unit_test(pool_rounds_and_reuses),
        cmocka_unit_test(coloring_wastes_blocks),
        cmocka_unit_test(greedy_size_beats_first_fit),
        cmocka_unit_test(greedy_size_keeps_the_lifetime_order),
        cmocka_unit_test(best_beats_greedy),
        cmocka_unit_test(best_stops_a_greedy_over_its_work_limit),
        cmocka_unit_test(best_leaves_a_local_minimum),
        cmocka_unit_test(placers_are_deterministic),
        cmocka_unit_test(lower_bound_counts_aligned_spans),
        cmocka_unit_test(verify_names_overlapping_buffers),
        cmocka_unit_test(verify_names_misaligned_buffers),
        cmocka_unit_test(run_checked_tells_failure_from_a_bad_plan),
        cmocka_unit_test(many_live_buffers),
        cmocka_unit_test(arena_overflow_is_an_error),
        cmocka_unit_test(empty_plans),
        cmocka_unit_test(cancelled_placements),
        cmocka_unit_test(fuzz_found_graphs),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
