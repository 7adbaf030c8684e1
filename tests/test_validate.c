/* test_validate.c: validate.c on graphs built in memory, without JSON: cycles
 * named from their smallest Id, every FREE depending on its ALLOC (the quick
 * searches and the 64-buffer bitset pass behind them), buffers and Inputs. */
#include "testutil.h"
#include "sched/graph/validate.h"

/* One node of a graph made by hand: kind, Id, BufId and (ALLOC) Size. */
typedef struct tv_node {
    int kind;
    int64_t id, bufid, size;
} tv_node;

#define C(id)                     \
    {                             \
        NODE_COMPUTE, (id), -1, 0 \
    }
#define A(id, buf, size)                \
    {                                   \
        NODE_ALLOC, (id), (buf), (size) \
    }
#define F(id, buf)                \
    {                             \
        NODE_FREE, (id), (buf), 0 \
    }

/* A growable list of nodes and edges (pairs of Ids). */
typedef struct tv_spec {
    tv_node *v;
    uint32_t n, cap;
    int64_t *e;
    uint32_t ne, ecap;
} tv_spec;

static void tv_add(tv_spec *s, tv_node x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        assert_non_null(s->v);
    }
    s->v[s->n++] = x;
}

static void tv_edge(tv_spec *s, int64_t u, int64_t v)
{
    if (s->ne == s->ecap) {
        s->ecap = s->ecap ? 2 * s->ecap : 64;
        s->e = realloc(s->e, 2 * (size_t)s->ecap * sizeof *s->e);
        assert_non_null(s->e);
    }
    s->e[2 * s->ne] = u;
    s->e[2 * s->ne + 1] = v;
    s->ne++;
}

static void tv_spec_free(tv_spec *s)
{
    free(s->v);
    free(s->e);
    memset(s, 0, sizeof *s);
}

static void *tv_alloc(size_t count, size_t size)
{
    void *p = calloc(count + 1, size);
    assert_non_null(p);
    return p;
}

/* The graph as the loader would hand it over: node columns, buffers (a FREE
 * of a buffer no ALLOC creates has buf_alloc GRAPH_NONE; a FREE's change is
 * minus its ALLOC's Size), no Inputs, and the CSR arrays of the edges. */
static graph *tv_graph(const tv_spec *s)
{
    graph *g = tv_alloc(1, sizeof *g);
    uint32_t n = s->n;
    g->n = n;
    g->id = tv_alloc(n, sizeof *g->id);
    g->change = tv_alloc(n, sizeof *g->change);
    g->kind = tv_alloc(n, sizeof *g->kind);
    g->buf = tv_alloc(n, sizeof *g->buf);
    g->in_off = tv_alloc(n + 1, sizeof *g->in_off);
    g->inputs = tv_alloc(1, sizeof *g->inputs);
    g->buf_id = tv_alloc(n, sizeof *g->buf_id);
    g->buf_size = tv_alloc(n, sizeof *g->buf_size);
    g->buf_alloc = tv_alloc(n, sizeof *g->buf_alloc);
    g->buf_free = tv_alloc(n, sizeof *g->buf_free);
    for (uint32_t i = 0; i < n; i++) {
        const tv_node *x = &s->v[i];
        g->id[i] = x->id;
        g->kind[i] = (uint8_t)x->kind;
        g->buf[i] = GRAPH_NONE;
        assert_int_equal(imap_put(&g->ids, x->id, i), IMAP_NONE);
        if (x->kind == NODE_COMPUTE) continue;
        uint32_t k = imap_put(&g->bufids, x->bufid, g->nbufs);
        if (k == IMAP_NONE) {
            k = g->nbufs++;
            g->buf_id[k] = x->bufid;
            g->buf_alloc[k] = g->buf_free[k] = GRAPH_NONE;
        }
        g->buf[i] = k;
        if (x->kind == NODE_ALLOC) {
            g->buf_alloc[k] = i;
            g->buf_size[k] = x->size;
            g->change[i] = x->size;
        } else {
            g->buf_free[k] = i;
        }
    }
    for (uint32_t i = 0; i < n; i++)
        if (g->kind[i] == NODE_FREE) g->change[i] = -g->buf_size[g->buf[i]];

    g->nedges = s->ne;
    g->succ_off = tv_alloc(n + 1, sizeof *g->succ_off);
    g->pred_off = tv_alloc(n + 1, sizeof *g->pred_off);
    g->succ = tv_alloc(s->ne, sizeof *g->succ);
    g->pred = tv_alloc(s->ne, sizeof *g->pred);
    uint32_t *u = tv_alloc(s->ne, sizeof *u), *v = tv_alloc(s->ne, sizeof *v),
             *fill = tv_alloc(n, sizeof *fill);
    for (uint32_t e = 0; e < s->ne; e++) {
        u[e] = graph_find(g, s->e[2 * e]);
        v[e] = graph_find(g, s->e[2 * e + 1]);
        assert_true(u[e] != GRAPH_NONE && v[e] != GRAPH_NONE);
        g->succ_off[u[e] + 1]++;
        g->pred_off[v[e] + 1]++;
    }
    for (uint32_t i = 0; i < n; i++) {
        g->succ_off[i + 1] += g->succ_off[i];
        g->pred_off[i + 1] += g->pred_off[i];
    }
    memcpy(fill, g->succ_off, (size_t)n * sizeof *fill);
    for (uint32_t e = 0; e < s->ne; e++) g->succ[fill[u[e]]++] = v[e];
    memcpy(fill, g->pred_off, (size_t)n * sizeof *fill);
    for (uint32_t e = 0; e < s->ne; e++) g->pred[fill[v[e]]++] = u[e];
    free(u);
    free(v);
    free(fill);
    return g;
}

