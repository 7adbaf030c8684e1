/* test_ui_budget.c: the TUI's budget view (m): a budget typed as memtris budget takes it solves
 * the graph and steps the plan as a graph under given, with the figures budget_check gives (the
 * peak, the extra time, the reruns) in the status bar; the budget's row and label on the curve,
 * the reruns marked in the ready queue and under the curve, the host lane with offload (whole or
 * none); w's explanation of a rerun, its figures recomputed here from the plan graph; bad
 * answers and budgets no plan fits refused with the view as it was; an empty answer or Esc back
 * to the plain view; s, c and o off there; a golden screen at 80x24; a plan that ran, opened
 * from its saved replay with the measured bytes over its steps; a graph without Latency said
 * to cost 0 ms a plan. */
#include <inttypes.h>
#include <math.h>
#include "sched/budget/budget.h"
#include "sched/budget/budget_bound.h"
#include "sched/budget/budget_say.h"
#include "util/units.h"
#include "uiutil.h"

#define SAMPLE "resnet18_train.json" /* a training step: greedy reruns its activations */

/* The sample opened as memtris view opens a training step: stepping given, the framework's
 * order, which m plans from (as memtris budget does). */
static void open_given(fixture *f, const char *sample, int compare)
{
    f->g = tu_load_sample(sample, NULL);
    assert_int_equal(app_init(&f->a, f->g, sample, policy_find("given"), policy_find("priority"),
                              compare, NULL, NULL),
                     0);
}

/* Types answer into the budget prompt and presses Enter. */
static void set_budget(app *a, const char *answer)
{
    app_key(a, 'm');
    assert_int_equal(a->prompt.kind, 'm');
    while (a->prompt.buf[0]) app_key(a, K_BACKSPACE); /* the budget offered goes */
    type(a, answer);
    app_key(a, K_ENTER);
}

/* What memtris budget --budget PCT% finds for g, worked out here: the plan's figures and the
 * least extra time any plan within the budget takes (the bound the gap is judged by). */
static void expected(const graph *g, double pct, unsigned allow, int64_t *budget, budget_stats *st,
                     double *lb_ms)
{
    budget_model bm;
    budget_plan p = {0};
    budget_outcome o;
    char err[256];
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    assert_int_equal(budget_given_plan(&bm, &p), 0);
    assert_int_equal(budget_check(&bm, &p, BUDGET_BANDWIDTH, st, err, sizeof err), 0);
    budget_plan_free(&p);
    *budget = (int64_t)floor((double)st->peak * pct / 100);
    assert_int_equal(budget_greedy(&bm, &(budget_goal){*budget, allow, BUDGET_BANDWIDTH, NULL},
                                   NULL, &p, &o, NULL),
                     0);
    assert_true(o.found);
    assert_int_equal(budget_check(&bm, &p, BUDGET_BANDWIDTH, st, err, sizeof err), 0);
    budget_plan_free(&p);
    budget_bound bb;
    assert_int_equal(budget_bound_init(&bb, &bm, allow), 0);
    *lb_ms = budget_bound_ms(&bb, *budget);
    budget_bound_free(&bb);
    budget_model_free(&bm);
}

