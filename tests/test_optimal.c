/* test_optimal.c: the one percentage and the optimality phrases of
 * util/optimal.h: rounding half up in integers (12.05% is 12.1%), the edges
 * (a bound of 0, a value at the bound, the largest numbers), and every style
 * for a proven optimum, an unproven bound and a value at the bound. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "util/optimal.h"

#define MIB (1024 * 1024)

static void tenths_round_half_up(void **state)
{
    (void)state;
    assert_int_equal(optimal_tenths(1205, 10000), 121);     /* 12.05%: up */
    assert_int_equal(optimal_tenths(120499, 1000000), 120); /* 12.0499%: down */
    assert_int_equal(optimal_tenths(1215, 10000), 122);     /* half up, never to even */
    assert_int_equal(optimal_tenths(1, 3), 333);            /* 33.33...% */
    assert_int_equal(optimal_tenths(2, 3), 667);            /* 66.66...% */
    assert_int_equal(optimal_tenths(1, 16), 63);            /* 6.25%, exact in binary too */
    assert_int_equal(optimal_tenths(0, 7), 0);
    assert_int_equal(optimal_tenths(7, 7), 1000);
    assert_int_equal(optimal_tenths(1, 0), -1);
    assert_int_equal(optimal_tenths(1, -5), -1);
    assert_int_equal(optimal_tenths(-1, 5), -1);
    /* the largest numbers: no overflow, a clamp past INT64_MAX tenths */
    assert_int_equal(optimal_tenths(INT64_MAX, INT64_MAX), 1000);
    assert_int_equal(optimal_tenths(INT64_MAX - 1, INT64_MAX), 1000);
    assert_int_equal(optimal_tenths(INT64_MAX / 2, INT64_MAX), 500);
    assert_int_equal(optimal_tenths(INT64_MAX, 1), INT64_MAX);
}

static void gap_is_over_the_bound(void **state)
{
    (void)state;
    assert_int_equal(optimal_gap_tenths(100, 100), 0);
    assert_int_equal(optimal_gap_tenths(11, 10), 100);
    assert_int_equal(optimal_gap_tenths(18 * MIB + MIB / 2, 16 * MIB + MIB / 2), 121);
    assert_int_equal(optimal_gap_tenths(5, 0), -1); /* bound 0: no share */
    assert_int_equal(optimal_gap_tenths(9, 10), -1);
    assert_int_equal(optimal_gap_tenths(INT64_MAX, INT64_MAX - 1), 0);
    assert_int_equal(optimal_gap_tenths(INT64_MAX, INT64_MAX / 2), 1000);
    assert_int_equal(optimal_gap_tenths(INT64_MAX, 1), INT64_MAX);
}

static void pct_words(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(optimal_pct(b, sizeof b, 1205, 10000), "12.1%");
    assert_string_equal(optimal_pct(b, sizeof b, 0, 10), "0.0%");
    assert_string_equal(optimal_pct(b, sizeof b, 1, 100000), "<0.1%"); /* never 0.0% of some */
    assert_string_equal(optimal_pct(b, sizeof b, 1, 2000), "0.1%");    /* 0.05%: up */
    assert_string_equal(optimal_pct(b, sizeof b, -3, 100), "-3.0%");
    assert_string_equal(optimal_pct(b, sizeof b, -1, 100000), "-<0.1%");
    assert_string_equal(optimal_pct(b, sizeof b, 5, 0), "-");
    assert_string_equal(optimal_pct(b, sizeof b, INT64_MIN, INT64_MAX), "-100.0%");
    assert_string_equal(optimal_pct(b, sizeof b, 10, 10), "100.0%");
    assert_string_equal(optimal_pct(b, 4, 1205, 10000), "12."); /* cut, terminated */
}

/* Each style: a value at the bound, above a proven optimum, above a bound
 * not proven to be one. */
