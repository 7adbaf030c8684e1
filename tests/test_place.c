/* test_place.c: every placer's plan verified on random graphs and samples, against plain
 * references and exact cases by hand; best never larger than any placer; the model samples within
 * 2% of the lower bound; the verifier names bad plans; overflow is an error. */
#include <dirent.h>
#include "testutil.h"
#include "sched/place/place.h"
#include "sched/graph/solve_watch.h"

#ifndef MEMTRIS_SOURCE_DIR
#error "MEMTRIS_SOURCE_DIR must point at the source tree"
#endif

static const int64_t aligns[] = {1, 64, 4096};

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

/* The orders and fits of reference_greedy. */
enum { REF_SIZE, REF_LIFETIME, REF_SPATIAL, REF_CONFLICTS };
enum { REF_BEST, REF_XLA, REF_FIRST };

/* The greedy, all pairs: buffers in an order (TFLite's by size, XLA's
 * temporal or spatial, TVM's by conflicts), each at the lowest offset of the
 * smallest gap among the placed buffers live with it, else above them
 * (REF_BEST, TFLite's); REF_XLA counts the room between them and the arena so
 * far as a gap; REF_FIRST takes the lowest gap that fits. Returns the arena. */
static int64_t reference_greedy(const graph *g, const run *r, int64_t align, int order, int fit,
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
static void every_placer(const graph *g, const run *r, int64_t align)
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
        if (place_run(g, r, p, align, tu_quick(), &pl, err, sizeof err)) fail_msg("%s: %s", p->name, err);
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
 * and larger ones, whose lifetimes span many blocks of greedy's tree. */
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
    random_graphs_part(46, 0, 2, 400, 1500);
}
static void random_large_graphs_2(void **state)
{
    (void)state;
    random_graphs_part(46, 2, 4, 400, 1500);
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
                    assert_int_equal(
                        place_run(g, &r, placer_find(name), al[k], tu_quick(), &pl, err, sizeof err), 0);
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

/* ------------------------------------------------------------ exact cases */

/* A graph from a line of tokens, one node each, run in that order (a chain
 * of edges): "A<buf>:<size>" allocates, "F<buf>" frees, "C" computes. */
static graph *chain_graph(const char *spec, diag *d)
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

typedef struct planned {
    graph *g;
    diag d;
    run r;
    placement pl;
} planned;

/* Places the chain with one placer; the plan must verify. */
static void plan(planned *x, const char *spec, const char *placer_name, int64_t align)
{
    char err[256];
    x->g = chain_graph(spec, &x->d);
    assert_int_equal(policy_run(x->g, policy_find("priority"), tu_quick(), &x->r, err, sizeof err), 0);
    assert_non_null(placer_find(placer_name));
    if (place_run_checked(x->g, &x->r, placer_find(placer_name), align, tu_quick(), &x->pl, err, sizeof err) !=
        PLACE_OK)
        fail_msg("%s", err);
}

static int64_t offset_of(const planned *x, int64_t bufid)
{
    return x->pl.offset[graph_find_buf(x->g, bufid)];
}

static void unplan(planned *x)
{
    place_free(&x->pl);
    policy_run_free(&x->r);
    graph_free(x->g);
    diag_free(&x->d);
}

/* Gaps of 100 (at 0) and 50 (at 110) are free when 50 bytes are asked for:
 * first fit takes the lower, best fit the one that fits exactly, so the 100
 * bytes asked next still fit for best fit and not for first fit. */
static void best_fit_takes_the_smaller_gap(void **state)
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
static void pool_rounds_and_reuses(void **state)
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
static void coloring_wastes_blocks(void **state)
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
static void greedy_size_beats_first_fit(void **state)
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
static void greedy_size_keeps_the_lifetime_order(void **state)
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
static void best_beats_greedy(void **state)
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
    assert_int_equal(place_run(g, &r, placer_find("greedy-size"), 64, tu_quick(), &p1, err, sizeof err), 0);
    assert_int_equal(place_run(g, &r, placer_find("best"), 64, tu_quick(), &p2, err, sizeof err), 0);
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

static void best_leaves_a_local_minimum(void **state)
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
static void placers_are_deterministic(void **state)
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
        assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &r, err, sizeof err), 0);
        for (int k = 0; k < 3; k++) {
            placement p1, p2;
            const placer *p = placer_find(names[k]);
            assert_int_equal(place_run_checked(g, &r, p, t % 2 ? 64 : 1, tu_quick(), &p1, err, sizeof err),
                             PLACE_OK);
            assert_int_equal(place_run_checked(g, &r, p, t % 2 ? 64 : 1, tu_quick(), &p2, err, sizeof err),
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
    return place_best_limited(g, r, lt, align, c, test_budget, pl, err, errcap);
}

/* When the greedy passes its work limit, best stops it and keeps the
 * smallest plan of the other placers, and says so; with no limit it is
 * place_best. The default limit is 32 n log2 n, at least 5e7. */
static void best_stops_a_greedy_over_its_work_limit(void **state)
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
    assert_int_equal(place_run(g, &r, placer_find("best"), 64, tu_quick(), &ref, err, sizeof err), 0);
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

static void lower_bound_counts_aligned_spans(void **state)
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

static void verify_names_overlapping_buffers(void **state)
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

static void verify_names_misaligned_buffers(void **state)
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
static void run_checked_tells_failure_from_a_bad_plan(void **state)
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
static void many_live_buffers(void **state)
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
        assert_int_equal(place_run(g, &r, placer_find(fast[k]), 64, tu_quick(), &pl, err, sizeof err), 0);
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

static void arena_overflow_is_an_error(void **state)
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
/* A placement watched from another thread: asked to stop, every placer
 * fails with "cancelled" (and leaves no plan); not asked, it says what it
 * did last. */
static void cancelled_placements(void **state)
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
    for (size_t i = 0; placer_at(i); i++) {
        placement pl;
        assert_int_equal(place_run(g, &r, placer_at(i), 64, &c, &pl, err, sizeof err), -1);
        assert_string_equal(err, "cancelled");
        assert_null(pl.offset);
    }
    placement pl;
    assert_int_equal(place_run(g, &r, placer_find("best"), 64, tu_quick(), &pl, err, sizeof err), 0);
    place_free(&pl);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
}

static void empty_plans(void **state)
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
static void fuzz_found_graphs(void **state)
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

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_graphs),
        cmocka_unit_test(random_graphs_2),
        cmocka_unit_test(random_graphs_3),
        cmocka_unit_test(random_graphs_4),
        cmocka_unit_test(random_large_graphs),
        cmocka_unit_test(random_large_graphs_2),
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
