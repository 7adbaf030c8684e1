/* test_numfmt.c: util/numfmt.h against printf, byte for byte: integers (every
 * length, random ones by the million) and %.*g of doubles from every corner
 * (random bit patterns, short decimals, sums of microsecond latencies as
 * schedule's start times are, halves, powers of ten and their neighbours,
 * zeros, infinities, NaN, subnormals), with every precision 1 to 17; and that
 * the fast path takes the decimals memtris writes (so the speed is real). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "util/numfmt.h"

static uint64_t next(uint64_t *s) /* splitmix64: the same values everywhere */
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static void check_u64(uint64_t v)
{
    char want[32], got[32];
    snprintf(want, sizeof want, "%" PRIu64, v);
    char *e = numfmt_u64(got, v);
    *e = 0;
    if (strcmp(want, got)) fail_msg("numfmt_u64(%s) wrote %s", want, got);
}

static void integers_as_printf(void **state)
{
    (void)state;
    uint64_t p = 1;
    for (int k = 0; k < 20; k++, p *= 10) {
        check_u64(p - 1);
        check_u64(p);
        check_u64(p + 1);
    }
    check_u64(UINT64_MAX);
    uint64_t s = 1;
    for (int i = 0; i < 2000000; i++) check_u64(next(&s) >> (next(&s) % 64));
}

static long fast_hits, checked;

/* numfmt_g and, where it answers, its fast path, against snprintf. */
static void check_g(double v, int prec)
{
    char want[64], got[NUMFMT_G_CAP + 8], fast[NUMFMT_G_CAP + 8];
    int k = snprintf(want, sizeof want, "%.*g", prec, v);
    size_t n = numfmt_g(got, v, prec);
    if ((size_t)k != n || strcmp(want, got))
        fail_msg("numfmt_g(%a, %d) wrote '%s', printf '%s'", v, prec, got, want);
    size_t m = numfmt_g_fast(fast, v, prec);
    if (m && ((size_t)k != m || strcmp(want, fast)))
        fail_msg("numfmt_g_fast(%a, %d) wrote '%s', printf '%s'", v, prec, fast, want);
    fast_hits += m != 0;
    checked++;
}

static void check_g_all_precs(double v)
{
    for (int prec = 1; prec <= 17; prec++) check_g(v, prec);
}

static void g_random_bits(void **state)
{
    (void)state;
    uint64_t s = 2;
    for (int i = 0; i < 1000000; i++) {
        uint64_t b = next(&s);
        double v;
        memcpy(&v, &b, sizeof v);
        check_g(v, 1 + (int)(i % 17));
    }
    /* doubles of every magnitude memtris writes: 1e-6 to 1e16, random mantissas */
    for (int i = 0; i < 1000000; i++) {
        double v = ldexp((double)(next(&s) >> 11), -53) * pow(10, (double)(next(&s) % 23) - 6);
        check_g(i & 1 ? -v : v, 1 + (int)(i % 17));
    }
}

static void g_short_decimals(void **state)
{
    (void)state;
    uint64_t s = 3;
    fast_hits = checked = 0;
    for (int i = 0; i < 1000000; i++) { /* k / 10^d: latencies and times in ms */
        uint64_t k = next(&s) % 10000000000u;
        int d = (int)(next(&s) % 10);
        check_g((double)k / pow(10, d), 12);
    }
    assert_true(fast_hits > checked * 99 / 100);
    fast_hits = checked = 0;
    double t = 0; /* start times: running sums of six-decimal latencies */
    for (int i = 0; i < 1000000; i++) {
        t += (double)(next(&s) % 100000000u) / 1e6;
        check_g(t, 12);
    }
    assert_true(fast_hits > checked * 99 / 100);
    for (int i = 0; i < 300000; i++) { /* every precision on short decimals */
        double v = (double)(next(&s) % 1000000u) / pow(10, (double)(next(&s) % 8));
        check_g(v, 1 + (int)(i % 17));
    }
}

static void g_edges(void **state)
{
    (void)state;
    const double special[] = {0.0,
                              -0.0,
                              HUGE_VAL,
                              -HUGE_VAL,
                              (double)NAN,
                              DBL_MIN,
                              DBL_MAX,
                              DBL_TRUE_MIN,
                              DBL_EPSILON,
                              0.5,
                              1.5,
                              2.5,
                              0.125,
                              1e-4,
                              9.9999999999999e-5,
                              0.00010000000000000001,
                              999999999999.5,
                              999999999999.49,
                              999999999999.51,
                              99999999999.95,
                              1e15,
                              999999999999999.9,
                              1e12,
                              123456789012.5,
                              0.1,
                              0.2,
                              0.3,
                              1.0 / 3,
                              2.0 / 3,
                              9007199254740993.0};
    for (size_t i = 0; i < sizeof special / sizeof *special; i++) {
        check_g_all_precs(special[i]);
        check_g_all_precs(-special[i]);
    }
    for (int e = -8; e <= 17; e++) { /* powers of ten, their neighbours, halves near them */
        double p = pow(10, e);
        double near[] = {p,        nextafter(p, 0), nextafter(p, HUGE_VAL), p * 0.5,
                         p * 0.95, p * 0.995,       p * 0.9999995,          p * 1.0000005};
        for (size_t i = 0; i < sizeof near / sizeof *near; i++) {
            double v = near[i];
            for (int k = 0; k < 4; k++, v = nextafter(v, HUGE_VAL)) check_g_all_precs(v);
        }
    }
    uint64_t s = 4;
    for (int i = 0; i < 200000; i++) { /* exact halves at the rounding digit */
        int prec = 1 + (int)(i % 15), d = (int)(next(&s) % 8);
        double v = ((double)(next(&s) % 100000000u) + 0.5) / pow(10, d);
        check_g(v, prec);
        check_g(nextafter(v, 0), prec);
        check_g(nextafter(v, HUGE_VAL), prec);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integers_as_printf),
        cmocka_unit_test(g_random_bits),
        cmocka_unit_test(g_short_decimals),
        cmocka_unit_test(g_edges),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