/* Builds the graph of s (then freed) and runs check on it into d. */
static int tv_check(tv_spec *s, int (*check)(const graph *, diag *), diag *d)
{
    graph *g = tv_graph(s);
    diag_init(d, TU_SOURCE);
    int rc = check(g, d);
    diag_finish(d);
    graph_free(g);
    tv_spec_free(s);
    return rc;
}

/* Builds the graph of n nodes and edges (pairs of Ids), validates it into d. */
static int tv_validate(const tv_node *nodes, uint32_t n, const int64_t *edges, uint32_t ne, diag *d)
{
    tv_spec s = {0};
    for (uint32_t i = 0; i < n; i++) tv_add(&s, nodes[i]);
    for (uint32_t e = 0; e < ne; e++) tv_edge(&s, edges[2 * e], edges[2 * e + 1]);
    return tv_check(&s, validate_graph, d);
}

/* tv_validate's arguments: NODES(A(0, 1, 64), C(1)...) and EDGES(u, v, u, v...). */
#define NODES(...)                  \
    (const tv_node[]){__VA_ARGS__}, \
        (uint32_t)(sizeof((const tv_node[]){__VA_ARGS__}) / sizeof(tv_node))
#define EDGES(...)                  \
    (const int64_t[]){__VA_ARGS__}, \
        (uint32_t)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t) / 2)

/* Asserts d holds exactly `errors` errors and `warnings` warnings. */
static void expect_counts(const diag *d, size_t errors, size_t warnings)
{
    if (d->nerrors != errors || d->nwarnings != warnings) {
        tu_print_diag(d);
        fail_msg("expected %zu errors and %zu warnings", errors, warnings);
    }
}

/* ------------------------------------------------------------ valid */

static void valid_chain_is_quiet(void **state)
{
    (void)state;
    diag d;
    assert_int_equal(tv_validate(NODES(A(0, 1, 64), C(1), F(2, 1)), EDGES(0, 1, 1, 2), &d),
                     VALIDATE_OK);
    expect_counts(&d, 0, 0);
    diag_free(&d);
}

static void empty_graph_is_valid(void **state)
{
    (void)state;
    tv_spec s = {0};
    diag d;
    assert_int_equal(tv_check(&s, validate_graph, &d), VALIDATE_OK);
    expect_counts(&d, 0, 0);
    diag_free(&d);
}

/* ------------------------------------------------------------ cycles */

static void cycle_named_from_its_smallest_id(void **state)
{
    (void)state;
    /* 4 -> 7 -> 9 -> 4, reached from 1, with 20 hanging off it. */
    diag d;
    int rc = tv_validate(NODES(C(20), C(9), C(1), C(7), C(4), C(30)),
                         EDGES(1, 9, 9, 4, 4, 7, 7, 9, 7, 20, 1, 30), &d);
    assert_int_equal(rc, VALIDATE_BAD);
    expect_counts(&d, 1, 0);
    TU_ASSERT_LINE(&d, TU_SOURCE
                   ": error: the graph has a cycle, so no schedule exists: cycle: 4 -> 7 -> 9 -> 4 "
                   "(4 nodes cannot run)");
    diag_free(&d);
}

