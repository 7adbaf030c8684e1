/* testutil.h: helpers shared by the CMocka tests: loading JSON text into a
 * graph, searching diagnostics, a growable string, a seeded PRNG and a
 * generator of random valid memtris graphs with an independent reference. */
#ifndef MEMTRIS_TESTUTIL_H
#define MEMTRIS_TESTUTIL_H
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sched/graph/diag.h"
#include "sched/gen/gen.h"
#include "sched/graph/graph.h"
#include "sched/graph/load.h"
#include "sched/policy/policy.h"

#define TU_SOURCE "t.json"

/* Loads json through a heap copy of exactly its length (no terminating NUL),
 * so AddressSanitizer sees any read past the end. d is initialised here. */
static inline graph *tu_load(const char *json, diag *d)
{
    size_t len = strlen(json);
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, json, len);
    diag_init(d, TU_SOURCE);
    graph *g = load_buffer(copy, len, TU_SOURCE, d, NULL, NULL);
    free(copy);
    return g;
}

static inline void tu_print_diag(const diag *d)
{
    print_message("diagnostics (%zu errors, %zu warnings):\n", d->nerrors, d->nwarnings);
    for (size_t i = 0; i < d->nlines; i++) print_message("  %s\n", d->lines[i]);
}

/* Index of the first kept line containing every one of the NULL-terminated
 * substrings, or -1. */
static inline long tu_find_line(const diag *d, ...)
{
    for (size_t i = 0; i < d->nlines; i++) {
        va_list ap;
        va_start(ap, d);
        int ok = 1;
        for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *))
            if (!strstr(d->lines[i], s)) {
                ok = 0;
                break;
            }
        va_end(ap);
        if (ok) return (long)i;
    }
    return -1;
}

/* Asserts some diagnostic line holds all the given substrings. */
#define TU_ASSERT_LINE(d, ...)                                                \
    do {                                                                      \
        if (tu_find_line((d), __VA_ARGS__, (const char *)NULL) < 0) {         \
            tu_print_diag(d);                                                 \
            fail_msg("no diagnostic line contains all of: %s", #__VA_ARGS__); \
        }                                                                     \
    } while (0)

/* Loads json and asserts it is rejected with exactly one error, no warning,
 * and that the error line contains all the substrings. Everything is freed
 * before failing, so a failure is not followed by leak reports. */
#define TU_EXPECT_ERROR(json, ...)                                                      \
    do {                                                                                \
        diag d_;                                                                        \
        graph *g_ = tu_load((json), &d_);                                               \
        int ok_ = !g_ && d_.nerrors == 1 && d_.nwarnings == 0 && d_.nlines == 1 &&      \
                  tu_find_line(&d_, "error:", __VA_ARGS__, (const char *)NULL) >= 0;    \
        if (!ok_) {                                                                     \
            if (g_) print_message("the input loaded\n");                                \
            tu_print_diag(&d_);                                                         \
        }                                                                               \
        graph_free(g_);                                                                 \
        diag_free(&d_);                                                                 \
        if (!ok_) fail_msg("expected exactly one error, containing: %s", #__VA_ARGS__); \
    } while (0)

/* ------------------------------------------------------------ loading */

/* Paths of the repository's samples and test inputs (MEMTRIS_SOURCE_DIR comes
 * from tests/CMakeLists.txt). */
#define TU_SAMPLE(name) MEMTRIS_SOURCE_DIR "/samples/" name
#define TU_DATA(name)   MEMTRIS_SOURCE_DIR "/tests/data/" name

/* Loads json that must be accepted without an error; d is left set. */
static inline graph *tu_load_ok(const char *json, diag *d)
{
    graph *g = tu_load(json, d);
    if (!g || d->nerrors) tu_print_diag(d);
    assert_non_null(g);
    assert_int_equal(d->nerrors, 0);
    return g;
}

/* The same, its diagnostics dropped. */
static inline graph *tu_load_text(const char *json)
{
    diag d;
    graph *g = tu_load_ok(json, &d);
    diag_free(&d);
    return g;
}

/* Loads the len bytes at p, which must give no error and no warning; `what`
 * names them in the diagnostics. */
static inline graph *tu_load_clean(const char *p, size_t len, const char *what)
{
    diag d;
    diag_init(&d, what);
    graph *g = load_buffer(p, len, what, &d, NULL, NULL);
    if (!g || d.nerrors || d.nwarnings) {
        tu_print_diag(&d);
        graph_free(g);
        diag_free(&d);
        fail_msg("%s: expected no errors and no warnings", what);
    }
    diag_free(&d);
    return g;
}

/* Loads the file at path, which must be accepted without an error; its
 * diagnostics are left in d, or dropped when d is NULL. */
static inline graph *tu_load_path(const char *path, diag *d)
{
    diag own;
    diag *dd = d ? d : &own;
    diag_init(dd, path);
    graph *g = load_file(path, dd, NULL, NULL);
    if (!g || dd->nerrors) tu_print_diag(dd);
    if (!g) fail_msg("%s does not load", path);
    assert_int_equal(dd->nerrors, 0);
    if (!d) diag_free(&own);
    return g;
}

/* Loads samples/NAME (a name known only at run time) as tu_load_path does. */
static inline graph *tu_load_sample(const char *name, diag *d)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/samples/%s", MEMTRIS_SOURCE_DIR, name);
    return tu_load_path(path, d);
}

/* Tests that run every policy on many graphs bound exact's search to a
 * few thousand states (its limit path: a valid order, an honest gap), so
 * that no graph waits out the 10 s default; test_exact checks the search. */
static inline const solve_ctx *tu_quick(void)
{
    static const solve_ctx quick = {.max_states = 20000};
    return &quick;
}

/* ------------------------------------------------------------ strings */

typedef struct tu_str {
    char *s;
    size_t len, cap;
} tu_str;

__attribute__((format(printf, 2, 3))) static inline void tu_printf(tu_str *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int k = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
        va_end(ap);
        assert_true(k >= 0);
        if ((size_t)k < room) {
            b->len += (size_t)k;
            return;
        }
        size_t nc = b->cap ? b->cap * 2 : 4096;
        while (nc < b->len + (size_t)k + 1) nc *= 2;
        char *q = realloc(b->s, nc);
        assert_non_null(q);
        b->s = q;
        b->cap = nc;
    }
}

