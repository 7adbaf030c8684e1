/* test_problem.c: placement problems (problem_*, gen_packing): MiniMalloc's
 * CSV read with its errors placed, the chain graph's interval semantics, a
 * plan made a problem, gen packing's known optimum checked by place_verify,
 * and the round trips at the edges of every range: what the writer writes,
 * the reader reads back (random problems from a fixed seed). */
#include "testutil.h"
#include "sched/place/place.h"
#include "sched/place/problem.h"

/* Parses text (a heap copy of exactly its length); d is initialised here. */
static problem *parse(const char *text, diag *d)
{
    size_t len = strlen(text);
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    diag_init(d, "p.csv");
    problem *p = problem_parse(copy, len, d);
    free(copy);
    return p;
}

/* The one error parse reports for text: "p.csv:" then want. */
static void expect_error(const char *text, const char *want)
{
    diag d;
    problem *p = parse(text, &d);
    assert_null(p);
    assert_int_equal(d.nerrors, 1);
    char full[512];
    snprintf(full, sizeof full, "p.csv:%s", want);
    if (strcmp(d.lines[0], full)) fail_msg("got '%s', want '%s'", d.lines[0], full);
    diag_free(&d);
}

/* The arena first-fit and best give p's chain (align 1), and its peak. */
static int64_t arena_of(const problem *p, const char *placer_name, int64_t *peak)
{
    diag d;
    diag_init(&d, "p.csv");
    graph *g = problem_graph(p, &d);
    if (!g) tu_print_diag(&d);
    assert_non_null(g);
    assert_int_equal(d.nerrors + d.nwarnings, 0);
    run r;
    char err[256];
    assert_int_equal(policy_run(g, policy_find("fifo"), tu_quick(), &r, err, sizeof err), 0);
    placement pl = {0};
    assert_int_equal(
        place_run_checked(g, &r, placer_find(placer_name), 1, tu_quick(), &pl, err, sizeof err),
        PLACE_OK);
    int64_t arena = pl.arena;
    if (peak) *peak = r.peak;
    place_free(&pl);
    policy_run_free(&r);
    graph_free(g);
    diag_free(&d);
    return arena;
}

static void readme_example(void **state)
{
    (void)state;
    diag d;
    problem *p =
        parse("id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n", &d);
    assert_non_null(p);
    assert_int_equal(p->n, 5);
    assert_string_equal(problem_id(p, 3), "b4");
    assert_int_equal(p->lower[3], 9);
    assert_int_equal(p->upper[3], 21);
    assert_null(p->offset);
    for (size_t i = 0; placer_at(i); i++) {
        int64_t peak;
        assert_int_equal(arena_of(p, placer_at(i)->name, &peak), 12);
        assert_int_equal(peak, 12);
    }
    problem_free(p);
    diag_free(&d);
}

static void chain_semantics(void **state)
{
    (void)state;
    static const struct {
        const char *csv;
        int64_t arena;
    } cases[] = {
        {"id,lower,upper,size\na,0,5,100\nb,5,9,100\n", 100}, /* [a,b) then [b,c): shared */
        {"id,lower,upper,size\nb,5,9,100\na,0,5,100\n", 100},
        {"id,lower,upper,size\na,0,5,100\nb,4,9,100\n", 200}, /* overlap by one */
        {"id,lower,upper,size\na,0,9,100\nb,3,4,100\n", 200}, /* one inside the other */
        {"id,lower,upper,size\na,0,2,7\nb,2,4,9\nc,4,6,3\nd,1,5,1\n", 10},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        diag d;
        problem *p = parse(cases[k].csv, &d);
        assert_non_null(p);
        int64_t peak;
        assert_int_equal(arena_of(p, "best", &peak), cases[k].arena);
        assert_int_equal(peak, cases[k].arena);
        problem_free(p);
        diag_free(&d);
    }
}

