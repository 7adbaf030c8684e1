/* test_util_check.c: the generic containers' checks (gaps_check, heap_check,
 * imap_check, stepset_check): whole after every one of many random
 * operations, and each catches a structure corrupted on purpose; the heap's
 * growth, doubles as keys and its order among equal keys; and what
 * MEMTRIS_ASSERT does, on (it aborts naming file, line and condition, as do
 * the containers' own checks) and off (the condition is not evaluated). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "util/check.h"
#include "util/gaps.h"
#include "util/heap.h"
#include "util/imap.h"
#include "util/stepset.h"

static uint64_t rng = 0x2545F4914F6CDD1DULL;

static uint32_t rnd(uint32_t n) /* uniform enough below n > 0 */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)((rng >> 16) % n);
}

/* ------------------------------------------------------------ MEMTRIS_ASSERT */

/* Runs fn in a child with stderr into a pipe; returns what it wrote, and
 * whether it died of SIGABRT in *aborted. */
static void run_child(void (*fn)(void), char *out, size_t cap, int *aborted)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        dup2(p[1], 2);
        fn();
        _exit(0);
    }
    close(p[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(p[0], out + n, cap - 1 - n)) > 0) n += (size_t)r;
    out[n] = 0;
    close(p[0]);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    *aborted = WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static void false_assert(void) { MEMTRIS_ASSERT(1 + 1 == 3); }

static void assert_on_aborts_off_does_not_evaluate(void **state)
{
    (void)state;
    int n = 0;
    MEMTRIS_ASSERT(++n == 1);
    if (!MEMTRIS_CHECKING) {
        assert_int_equal(n, 0); /* compiled out: never evaluated */
        return;
    }
    assert_int_equal(n, 1);
    char out[512];
    int aborted;
    run_child(false_assert, out, sizeof out, &aborted);
    assert_true(aborted);
    assert_non_null(strstr(out, "test_util_check.c:"));
    assert_non_null(strstr(out, "invariant failed: 1 + 1 == 3"));
}

/* Two overlapping gaps: the insert's own check stops the program. */
static void overlapping_insert(void)
{
    gaps t;
    if (gaps_init(&t, 8)) return;
    gaps_insert(&t, 0, 10);
    gaps_insert(&t, 5, 10);
}

static void pop_empty(void)
{
    heap h;
    if (heap_init(&h, 4, 0)) return;
    heap_pop(&h);
}

static void containers_assert_at_their_boundaries(void **state)
{
    (void)state;
    if (!MEMTRIS_CHECKING) {
        print_message("SKIP (part): needs a build with MEMTRIS_ASSERT (the sanitizer builds): this "
                      "one compiles it out\n");
        return;
    }
    char out[512];
    int aborted;
    run_child(overlapping_insert, out, sizeof out, &aborted);
    assert_true(aborted);
    assert_non_null(strstr(out, "gaps.c:"));
    assert_non_null(strstr(out, "gap_fits"));
    run_child(pop_empty, out, sizeof out, &aborted);
    assert_true(aborted);
    assert_non_null(strstr(out, "heap.c:"));
}

/* ------------------------------------------------------------ gaps */

#define SPAN 4096

/* The model: the gaps held, in no order. */
typedef struct gmodel {
    int64_t off[SPAN], len[SPAN];
    int n;
} gmodel;

static int model_overlaps(const gmodel *m, int64_t off, int64_t len)
{
    for (int i = 0; i < m->n; i++)
        if (off < m->off[i] + m->len[i] && m->off[i] < off + len) return 1;
    return 0;
}

