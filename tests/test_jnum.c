/* test_jnum.c: util/jnum's JSON numbers: plain integers exactly and refused
 * in every form that is not plain; doubles bit for bit as strtod rounds them
 * in the C locale (halfway cases, the fast path's edges, subnormals, past the
 * largest, random doubles printed at many precisions), text that is not a
 * JSON number refused (a leading zero ends one), an end that is not a NUL respected, and the same
 * values under a locale whose decimal point is a comma. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "util/jnum.h"

static uint64_t bits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* s parses whole, to strtod's double (the test runs in the C locale). */
static void same_as_strtod(const char *s)
{
    double x = 0;
    const char *after = NULL;
    int rc = jnum_double(s, s + strlen(s), &x, &after);
    if (rc != 0 || after != s + strlen(s) || bits(x) != bits(strtod(s, NULL)))
        fail_msg("\"%s\": rc %d, %.17g (strtod: %.17g)", s, rc, x, strtod(s, NULL));
}

static void refused(const char *s)
{
    double x = 0;
    const char *after = NULL;
    if (jnum_double(s, s + strlen(s), &x, &after) == 0) fail_msg("\"%s\" taken as %.17g", s, x);
}

static void test_uint(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        int rc;
        uint64_t v;
        size_t len;
    } cases[] = {
        {"0", 0, 0, 1},
        {"7,", 0, 7, 1},
        {"1048576]", 0, 1048576, 7},
        {"999999999999999", 0, 999999999999999ULL, 15},
        {"1000000000000000", 0, 1000000000000000ULL, 16},
        {"4503599627370496 ", 0, 4503599627370496ULL, 16},
        {"9007199254740991}", 0, 9007199254740991ULL, 16}, /* 2^53-1 */
        {"9007199254740992", -1, 0, 0}, /* 2^53: the slow path says it is above 2^53-1 */
        {"9999999999999999", -1, 0, 0},
        {"10000000000000000", -1, 0, 0}, /* 17 digits */
        {"123456789012345678901234567890", -1, 0, 0},
        {"01", -1, 0, 0},
        {"1.0", -1, 0, 0},
        {"1e3", -1, 0, 0},
        {"2E1", -1, 0, 0},
        {"-1", -1, 0, 0},
        {"", -1, 0, 0},
        {"x", -1, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *s = cases[i].s, *after = NULL;
        uint64_t v = 12345;
        int rc = jnum_uint(s, s + strlen(s), &v, &after);
        if (rc != cases[i].rc) fail_msg("\"%s\": rc %d", s, rc);
        if (rc == 0 && (v != cases[i].v || after != s + cases[i].len))
            fail_msg("\"%s\": %llu, %td characters", s, (unsigned long long)v, after - s);
        if (rc != 0 && (v != 12345 || after)) fail_msg("\"%s\": output set on failure", s);
    }
    /* The end is where the text ends, NUL or not. */
    const char *t = "12345", *after = NULL;
    uint64_t v = 0;
    assert_int_equal(jnum_uint(t, t + 3, &v, &after), 0);
    assert_int_equal(v, 123);
    assert_ptr_equal(after, t + 3);
}

static void test_double_cases(void **state)
{
    (void)state;
    static const char *const ok[] = {
        "0", "-0", "0.012421", "0.030761", "1", "-1", "1e9", "1000000000", "1e22", "1e23",
        "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
        "123456789012345678", "1234567890123456789", "12345678901234567890", "0.1", "0.2", "0.3",
        "1e-22", "1e-23", "4.35", "2.5e-5", "1E+2", "1e-0", "0e400", "-0.0e-400",
        /* halfway between two doubles: ties to even */
        "9007199254740993.0", "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124", "2.2250738585072014e-308",
        "2.2250738585072011e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "1e-400", "1.7976931348623157e308", "1.7976931348623158e308",
        "1.7976931348623159e308", "1e309", "-1e400", "0.000000000000000000000000000001",
        "100000000000000000000000", "7.8e-11", "3.14159265358979323846264338327950288419716939"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) same_as_strtod(ok[i]);
    static const char *const bad[] = {"",    "-",   "+1",  ".5",  "1.", "1e",  "1e+",
                                      "x10", "inf", "nan", "NaN", " 1", "--1", "1.e5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) refused(bad[i]);
    /* Numbers of any length (63 and 64 characters: the copy's two ways; 600). */
    char longest[602];
    size_t lens[] = {63, 64, 601};
    for (size_t i = 0; i < 3; i++) {
        memset(longest, '0', sizeof longest);
        longest[0] = '1';
        longest[1] = '.';
        longest[lens[i] - 1] = '1';
        longest[lens[i]] = '\0';
        same_as_strtod(longest);
        longest[1] = '0'; /* 10...01 */
        same_as_strtod(longest);
    }
    /* Stops at the number's end, and at the text's end (no NUL needed). */
    const char *t = "0.5e3, 1", *after = NULL;
    double x = 0;
    assert_int_equal(jnum_double(t, t + strlen(t), &x, &after), 0);
    assert_true(x == 500.0);
    assert_ptr_equal(after, t + 5);
    assert_int_equal(jnum_double(t, t + 3, &x, &after), 0);
    assert_true(x == 0.5);
    assert_ptr_equal(after, t + 3);
    assert_int_equal(jnum_double(t, t + 4, &x, &after), -1); /* "0.5e" */
    /* A leading zero ends the number (what follows is for the caller to refuse). */
    t = "-01";
    assert_int_equal(jnum_double(t, t + 3, &x, &after), 0);
    assert_true(x == 0 && signbit(x));
    assert_ptr_equal(after, t + 2);
}

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Random finite doubles, and random decimals of few digits (the fast path's
 * domain), printed at 1 to 17 significant digits and in fixed notation. */
static void test_double_random(void **state)
{
    (void)state;
    char s[128];
    for (int i = 0; i < 200000; i++) {
        uint64_t b = next();
        double x;
        if (i & 1) {
            memcpy(&x, &b, sizeof x);
            if (!isfinite(x)) continue;
        } else {
            double p = 1;
            for (uint64_t k = next() % 30; k; k--) p *= 10;
            x = (double)(b % 100000000000ULL) / p;
        }
        snprintf(s, sizeof s, "%.*e", (int)(next() % 17), x);
        same_as_strtod(s);
        if ((x < 1e15 && x > 1e-15) || (x > -1e15 && x < -1e-15)) {
            snprintf(s, sizeof s, "%.*f", (int)(next() % 20), x);
            same_as_strtod(s);
        }
    }
}

/* A locale whose decimal point is a comma changes nothing (where one is
 * installed; elsewhere this repeats the C locale's case). */
static void test_double_locale(void **state)
{
    (void)state;
    const char *locs[] = {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", "C.UTF-8"};
    for (size_t i = 0; i < sizeof locs / sizeof locs[0]; i++)
        if (setlocale(LC_NUMERIC, locs[i])) break;
    double x = 0;
    const char *s = "0.012421", *after = NULL;
    assert_int_equal(jnum_double(s, s + strlen(s), &x, &after), 0);
    assert_true(bits(x) == bits(0.012421));
    s = "3.14159265358979323846264338327950288419716939"; /* past the fast path */
    assert_int_equal(jnum_double(s, s + strlen(s), &x, &after), 0);
    assert_true(bits(x) == bits(3.14159265358979323846264338327950288419716939));
    setlocale(LC_NUMERIC, "C");
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uint),
        cmocka_unit_test(test_double_cases),
        cmocka_unit_test(test_double_random),
        cmocka_unit_test(test_double_locale),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
