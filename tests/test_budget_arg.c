/* test_budget_arg.c: budgets, bandwidths and sizes read and worked out in integers end to end:
 * units_parse at its edges (whole bytes, no sign, hex or exponent, decimals only with a
 * prefix, rounded down, 2^63-1 and no further), budget_arg_parse's bytes and percentages (at
 * most six decimals, 0% and past 1000000% refused), a percentage of the peak exact and rounded
 * down (past 2^63-1 refused), the percentage said back exactly; a budget equal to the
 * budget-free peak fits at every magnitude up to 2^63-1 and one byte less does not (graphs
 * made here, of ALLOCs of up to 2^53-1 bytes); the TUI's m prompt reads and offers the budget
 * back exactly. */
#include <inttypes.h>
#include "sched/budget/budget_arg.h"
#include "sched/budget/budget_fit.h"
#include "ui/app_budget.h"
#include "uiutil.h"

#define P53 ((int64_t)1 << 53)

static void units_exact(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int64_t bytes;
    } good[] = {
        {"0", 0},
        {"1", 1},
        {"9007199254740993", P53 + 1},
        {"9223372036854775807", INT64_MAX},
        {"7B", 7},
        {"1.5K", 1536},
        {"1.3k", 1331}, /* 1331.2: rounded down */
        {"0.5KiB", 512},
        {"8MiB", 8 << 20},
        {"8mb", 8 << 20},
        {"1.5G", (int64_t)3 << 29},
        {"0.0009765625K", 1}, /* 2^-10 KiB: exactly one byte */
        {"0.0009765624K", 0},
        {"7E", (int64_t)7 << 60},
        {"7.999999999999999999E", INT64_MAX - 1}, /* 2^63 less 1.15 bytes, floored */
        {"8191P", (int64_t)8191 << 50},
        {"007", 7},
        {" 5 ", 5},
        {"8 MiB", 8 << 20}, /* as memtris writes sizes */
        {"99.0 MiB", (int64_t)99 << 20},
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        if (units_parse(good[i].text) != good[i].bytes)
            fail_msg("'%s': %" PRId64 ", not %" PRId64, good[i].text, units_parse(good[i].text),
                     good[i].bytes);
    }
    static const char *const bad[] = {"",
                                      "9223372036854775808",
                                      "99999999999999999999",
                                      "8E",
                                      "8192P",
                                      "1.5",
                                      "1.5B",
                                      "1.",
                                      ".5K",
                                      "0x10",
                                      "1e3",
                                      "+5",
                                      "-1",
                                      "1.5 ",
                                      "8 MiB x",
                                      "8MiBx",
                                      "8XB",
                                      "nan",
                                      "inf",
                                      "1,5K",
                                      "1.5e3K"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (units_parse(bad[i]) != -1)
            fail_msg("'%s' read as %" PRId64, bad[i], units_parse(bad[i]));
}

static void budget_args(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int64_t bytes, pct;
    } good[] = {
        {"1", 1, 0},
        {"9007199254740993", P53 + 1, 0},
        {"9223372036854775807", INT64_MAX, 0},
        {"1.5K", 1536, 0},
        {"100%", 0, 100 * BUDGET_PCT_ONE},
        {"60%", 0, 60 * BUDGET_PCT_ONE},
        {"100.5%", 0, 100500000},
        {"12.5%", 0, 12500000},
        {"0.000001%", 0, 1},
        {"99.999999%", 0, 99999999},
        {"1000000%", 0, BUDGET_PCT_MAX},
        {"1000000.000000%", 0, BUDGET_PCT_MAX},
    };
    int64_t bytes, pct;
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        if (budget_arg_parse(good[i].text, &bytes, &pct) || bytes != good[i].bytes ||
            pct != good[i].pct)
            fail_msg("'%s': %" PRId64 " bytes, %" PRId64 " millionths", good[i].text, bytes, pct);
    }
    static const char *const bad[] = {"0",          "0%",
                                      "0.0%",       "0.0000001%",
                                      "1.0000001%", "1000000.000001%",
                                      "1000001%",   "1.5",
                                      "0x10",       "+5",
                                      "+50%",       "-3%",
                                      "50 %",       " 50%",
                                      "50%%",       "%",
                                      ".5%",        "5.%",
                                      "1e2%",       "0x10%",
                                      "nan%",       "9223372036854775808",
                                      "50%x",       "",
                                      "8 MiB"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (!budget_arg_parse(bad[i], &bytes, &pct))
            fail_msg("'%s' taken: %" PRId64 " bytes, %" PRId64 " millionths", bad[i], bytes, pct);
}

