/* app_budget_view.c: the budget view's moves on the app: m opens the budget prompt; its answer
 * solves the graph the app was opened on under the budget, along the stepped policy's order (its
 * own plan where that order fits), and steps the plan, as a graph, under
 * policy given (or goes back to the plain view); w explains a rerun; s, c and o are off there;
 * a plan that tools/runplan.py ran opens from its saved replay, measured over the curve.
 * Exports the app_budget_* of app_internal.h and app_budget_replay. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app_internal.h"
#include "keys.h"
#include "sched/budget/budget_arg.h"
#include "sched/budget/budget_say.h"
#include "util/units.h"

#define BUDGET_PROMPT 'm' /* the prompt's kind: the key that opens it */

app_reaction app_budget_open(app *a)
{
    char offered[64] = "";
    if (a->bud.on) { /* the budget set, to edit */
        char b[32];
        if (a->bud.pct_micro > 0) budget_arg_pct_words(offered, sizeof offered, a->bud.pct_micro);
        else snprintf(offered, sizeof offered, "%s", units_bytes(b, sizeof b, a->bud.budget, 0));
        for (char *p = offered; *p; p++) /* "8.0 MiB" as the parser takes it: "8.0MiB" */
            if (*p == ' ') memmove(p, p + 1, strlen(p));
        if (!a->bud.pct_micro && units_parse(offered) != a->bud.budget) /* not exact: bytes */
            snprintf(offered, sizeof offered, "%" PRId64, a->bud.budget);
        if (a->bud.allow & BUDGET_ALLOW_OFFLOAD)
            snprintf(offered + strlen(offered), sizeof offered - strlen(offered), " %s",
                     a->bud.allow & BUDGET_ALLOW_RECOMPUTE ? "recompute,offload" : "offload");
    }
    app_prompt_open(&a->prompt, BUDGET_PROMPT, offered);
    app_play_stop(&a->play);
    return APP_REDRAW;
}

/* Back to the graph the app was opened on, under the policy stepped before. */
static void clear(app *a)
{
    if (!a->bud.on) {
        snprintf(a->msg, sizeof a->msg, "no budget is set");
        return;
    }
    if (app_set_graph(a, a->bud.g, a->bud.pol)) {
        snprintf(a->msg, sizeof a->msg, "the budget stays: %.160s", a->err);
        return;
    }
    app_budget_free(&a->bud);
    snprintf(a->msg, sizeof a->msg, "budget cleared: the plain view of %s", a->pol->name);
}

/* What a budget set says: "budget 60.0 MiB (60% of 100.0 MiB): peak 59.9 MiB, 79 reruns,
 * +12.3 ms; w: why" (the bytes offloaded too where offload is allowed); on a graph without
 * Latency, then what that means (budget_no_latency_words), and that alone where the line is
 * narrower. */
static void say(app *a)
{
    const app_budget *b = &a->bud;
    char x[32], y[32], z[32], t[32], pc[48] = "", off[48] = "";
    units_bytes(x, sizeof x, b->budget, 0);
    if (b->as_is) { /* "priority's order already fits in 70% (86.7 MiB): no reruns needed" */
        char who[64] = "the given order";
        if (b->order && b->order != policy_find("given"))
            snprintf(who, sizeof who, "%s's order", b->order->name);
        if (b->pct_micro > 0)
            snprintf(pc, sizeof pc, "%s (%s)", budget_arg_pct_words(z, sizeof z, b->pct_micro), x);
        const char *in = b->pct_micro > 0 ? pc : x;
        snprintf(a->msg, sizeof a->msg,
                 "%s already fits in %s: no reruns needed (its peak %s)%c"
                 "%s already fits in %s: no reruns needed%c%s fits in %s: no reruns",
                 who, in, units_bytes(z, sizeof z, b->st.peak, 0), APP_MSG_ALT, who, in,
                 APP_MSG_ALT, who, x);
        return;
    }
    if (b->pct_micro > 0)
        snprintf(pc, sizeof pc, " (%s of %s)", budget_arg_pct_words(t, sizeof t, b->pct_micro),
                 units_bytes(y, sizeof y, b->free_peak, 0));
    if (b->allow & BUDGET_ALLOW_OFFLOAD)
        snprintf(off, sizeof off, ", %s offloaded",
                 units_bytes(y, sizeof y, b->st.offloaded_bytes, 0));
    snprintf(a->msg, sizeof a->msg, "budget %s%s: peak %s, %llu rerun%s%s, +%s; w: why", x, pc,
             units_bytes(z, sizeof z, b->st.peak, 0), (unsigned long long)b->st.reruns,
             b->st.reruns == 1 ? "" : "s", off, units_ms(t, sizeof t, b->st.extra_ms));
    if (!b->timeless) return;
    size_t n = strlen(a->msg);
    snprintf(a->msg + n, sizeof a->msg - n, "; %s%c%s%c%s", budget_no_latency_words(b->allow, 0),
             APP_MSG_ALT, budget_no_latency_words(b->allow, 0), APP_MSG_ALT,
             budget_no_latency_words(b->allow, 1));
}