static void two_node_cycle(void **state)
{
    (void)state;
    diag d;
    assert_int_equal(tv_validate(NODES(C(12), C(11)), EDGES(12, 11, 11, 12), &d), VALIDATE_BAD);
    expect_counts(&d, 1, 0);
    TU_ASSERT_LINE(&d, "cycle: 11 -> 12 -> 11 (2 nodes cannot run)");
    diag_free(&d);
}

/* A cycle too long to print is cut short, and still ends where it began. */
static void long_cycle_is_cut_short(void **state)
{
    (void)state;
    tv_spec s = {0};
    enum { LEN = 300 };
    for (int64_t i = 0; i < LEN; i++) tv_add(&s, (tv_node)C(1000000 + (i * 7) % LEN));
    for (int64_t i = 0; i < LEN; i++) tv_edge(&s, 1000000 + i, 1000000 + (i + 1) % LEN);
    diag d;
    assert_int_equal(tv_check(&s, validate_order, &d), VALIDATE_BAD);
    expect_counts(&d, 1, 0);
    TU_ASSERT_LINE(&d, "cycle: 1000000 -> 1000001 -> 1000002 -> ",
                   " -> ... -> 1000000 (300 nodes cannot run)");
    diag_free(&d);
}

/* ------------------------------------------------------------ FREE order */

static void free_unrelated_to_its_alloc(void **state)
{
    (void)state;
    diag d;
    assert_int_equal(tv_validate(NODES(A(0, 5, 1), C(1), F(2, 5)), EDGES(0, 1), &d), VALIDATE_BAD);
    expect_counts(&d, 1, 0);
    TU_ASSERT_LINE(
        &d,
        TU_SOURCE ": error: FREE node 2 of buffer 5 does not depend on ALLOC node 0 by any path of "
                  "Edges, so a schedule could free the buffer before allocating it");
    diag_free(&d);
}

static void free_before_its_alloc(void **state)
{
    (void)state;
    diag d;
    assert_int_equal(tv_validate(NODES(A(7, 6, 1), F(3, 6)), EDGES(3, 7), &d), VALIDATE_BAD);
    expect_counts(&d, 1, 0);
    TU_ASSERT_LINE(&d, "FREE node 3 of buffer 6 does not depend on ALLOC node 7");
    diag_free(&d);
}

static void free_beside_its_alloc_under_a_common_parent(void **state)
{
    (void)state;
    diag d;
    assert_int_equal(tv_validate(NODES(C(0), A(1, 2, 1), F(2, 2)), EDGES(0, 1, 0, 2), &d),
                     VALIDATE_BAD);
    expect_counts(&d, 1, 0);
    TU_ASSERT_LINE(&d, "FREE node 2 of buffer 2 does not depend on ALLOC node 1");
    diag_free(&d);
}

static void free_by_a_long_path(void **state)
{
    (void)state;
    diag d;
    assert_int_equal(tv_validate(NODES(A(0, 1, 8), C(1), C(2), C(3), F(4, 1), C(5)),
                                 EDGES(5, 4, 0, 1, 1, 2, 5, 2, 2, 3, 3, 4), &d),
                     VALIDATE_OK);
    expect_counts(&d, 0, 0);
    diag_free(&d);
}

/* WIDE computes between each ALLOC and its FREE: more edges than the quick
 * searches read, so every buffer goes to the bitset pass, 64 at a time.
 * Buffers 0..NBUF-1: ALLOC 10000+k, FREE 20000+k; the middle computes
 * 30000+i feed every FREE. Buffer `cut` (if any) is cut off: its ALLOC feeds
 * WIDE computes of its own, 40000+i, that lead nowhere. */
enum { WIDE = 300, NBUF = 70 };

static void wide_graph(tv_spec *s, int64_t cut)
{
    for (int64_t k = 0; k < NBUF; k++) tv_add(s, (tv_node)A(10000 + k, k, 64));
    for (int64_t i = 0; i < WIDE; i++) tv_add(s, (tv_node)C(30000 + i));
    for (int64_t i = 0; cut >= 0 && i < WIDE; i++) tv_add(s, (tv_node)C(40000 + i));
    for (int64_t k = 0; k < NBUF; k++) tv_add(s, (tv_node)F(20000 + k, k));
    for (int64_t k = 0; k < NBUF; k++)
        for (int64_t i = 0; i < WIDE; i++) tv_edge(s, 10000 + k, (k == cut ? 40000 : 30000) + i);
    for (int64_t i = 0; i < WIDE; i++)
        for (int64_t k = 0; k < NBUF; k++) tv_edge(s, 30000 + i, 20000 + k);
}