static void errors(void **state)
{
    (void)state;
    expect_error("", "1:1: error: expected a header line id,lower,upper,size (optionally "
                     "alignment, gaps, offset), found an empty file");
    expect_error("id,lower,size\n", "1:14: error: the header lacks the upper column: expected "
                                    "id,lower,upper,size (optionally alignment, gaps, offset)");
    expect_error("id,lower,upper,size\r\nb1,1,0,4\r\n",
                 "2:4: error: an empty lifetime: lower 1 is not below upper 0");
    expect_error("id,lower,upper,size\nb1,0,1,4\nb2,0,1,4\nb2,0,1,4\nb1,0,1,4\n",
                 "4:1: error: duplicate id 'b2' (first on line 3)");
    expect_error("id,lower,upper,size\nb1,0,1,1e3\n", "2:8: error: expected an integer for size, "
                                                      "found '1e3'");
    expect_error("id,lower,upper,size\nb1,0,1,18446744073709551617\n",
                 "2:8: error: size '18446744073709551617' is too large: at most 2^53-1 "
                 "(9007199254740991)");
}

static void accepted(void **state)
{
    (void)state;
    diag d;
    /* CRLF, trailing blank lines, older names (end inclusive), offset and alignment. */
    problem *p = parse("buffer_id,begin,end,size,alignment,offset\r\nx,0,4,10,8,0\r\ny,5,"
                       "6,3,2,16\r\n\r\n\n",
                       &d);
    assert_non_null(p);
    assert_int_equal(p->n, 2);
    assert_int_equal(p->upper[0], 5);
    assert_int_equal(p->max_align, 8);
    assert_non_null(p->offset);
    assert_int_equal(p->offset[1], 16);
    /* [0,5) and [5,7) share bytes */
    assert_int_equal(arena_of(p, "best", NULL), 10);
    problem_free(p);
    diag_free(&d);
}

/* gen packing: deterministic by seed, live bytes the capacity at every
 * time, and the pieces' own offsets a verified plan of exactly the capacity. */
static void packing(void **state)
{
    (void)state;
    char err[256];
    for (uint32_t n = 1; n <= 300; n = n * 3 + 1) {
        problem *p = gen_packing(n, 1048576, 7, err, sizeof err);
        problem *q = gen_packing(n, 1048576, 7, err, sizeof err);
        assert_non_null(p);
        assert_non_null(q);
        assert_int_equal(p->n, n);
        tu_str a = {0}, b = {0};
        assert_int_equal(problem_write_csv(p, p->offset, tu_str_write, &a), 0);
        assert_int_equal(problem_write_csv(q, q->offset, tu_str_write, &b), 0);
        assert_string_equal(a.s, b.s);
        problem_free(q);
        if (n > 4) {
            q = gen_packing(n, 1048576, 8, err, sizeof err);
            tu_str c = {0};
            assert_int_equal(problem_write_csv(q, q->offset, tu_str_write, &c), 0);
            assert_string_not_equal(a.s, c.s);
            free(c.s);
            problem_free(q);
        }
        free(a.s);
        free(b.s);

        diag d;
        diag_init(&d, "packing");
        graph *g = problem_graph(p, &d);
        assert_non_null(g);
        run r;
        assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &r, err, sizeof err),
                         0);
        assert_int_equal(r.peak, 1048576);
        /* the live bytes at every time: the capacity */
        for (int64_t t = 0; t < 2 * (int64_t)n; t++) {
            int64_t live = 0;
            for (uint32_t i = 0; i < n; i++)
                if (p->lower[i] <= t && t < p->upper[i]) live += p->size[i];
            assert_int_equal(live, 1048576);
        }
        /* the pieces' places: a valid plan of exactly the capacity */
        placement pl = {.placer = "packing", .align = 1};
        pl.offset = calloc(g->nbufs + 1, sizeof *pl.offset);
        assert_non_null(pl.offset);
        int64_t top = 0;
        for (uint32_t k = 0; k < g->nbufs; k++) {
            uint32_t row = (uint32_t)g->buf_id[k];
            pl.offset[k] = p->offset[row];
            if (p->offset[row] + p->size[row] > top) top = p->offset[row] + p->size[row];
        }
        if (place_verify(g, &r, &pl, err, sizeof err)) fail_msg("%s", err);
        assert_int_equal(top, 1048576);
        free(pl.offset);
        policy_run_free(&r);
        graph_free(g);
        diag_free(&d);
        problem_free(p);
    }
    assert_null(gen_packing(0, 1048576, 1, err, sizeof err));
    assert_null(gen_packing(5, 0, 1, err, sizeof err));
    /* capacity 1: every cut is in time */
    problem *p = gen_packing(50, 1, 3, err, sizeof err);
    assert_non_null(p);
    for (uint32_t i = 0; i < p->n; i++) assert_int_equal(p->size[i], 1);
    problem_free(p);
}