static void random_gaps(int sized)
{
    gaps t;
    assert_int_equal(sized ? gaps_init_sized(&t, 600) : gaps_init(&t, 600), 0);
    gmodel *m = calloc(1, sizeof *m);
    assert_non_null(m);
    for (int op = 0; op < 3000; op++) {
        if (m->n && (rnd(3) == 0 || m->n >= 590)) {
            int i = (int)rnd((uint32_t)m->n);
            gaps_remove(&t, m->off[i]);
            m->off[i] = m->off[m->n - 1];
            m->len[i] = m->len[--m->n];
        } else {
            int64_t off = rnd(SPAN), len = 1 + rnd(40);
            if (model_overlaps(m, off, len)) continue;
            assert_int_not_equal(gaps_insert(&t, off, len), GAPS_NONE);
            m->off[m->n] = off;
            m->len[m->n++] = len;
        }
        assert_int_equal(gaps_check(&t), 0);
        int64_t want = 1 + rnd(40), first = -1, best = -1, best_len = INT64_MAX;
        for (int i = 0; i < m->n; i++)
            if (m->len[i] >= want) {
                if (first < 0 || m->off[i] < first) first = m->off[i];
                if (m->len[i] < best_len || (m->len[i] == best_len && m->off[i] < best)) {
                    best = m->off[i];
                    best_len = m->len[i];
                }
            }
        uint32_t f = gaps_first_fit(&t, want);
        assert_int_equal(f == GAPS_NONE ? -1 : t.n[f].off, first);
        if (sized) {
            uint32_t b = gaps_best_fit(&t, want);
            assert_int_equal(b == GAPS_NONE ? -1 : t.n[b].off, best);
        }
        /* the neighbours of an address, one by one and both at once, as the model has them */
        int64_t at = rnd(SPAN), le = -1, gt = -1;
        for (int i = 0; i < m->n; i++) {
            if (m->off[i] <= at && m->off[i] > le) le = m->off[i];
            if (m->off[i] > at && (gt < 0 || m->off[i] < gt)) gt = m->off[i];
        }
        uint32_t p, q;
        gaps_around(&t, at, &p, &q);
        assert_int_equal(p == GAPS_NONE ? -1 : t.n[p].off, le);
        assert_int_equal(q == GAPS_NONE ? -1 : t.n[q].off, gt);
        assert_int_equal(p, gaps_pred(&t, at + 1));
        assert_int_equal(q, gaps_succ(&t, at));
    }
    free(m);
    gaps_free(&t);
}

static void gaps_whole_after_random_operations(void **state)
{
    (void)state;
    random_gaps(0);
    random_gaps(1);
}

/* First fit over a coalesced free list, as place_online.c keeps it: whole,
 * and no two gaps touching, after every allocation and free. */
static void gaps_coalesced_free_list(void **state)
{
    (void)state;
    gaps t;
    assert_int_equal(gaps_init(&t, 300), 0);
    int64_t at[256] = {0}, size[256] = {0}, tail = 0;
    for (int op = 0; op < 4000; op++) {
        int b = (int)rnd(256);
        if (!size[b]) { /* allocate */
            int64_t span = 1 + rnd(100);
            uint32_t g = gaps_first_fit(&t, span);
            if (g != GAPS_NONE) {
                gap_node gp = t.n[g];
                at[b] = gp.off;
                gaps_remove(&t, gp.off);
                if (gp.len > span) gaps_insert(&t, gp.off + span, gp.len - span);
            } else {
                at[b] = tail;
                tail += span;
            }
            size[b] = span;
        } else { /* free, merging with the gaps that touch */
            int64_t lo = at[b], hi = lo + size[b];
            uint32_t p = gaps_pred(&t, lo);
            if (p != GAPS_NONE && t.n[p].off + t.n[p].len == lo) {
                lo = t.n[p].off;
                gaps_remove(&t, lo);
            }
            uint32_t q = gaps_succ(&t, hi - 1);
            if (q != GAPS_NONE && t.n[q].off == hi) {
                hi += t.n[q].len;
                gaps_remove(&t, t.n[q].off);
            }
            if (hi >= tail) tail = lo;
            else gaps_insert(&t, lo, hi - lo);
            size[b] = 0;
        }
        assert_int_equal(gaps_check(&t), 0);
        assert_int_equal(gaps_check_coalesced(&t), 0);
    }
    gaps_free(&t);
}