static void test_set_budget(void **state)
{
    (void)state;
    fixture f;
    open_given(&f, SAMPLE, 1); /* compare mode: the budget view ends it */
    app *a = &f.a;
    app_resize(a, 200, 60);
    set_budget(a, "80%");
    int64_t budget;
    budget_stats st;
    double lb;
    expected(f.g, 80, BUDGET_ALLOW_RECOMPUTE, &budget, &st, &lb);
    assert_true(a->bud.on);
    assert_ptr_equal(a->g, a->bud.pg);
    assert_ptr_equal(a->bud.g, f.g);
    assert_string_equal(a->pol->name, "given");
    assert_false(a->cmp.shown);
    assert_int_equal(a->bud.budget, budget);
    assert_int_equal(a->bud.st.peak, st.peak);
    assert_int_equal(a->bud.st.reruns, st.reruns);
    assert_true(a->bud.st.extra_ms == st.extra_ms);
    assert_true(st.reruns > 0);
    /* The plan graph, stepped under given, peaks where the checker says the plan does. */
    assert_int_equal(a->st[0].r.peak, st.peak);
    assert_true(st.peak <= budget);
    uint64_t reruns = 0;
    for (uint32_t i = 0; i < a->g->n; i++) {
        reruns += app_budget_is_rerun(&a->bud, i) ? 1u : 0u;
        if (app_budget_is_rerun(&a->bud, i))
            assert_non_null(strstr(graph_name(a->g, i), "(rerun)"));
    }
    assert_int_equal(reruns, st.reruns);
    /* The status bar: "budget 99.0 MiB · extra +28.4 ms · 28 reruns · within 309293% of
     * optimal" (the sample has Latency: the reruns cost time, judged against the bound, as
     * memtris budget --solver greedy says). */
    assert_true(st.extra_ms > 0 && lb > 0 && lb < st.extra_ms);
    assert_false(a->bud.proven);
    char b[32], t[32], want[200];
    snprintf(want, sizeof want,
             "budget %s \u00b7 extra +%s \u00b7 %" PRIu64 " reruns \u00b7 within %d%% of optimal",
             units_bytes(b, sizeof b, budget, 0), units_ms(t, sizeof t, st.extra_ms), st.reruns,
             budget_gap_pct((st.extra_ms - lb) / lb));
    assert_true(status_has(a, 200, 60, want));
    assert_string_equal(a->msg[0] ? "said" : "", "said");
    assert_non_null(strstr(a->msg, "(80% of "));
    close_app(&f);
}

/* The status bar's budget fields go whole at narrow widths, never in part, the reruns first
 * (the message line says them too), the gap after them, the extra time after the gap and before
 * the budget. */
static void test_status_fields(void **state)
{
    (void)state;
    fixture f;
    open_given(&f, SAMPLE, 0);
    app *a = &f.a;
    set_budget(a, "80%");
    char t[32], x[48];
    assert_true(a->bud.st.extra_ms > 0); /* the sample has Latency: "extra +28.4 ms" */
    snprintf(x, sizeof x, "extra +%s", units_ms(t, sizeof t, a->bud.st.extra_ms));
    for (int w = 60; w <= 200; w++) {
        size_t n;
        char *s = render(a, w, 24, 1, 0, &n);
        *strchr(s, '\n') = 0;
        int has_b = strstr(s, "budget 99.0 MiB") != NULL, has_x = strstr(s, x) != NULL,
            has_r = strstr(s, " reruns") != NULL, has_g = strstr(s, " optimal") != NULL;
        assert_true(has_b || !strstr(s, "budget"));
        if (has_r) assert_true(has_g);
        assert_true(has_x || !strstr(s, "extra"));
        if (has_g) assert_true(has_x);
        if (has_x) assert_true(has_b);
        free(s);
        expect_no_cuts(a, w, 24, 1, "budget view");
    }
    close_app(&f);
}

/* The curve: the budget's label, the reruns' ticks; the ready queue: a rerun's type. */
static void test_plan_view(void **state)
{
    (void)state;
    fixture f;
    open_given(&f, SAMPLE, 0);
    app *a = &f.a;
    set_budget(a, "80%");
    uint32_t v = app_budget_rerun_near(&a->bud, &a->st[0].r, 0); /* the first rerun */
    assert_int_not_equal(v, GRAPH_NONE);
    for (int s = 0; s < 2; s++) { /* before the jump: the step's cursor may cover a tick */
        int w = s ? 200 : 80, h = s ? 60 : 24;
        size_t n;
        char *got = render(a, w, h, 1, 0, &n);
        if (!strstr(got, "\u25b4")) fail_msg("no rerun's tick at %dx%d:\n%.3000s", w, h, got);
        free(got);
    }
    app_jump(a, a->st[0].r.pos[v]); /* it is the next to pop */
    for (int s = 0; s < 2; s++) {
        int w = s ? 200 : 80, h = s ? 60 : 24;
        size_t n;
        char *got = render(a, w, h, 1, 0, &n);
        assert_non_null(strstr(got, " budget 99.0 MiB "));
        assert_non_null(strstr(got, " rerun "));
        if (s) assert_non_null(strstr(got, "(rerun)")); /* 80x24: the name column is 10 wide */
        assert_null(strstr(got, "Host"));               /* nothing offloaded: no host lane */
        free(got);
        got = render(a, w, h, 0, 1, &n); /* ASCII */
        assert_non_null(strstr(got, " budget 99.0 MiB "));
        free(got);
    }
    close_app(&f);
}