/* pct of a peak, rounded down, in integers; past 2^63-1 refused; said back as written. */
static void percent_of_peak(void **state)
{
    (void)state;
    int64_t b;
    assert_int_equal(budget_arg_of_pct(P53 + 1, 100 * BUDGET_PCT_ONE, &b), 0);
    assert_int_equal(b, P53 + 1); /* a double would say 2^53 */
    assert_int_equal(budget_arg_of_pct(P53 + 1, 50 * BUDGET_PCT_ONE, &b), 0);
    assert_int_equal(b, P53 / 2); /* 2^52 + 0.5, rounded down */
    assert_int_equal(budget_arg_of_pct(P53 + 1, 100500000, &b), 0);
    assert_int_equal(b, 9052235251014697); /* 9052235251014697.965 */
    assert_int_equal(budget_arg_of_pct(INT64_MAX, 100 * BUDGET_PCT_ONE, &b), 0);
    assert_int_equal(b, INT64_MAX);
    assert_int_equal(budget_arg_of_pct(INT64_MAX, 99999999, &b), 0);
    assert_int_equal(b, 9223371944621055438); /* floor((2^63-1) * 0.99999999) */
    assert_int_equal(budget_arg_of_pct(600, 33333333, &b), 0);
    assert_int_equal(b, 199); /* 199.999998 */
    assert_int_equal(budget_arg_of_pct(100, 1, &b), 0);
    assert_int_equal(b, 0);
    assert_int_equal(budget_arg_of_pct(INT64_MAX, 100 * BUDGET_PCT_ONE + 1, &b), -1);
    assert_int_equal(budget_arg_of_pct((int64_t)1 << 50, BUDGET_PCT_MAX, &b), -1);
    assert_int_equal(budget_arg_of_pct(922337203685477, BUDGET_PCT_MAX, &b), 0);
    assert_int_equal(b, 9223372036854770000);
    char w[32];
    assert_string_equal(budget_arg_pct_words(w, sizeof w, 60 * BUDGET_PCT_ONE), "60%");
    assert_string_equal(budget_arg_pct_words(w, sizeof w, 12500000), "12.5%");
    assert_string_equal(budget_arg_pct_words(w, sizeof w, 100500000), "100.5%");
    assert_string_equal(budget_arg_pct_words(w, sizeof w, 1), "0.000001%");
    assert_string_equal(budget_arg_pct_words(w, sizeof w, BUDGET_PCT_MAX), "1000000%");
}

/* A graph whose budget-free peak is total bytes: ALLOCs of at most 2^53-1 bytes (the most a
 * Size takes) that one compute node reads, then frees. */
static graph *peak_graph(int64_t total)
{
    size_t cap = 512 * 1024, len = 0;
    char *json = malloc(cap);
    assert_non_null(json);
    uint32_t n = 0;
    len += (size_t)snprintf(json + len, cap - len, "{\"Nodes\": [");
    for (int64_t left = total; left > 0; n++) {
        int64_t s = left < P53 - 1 ? left : P53 - 1;
        left -= s;
        len += (size_t)snprintf(
            json + len, cap - len,
            "{\"Id\": %u, \"Op\": \"ALLOC\", \"Size\": %" PRId64 ", \"BufId\": %u},", n, s, n);
    }
    len += (size_t)snprintf(json + len, cap - len, "{\"Id\": %u, \"Op\": \"mm\", \"Inputs\": [", n);
    for (uint32_t b = 0; b < n; b++)
        len += (size_t)snprintf(json + len, cap - len, "%s%u", b ? ", " : "", b);
    len += (size_t)snprintf(json + len, cap - len, "]}");
    for (uint32_t b = 0; b < n; b++)
        len += (size_t)snprintf(json + len, cap - len,
                                ", {\"Id\": %u, \"Op\": \"FREE\", \"BufId\": %u}", n + 1 + b, b);
    len += (size_t)snprintf(json + len, cap - len, "], \"Edges\": [");
    for (uint32_t b = 0; b < n; b++)
        len += (size_t)snprintf(json + len, cap - len, "%s[%u, %u], [%u, %u]", b ? ", " : "", b, n,
                                n, n + 1 + b);
    len += (size_t)snprintf(json + len, cap - len, "]}");
    assert_true(len < cap);
    graph *g = tu_load_text(json);
    free(json);
    return g;
}