/* A sized tree of gaps 0+100, 200+10, 300+10... (every 100 from 200). */
static void some_gaps(gaps *t)
{
    assert_int_equal(gaps_init_sized(t, 64), 0);
    gaps_insert(t, 0, 100);
    for (int i = 0; i < 30; i++) gaps_insert(t, 200 + 100 * i, 10 + i % 7);
    gaps_remove(t, 500); /* a node on the free list */
    assert_int_equal(gaps_check(t), 0);
}

/* The node of gap off. */
static uint32_t at_off(const gaps *t, int64_t off) { return gaps_pred(t, off + 1); }

static void gaps_check_catches_corruption(void **state)
{
    (void)state;
    gaps t;
    uint32_t r;

    some_gaps(&t); /* out of order, lens and max left as they were */
    r = t.root;
    assert_true(t.n[r].left != GAPS_NONE);
    t.n[r].off = t.n[t.n[r].left].off - 1;
    assert_true(gaps_check(&t) > 0);
    gaps_free(&t);

    some_gaps(&t); /* overlapping, in order, max unchanged */
    t.n[at_off(&t, 200)].off = 50;
    assert_true(gaps_check(&t) > 0);
    gaps_free(&t);

    some_gaps(&t); /* a stale max */
    t.n[t.root].max++;
    assert_true(gaps_check(&t) > 0);
    gaps_free(&t);

    some_gaps(&t); /* a child above its parent in priority */
    r = t.root;
    uint32_t c = t.n[r].left != GAPS_NONE ? t.n[r].left : t.n[r].right;
    if (t.n[r].prio == UINT32_MAX) t.n[r].prio--;
    t.n[c].prio = t.n[r].prio + 1;
    assert_true(gaps_check(&t) > 0);
    gaps_free(&t);

    some_gaps(&t); /* an empty gap */
    t.n[at_off(&t, 300)].len = 0;
    assert_true(gaps_check(&t) > 0);
    gaps_free(&t);

    some_gaps(&t); /* a node lost off the free list */
    t.free_list = GAPS_NONE;
    assert_true(gaps_check(&t) > 0);
    gaps_free(&t);

    some_gaps(&t); /* a cycle: found, not followed forever */
    r = t.root;
    t.n[r].right = r;
    assert_true(gaps_check(&t) > 0);
    gaps_free(&t);

    some_gaps(&t); /* the size index lost a subtree */
    t.n[t.sroot].sleft = GAPS_NONE;
    t.n[t.sroot].sright = GAPS_NONE;
    assert_true(gaps_check(&t) > 0);
    gaps_free(&t);

    some_gaps(&t); /* the size index out of (len, off) order: its root's sides swapped */
    uint32_t s = t.sroot, side = t.n[s].sleft;
    assert_true(side != GAPS_NONE || t.n[s].sright != GAPS_NONE);
    t.n[s].sleft = t.n[s].sright;
    t.n[s].sright = side;
    assert_true(gaps_check(&t) > 0);
    gaps_free(&t);

    /* touching gaps are whole, but not coalesced */
    assert_int_equal(gaps_init(&t, 8), 0);
    gaps_insert(&t, 0, 10);
    gaps_insert(&t, 10, 10);
    gaps_insert(&t, 30, 10);
    assert_int_equal(gaps_check(&t), 0);
    assert_int_equal(gaps_check_coalesced(&t), 1);
    gaps_free(&t);
}

/* ------------------------------------------------------------ heap */

#define HN 300