/* Rerun v's figures worked out from the plan graph alone, in Id order (given's): the step of
 * the last FREE of buffer x before v, and the most live bytes from there to x's next ALLOC,
 * plus x's size. */
static void recompute(const app *a, uint32_t v, uint32_t x, uint32_t *freed, int64_t *would)
{
    const graph *pg = a->g;
    uint32_t *by_id = malloc(pg->n * sizeof *by_id);
    for (uint32_t i = 0; i < pg->n; i++) by_id[i] = i;
    for (uint32_t i = 1; i < pg->n; i++) /* insertion sort by Id: the plan's order */
        for (uint32_t j = i; j > 0 && pg->id[by_id[j - 1]] > pg->id[by_id[j]]; j--) {
            uint32_t t = by_id[j];
            by_id[j] = by_id[j - 1];
            by_id[j - 1] = t;
        }
    int64_t live = 0, most = 0;
    int away = 0;
    *freed = 0;
    for (uint32_t t = 0; t < pg->n && by_id[t] != v; t++) {
        uint32_t i = by_id[t], k = a->bud.map.kind[i];
        if (pg->kind[i] == NODE_ALLOC) live += pg->buf_size[pg->buf[i]];
        if (pg->kind[i] == NODE_FREE) live -= pg->buf_size[pg->buf[i]];
        if (k == BPG_FREE && a->bud.map.of[i] == x) {
            *freed = t + 1;
            away = 1;
            most = live;
        } else if (k == BPG_ALLOC && a->bud.map.of[i] == x) away = 0;
        else if (away && live > most) most = live;
    }
    *would = most + a->bud.g->buf_size[x];
    free(by_id);
}

static void test_explain(void **state)
{
    (void)state;
    fixture f;
    open_given(&f, SAMPLE, 0);
    app *a = &f.a;
    set_budget(a, "80%");
    const run *r = &a->st[0].r;
    int said = 0;
    for (uint32_t t = 0; t < r->n; t++) {
        uint32_t v = r->order[t];
        if (!app_budget_is_rerun(&a->bud, v)) continue;
        app_budget_why w = app_budget_why_of(&a->bud, r, v);
        assert_int_equal(w.rerun_step, t + 1);
        assert_int_not_equal(w.buf, GRAPH_NONE);
        uint32_t freed;
        int64_t would;
        recompute(a, v, w.buf, &freed, &would);
        assert_int_equal(w.freed_step, freed);
        assert_int_equal(w.would_peak, would);
        assert_true(freed < t + 1);
        char out[400], want[256], x[32], y[32];
        app_budget_explain(&a->bud, r, v, out, sizeof out);
        units_bytes(x, sizeof x, would, 0);
        units_bytes(y, sizeof y, a->bud.budget, 0);
        if (!strcmp(x, y)) {
            snprintf(x, sizeof x, "%" PRId64 " B", would);
            snprintf(y, sizeof y, "%" PRId64 " B", a->bud.budget);
        }
        char bn[256]; /* the buffer by its ALLOC's name */
        snprintf(want, sizeof want,
                 "%s freed at step %u, rerun at step %u: keeping it would have peaked "
                 "at %s %s the %s budget",
                 graph_buf_display(a->bud.g, w.buf, bn, sizeof bn), freed, t + 1, x,
                 would > a->bud.budget ? "over" : "within", y);
        assert_memory_equal(out, want, strlen(want));
        /* w at the rerun's step (or after it, before the next) says the same */
        app_jump(a, t + 1);
        app_key(a, 'w');
        assert_string_equal(a->msg, out);
        said += would > a->bud.budget;
    }
    assert_true(said > 0); /* greedy frees only when the budget would pass */
    close_app(&f);
}