/* A gen_write_fn appending to a tu_str. */
static inline int tu_str_write(void *ctx, const char *data, size_t len)
{
    tu_printf(ctx, "%.*s", (int)len, data);
    return 0;
}

/* The graph `memtris gen KIND NODES --seed SEED` writes, loaded clean. */
static inline graph *tu_gen_load(const char *kind, uint32_t nodes, uint64_t seed)
{
    const gen_kind *k = gen_kind_find(kind);
    if (!k) fail_msg("no generator kind '%s'", kind);
    tu_str b = {0};
    char err[256] = "";
    if (gen_write(k, nodes, seed, tu_str_write, &b, err, sizeof err))
        fail_msg("gen %s %u seed %llu failed: %s", kind, nodes, (unsigned long long)seed, err);
    graph *g = tu_load_clean(b.s, b.len, kind);
    free(b.s);
    return g;
}

/* ------------------------------------------------------------ PRNG */

/* splitmix64: small, deterministic across platforms. */
static inline uint64_t tu_rand(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint32_t tu_below(uint64_t *st, uint32_t n) { return (uint32_t)(tu_rand(st) % n); }

static inline void tu_shuffle(uint64_t *st, uint32_t *a, uint32_t n)
{
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = tu_below(st, i), t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* ---------------------------------------------- random valid graphs */

/* A graph described in topological positions 0..n-1 (edges only go from a
 * lower to a higher position), written as JSON with shuffled Nodes and Edges
 * and non-contiguous Ids. Everything here is computed independently of
 * memtris, to serve as the reference. */
typedef struct tu_gen {
    uint32_t n, ne;
    int64_t *id;        /* [n] Id of position i */
    int *kind;          /* [n] NODE_* */
    int64_t *change;    /* [n] expected memory change */
    int64_t *bufid;     /* [n] BufId or -1 */
    uint32_t *alloc_of; /* [n] for FREE: position of its ALLOC; else UINT32_MAX */
    uint32_t *free_of;  /* [n] for ALLOC: position of its FREE, or UINT32_MAX (leak) */
    uint32_t *eu, *ev;  /* [ne] edges in the order listed in the JSON */
    char *json;
} tu_gen;

static inline void tu_gen_free(tu_gen *t)
{
    free(t->id);
    free(t->kind);
    free(t->change);
    free(t->bufid);
    free(t->alloc_of);
    free(t->free_of);
    free(t->eu);
    free(t->ev);
    free(t->json);
    memset(t, 0, sizeof *t);
}

static inline void tu_gen_make(tu_gen *t, uint64_t *st, uint32_t n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    t->id = calloc(n, sizeof *t->id);
    t->kind = calloc(n, sizeof *t->kind);
    t->change = calloc(n, sizeof *t->change);
    t->bufid = calloc(n, sizeof *t->bufid);
    t->alloc_of = calloc(n, sizeof *t->alloc_of);
    t->free_of = calloc(n, sizeof *t->free_of);
    uint32_t *perm = calloc(n, sizeof *perm), *live = calloc(n, sizeof *live);
    size_t ecap = (size_t)n * 4 + 8;
    t->eu = calloc(ecap, sizeof *t->eu);
    t->ev = calloc(ecap, sizeof *t->ev);
    assert_true(t->id && t->kind && t->change && t->bufid && t->alloc_of && t->free_of && perm &&
                live && t->eu && t->ev);
    /* Edge set for de-duplication: a sorted check is enough at these sizes,
     * but a hash of (u, v) keeps it linear for the large graphs. */
    size_t hcap = 1;
    while (hcap < ecap * 2) hcap *= 2;
    uint64_t *hset = malloc(hcap * sizeof *hset);
    assert_non_null(hset);
    memset(hset, 0xff, hcap * sizeof *hset);
#define TU_ADD_EDGE(u_, v_)                                                            \
    do {                                                                               \
        uint64_t key_ = ((uint64_t)(u_) << 32) | (v_);                                 \
        size_t h_ = (size_t)((key_ * 0x9e3779b97f4a7c15ULL) >> 20) & (hcap - 1);       \
        while (hset[h_] != UINT64_MAX && hset[h_] != key_) h_ = (h_ + 1) & (hcap - 1); \
        if (hset[h_] == UINT64_MAX && t->ne < ecap) {                                  \
            hset[h_] = key_;                                                           \
            t->eu[t->ne] = (u_);                                                       \
            t->ev[t->ne] = (v_);                                                       \
            t->ne++;                                                                   \
        }                                                                              \
    } while (0)

    /* Ids: a permutation, spread out, so they are neither contiguous nor
     * in position order. */
    for (uint32_t i = 0; i < n; i++) perm[i] = i;
    tu_shuffle(st, perm, n);
    static const int64_t mults[] = {1, 3, 1000003};
    int64_t mult = mults[tu_below(st, 3)], off = tu_below(st, 50);
    for (uint32_t i = 0; i < n; i++) t->id[i] = (int64_t)perm[i] * mult + off;

    uint32_t nlive = 0, nbuf = 0;
    for (uint32_t i = 0; i < n; i++) {
        t->alloc_of[i] = t->free_of[i] = UINT32_MAX;
        t->bufid[i] = -1;
        uint32_t r = tu_below(st, 100);
        if (nlive && r < 30) {
            uint32_t j = tu_below(st, nlive), a = live[j];
            live[j] = live[--nlive];
            t->kind[i] = NODE_FREE;
            t->bufid[i] = t->bufid[a];
            t->alloc_of[i] = a;
            t->free_of[a] = i;
            t->change[i] = -t->change[a];
            /* The FREE depends on its ALLOC directly or through a compute. */
            uint32_t via = UINT32_MAX;
            if (tu_below(st, 2) && i - a > 1) {
                uint32_t c = a + 1 + tu_below(st, i - a - 1);
                if (t->kind[c] == NODE_COMPUTE) via = c;
            }
            if (via == UINT32_MAX) TU_ADD_EDGE(a, i);
            else {
                TU_ADD_EDGE(a, via);
                TU_ADD_EDGE(via, i);
            }
        } else if (r < 60) {
            uint32_t s = tu_below(st, 10);
            int64_t size = s == 0   ? 0
                           : s == 1 ? (int64_t)(tu_rand(st) % ((uint64_t)1 << 40))
                                    : (int64_t)(1 + tu_below(st, 4096));
            t->kind[i] = NODE_ALLOC;
            t->bufid[i] = 5000 + (int64_t)nbuf++ * 7;
            t->change[i] = size;
            live[nlive++] = i;
        } else {
            t->kind[i] = NODE_COMPUTE;
        }
        /* Random extra dependencies on earlier nodes. */
        uint32_t extra = i ? tu_below(st, 3) : 0;
        for (uint32_t k = 0; k < extra; k++) {
            uint32_t u = tu_below(st, i);
            TU_ADD_EDGE(u, i);
        }
    }
#undef TU_ADD_EDGE
    free(hset);

    /* Write the JSON with Nodes and Edges in shuffled order. */
    tu_str b = {0};
    for (uint32_t i = 0; i < n; i++) perm[i] = i;
    tu_shuffle(st, perm, n);
    tu_printf(&b, "{\"Nodes\": [");
    for (uint32_t j = 0; j < n; j++) {
        uint32_t i = perm[j];
        tu_printf(&b, "%s\n {\"Id\": %lld, ", j ? "," : "", (long long)t->id[i]);
        if (t->kind[i] == NODE_ALLOC)
            tu_printf(&b, "\"Op\": \"ALLOC\", \"Size\": %lld, \"BufId\": %lld}",
                      (long long)t->change[i], (long long)t->bufid[i]);
        else if (t->kind[i] == NODE_FREE)
            tu_printf(&b, "\"Op\": \"FREE\", \"BufId\": %lld}", (long long)t->bufid[i]);
        else tu_printf(&b, "\"Op\": \"op%u\"}", i % 5);
    }
    tu_printf(&b, "],\n \"Edges\": [");
    uint32_t *eperm = calloc((size_t)t->ne + 1, sizeof *eperm);
    uint32_t *eu = calloc((size_t)t->ne + 1, sizeof *eu),
             *ev = calloc((size_t)t->ne + 1, sizeof *ev);
    assert_true(eperm && eu && ev);
    for (uint32_t e = 0; e < t->ne; e++) eperm[e] = e;
    tu_shuffle(st, eperm, t->ne);
    for (uint32_t e = 0; e < t->ne; e++) {
        eu[e] = t->eu[eperm[e]];
        ev[e] = t->ev[eperm[e]];
        tu_printf(&b, "%s[%lld, %lld]", e ? ", " : "", (long long)t->id[eu[e]],
                  (long long)t->id[ev[e]]);
    }
    tu_printf(&b, "]}\n");
    free(t->eu);
    free(t->ev);
    t->eu = eu;
    t->ev = ev;
    free(eperm);
    free(perm);
    free(live);
    t->json = b.s;
}

/* Reference schedules, as topological positions. fifo: Kahn's queue with the
 * roots in ascending Id and successors in listed edge order; priority: the
 * ready node with the smallest (change, type, id), found by linear search.
 * seq (may be NULL) gets each position's push number. */
static inline void tu_gen_reference(const tu_gen *t, int fifo, uint32_t *order, uint32_t *seq)
{
    uint32_t n = t->n;
    uint32_t *indeg = calloc((size_t)n + 1, sizeof *indeg);
    uint32_t *ready = calloc((size_t)n + 1, sizeof *ready);
    uint32_t *sq = calloc((size_t)n + 1, sizeof *sq);
    assert_true(indeg && ready && sq);
    for (uint32_t e = 0; e < t->ne; e++) indeg[t->ev[e]]++;
    uint32_t nready = 0, head = 0, pushed = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!indeg[i]) ready[nready++] = i;
    /* roots by ascending id (insertion sort: small n) */
    for (uint32_t i = 1; i < nready; i++)
        for (uint32_t j = i; j > 0 && t->id[ready[j - 1]] > t->id[ready[j]]; j--) {
            uint32_t x = ready[j];
            ready[j] = ready[j - 1];
            ready[j - 1] = x;
        }
    for (uint32_t i = 0; i < nready; i++) sq[ready[i]] = pushed++;
    for (uint32_t s = 0; s < n; s++) {
        uint32_t u;
        if (fifo) {
            assert_true(head < nready);
            u = ready[head++];
        } else {
            assert_true(head < nready);
            uint32_t best = head;
            for (uint32_t j = head + 1; j < nready; j++) {
                uint32_t a = ready[j], b = ready[best];
                int less = t->change[a] != t->change[b] ? t->change[a] < t->change[b]
                           : t->kind[a] != t->kind[b]   ? t->kind[a] < t->kind[b]
                                                        : t->id[a] < t->id[b];
                if (less) best = j;
            }
            u = ready[best];
            ready[best] = ready[head];
            ready[head++] = u;
        }
        order[s] = u;
        for (uint32_t e = 0; e < t->ne; e++)
            if (t->eu[e] == u && --indeg[t->ev[e]] == 0) {
                sq[t->ev[e]] = pushed++;
                ready[nready++] = t->ev[e];
            }
    }
    if (seq) memcpy(seq, sq, (size_t)n * sizeof *seq);
    free(indeg);
    free(ready);
    free(sq);
}

#endif