static void random_heap(uint32_t npos)
{
    heap h;
    assert_int_equal(heap_init(&h, HN, npos), 0);
    char held[HN] = {0};
    for (int op = 0; op < 5000; op++) {
        uint32_t x = rnd(HN), what = rnd(3);
        if (what == 0 && h.len) {
            heap_item top = heap_pop(&h);
            for (uint32_t i = 0; i < h.len; i++) assert_false(heap_less(&h.a[i], &top));
            held[top.node] = 0;
        } else if (what == 1 && npos && held[x]) {
            heap_remove(&h, x);
            held[x] = 0;
        } else if (!held[x]) {
            heap_item it = {{(int64_t)rnd(50) - 25, (int64_t)rnd(3), x}, x};
            heap_push(&h, it);
            held[x] = 1;
        }
        assert_int_equal(heap_check(&h), 0);
    }
    heap_clear(&h);
    assert_int_equal(heap_check(&h), 0);
    heap_free(&h);
}

static void heap_whole_after_random_operations(void **state)
{
    (void)state;
    random_heap(HN);
    random_heap(0);
}

static void some_heap(heap *h)
{
    assert_int_equal(heap_init(h, 64, 64), 0);
    for (uint32_t x = 0; x < 40; x++) heap_push(h, (heap_item){{(int64_t)(x * 7 % 40), 0, x}, x});
    assert_int_equal(heap_check(h), 0);
}

static void heap_check_catches_corruption(void **state)
{
    (void)state;
    heap h;

    some_heap(&h); /* a child less than its parent (the index kept true) */
    heap_item a = h.a[0], b = h.a[h.len - 1];
    h.a[0] = b;
    h.a[h.len - 1] = a;
    h.pos[b.node] = 0;
    h.pos[a.node] = h.len - 1;
    assert_true(heap_check(&h) > 0);
    heap_free(&h);

    some_heap(&h); /* an item indexed at another place */
    h.pos[h.a[3].node] = 4;
    assert_true(heap_check(&h) > 0);
    heap_free(&h);

    some_heap(&h); /* a node indexed but not held */
    h.pos[50] = 0;
    assert_true(heap_check(&h) > 0);
    heap_free(&h);

    some_heap(&h); /* a node beyond the index */
    h.a[h.len - 1].node = 64;
    assert_true(heap_check(&h) > 0);
    heap_free(&h);

    some_heap(&h); /* more items than room */
    h.len = h.cap + 2;
    assert_true(heap_check(&h) > 0);
    h.len = 0;
    heap_free(&h);
}

/* The order among equal keys: the sifts of a plain binary heap (budget
 * exact's queue before it was this heap, children 2i+1 and 2i+2, a swap a
 * level), on (f, the most run, the most spent) as heap_dkey keys. */
typedef struct ref_item {
    double f, g;
    uint32_t nran, idx;
} ref_item;

static int ref_less(const ref_item *a, const ref_item *b)
{
    return a->f != b->f ? a->f < b->f : a->nran != b->nran ? a->nran > b->nran : a->g > b->g;
}

static void ref_push(ref_item *q, uint32_t *n, ref_item it)
{
    uint32_t i = (*n)++;
    for (q[i] = it; i && ref_less(&q[i], &q[(i - 1) / 2]); i = (i - 1) / 2) {
        ref_item t = q[i];
        q[i] = q[(i - 1) / 2];
        q[(i - 1) / 2] = t;
    }
}

static ref_item ref_pop(ref_item *q, uint32_t *n)
{
    ref_item top = q[0];
    q[0] = q[--*n];
    for (uint32_t i = 0, m;; i = m) {
        uint32_t l = 2 * i + 1, r = l + 1;
        m = i;
        if (l < *n && ref_less(&q[l], &q[m])) m = l;
        if (r < *n && ref_less(&q[r], &q[m])) m = r;
        if (m == i) break;
        ref_item t = q[i];
        q[i] = q[m];
        q[m] = t;
    }
    return top;
}