/* A chain (each node's edge to the next, as 'memtris place' makes of a CSV)
 * has one order: a FREE after its ALLOC depends on it however far apart,
 * and one before it does not; no search is made (one_order). Buffer 70's
 * FREE comes before its ALLOC. */
static void chain_frees_by_position(void **state)
{
    (void)state;
    tv_spec s = {0};
    int64_t prev = -1;
    tv_add(&s, (tv_node)F(50070, 70));
    for (int64_t k = 0; k < NBUF; k++) tv_add(&s, (tv_node)A(10000 + k, k, 64));
    tv_add(&s, (tv_node)A(40070, 70, 64));
    for (int64_t i = 0; i < WIDE; i++) tv_add(&s, (tv_node)C(30000 + i));
    for (int64_t k = 0; k < NBUF; k++) tv_add(&s, (tv_node)F(20000 + k, k));
    for (uint32_t i = 0; i < s.n; i++) {
        if (prev >= 0) tv_edge(&s, prev, s.v[i].id);
        prev = s.v[i].id;
    }
    diag d;
    assert_int_equal(tv_check(&s, validate_graph, &d), VALIDATE_BAD);
    expect_counts(&d, 1, 0);
    TU_ASSERT_LINE(&d, "FREE node 50070 of buffer 70 does not depend on ALLOC node 40070");
    diag_free(&d);
}

static void wide_frees_settled_by_the_bitset_pass(void **state)
{
    (void)state;
    tv_spec s = {0};
    wide_graph(&s, -1);
    diag d;
    assert_int_equal(tv_check(&s, validate_graph, &d), VALIDATE_OK);
    expect_counts(&d, 0, 0);
    diag_free(&d);
}

static void wide_free_not_depending_found_by_the_bitset_pass(void **state)
{
    (void)state;
    /* Buffer 66 is in the second group of 64 (buffers sorted by ALLOC). */
    tv_spec s = {0};
    wide_graph(&s, 66);
    diag d;
    assert_int_equal(tv_check(&s, validate_graph, &d), VALIDATE_BAD);
    expect_counts(&d, 1, 0);
    TU_ASSERT_LINE(&d, "FREE node 20066 of buffer 66 does not depend on ALLOC node 10066");
    diag_free(&d);
}

/* Every edge from a lower index to a higher one (as gen writes graphs): the FREE order is
 * checked in index order first, but its messages come in Kahn's order all the same. Kahn's
 * order starts from the sources: ALLOC 11 (index 3, a source) before ALLOC 10 (index 2, behind
 * nodes 1 and 2); both buffers go to the bitset pass (WIDE dead ends from each ALLOC, WIDE
 * sources into each FREE), whose messages follow the ALLOCs' places in that order. */
static void free_order_messages_in_kahns_order(void **state)
{
    (void)state;
    tv_spec s = {0};
    tv_add(&s, (tv_node)C(1));
    tv_add(&s, (tv_node)C(2));
    tv_add(&s, (tv_node)A(10, 1, 64));
    tv_add(&s, (tv_node)A(11, 2, 64));
    tv_add(&s, (tv_node)C(3));
    tv_add(&s, (tv_node)C(4));
    for (int64_t i = 0; i < WIDE; i++) tv_add(&s, (tv_node)C(30000 + i));
    for (int64_t i = 0; i < 2 * WIDE; i++) tv_add(&s, (tv_node)C(40000 + i));
    tv_add(&s, (tv_node)F(20, 1));
    tv_add(&s, (tv_node)F(21, 2));
    int64_t chain[] = {1, 2, 2, 10, 2, 3, 3, 4, 4, 20, 4, 21};
    for (size_t e = 0; e < sizeof chain / sizeof *chain; e += 2)
        tv_edge(&s, chain[e], chain[e + 1]);
    for (int64_t i = 0; i < WIDE; i++) {
        tv_edge(&s, 10, 40000 + i);
        tv_edge(&s, 11, 40000 + WIDE + i);
        tv_edge(&s, 30000 + i, 20);
        tv_edge(&s, 30000 + i, 21);
    }
    diag d;
    assert_int_equal(tv_check(&s, validate_graph, &d), VALIDATE_BAD);
    expect_counts(&d, 2, 0);
    assert_non_null(
        strstr(d.lines[0], "FREE node 21 of buffer 2 does not depend on ALLOC node 11"));
    assert_non_null(
        strstr(d.lines[1], "FREE node 20 of buffer 1 does not depend on ALLOC node 10"));
    diag_free(&d);
}