/* A plan made a problem, placed again by the same placer: the same arena. */
static void plan_round_trip(void **state)
{
    (void)state;
    char err[256];
    for (size_t k = 0; gen_kind_at(k); k++) {
        graph *g = tu_gen_load(gen_kind_at(k)->name, 200, 5);
        run r;
        assert_int_equal(policy_run(g, policy_find("priority"), tu_quick(), &r, err, sizeof err),
                         0);
        lifetimes lt = {0};
        assert_int_equal(place_lifetimes(g, &r, &lt), 0);
        uint32_t *bufs = malloc((g->nbufs + 1) * sizeof *bufs);
        for (uint32_t b = 0; b < g->nbufs; b++) bufs[b] = b;
        for (size_t i = 0; placer_at(i); i++) {
            placement pl = {0};
            assert_int_equal(
                place_run_checked(g, &r, placer_at(i), 64, tu_quick(), &pl, err, sizeof err),
                PLACE_OK);
            problem *p = problem_from_plan(g, &lt, &pl, bufs);
            assert_non_null(p);
            assert_int_equal(p->n, g->nbufs);
            for (uint32_t b = 0; b < p->n; b++) assert_int_equal(p->size[b] % 64, 0);
            if (arena_of(p, placer_at(i)->name, NULL) != pl.arena)
                fail_msg("%s on %s: not the same arena", placer_at(i)->name, gen_kind_at(k)->name);
            problem_free(p);
            place_free(&pl);
        }
        free(bufs);
        place_lifetimes_free(&lt);
        policy_run_free(&r);
        graph_free(g);
    }
}

/* ------------------------------------------- round trips at the edges */

static uint64_t rt_next(uint64_t *s) /* splitmix64: the same numbers everywhere */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A value in [lo, hi]: an edge of the ranges half of the time. */
static int64_t rt_value(uint64_t *s, int64_t lo, int64_t hi)
{
    const int64_t edges[] = {lo,
                             hi,
                             lo + 1,
                             hi - 1,
                             0,
                             1,
                             ((int64_t)1 << 31) - 1,
                             (int64_t)1 << 32,
                             GRAPH_MAX_SIZE - 1,
                             GRAPH_MAX_SIZE,
                             INT64_MAX};
    if (rt_next(s) & 1) {
        int64_t v = edges[rt_next(s) % (sizeof edges / sizeof edges[0])];
        if (v >= lo && v <= hi) return v;
    }
    return lo + (int64_t)(rt_next(s) % ((uint64_t)(hi - lo) + 1));
}

static int rt_sink(void *ctx, const char *data, size_t len)
{
    FILE *f = ctx;
    return fwrite(data, 1, len, f) == len ? 0 : -1;
}

/* Random problems with numbers at the edges of what the CSV holds (times
 * and sizes 0..2^53-1, offsets 0..2^63-1, alignments 1..2^30): written and
 * read back, the same rows. */
static void csv_round_trip_edges(void **state)
{
    (void)state;
    uint64_t seed = 7;
    for (int round = 0; round < 2000; round++) {
        uint32_t n = 1 + (uint32_t)(rt_next(&seed) % 6);
        int aligned = rt_next(&seed) % 3 == 0, with_off = rt_next(&seed) % 2;
        problem p = {.n = n, .max_align = 1};
        int64_t lower[6], upper[6], size[6], align[6], off[6];
        size_t id[6];
        char pool[6 * 8];
        p.lower = lower;
        p.upper = upper;
        p.size = size;
        p.id = id;
        p.pool = pool;
        p.align = aligned ? align : NULL;
        for (uint32_t i = 0; i < n; i++) {
            id[i] = 8 * i;
            snprintf(pool + 8 * i, 8, "b%u", i);
            lower[i] = rt_value(&seed, 0, GRAPH_MAX_SIZE - 1);
            upper[i] = rt_value(&seed, lower[i] + 1, GRAPH_MAX_SIZE);
            size[i] = rt_value(&seed, 0, GRAPH_MAX_SIZE);
            align[i] = (int64_t)1 << (rt_next(&seed) % 31);
            off[i] = rt_value(&seed, 0, INT64_MAX);
        }
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        assert_non_null(f);
        assert_int_equal(problem_write_csv(&p, with_off ? off : NULL, rt_sink, f), 0);
        assert_int_equal(fclose(f), 0);
        diag d;
        diag_init(&d, "p.csv");
        problem *q = problem_parse(text, len, &d);
        if (!q) {
            fail_msg("round %d: %s\n%s", round, d.nlines ? d.lines[0] : "?", text);
            return;
        }
        assert_int_equal(q->n, n);
        for (uint32_t i = 0; i < n; i++) {
            assert_string_equal(problem_id(q, i), problem_id(&p, i));
            assert_int_equal(q->lower[i], lower[i]);
            assert_int_equal(q->upper[i], upper[i]);
            assert_int_equal(q->size[i], size[i]);
            if (aligned) assert_int_equal(q->align[i], align[i]);
            if (with_off) assert_int_equal(q->offset[i], off[i]);
        }
        problem_free(q);
        diag_free(&d);
        free(text);
    }
}