/* Enter: the answer's budget, solved and shown; the view as it was on any refusal. */
static void set(app *a, const char *text)
{
    int64_t bytes, pct;
    unsigned allow;
    if (app_budget_read(text, &bytes, &pct, &allow, a->msg, sizeof a->msg)) return;
    if (a->place.job || a->rp.job) {
        snprintf(a->msg, sizeof a->msg, "the budget waits until the job ends; Esc cancels it");
        return;
    }
    const graph *g = a->bud.on ? a->bud.g : a->g;
    const policy *pol = a->bud.on ? a->bud.pol : a->pol;
    app_budget nb, old = a->bud;
    if (app_budget_solve(&nb, g, pol, bytes, pct, allow, &a->ctx, a->msg, sizeof a->msg)) return;
    nb.pol = pol;
    nb.on = 1;
    a->bud = nb; /* the views read it once the graph is the plan's */
    if (app_set_graph(a, nb.pg, policy_find("given"))) {
        snprintf(a->msg, sizeof a->msg, "cannot step the plan: %.160s", a->err);
        a->bud = old;
        app_budget_free(&nb);
        return;
    }
    app_budget_free(&old);
    app_budget_host(&a->bud, &a->st[0].r); /* out of memory: no host lane */
    say(a);
}

app_reaction app_budget_prompt_key(app *a, int key)
{
    if (key == K_ESC) {
        a->prompt.kind = 0;
        if (a->bud.on) clear(a);
        return APP_REDRAW | APP_RELAYOUT;
    }
    uint32_t step;
    if (app_prompt_key(&a->prompt, key, a->g->n, &step, a->msg, sizeof a->msg) != APP_PROMPT_BUDGET)
        return APP_REDRAW;
    const char *t = a->prompt.buf;
    while (*t == ' ') t++;
    if (!*t) clear(a);
    else set(a, t);
    return APP_REDRAW | APP_RELAYOUT;
}

app_reaction app_budget_explain_key(app *a)
{
    uint32_t v = app_budget_rerun_near(&a->bud, &a->st[0].r, a->st[0].k);
    if (v == GRAPH_NONE) {
        char x[32];
        if (a->bud.st.offloaded_bytes > 0)
            snprintf(a->msg, sizeof a->msg, "the plan reruns nothing: it offloads %s instead",
                     units_bytes(x, sizeof x, a->bud.st.offloaded_bytes, 0));
        else
            snprintf(a->msg, sizeof a->msg, "the plan reruns nothing: it fits in %s as it is",
                     units_bytes(x, sizeof x, a->bud.budget, 0));
        return APP_REDRAW;
    }
    app_budget_explain(&a->bud, &a->st[0].r, v, a->msg, sizeof a->msg);
    return APP_REDRAW;
}

int app_budget_refuses(app *a, int key)
{
    if (!a->bud.on) return 0;
    snprintf(a->msg, sizeof a->msg,
             "'%c' is off in the budget view (the plan steps under given); m, then an empty "
             "answer, leaves it",
             key);
    return 1;
}

/* ------------------------------------------------------------ a plan that ran */