/* Bad answers: the reason, the view as it was. */
static void test_bad_answers(void **state)
{
    (void)state;
    fixture f;
    open_given(&f, SAMPLE, 0);
    app *a = &f.a;
    static const char *const bad[] = {"50 %", "0", "-1MiB", "nan%", "60%%", "8MiB swap"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        set_budget(a, bad[i]);
        assert_false(a->bud.on);
        assert_ptr_equal(a->g, f.g);
        assert_true(strstr(a->msg, "the budget wants") || strstr(a->msg, "after the budget"));
    }
    set_budget(a, "80%");
    assert_true(a->bud.on);
    const graph *pg = a->g;
    set_budget(a, "1KiB"); /* no plan fits: the plan shown stays */
    assert_non_null(strstr(a->msg, "no plan fits in 1.0 KiB; "));
    assert_ptr_equal(a->g, pg);
    assert_int_equal(a->bud.budget, (int64_t)floor((double)a->bud.free_peak * 0.80));
    close_app(&f);
}

/* An empty answer, or Esc, back to the plain view; s, c and o are off in the budget view;
 * w outside it is compare's. */
static void test_clear_and_keys(void **state)
{
    (void)state;
    fixture f;
    open_given(&f, SAMPLE, 0);
    app *a = &f.a;
    const policy *pol = a->pol;
    app_key(a, 'w');
    assert_non_null(strstr(a->msg, "compare two first"));
    set_budget(a, "80%");
    for (const char *k = "sco"; *k; k++) {
        app_key(a, *k);
        assert_non_null(strstr(a->msg, "is off in the budget view"));
        assert_ptr_equal(a->pol, policy_find("given"));
    }
    app_key(a, 'm');
    assert_string_equal(a->prompt.buf, "80%"); /* the budget set, to edit */
    app_key(a, K_ESC);
    assert_false(a->bud.on);
    assert_ptr_equal(a->g, f.g);
    assert_ptr_equal(a->pol, pol);
    set_budget(a, "100MiB");
    assert_true(a->bud.on);
    assert_int_equal(a->bud.budget, 100 << 20);
    set_budget(a, "");
    assert_false(a->bud.on);
    assert_ptr_equal(a->g, f.g);
    assert_non_null(strstr(a->msg, "budget cleared"));
    close_app(&f);
}

/* With offload: the host lane under the curve where the panel has the rows, none at 80x24. */
static void test_host_lane(void **state)
{
    (void)state;
    fixture f;
    open_given(&f, SAMPLE, 0);
    app *a = &f.a;
    set_budget(a, "50% offload");
    int64_t budget;
    budget_stats st;
    double lb;
    expected(f.g, 50, BUDGET_ALLOW_OFFLOAD, &budget, &st, &lb);
    assert_true(a->bud.on);
    assert_int_equal(a->bud.st.offloaded_bytes, st.offloaded_bytes);
    assert_true(a->bud.host_peak > 0);
    assert_true(has(a, 200, 60, " Host: bytes offloaded, at most "));
    assert_false(has(a, 80, 24, "Host"));
    app_key(a, 'm');
    assert_string_equal(a->prompt.buf, "50% offload");
    app_key(a, K_ESC);
    close_app(&f);
}

/* The plan of resnet18_train at 80%, the first rerun next to pop and w's explanation of it
 * (the first after the cursor, none before it), at 80x24. */
static void test_golden_budget(void **state)
{
    (void)state;
    fixture f;
    open_given(&f, SAMPLE, 0);
    app *a = &f.a;
    set_budget(a, "80%");
    uint32_t v = app_budget_rerun_near(&a->bud, &a->st[0].r, 0);
    app_jump(a, a->st[0].r.pos[v]);
    app_key(a, 'w');
    assert_non_null(strstr(a->msg, " freed at step "));
    for (int utf8 = 1; utf8 >= 0; utf8--) {
        size_t len;
        char *got = render(a, 80, 24, utf8, !utf8, &len);
        check_golden(utf8 ? "budget-resnet18-80-80x24-utf8-color"
                          : "budget-resnet18-80-80x24-ascii-mono",
                     got, len);
        free(got);
    }
    close_app(&f);
}

