/* app_budget.c: the budget view's work, knowing nothing of the app: the prompt's answer read,
 * the plan asked of budget_fit (solved and checked) and made a graph (budget_plan_graph), the bytes
 * on the host at each step, and why a rerun was needed, in figures and in words. Exports the
 * app_budget_* of app_budget.h. */
#include "app_budget.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "defaults.h"
#include "sched/budget/budget_arg.h"
#include "sched/budget/budget_fit.h"
#include "sched/budget/budget_say.h"
#include "util/units.h"
#include "util/utf8.h"

int app_budget_read(const char *text, int64_t *bytes, int64_t *pct, unsigned *allow, char *msg,
                    size_t cap)
{
    char size[64];
    while (*text == ' ') text++;
    size_t n = strcspn(text, " ");
    const char *rest = text + n;
    while (*rest == ' ') rest++;
    size_t unit = strcspn(rest, " "); /* "99.0 MiB", as the status bar writes it */
    snprintf(size, sizeof size, "%.*s", (int)(rest + unit - text), text);
    if (*rest && rest + unit - text < (ptrdiff_t)sizeof size && units_parse(size) >= 0) {
        n = (size_t)(rest + unit - text);
        for (rest += unit; *rest == ' '; rest++) {}
    }
    snprintf(size, sizeof size, "%.*s", (int)(n < sizeof size ? n : sizeof size - 1), text);
    if (n >= sizeof size || budget_arg_parse(size, bytes, pct)) {
        snprintf(msg, cap, "the budget wants " BUDGET_ARG_WANTS ", not '%.40s'", text);
        return -1;
    }
    *allow = BUDGET_ALLOW_RECOMPUTE;
    if (*rest && budget_arg_allow(rest, allow)) {
        snprintf(msg, cap, "after the budget: recompute, offload or recompute,offload, not '%.40s'",
                 rest);
        return -1;
    }
    return 0;
}

void app_budget_free(app_budget *b)
{
    if (b->bm.g) budget_model_free(&b->bm);
    budget_plan_free(&b->plan);
    if (b->pg) graph_free(b->pg);
    budget_graph_map_free(&b->map);
    free(b->host);
    memset(b, 0, sizeof *b);
}

/* budget_fit of b->g at bytes (or b->pct_micro of its peak) with the TUI's solver; the model, the
 * plan and its figures moved into b (b owns them whatever the answer). 0 with *res said, or -1. */
static int fit(app_budget *b, int64_t bytes, const solve_ctx *c, budget_result *res)
{
    budget_request rq = {.g = b->g,
                         .budget = bytes,
                         .pct_micro = b->pct_micro,
                         .allow = b->allow,
                         .bandwidth = b->bandwidth,
                         .solver = budget_solver_find(DEFAULT_TUI_BUDGET_SOLVER),
                         .c = c,
                         .want = BUDGET_WANT_LEAST,
                         .order = b->order};
    memset(res, 0, sizeof *res);
    int r = budget_fit(&rq, res);
    b->bm = res->bm;
    b->plan = res->plan;
    b->st = res->st;
    b->lb_ms = res->proof.lower_bound_ms;
    b->proven = res->proof.proven || res->st.extra_ms <= 0;
    b->timeless = !budget_has_latency(b->g);
    b->free_peak = res->free_peak;
    b->order_peak = res->order_peak;
    b->as_is = !r && res->found && res->budget >= res->order_peak;
    b->budget = res->budget;
    memset(&res->bm, 0, sizeof res->bm);
    memset(&res->plan, 0, sizeof res->plan);
    return r;
}

int app_budget_peak(app_budget *b, char *msg, size_t cap)
{
    budget_result res;
    int64_t budget = b->budget;
    int r = fit(b, INT64_MAX, NULL, &res);
    b->budget = budget;
    b->as_is = 0; /* the peak alone: no budget was met */
    budget_plan_free(&b->plan);
    if (r && res.error == BUDGET_FIT_MODEL) snprintf(msg, cap, "%s", res.err);
    else if (r) snprintf(msg, cap, "its plan is not one of this graph's: %s", res.err);
    budget_result_free(&res);
    return r;
}