static void heap_grows_and_keeps_the_order_of_ties(void **state)
{
    (void)state;
    enum { N = 3000 };
    ref_item *q = malloc(N * sizeof *q);
    uint32_t nq = 0;
    heap h;
    assert_non_null(q);
    assert_int_equal(heap_init(&h, 4, 0), 0);
    static const double vals[] = {-1.5, -0.0, 0.0, 0.25, 1e300, 3.0};
    for (uint32_t op = 0; op < 2 * N; op++) {
        if (rnd(3) == 0 && nq) { /* the same item off both */
            ref_item a = ref_pop(q, &nq);
            heap_item b = heap_pop(&h);
            assert_int_equal(b.node, a.idx);
            assert_true(heap_dkey_value(b.k[0]) == a.f && heap_dkey_value(~b.k[2]) == a.g);
            continue;
        }
        if (nq == N) continue;
        ref_item it = {vals[rnd(6)], vals[rnd(6)], rnd(3), op}; /* many ties */
        ref_push(q, &nq, it);
        if (h.len == h.cap) assert_int_equal(heap_reserve(&h, 2 * h.cap), 0);
        heap_push(&h, (heap_item){{heap_dkey(it.f), -(int64_t)it.nran, ~heap_dkey(it.g)}, op});
        assert_int_equal(heap_check(&h), 0);
    }
    assert_true(h.cap >= 64); /* it grew */
    while (nq) assert_int_equal(heap_pop(&h).node, ref_pop(q, &nq).idx);
    heap_free(&h);
    free(q);
}

static void heap_dkey_keeps_the_order_of_doubles(void **state)
{
    (void)state;
    static const double v[] = {-HUGE_VAL, -1e300, -2.5, -1.0, -1e-300, 0.0,
                               1e-310,    1e-300, 1.0,  2.5,  1e300,   HUGE_VAL};
    enum { NV = sizeof v / sizeof v[0] };
    for (int i = 0; i < NV; i++) {
        assert_true(heap_dkey_value(heap_dkey(v[i])) == v[i]);
        if (i + 1 < NV) assert_true(heap_dkey(v[i]) < heap_dkey(v[i + 1]));
        if (i + 1 < NV) assert_true(~heap_dkey(v[i]) > ~heap_dkey(v[i + 1]));
    }
    assert_true(heap_dkey(-0.0) == heap_dkey(0.0)); /* equal doubles, equal keys */
}

/* ------------------------------------------------------------ imap */

static void imap_whole_after_random_operations(void **state)
{
    (void)state;
    imap m = {0};
    /* dense keys first (the direct table), then far ones (a hash) */
    for (uint32_t i = 0; i < 3000; i++) {
        int64_t key = i < 1500 ? (int64_t)rnd(3000) : (int64_t)rnd(1u << 30) * 1000;
        uint32_t had = imap_get(&m, key), got = imap_put(&m, key, i);
        assert_int_equal(got, had);
        assert_int_equal(imap_get(&m, key), had == IMAP_NONE ? i : had);
        assert_int_equal(imap_check(&m), 0);
    }
    assert_non_null(m.keys); /* it did turn into a hash */
    imap_free(&m);
}

static void some_imap(imap *m, int hash)
{
    memset(m, 0, sizeof *m);
    for (uint32_t i = 0; i < 200; i++)
        assert_int_equal(imap_put(m, hash ? (int64_t)i * 1000003 : (int64_t)i, i), IMAP_NONE);
    assert_int_equal(imap_check(m), 0);
    assert_true(!hash || m->keys);
}

static void imap_check_catches_corruption(void **state)
{
    (void)state;
    imap m;

    some_imap(&m, 0); /* direct: a count that is not the keys held */
    m.count++;
    assert_true(imap_check(&m) > 0);
    imap_free(&m);

    some_imap(&m, 1); /* hash: the count */
    m.count--;
    assert_true(imap_check(&m) > 0);
    imap_free(&m);

    some_imap(&m, 1); /* a key that imap_get cannot find (a hole on its path) */
    size_t i = 0;
    while (m.keys[i] < 0) i++;
    int64_t old = m.keys[i];
    for (int64_t k = 7;; k += 1000) {
        m.keys[i] = k;
        if (imap_get(&m, k) == IMAP_NONE) break;
        m.keys[i] = old;
    }
    assert_true(imap_check(&m) > 0);
    imap_free(&m);

    some_imap(&m, 1); /* a key held twice */
    size_t e = 0, f = 0;
    while (m.keys[e] < 0) e++;
    while (m.keys[f] >= 0) f++;
    m.keys[f] = m.keys[e];
    m.count++;
    assert_true(imap_check(&m) > 0);
    imap_free(&m);

    some_imap(&m, 1); /* a slot neither empty nor a key */
    f = 0;
    while (m.keys[f] >= 0) f++;
    m.keys[f] = -7;
    assert_true(imap_check(&m) > 0);
    imap_free(&m);
}