/* The plan res ran, over g's indices: 0, or -1 with why. */
static int plan_of(const graph *g, const replay_result *res, budget_plan *p, char *err, size_t cap)
{
    for (size_t k = 0; k < res->plan_n; k++) {
        int is_run = res->plan_op[k] == BUDGET_RUN;
        uint32_t x = is_run ? graph_find(g, res->plan_x[k]) : graph_find_buf(g, res->plan_x[k]);
        if (x == GRAPH_NONE || (is_run && g->kind[x] != NODE_COMPUTE)) {
            snprintf(err, cap, "event %zu (%s %s %" PRId64 ") names no %s of the graph", k + 1,
                     budget_op_word(res->plan_op[k]), is_run ? "Id" : "BufId", res->plan_x[k],
                     is_run ? "compute node" : "buffer");
            return -1;
        }
        if (budget_plan_push(p, res->plan_op[k], x)) {
            snprintf(err, cap, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* The budget view of the plan res ran: b filled (not on yet), after[] the bytes memtris
 * predicts after each event; 0, or -1 with why. */
static int plan_view(app_budget *b, const graph *g, const replay_result *res, int64_t *after,
                     char *err, size_t cap)
{
    char why[256];
    b->g = g;
    b->budget = res->plan_budget;
    b->bandwidth = res->plan_bandwidth;
    b->allow = BUDGET_ALLOW_RECOMPUTE;
    for (size_t k = 0; k < res->plan_n; k++)
        if (res->plan_op[k] == BUDGET_OFFLOAD) b->allow |= BUDGET_ALLOW_OFFLOAD;
    if (app_budget_peak(b, err, cap)) return -1;
    if (plan_of(g, res, &b->plan, why, sizeof why) ||
        budget_check_memory(&b->bm, &b->plan, b->bandwidth, &b->st, after, why, sizeof why)) {
        snprintf(err, cap, "its plan is not one of this graph's: %s", why);
        return -1;
    }
    for (size_t k = 0; k < res->plan_n; k++)
        if (after[k] != res->s[k].predicted) {
            snprintf(err, cap,
                     "event %zu: the replay predicted %" PRId64 " bytes, memtris %" PRId64
                     " (made with another version of the graph?)",
                     k + 1, res->s[k].predicted, after[k]);
            return -1;
        }
    if (budget_plan_graph(&b->bm, &b->plan, b->bandwidth, &b->pg, &b->map, why, sizeof why)) {
        b->pg = NULL;
        snprintf(err, cap, "cannot show the plan: %s", why);
        return -1;
    }
    return 0;
}

/* res (one sample an event) as a replay of the plan graph's steps under given (r): each step
 * measured after its event, the steps before an event's last (its ALLOCs, an offload's copy)
 * as before the event, the start's ALLOCs as at the start. 0, or -1 out of memory. */
static int plan_steps(const app_budget *b, const run *r, const replay_result *res,
                      replay_result *out)
{
    *out = *res;
    out->plan_op = NULL;
    out->plan_x = NULL;
    out->plan_n = 0;
    snprintf(out->policy, sizeof out->policy, "given");
    out->s = calloc((size_t)r->n + 1, sizeof *out->s);
    if (!out->s) return -1;
    out->n = out->total = r->n;
    for (uint32_t t = 0; t < r->n; t++) {
        uint32_t i = r->order[t], e = b->map.event[i];
        int last = t + 1 == r->n || b->map.event[r->order[t + 1]] != e;
        replay_sample *s = &out->s[t];
        s->step = t;
        s->node = b->pg->id[i];
        s->predicted = r->memory[t];
        if (e == GRAPH_NONE) s->measured = res->plan_start;
        else if (!last) s->measured = e ? res->s[e - 1].measured : res->plan_start;
        else {
            s->measured = res->s[e].measured;
            s->ms = res->s[e].ms;
        }
    }
    replay_summarize(out);
    return 0;
}

int app_budget_replay(app *a, replay_result *res, char *err, size_t cap)
{
    int64_t *after = malloc((res->plan_n + 1) * sizeof *after);
    app_budget nb;
    memset(&nb, 0, sizeof nb);
    if (!after || plan_view(&nb, a->g, res, after, err, cap)) {
        if (!after) snprintf(err, cap, "out of memory");
        free(after);
        app_budget_free(&nb);
        return -1;
    }
    free(after);
    nb.pol = a->pol;
    nb.on = 1;
    a->bud = nb;
    replay_result steps;
    if (app_set_graph(a, nb.pg, policy_find("given")) ||
        plan_steps(&a->bud, &a->st[0].r, res, &steps)) {
        snprintf(err, cap, "cannot step the plan: %s", a->bud.pg ? a->err : "out of memory");
        if (a->g == a->bud.pg) app_set_graph(a, a->bud.g, a->bud.pol);
        app_budget_free(&a->bud);
        return -1;
    }
    app_budget_host(&a->bud, &a->st[0].r);
    app_set_replay(a, &steps);
    replay_result_free(res); /* its steps were the events' */
    say(a);
    return 0;
}