/* budget_fit's answer in the view's words into msg: -1, or 0 when there is a plan. */
static int said(const budget_result *res, int failed, char *msg, size_t cap)
{
    char a1[64], a2[32];
    const char *solver = DEFAULT_TUI_BUDGET_SOLVER;
    units_bytes_beside(a1, sizeof a1, res->budget, res->bound); /* both 8.0 PiB: its bytes */
    units_bytes(a2, sizeof a2, res->bound, 0);
    if (failed && res->error == BUDGET_FIT_MODEL)
        snprintf(msg, cap, "no budget view: %.150s", res->err);
    else if (failed && res->error == BUDGET_FIT_GIVEN)
        snprintf(msg, cap, "no budget view: the given order's plan: %.140s", res->err);
    else if (failed && res->error == BUDGET_FIT_RANGE) snprintf(msg, cap, "%.190s", res->err);
    else if (failed && res->error == BUDGET_FIT_INVALID)
        snprintf(msg, cap, "internal error: %s made an invalid plan: %.130s", solver, res->err);
    else if (failed) snprintf(msg, cap, "no budget view: out of memory");
    else if (res->found) return 0;
    else if (res->budget < res->bound && res->least >= 0)
        snprintf(msg, cap, "no plan fits in %s; the least budget any plan fits in is %s", a1, a2);
    else if (res->budget < res->bound)
        snprintf(msg, cap, "no plan fits in %s; every plan needs at least %s", a1, a2);
    else
        snprintf(msg, cap, "%s found no plan that fits in %s; none fits under %s (%.90s)", solver,
                 a1, a2, res->out.why);
    return -1;
}

/* app_budget_solve's work; -1 with msg, leaving b for the caller to free. */
static int solve(app_budget *b, int64_t bytes, const solve_ctx *c, char *msg, size_t cap)
{
    char err[256];
    budget_result res;
    int failed = fit(b, bytes, c, &res);
    int r = said(&res, failed, msg, cap);
    budget_result_free(&res);
    if (r) return -1;
    if (budget_plan_graph(&b->bm, &b->plan, b->bandwidth, &b->pg, &b->map, err, sizeof err)) {
        b->pg = NULL;
        snprintf(msg, cap, "cannot show the plan: %.160s", err);
        return -1;
    }
    return 0;
}

int app_budget_solve(app_budget *b, const graph *g, const policy *order, int64_t bytes, int64_t pct,
                     unsigned allow, const solve_ctx *c, char *msg, size_t cap)
{
    memset(b, 0, sizeof *b);
    b->g = g;
    b->order = order;
    b->pct_micro = pct;
    b->allow = allow;
    b->bandwidth = BUDGET_BANDWIDTH;
    if (solve(b, bytes, c, msg, cap) == 0) return 0;
    app_budget_free(b);
    return -1;
}

int app_budget_host(app_budget *b, const run *r)
{
    free(b->host);
    b->host_peak = 0;
    b->host = calloc((size_t)r->n + 1, sizeof *b->host);
    if (!b->host) return -1;
    int64_t h = 0;
    for (uint32_t t = 0; t < r->n; t++) {
        uint32_t i = r->order[t], k = b->map.kind[i];
        if (k == BPG_OFFLOAD) h += b->g->buf_size[b->map.of[i]];
        else if (k == BPG_FETCH) h -= b->g->buf_size[b->map.of[i]];
        b->host[t + 1] = h;
        if (h > b->host_peak) b->host_peak = h;
    }
    return 0;
}

uint32_t app_budget_rerun_near(const app_budget *b, const run *r, uint32_t k)
{
    if (!b->on) return GRAPH_NONE;
    for (uint32_t t = k; t > 0; t--)
        if (b->map.kind[r->order[t - 1]] == BPG_RERUN) return r->order[t - 1];
    for (uint32_t t = k; t < r->n; t++)
        if (b->map.kind[r->order[t]] == BPG_RERUN) return r->order[t];
    return GRAPH_NONE;
}

