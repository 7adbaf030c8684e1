/* app_train.c: a training step on screen: given, the framework's own order, named as such in
 * the status bar, the opening message and the key bar, and what c's comparison with priority
 * saves said when it opens. Exports the app_train_* of app_train.h. */
#include "app_train.h"
#include <stdio.h>
#include <string.h>
#include "app_budget.h"
#include "util/units.h"

const policy *app_train_other(const graph *g, const policy *pol)
{
    return g->tag && pol == policy_find("given") ? policy_find("priority") : NULL;
}

int app_train_given(const app *a)
{
    return a->g->tag && !a->bud.on && a->pol == policy_find("given");
}

const char *app_train_label(const app *a)
{
    return app_train_given(a) ? " (the framework's order)" : "";
}

const char *app_train_bar_word(const app *a, char *buf, size_t cap)
{
    if (!app_train_given(a) || a->cmp.shown || !a->cmp.pol) return NULL;
    const char *n = a->cmp.pol->name;
    snprintf(buf, cap, "Vs%c%s", n[0] >= 'a' && n[0] <= 'z' ? n[0] - 'a' + 'A' : n[0], n + 1);
    return buf;
}

void app_train_hello(app *a)
{
    if (!app_train_given(a) || a->msg[0] || !a->cmp.pol) return; /* a load warning says more */
    const char *o = a->cmp.pol->name;
    snprintf(a->msg, sizeof a->msg,
             "given: the framework's own order, as the file lists it; c compares it with %s: "
             "what memtris saves over it%c"
             "given: the framework's own order; c compares it with %s%c"
             "given: the framework's order; c: vs %s",
             o, APP_MSG_ALT, o, APP_MSG_ALT, o);
}

void app_train_compared(app *a)
{
    if (!app_train_given(a) || !a->cmp.shown || !a->cmp.pol) return;
    const char *o = a->cmp.pol->name;
    int64_t mine = a->st[0].r.peak, other = a->st[1].r.peak, save = mine - other;
    char s[32], p1[32], p2[32];
    units_bytes(p1, sizeof p1, other, 0);
    units_bytes(p2, sizeof p2, mine, 0);
    if (save <= 0) {
        snprintf(a->msg, sizeof a->msg,
                 "%s saves nothing over given, the framework's order: peak %s against %s%c"
                 "%s saves nothing over the framework's order",
                 o, p1, p2, APP_MSG_ALT, o);
        return;
    }
    units_bytes(s, sizeof s, save, 0);
    double pct = mine > 0 ? 100.0 * (double)save / (double)mine : 0;
    snprintf(a->msg, sizeof a->msg,
             "%s saves %s (%.1f%%) over given, the framework's order: peak %s against %s%c"
             "%s saves %s (%.1f%%) over the framework's order%c"
             "%s saves %s (%.1f%%) over given",
             o, s, pct, p1, p2, APP_MSG_ALT, o, s, pct, APP_MSG_ALT, o, s, pct);
}