static void phrase_styles(void **state)
{
    (void)state;
    static const struct {
        int style;
        const char *at, *proven, *unproven;
    } want[] = {
        {OPTIMAL_LONG, "optimal (proven)", "12.1% above the optimum 16.5 MiB",
         "not proven optimal: 12.1% above the lower bound 16.5 MiB"},
        {OPTIMAL_SHORT, "optimal (proven)", "12.1% above the optimum 16.5 MiB",
         "12.1% above the bound 16.5 MiB"},
        {OPTIMAL_TERSE, "optimal (proven)", "12.1% above the optimum", "12.1% above the bound"},
        {OPTIMAL_TINY, "optimal (proven)", "+12.1% vs optimum", "+12.1% vs bound"},
        {OPTIMAL_CELL, "optimal", "+12.1%", "-"},
        {OPTIMAL_SEARCH, "optimal: 16.5 MiB (proven)", "12.1% above the optimum 16.5 MiB",
         "not proven: 18.5 MiB, bound 16.5 MiB, gap 12.1%"},
        {OPTIMAL_VALUE, "optimal: 16.5 MiB (proven)", "18.5 MiB, 12.1% above the optimum",
         "not proven: 18.5 MiB"},
    };
    int64_t v = 18 * MIB + MIB / 2, lb = 16 * MIB + MIB / 2;
    char b[128];
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        int s = want[i].style;
        assert_string_equal(optimal_phrase(b, sizeof b, lb, lb, 0, s), want[i].at);
        assert_string_equal(optimal_phrase(b, sizeof b, lb, lb, 1, s), want[i].at);
        assert_string_equal(optimal_phrase(b, sizeof b, v, lb, 1, s), want[i].proven);
        assert_string_equal(optimal_phrase(b, sizeof b, v, lb, 0, s), want[i].unproven);
        /* without proven, never the optimum nor "of optimal" */
        if (strstr(b, "optimum") || strstr(b, "of optimal")) fail_msg("style %d: '%s'", s, b);
    }
}

static void phrase_edges(void **state)
{
    (void)state;
    char b[128];
    /* a bound of 0 under a value above it: no percentage */
    assert_string_equal(optimal_phrase(b, sizeof b, 5, 0, 0, OPTIMAL_LONG),
                        "not proven optimal (lower bound 0 B)");
    assert_string_equal(optimal_phrase(b, sizeof b, 5, 0, 0, OPTIMAL_TERSE), "not proven optimal");
    assert_string_equal(optimal_phrase(b, sizeof b, 5, 0, 0, OPTIMAL_CELL), "-");
    assert_string_equal(optimal_phrase(b, sizeof b, 5, 0, 1, OPTIMAL_CELL), "-");
    assert_string_equal(optimal_phrase(b, sizeof b, 5, 0, 1, OPTIMAL_LONG),
                        "above the optimum 0 B");
    assert_string_equal(optimal_phrase(b, sizeof b, 5, 0, 0, OPTIMAL_SEARCH),
                        "not proven: 5 B, bound 0 B");
    /* 0 at a bound of 0 is optimal */
    assert_string_equal(optimal_phrase(b, sizeof b, 0, 0, 0, OPTIMAL_LONG), "optimal (proven)");
    /* a hair above the bound: never "0.0% above" */
    assert_string_equal(optimal_phrase(b, sizeof b, 1000001, 1000000, 1, OPTIMAL_TERSE),
                        "<0.1% above the optimum");
    /* rounding edge through the phrase: 12.05% is 12.1% */
    assert_string_equal(optimal_phrase(b, sizeof b, 11205, 10000, 1, OPTIMAL_CELL), "+12.1%");
    assert_string_equal(optimal_phrase(b, sizeof b, 1120499, 1000000, 1, OPTIMAL_CELL), "+12.0%");
    /* the largest numbers */
    optimal_phrase(b, sizeof b, INT64_MAX, 1, 0, OPTIMAL_LONG);
    assert_non_null(strstr(b, "% above the lower bound 1 B"));
    assert_string_equal(optimal_phrase(b, sizeof b, INT64_MAX, INT64_MAX - 1, 1, OPTIMAL_CELL),
                        "+<0.1%");
    /* a short buffer: cut and terminated; none: untouched */
    assert_string_equal(optimal_phrase(b, 8, 5, 5, 0, OPTIMAL_LONG), "optimal");
    b[0] = 'x';
    optimal_phrase(b, 0, 5, 5, 0, OPTIMAL_LONG);
    assert_int_equal(b[0], 'x');
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tenths_round_half_up),
        cmocka_unit_test(gap_is_over_the_bound),
        cmocka_unit_test(pct_words),
        cmocka_unit_test(phrase_styles),
        cmocka_unit_test(phrase_edges),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
