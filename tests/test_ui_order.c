/* test_ui_order.c: a training step opens on the framework's order: given on a graph with Phase or
 * Category, named so in the status bar (whole, or left out at 80 columns) and the opening
 * message, c in the key bar comparing it with priority and saying what priority saves; the
 * budget view (m) plans from the order stepped (budget_fit's order), saying so when that order
 * fits as it is, and the given order's plan is memtris budget's (no order). */
#include <math.h>
#include "sched/budget/budget_arg.h"
#include "sched/budget/budget_fit.h"
#include "ui/app_train.h"
#include "uiutil.h"

#define SAMPLE "resnet18_train.json"

/* The sample stepped under pol, the other side that memtris view gives it. */
static app *open_pol(fixture *f, const char *pol)
{
    f->g = tu_load_sample(SAMPLE, NULL);
    const policy *p = policy_find(pol), *o = app_train_other(f->g, p);
    assert_int_equal(app_init(&f->a, f->g, SAMPLE, p, o ? o : policy_find("fifo"), 0, NULL, NULL),
                     0);
    app_resize(&f->a, 80, 24);
    return &f->a;
}

static void set_budget(app *a, const char *answer)
{
    app_key(a, 'm');
    while (a->prompt.buf[0]) app_key(a, K_BACKSPACE);
    type(a, answer);
    app_key(a, K_ENTER);
}

/* Whether the screen (w x h) holds text; ending a row (after its trailing blanks) when text
 * ends in a newline: a message whole, not followed by more of it. Fails otherwise. */
static void on_screen(app *a, int w, int h, const char *text)
{
    size_t n, tl = strlen(text);
    char *got = render(a, w, h, 1, 0, &n);
    int found = 0;
    if (tl && text[tl - 1] == '\n') {
        for (char *row = got, *nl; !found && row && *row; row = nl ? nl + 1 : NULL) {
            nl = strchr(row, '\n');
            size_t len = nl ? (size_t)(nl - row) : strlen(row);
            while (len && row[len - 1] == ' ') len--;
            found = len >= tl - 1 && !memcmp(row + len - (tl - 1), text, tl - 1);
        }
    } else found = strstr(got, text) != NULL;
    if (!found) {
        fprintf(stderr, "%s", got);
        fail_msg("'%s' is not on the %dx%d screen above", text, w, h);
    }
    free(got);
}

static void not_on_screen(app *a, int w, int h, const char *text)
{
    size_t n;
    char *got = render(a, w, h, 1, 0, &n);
    if (strstr(got, text)) fail_msg("'%s' is on the %dx%d screen:\n%s", text, w, h, got);
    free(got);
}

/* Only a training step stepped under given has the framework's order and priority beside it. */
static void test_other_side(void **state)
{
    (void)state;
    graph *t = tu_load_sample(SAMPLE, NULL), *d = tu_load_sample("demo.json", NULL);
    assert_ptr_equal(app_train_other(t, policy_find("given")), policy_find("priority"));
    assert_null(app_train_other(t, policy_find("priority")));
    assert_null(app_train_other(d, policy_find("given")));
    graph_free(t);
    graph_free(d);
}

/* given, named the framework's order: in the status bar at 120 columns, left out whole at 80;
 * the opening message in the why line; c in the key bar; c compares with priority and says
 * what it saves, the Compare panel's figures. */
static void test_opens_on_given(void **state)
{
    (void)state;
    fixture f;
    app *a = open_pol(&f, "given");
    assert_true(app_train_given(a));
    assert_true(status_has(a, 120, 40, "  given (the framework's order)  step 0/1139"));
    assert_true(status_has(a, 80, 24, "  given  step 0/1139"));
    assert_false(status_has(a, 80, 24, "framework"));
    app_train_hello(a);
    on_screen(a, 80, 24, " given: the framework's own order; c compares it with priority\n");
    on_screen(a, 120, 40,
              " given: the framework's own order, as the file lists it; c compares it with "
              "priority: what memtris saves over it\n");
    on_screen(a, 80, 24, " cVsPriority ");
    expect_no_cuts(a, 80, 24, 1, "given's first screen");
    app_key(a, 'c');
    assert_true(a->cmp.shown);
    assert_ptr_equal(a->cmp.pol, policy_find("priority"));
    int64_t save = a->st[0].r.peak - a->st[1].r.peak;
    assert_int_equal(a->st[0].r.peak, 129832420); /* 123.8 MiB */
    assert_int_equal(a->st[1].r.peak, 108639812); /* 103.6 MiB */
    char s[32], want[160];
    snprintf(want, sizeof want, " priority saves %s (%.1f%%) over the framework's order\n",
             units_bytes(s, sizeof s, save, 0), 100.0 * (double)save / (double)a->st[0].r.peak);
    assert_string_equal(s, "20.2 MiB");
    on_screen(a, 80, 24, want);
    on_screen(a, 80, 24, "given needs 20.2 MiB (19.5%) more than"); /* the panel */
    on_screen(a, 120, 40,
              " priority saves 20.2 MiB (16.3%) over given, the framework's order: peak 103.6 "
              "MiB against 123.8 MiB\n");
    on_screen(a, 80, 24, " cCompare "); /* compare mode: c leaves it */
    app_key(a, 'c');
    assert_false(a->cmp.shown);
    on_screen(a, 80, 24, " cVsPriority ");
    app_key(a, 's'); /* another policy: the table's words */
    assert_false(app_train_given(a));
    not_on_screen(a, 80, 24, "VsPriority");
    assert_false(status_has(a, 200, 40, "framework"));
    close_app(&f);
}