/* The replay tools/runplan.py writes of a budget plan it ran: greedy's plan at 60% (with offload,
 * so that the host lane shows), each event measured at (predicted - 1000 - its number), the start
 * at 777; *after the predicted bytes after each event. */
static void plan_replay(const graph *g, replay_result *r, int64_t **after)
{
    budget_model bm;
    budget_plan p = {0};
    budget_outcome o;
    budget_stats st;
    char err[256];
    assert_int_equal(budget_model_init(&bm, g, err, sizeof err), 0);
    assert_int_equal(budget_given_plan(&bm, &p), 0);
    assert_int_equal(budget_check(&bm, &p, BUDGET_BANDWIDTH, &st, err, sizeof err), 0);
    budget_plan_free(&p);
    int64_t budget = st.peak * 60 / 100;
    assert_int_equal(
        budget_greedy(&bm,
                      &(budget_goal){budget, BUDGET_ALLOW_RECOMPUTE | BUDGET_ALLOW_OFFLOAD,
                                     BUDGET_BANDWIDTH, NULL},
                      NULL, &p, &o, NULL),
        0);
    assert_true(o.found);
    *after = malloc(p.n * sizeof **after);
    assert_int_equal(budget_check_memory(&bm, &p, BUDGET_BANDWIDTH, &st, *after, err, sizeof err),
                     0);
    assert_true(st.offloaded_bytes > 0 && st.reruns > 0);
    memset(r, 0, sizeof *r);
    snprintf(r->backend, sizeof r->backend, "torch-cpu");
    snprintf(r->mode, sizeof r->mode, "raw");
    snprintf(r->policy, sizeof r->policy, "given");
    r->n = r->total = (uint32_t)p.n;
    r->s = calloc(p.n, sizeof *r->s);
    r->plan_n = p.n;
    r->plan_op = malloc(p.n);
    r->plan_x = malloc(p.n * sizeof *r->plan_x);
    for (size_t k = 0; k < p.n; k++) {
        const budget_event *e = &p.ev[k];
        r->plan_op[k] = (uint8_t)e->op;
        r->plan_x[k] = e->op == BUDGET_RUN ? g->id[e->x] : g->buf_id[e->x];
        r->s[k] = (replay_sample){.step = (uint32_t)k,
                                  .node = r->plan_x[k],
                                  .predicted = (*after)[k],
                                  .measured = (*after)[k] - 1000 - (int64_t)k,
                                  .ms = 0.5};
    }
    r->plan_budget = budget;
    r->plan_bandwidth = BUDGET_BANDWIDTH;
    r->plan_start = 777;
    replay_summarize(r);
    budget_plan_free(&p);
    budget_model_free(&bm);
}

/* memtris view G --replay R of a budget plan: the budget view of that very plan, each plan-graph
 * step measured after its event (the steps before an event's last: before it; the start's
 * ALLOCs: the start), the curve's overlay; a replay whose predictions are not memtris's refused,
 * the view as it was. */