/* budget_fit at bytes (or pct millionths): whether a plan fits; its budget into *budget. */
static int fits(const graph *g, int64_t bytes, int64_t pct, int64_t *budget, int64_t *least)
{
    budget_request rq = {.g = g,
                         .budget = bytes,
                         .pct_micro = pct,
                         .allow = BUDGET_ALLOW_RECOMPUTE,
                         .bandwidth = BUDGET_BANDWIDTH,
                         .solver = budget_solver_find("best"),
                         .c = tu_quick(),
                         .want = BUDGET_WANT_LEAST};
    budget_result res;
    memset(&res, 0, sizeof res);
    assert_int_equal(budget_fit(&rq, &res), 0);
    int found = res.found;
    *budget = res.budget;
    *least = res.least;
    if (found) assert_true(res.st.peak <= res.budget);
    budget_result_free(&res);
    return found;
}

/* The budget-free peak as the budget, in bytes and as 100%, fits at every magnitude up to
 * 2^63-1; a byte less does not, and the least budget said is the peak itself. */
static void peak_fits_at_every_magnitude(void **state)
{
    (void)state;
    static const int64_t peaks[] = {1,
                                    1000,
                                    (int64_t)1 << 31,
                                    P53 - 1,
                                    P53 + 1,
                                    (int64_t)3 << 60,
                                    ((int64_t)1 << 62) + 1,
                                    INT64_MAX};
    for (size_t i = 0; i < sizeof peaks / sizeof *peaks; i++) {
        graph *g = peak_graph(peaks[i]);
        int64_t budget, least;
        if (!fits(g, peaks[i], 0, &budget, &least) || budget != peaks[i])
            fail_msg("peak %" PRId64 ": no plan within the peak itself (budget %" PRId64 ")",
                     peaks[i], budget);
        if (!fits(g, 0, 100 * BUDGET_PCT_ONE, &budget, &least) || budget != peaks[i])
            fail_msg("peak %" PRId64 ": 100%% is %" PRId64 " bytes, or no plan", peaks[i], budget);
        if (peaks[i] > 1 && (fits(g, peaks[i] - 1, 0, &budget, &least) || least != peaks[i]))
            fail_msg("peak %" PRId64 ": a plan a byte under it, or the least %" PRId64, peaks[i],
                     least);
        assert_true(fits(g, INT64_MAX, 0, &budget, &least));
        graph_free(g);
    }
    /* a percentage past 2^63-1 bytes: refused, in words */
    graph *g = peak_graph(INT64_MAX);
    budget_request rq = {.g = g,
                         .pct_micro = 100 * BUDGET_PCT_ONE + 1,
                         .allow = BUDGET_ALLOW_RECOMPUTE,
                         .bandwidth = BUDGET_BANDWIDTH,
                         .solver = budget_solver_find("greedy")};
    budget_result res;
    memset(&res, 0, sizeof res);
    assert_int_equal(budget_fit(&rq, &res), -1);
    assert_int_equal(res.error, BUDGET_FIT_RANGE);
    assert_string_equal(res.err, "100.000001% of the budget-free peak (9223372036854775807 bytes) "
                                 "is past 2^63-1 bytes");
    budget_result_free(&res);
    graph_free(g);
}