/* The budget the app asked for, as memtris budget's budget_fit answers it along order. */
/* pct: whole percents of the given order's budget-free peak. */
static void fit_along(const graph *g, const policy *order, int64_t pct, budget_result *res)
{
    budget_request rq = {.g = g,
                         .pct_micro = pct * BUDGET_PCT_ONE,
                         .allow = BUDGET_ALLOW_RECOMPUTE,
                         .bandwidth = BUDGET_BANDWIDTH,
                         .solver = budget_solver_find("greedy"),
                         .want = BUDGET_WANT_LEAST,
                         .order = order};
    memset(res, 0, sizeof *res);
    assert_int_equal(budget_fit(&rq, res), 0);
}

/* budget_fit along another order: the percentage of the given order's budget-free peak (memtris
 * budget's), that order's own peak, its own plan where it fits. */
static void test_fit_along_order(void **state)
{
    (void)state;
    graph *g = tu_load_sample(SAMPLE, NULL);
    budget_result given, prio;
    fit_along(g, NULL, 90, &given);
    fit_along(g, policy_find("priority"), 90, &prio);
    assert_int_equal(given.free_peak, given.order_peak);
    assert_int_equal(prio.free_peak, given.free_peak);
    assert_int_equal(prio.budget, given.budget);
    assert_int_equal(prio.budget, (int64_t)floor((double)given.free_peak * 90 / 100));
    assert_true(prio.order_peak < prio.budget && prio.budget < given.order_peak);
    assert_true(prio.found && prio.st.reruns == 0 && prio.st.peak == prio.order_peak);
    assert_true(given.found && given.st.reruns > 0);
    budget_result_free(&given);
    budget_result_free(&prio);
    /* under the order's own peak: greedy's plan along it, within the budget */
    fit_along(g, policy_find("priority"), 80, &prio);
    assert_true(prio.budget < prio.order_peak);
    assert_true(prio.found && prio.st.reruns > 0 && prio.st.peak <= prio.budget);
    budget_result_free(&prio);
    graph_free(g);
}

/* m on priority: its order fits 90% as it is, and the view says so instead of planning reruns;
 * at 80% it plans along priority's order. */
static void test_budget_from_the_order_on_screen(void **state)
{
    (void)state;
    fixture f;
    app *a = open_pol(&f, "priority");
    set_budget(a, "90%");
    assert_true(a->bud.on && a->bud.as_is);
    assert_ptr_equal(a->bud.order, policy_find("priority"));
    assert_int_equal(a->bud.st.reruns, 0);
    assert_int_equal(a->bud.st.offloaded_bytes, 0);
    assert_int_equal(a->bud.st.peak, a->bud.order_peak);
    char b[32], pk[32], want[200];
    units_bytes(b, sizeof b, a->bud.budget, 0);
    units_bytes(pk, sizeof pk, a->bud.order_peak, 0);
    assert_string_equal(b, "111.4 MiB");
    assert_string_equal(pk, "101.6 MiB");
    snprintf(want, sizeof want,
             " priority's order already fits in 90%% (%s): no reruns needed (its peak %s)\n", b,
             pk);
    on_screen(a, 120, 40, want);
    on_screen(a, 80, 24, " priority's order already fits in 90% (111.4 MiB): no reruns needed\n");
    on_screen(a, 80, 24, "peak 101.6 MiB"); /* the curve: the plan's */
    app_key(a, 'w');
    assert_non_null(strstr(a->msg, "the plan reruns nothing: it fits in 111.4 MiB as it is"));
    set_budget(a, "80%");
    assert_true(a->bud.on && !a->bud.as_is);
    assert_true(a->bud.st.reruns > 0);
    budget_result r;
    fit_along(a->bud.g, policy_find("priority"), 80, &r);
    assert_int_equal(a->bud.st.reruns, r.st.reruns);
    assert_int_equal(a->bud.st.peak, r.st.peak);
    assert_true(a->bud.st.extra_ms == r.st.extra_ms);
    budget_result_free(&r);
    set_budget(a, "");
    assert_false(a->bud.on);
    assert_ptr_equal(a->pol, policy_find("priority"));
    close_app(&f);
}

/* m on given: memtris budget's plan (the given order, no order named), figure for figure. */
static void test_budget_on_given_is_the_cli_s(void **state)
{
    (void)state;
    fixture f;
    app *a = open_pol(&f, "given");
    set_budget(a, "90%");
    assert_true(a->bud.on && !a->bud.as_is);
    budget_result r;
    fit_along(a->bud.g, NULL, 90, &r);
    assert_int_equal(a->bud.budget, r.budget);
    assert_int_equal(a->bud.st.reruns, r.st.reruns);
    assert_int_equal(a->bud.st.peak, r.st.peak);
    assert_true(a->bud.st.extra_ms == r.st.extra_ms);
    budget_result_free(&r);
    set_budget(a, "100%"); /* the given order's own peak: it fits as it is */
    assert_true(a->bud.as_is);
    on_screen(a, 80, 24, " the given order already fits in 100% (123.8 MiB): no reruns needed\n");
    close_app(&f);
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_other_side),
        cmocka_unit_test(test_opens_on_given),
        cmocka_unit_test(test_fit_along_order),
        cmocka_unit_test(test_budget_from_the_order_on_screen),
        cmocka_unit_test(test_budget_on_given_is_the_cli_s),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
