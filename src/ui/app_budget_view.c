/* app_budget_view.c: the budget view's moves on the app: m opens the budget prompt; its answer
 * solves the graph the app was opened on under the budget and steps the plan, as a graph, under
 * policy given (or goes back to the plain view); w explains a rerun; s, c and o are off there.
 * Exports the app_budget_* of app_internal.h. */
#include <stdio.h>
#include <string.h>
#include "app_internal.h"
#include "keys.h"
#include "util/units.h"

#define BUDGET_PROMPT 'm' /* the prompt's kind: the key that opens it */

app_reaction app_budget_open(app *a)
{
    char offered[64] = "";
    if (a->bud.on) { /* the budget set, to edit */
        char b[32];
        if (a->bud.pct > 0) snprintf(offered, sizeof offered, "%g%%", a->bud.pct);
        else snprintf(offered, sizeof offered, "%s", units_bytes(b, sizeof b, a->bud.budget, 0));
        for (char *p = offered; *p; p++) /* "8.0 MiB" as the parser takes it: "8.0MiB" */
            if (*p == ' ') memmove(p, p + 1, strlen(p));
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
 * +12.3 ms; w: why" (the bytes offloaded too where offload is allowed). */
static void say(app *a)
{
    const app_budget *b = &a->bud;
    char x[32], y[32], z[32], t[32], pc[48] = "", off[48] = "";
    units_bytes(x, sizeof x, b->budget, 0);
    if (b->pct > 0)
        snprintf(pc, sizeof pc, " (%g%% of %s)", b->pct, units_bytes(y, sizeof y, b->free_peak, 0));
    if (b->allow & BUDGET_ALLOW_OFFLOAD)
        snprintf(off, sizeof off, ", %s offloaded",
                 units_bytes(y, sizeof y, b->st.offloaded_bytes, 0));
    snprintf(a->msg, sizeof a->msg, "budget %s%s: peak %s, %llu rerun%s%s, +%s; w: why", x, pc,
             units_bytes(z, sizeof z, b->st.peak, 0), (unsigned long long)b->st.reruns,
             b->st.reruns == 1 ? "" : "s", off, units_ms(t, sizeof t, b->st.extra_ms));
}

/* Enter: the answer's budget, solved and shown; the view as it was on any refusal. */
static void set(app *a, const char *text)
{
    int64_t bytes;
    double pct;
    unsigned allow;
    if (app_budget_read(text, &bytes, &pct, &allow, a->msg, sizeof a->msg)) return;
    if (a->place.job || a->rp.job) {
        snprintf(a->msg, sizeof a->msg, "the budget waits until the job ends; Esc cancels it");
        return;
    }
    const graph *g = a->bud.on ? a->bud.g : a->g;
    const policy *pol = a->bud.on ? a->bud.pol : a->pol;
    app_budget nb, old = a->bud;
    if (app_budget_solve(&nb, g, bytes, pct, allow, &a->ctx, a->msg, sizeof a->msg)) return;
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