/* The TUI's m: the same reading; a budget set is offered back exactly (its bytes where the
 * human form would read back as another size). */
static void tui_prompt_exact(void **state)
{
    (void)state;
    int64_t bytes, pct;
    unsigned allow;
    char msg[300];
    assert_int_equal(
        app_budget_read("9007199254740993 offload", &bytes, &pct, &allow, msg, sizeof msg), 0);
    assert_true(bytes == P53 + 1 && pct == 0 && allow == BUDGET_ALLOW_OFFLOAD);
    assert_int_equal(app_budget_read("100.5%", &bytes, &pct, &allow, msg, sizeof msg), 0);
    assert_true(bytes == 0 && pct == 100500000 && allow == BUDGET_ALLOW_RECOMPUTE);
    /* a size as the status bar writes it, with or without what may be used after it */
    assert_int_equal(app_budget_read("99.0 MiB", &bytes, &pct, &allow, msg, sizeof msg), 0);
    assert_true(bytes == (int64_t)99 << 20 && allow == BUDGET_ALLOW_RECOMPUTE);
    assert_int_equal(app_budget_read(" 1.5 KiB  offload", &bytes, &pct, &allow, msg, sizeof msg),
                     0);
    assert_true(bytes == 1536 && allow == BUDGET_ALLOW_OFFLOAD);
    assert_int_equal(app_budget_read("8 MiB swap", &bytes, &pct, &allow, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "after the budget: recompute, offload or recompute,offload"));
    static const char *const bad[] = {"1.5",        "0x10",       "+5", "9223372036854775808",
                                      "0.0000001%", "1.5 offload"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(app_budget_read(bad[i], &bytes, &pct, &allow, msg, sizeof msg), -1);
        assert_non_null(strstr(msg, "the budget wants a size from 1 byte to 2^63-1 bytes"));
    }
    fixture f = {.g = peak_graph(P53 + 1)};
    assert_int_equal(
        app_init(&f.a, f.g, "t.json", policy_find("given"), policy_find("priority"), 0, NULL, NULL),
        0);
    app *a = &f.a;
    app_resize(a, 80, 24);
    static const struct {
        const char *typed, *offered, *said;
        int64_t budget;
    } steps[] = {
        {"9007199254740993", "9007199254740993", "already fits in 8.0 PiB: no reruns", P53 + 1},
        {"100%", "100%", "already fits in 100% (8.0 PiB)", P53 + 1},
        /* 2^53, a byte under the peak: refused in words that tell the two apart; the plan
         * shown stays */
        {"8PiB", "100%",
         "no plan fits in 8.0 PiB (9007199254740992 bytes); the least budget any plan fits in "
         "is 8.0 PiB",
         P53 + 1},
        {"9223372036854775807", "9223372036854775807", "already fits in 8.0 EiB", INT64_MAX},
        {"16PiB", "16.0PiB", "already fits in 16.0 PiB", (int64_t)16 << 50},
    };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        app_key(a, 'm');
        while (a->prompt.buf[0]) app_key(a, K_BACKSPACE);
        type(a, steps[i].typed);
        app_key(a, K_ENTER);
        if (!strstr(a->msg, steps[i].said)) fail_msg("'%s': said '%s'", steps[i].typed, a->msg);
        assert_true(a->bud.on);
        assert_int_equal(a->bud.budget, steps[i].budget);
        app_key(a, 'm');
        if (strcmp(a->prompt.buf, steps[i].offered))
            fail_msg("after '%s': '%s' offered, not '%s'", steps[i].typed, a->prompt.buf,
                     steps[i].offered);
        app_key(a, K_ENTER); /* the budget offered is the budget set */
        assert_true(a->bud.on);
        assert_int_equal(a->bud.budget, steps[i].budget);
    }
    close_app(&f);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(units_exact),      cmocka_unit_test(budget_args),
        cmocka_unit_test(percent_of_peak),  cmocka_unit_test(peak_fits_at_every_magnitude),
        cmocka_unit_test(tui_prompt_exact),
    };
    uiu_args(argc, argv);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