/* Buffer x's last FREE before step vs (its step, 0: none) and the ALLOC that makes it again
 * after that FREE (its step; vs when none does before vs). */
static void away(const app_budget *b, const run *r, uint32_t x, uint32_t vs, uint32_t *f,
                 uint32_t *al)
{
    *f = 0;
    *al = vs;
    for (uint32_t t = 1; t < vs; t++) {
        uint32_t i = r->order[t - 1], k = b->map.kind[i];
        if ((k != BPG_FREE && k != BPG_ALLOC) || b->map.of[i] != x) continue;
        if (k == BPG_FREE) {
            *f = t;
            *al = vs;
        } else if (*f && *al == vs) *al = t;
    }
}

app_budget_why app_budget_why_of(const app_budget *b, const run *r, uint32_t v)
{
    app_budget_why w = {GRAPH_NONE, 0, r->pos[v] + 1, 0};
    const budget_model *bm = &b->bm;
    uint32_t u = b->map.of[v];
    for (uint32_t j = bm->wr_off[u]; j < bm->wr_off[u + 1]; j++) {
        uint32_t x = bm->phys[bm->wr[j]], f, al;
        away(b, r, x, w.rerun_step, &f, &al);
        if (!f || (w.buf != GRAPH_NONE && b->g->buf_size[x] <= b->g->buf_size[w.buf])) continue;
        int64_t most = 0;
        for (uint32_t t = f; t < al; t++)
            if (r->memory[t - 1] > most) most = r->memory[t - 1];
        w.buf = x;
        w.freed_step = f;
        w.would_peak = most + b->g->buf_size[x];
    }
    return w;
}

const char *app_budget_explain(const app_budget *b, const run *r, uint32_t v, char *out, size_t cap)
{
    const graph *g = b->g;
    app_budget_why w = app_budget_why_of(b, r, v);
    char nm[GRAPH_LABEL_MAX], pr[64], a1[32], a2[32];
    uint32_t u = b->map.of[v];
    if (w.buf == GRAPH_NONE) {
        snprintf(out, cap,
                 "node %" PRId64 " (%s) reruns at step %u: none of its outputs was freed "
                 "before it",
                 g->id[u], utf8_printable(graph_display(g, u, nm, sizeof nm), pr, sizeof pr),
                 w.rerun_step);
        return out;
    }
    /* the buffer by its name (its ALLOC's, else bN); shortened from the left in the short forms */
    char bn[256], full[300], brief[96];
    utf8_printable(graph_buf_display(g, w.buf, bn, sizeof bn), full, sizeof full);
    utf8_fit_left(full, 24, brief, sizeof brief);
    units_bytes(a1, sizeof a1, w.would_peak, 0);
    units_bytes(a2, sizeof a2, b->budget, 0);
    if (!strcmp(a1, a2)) { /* "9.1 MiB over the 9.1 MiB budget": the bytes say it */
        snprintf(a1, sizeof a1, "%" PRId64 " B", w.would_peak);
        snprintf(a2, sizeof a2, "%" PRId64 " B", b->budget);
    }
    const char *over = w.would_peak > b->budget ? "over" : "within";
    const char *cmp = w.would_peak > b->budget ? ">" : "<=";
    /* The sentence, then shorter forms for a narrow screen (the why line shows the first
     * that fits): never a cut word or figure. */
    snprintf(out, cap,
             "%s freed at step %u, rerun at step %u: keeping it would have peaked at %s %s the "
             "%s budget%c"
             "%s freed at step %u, rerun at %u: kept, it peaks at %s %s %s%c"
             "%s rerun at step %u: kept, %s %s %s",
             full, w.freed_step, w.rerun_step, a1, over, a2, APP_MSG_ALT, brief, w.freed_step,
             w.rerun_step, a1, cmp, a2, APP_MSG_ALT, brief, w.rerun_step, a1, cmp, a2);
    return out;
}