/* The rule at its edges: every number the writers write is read; the next
 * one up is refused, at its column. */
static void csv_limits(void **state)
{
    (void)state;
    diag d;
    problem *p =
        parse("id,lower,end,size\na,9007199254740989,9007199254740990,9007199254740991\n", &d);
    assert_non_null(p);
    assert_int_equal(p->upper[0], GRAPH_MAX_SIZE);
    problem_free(p);
    diag_free(&d);
    expect_error("id,lower,end,size\na,0,9007199254740991,1\n",
                 "2:5: error: end '9007199254740991' is too large: at most 2^53-2 "
                 "(9007199254740990), its upper (end + 1) at most 2^53-1");
    expect_error("id,lower,upper,size\na,0,9007199254740992,1\n",
                 "2:5: error: upper '9007199254740992' is too large: at most 2^53-1 "
                 "(9007199254740991)");
    p = parse("id,lower,upper,size,offset\na,0,1,1,9223372036854775807\n", &d);
    assert_non_null(p);
    assert_int_equal(p->offset[0], INT64_MAX);
    problem_free(p);
    diag_free(&d);
    expect_error("id,lower,upper,size,offset\na,0,1,1,9223372036854775808\n",
                 "2:9: error: offset '9223372036854775808' is too large: at most 2^63-1 "
                 "(9223372036854775807)");
}

/* gen packing at the largest capacity: its CSV and graph read back. */
static void packing_round_trip(void **state)
{
    (void)state;
    char err[256];
    for (uint64_t seed = 1; seed <= 20; seed++) {
        problem *p = gen_packing(1 + (uint32_t)(seed * 7 % 40), GRAPH_MAX_SIZE - (int64_t)seed,
                                 seed, err, sizeof err);
        assert_non_null(p);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        assert_non_null(f);
        assert_int_equal(problem_write_csv(p, p->offset, rt_sink, f), 0);
        assert_int_equal(fclose(f), 0);
        diag d;
        diag_init(&d, "p.csv");
        problem *q = problem_parse(text, len, &d);
        assert_non_null(q);
        assert_int_equal(q->n, p->n);
        for (uint32_t i = 0; i < p->n; i++) {
            assert_int_equal(q->size[i], p->size[i]);
            assert_int_equal(q->offset[i], p->offset[i]);
            assert_int_equal(q->upper[i], p->upper[i]);
        }
        graph *g = problem_graph(q, &d);
        assert_non_null(g);
        assert_int_equal(g->nbufs, p->n);
        for (uint32_t b = 0; b < g->nbufs; b++)
            assert_int_equal(g->buf_size[b], p->size[g->buf_id[b]]);
        graph_free(g);
        diag_free(&d);
        problem_free(q);
        problem_free(p);
        free(text);
    }
}

int main(int argc, char **argv)
{
    /* One a line: tests/CMakeLists.txt makes a ctest entry of each line. */
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(readme_example),
        cmocka_unit_test(chain_semantics),
        cmocka_unit_test(errors),
        cmocka_unit_test(accepted),
        cmocka_unit_test(packing),
        cmocka_unit_test(plan_round_trip),
        cmocka_unit_test(csv_round_trip_edges),
        cmocka_unit_test(csv_limits),
        cmocka_unit_test(packing_round_trip),
    };
    // clang-format on
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