/* ------------------------------------------------------------ buffers */

static void free_of_a_buffer_no_alloc_creates(void **state)
{
    (void)state;
    diag d;
    /* A cycle as well: buffer errors stop validation before the order. */
    int rc = tv_validate(NODES(C(0), F(3, 44), C(5), C(6)), EDGES(0, 3, 5, 6, 6, 5), &d);
    assert_int_equal(rc, VALIDATE_BAD);
    expect_counts(&d, 1, 0);
    TU_ASSERT_LINE(&d, TU_SOURCE ": error: FREE node 3 frees buffer 44, which no ALLOC creates");
    diag_free(&d);
}

static void buffer_never_freed_is_a_warning(void **state)
{
    (void)state;
    diag d;
    assert_int_equal(tv_validate(NODES(A(3, 9, 64), C(4)), EDGES(3, 4), &d), VALIDATE_OK);
    expect_counts(&d, 0, 1);
    TU_ASSERT_LINE(&d, TU_SOURCE
                   ": warning: buffer 9 (ALLOC node 3, 64 bytes) is never freed; it stays live to "
                   "the end");
    diag_free(&d);
}

/* A FREE's change holding a Size of its own (as the loader leaves it before
 * resolving it) that differs from its ALLOC's is warned about; one equal to
 * minus the ALLOC's Size is not. */
static void free_declaring_another_size(void **state)
{
    (void)state;
    tv_spec s = {0};
    tv_add(&s, (tv_node)A(0, 5, 10));
    tv_add(&s, (tv_node)F(1, 5));
    tv_edge(&s, 0, 1);
    graph *g = tv_graph(&s);
    diag d;
    diag_init(&d, TU_SOURCE);
    assert_int_equal(validate_buffers(g, &d), VALIDATE_OK);
    expect_counts(&d, 0, 0);
    g->change[1] = 20;
    assert_int_equal(validate_buffers(g, &d), VALIDATE_OK);
    expect_counts(&d, 0, 1);
    TU_ASSERT_LINE(
        &d,
        "warning: FREE node 1 gives Size 20 for buffer 5, which ALLOC node 0 allocates with 10; "
        "the ALLOC's size is used");
    diag_free(&d);
    graph_free(g);
    tv_spec_free(&s);
}

static void inputs_naming_no_buffer(void **state)
{
    (void)state;
    tv_spec s = {0};
    tv_add(&s, (tv_node)A(0, 1, 8));
    tv_add(&s, (tv_node)C(1));
    tv_add(&s, (tv_node)F(2, 1));
    tv_edge(&s, 0, 1);
    tv_edge(&s, 1, 2);
    graph *g = tv_graph(&s);
    free(g->inputs);
    g->inputs = tv_alloc(2, sizeof *g->inputs);
    g->inputs[0] = 1;
    g->inputs[1] = 77;
    g->in_off[2] = g->in_off[3] = 2; /* node 1 lists buffers 1 and 77 */
    diag d;
    diag_init(&d, TU_SOURCE);
    assert_int_equal(validate_graph(g, &d), VALIDATE_OK);
    expect_counts(&d, 0, 1);
    TU_ASSERT_LINE(&d, "warning: node 1 lists buffer 77 in \"Inputs\", but no ALLOC creates it");
    diag_free(&d);
    graph_free(g);
    tv_spec_free(&s);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(valid_chain_is_quiet),
        cmocka_unit_test(empty_graph_is_valid),
        cmocka_unit_test(cycle_named_from_its_smallest_id),
        cmocka_unit_test(two_node_cycle),
        cmocka_unit_test(long_cycle_is_cut_short),
        cmocka_unit_test(free_unrelated_to_its_alloc),
        cmocka_unit_test(free_before_its_alloc),
        cmocka_unit_test(free_beside_its_alloc_under_a_common_parent),
        cmocka_unit_test(free_by_a_long_path),
        cmocka_unit_test(chain_frees_by_position),
        cmocka_unit_test(wide_frees_settled_by_the_bitset_pass),
        cmocka_unit_test(wide_free_not_depending_found_by_the_bitset_pass),
        cmocka_unit_test(free_order_messages_in_kahns_order),
        cmocka_unit_test(free_of_a_buffer_no_alloc_creates),
        cmocka_unit_test(buffer_never_freed_is_a_warning),
        cmocka_unit_test(free_declaring_another_size),
        cmocka_unit_test(inputs_naming_no_buffer),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