/* ------------------------------------------------------------ stepset */

static void random_stepset(uint64_t n, int ops)
{
    stepset s;
    assert_int_equal(stepset_init(&s, n), 0);
    char *in = calloc(n, 1);
    assert_non_null(in);
    for (int round = 0; round < 2; round++) {
        for (int op = 0; op < ops; op++) {
            uint64_t x = rnd((uint32_t)n);
            stepset_add(&s, x);
            in[x] = 1;
            assert_int_equal(stepset_check(&s), 0);
            uint64_t from = rnd((uint32_t)n), want = from;
            while (want < n && !in[want]) want++;
            assert_true(stepset_next(&s, from) == (want < n ? want : UINT64_MAX));
        }
        stepset_clear(&s);
        memset(in, 0, n);
        assert_int_equal(stepset_check(&s), 0);
        assert_true(stepset_next(&s, 0) == UINT64_MAX);
    }
    free(in);
    stepset_free(&s);
}

static void stepset_whole_after_random_operations(void **state)
{
    (void)state;
    random_stepset(50, 200);     /* one level */
    random_stepset(5000, 400);   /* two */
    random_stepset(300000, 150); /* four: 4688, 74, 2 and 1 words */
}

static void some_stepset(stepset *s)
{
    assert_int_equal(stepset_init(s, 300000), 0);
    for (uint64_t x = 0; x < 300000; x += 977) stepset_add(s, x);
    assert_int_equal(stepset_check(s), 0);
}

static void stepset_check_catches_corruption(void **state)
{
    (void)state;
    stepset s;

    some_stepset(&s);              /* a summary bit over an empty word */
    s.w[1][0] |= (uint64_t)1 << 1; /* word 1 of level 0 holds 64..127: none of 0, 977... */
    assert_int_equal(s.w[0][1], 0);
    assert_true(stepset_check(&s) > 0);
    stepset_free(&s);

    some_stepset(&s); /* a word with members whose summary bit is clear */
    s.w[0][2] |= 1;
    assert_true(stepset_check(&s) > 0);
    stepset_free(&s);

    some_stepset(&s); /* a summary bit past the words below */
    s.w[2][1] |= (uint64_t)1 << 63;
    assert_true(stepset_check(&s) > 0);
    stepset_free(&s);

    some_stepset(&s); /* levels that do not shrink by 64 */
    s.nw[1]++;
    assert_true(stepset_check(&s) > 0);
    s.nw[1]--;
    stepset_free(&s);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(assert_on_aborts_off_does_not_evaluate),
        cmocka_unit_test(containers_assert_at_their_boundaries),
        cmocka_unit_test(gaps_whole_after_random_operations),
        cmocka_unit_test(gaps_coalesced_free_list),
        cmocka_unit_test(gaps_check_catches_corruption),
        cmocka_unit_test(heap_whole_after_random_operations),
        cmocka_unit_test(heap_check_catches_corruption),
        cmocka_unit_test(heap_grows_and_keeps_the_order_of_ties),
        cmocka_unit_test(heap_dkey_keeps_the_order_of_doubles),
        cmocka_unit_test(imap_whole_after_random_operations),
        cmocka_unit_test(imap_check_catches_corruption),
        cmocka_unit_test(stepset_whole_after_random_operations),
        cmocka_unit_test(stepset_check_catches_corruption),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