static void test_replay_of_a_plan(void **state)
{
    (void)state;
    fixture f;
    open_given(&f, SAMPLE, 0);
    app *a = &f.a;
    replay_result r, bad;
    int64_t *after;
    char err[512];
    plan_replay(f.g, &bad, &after);
    free(after);
    bad.s[3].predicted += 1;
    assert_int_equal(app_budget_replay(a, &bad, err, sizeof err), -1);
    assert_non_null(strstr(err, "event 4: the replay predicted "));
    assert_false(a->bud.on);
    assert_ptr_equal(a->g, f.g);
    assert_null(app_overlay(a));
    replay_result_free(&bad);

    plan_replay(f.g, &r, &after);
    size_t nev = r.plan_n;
    assert_int_equal(app_budget_replay(a, &r, err, sizeof err), 0);
    assert_null(r.s); /* taken */
    assert_true(a->bud.on && a->g == a->bud.pg && a->bud.st.offloaded_bytes > 0);
    assert_string_equal(a->pol->name, "given");
    assert_non_null(strstr(a->msg, "budget "));
    const replay_result *ov = app_overlay(a);
    assert_non_null(ov);
    const run *rn = &a->st[0].r;
    assert_int_equal(ov->n, rn->n);
    size_t lasts = 0;
    for (uint32_t t = 0; t < rn->n; t++) {
        uint32_t e = a->bud.map.event[rn->order[t]];
        int last = t + 1 == rn->n || a->bud.map.event[rn->order[t + 1]] != e;
        int64_t want = e == GRAPH_NONE ? 777
                       : last          ? after[e] - 1000 - (int64_t)e
                       : e             ? after[e - 1] - 1000 - (int64_t)(e - 1)
                                       : 777;
        assert_int_equal(ov->s[t].measured, want);
        assert_int_equal(ov->s[t].predicted, rn->memory[t]);
        if (last && e != GRAPH_NONE) {
            assert_int_equal(rn->memory[t], after[e]); /* the plan graph peaks as the plan does */
            lasts++;
        }
    }
    assert_int_equal(lasts, nev);
    assert_true(has(a, 200, 60, "measured (torch-cpu)"));
    assert_true(has(a, 200, 60, " Host: bytes offloaded, at most "));
    free(after);
    close_app(&f);
}

/* A graph without Latency: every rerun costs 0 ms, and the budget view says so: the message
 * line in budget's words (the terse form at 80 columns), the status bar's extra time marked,
 * no "optimal" to judge; with offload the words for copies. */
static void test_no_latency(void **state)
{
    (void)state;
    fixture f;
    f.g = tu_load_sample(SAMPLE, NULL);
    free(f.g->latency); /* as exported without --latency */
    f.g->latency = NULL;
    assert_false(budget_has_latency(f.g));
    assert_int_equal(
        app_init(&f.a, f.g, SAMPLE, policy_find("priority"), policy_find("fifo"), 0, NULL, NULL),
        0);
    app *a = &f.a;
    app_resize(a, 200, 60);
    set_budget(a, "80%");
    assert_true(a->bud.on && a->bud.timeless);
    assert_true(a->bud.st.reruns > 0 && a->bud.st.extra_ms == 0);
    char want[240];
    snprintf(want, sizeof want, "+0 ms; w: why; %s",
             budget_no_latency_words(BUDGET_ALLOW_RECOMPUTE, 0));
    assert_true(has(a, 200, 60, want));
    assert_true(has(a, 200, 60,
                    "the graph has no Latency: every plan costs 0 ms; export with --latency "
                    "flops|measure"));
    assert_true(status_has(a, 200, 60, " \u00b7 extra +0 ms (no Latency) \u00b7 "));
    assert_false(status_has(a, 200, 60, "optimal"));
    assert_true(has(a, 80, 24,
                    "no Latency: every plan costs 0 ms; export with --latency "
                    "flops|measure"));
    assert_string_equal(budget_no_latency_words(BUDGET_ALLOW_RECOMPUTE, 1),
                        "no Latency: every plan costs 0 ms; export with --latency flops|measure");
    expect_no_cuts(a, 80, 24, 1, "no Latency at 80x24");
    set_budget(a, "60% recompute,offload"); /* copies take time, reruns none */
    assert_true(a->bud.on && a->bud.st.offloaded_bytes > 0);
    assert_true(has(a, 200, 60,
                    "the graph has no Latency: every rerun costs 0 ms, only copies take time; "
                    "export with --latency flops|measure"));
    assert_true(
        has(a, 80, 24, "no Latency: reruns cost 0 ms; export with --latency flops|measure"));
    close_app(&f);
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_budget),
        cmocka_unit_test(test_status_fields),
        cmocka_unit_test(test_plan_view),
        cmocka_unit_test(test_explain),
        cmocka_unit_test(test_bad_answers),
        cmocka_unit_test(test_clear_and_keys),
        cmocka_unit_test(test_host_lane),
        cmocka_unit_test(test_golden_budget),
        cmocka_unit_test(test_no_latency),
        cmocka_unit_test(test_replay_of_a_plan),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
