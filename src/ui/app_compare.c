/* app_compare.c: compare mode's other side: building it (at once, or
 * through the background job when it is exact's search), where the two
 * orders part, o (compare with the optimum) and the bound every run is
 * proven against. Exports the app_* compare functions of app_internal.h
 * and app_bound. */
#include <stdio.h>
#include <stdlib.h>
#include "app_internal.h"

/* Where the two sides' orders part (the first is diverge). */
void app_set_partings(app *a)
{
    a->diverge = policy_diverge(&a->st[0].r, &a->st[1].r);
    uint32_t *p = realloc(a->parts, ((size_t)a->g->n + 1) * sizeof *p);
    if (!p) { /* only d misses them: it says the orders are the same */
        a->nparts = 0;
        return;
    }
    a->parts = p;
    a->nparts = policy_partings(&a->st[0].r, &a->st[1].r, p);
}

/* st (taken) becomes the other side for pol, at the stepped side's step. */
static void install(app *a, stepper *st, const policy *pol)
{
    if (a->have_cmp) step_free(&a->st[1]);
    a->st[1] = *st;
    a->have_cmp = 1;
    a->cmp_pol = pol;
    app_set_partings(a);
    step_jump(&a->st[1], a->st[0].k);
}

/* (Re)builds the compare side for cmp_pol; the app is unchanged on failure. */
int app_init_cmp(app *a, const policy *cmp_pol)
{
    stepper st;
    if (app_make_side(a, cmp_pol, &st, NULL)) return -1;
    install(a, &st, cmp_pol);
    return 0;
}

void app_take_other(app *a, stepper *st, const policy *pol)
{
    install(a, st, pol);
    int opt;
    int64_t lb = app_bound(a, &opt); /* what the new side proved holds for both */
    policy_prove(&a->st[0].r, lb);
    policy_prove(&a->st[1].r, lb);
    char gap[64]; /* without the bound, to fit 80 columns: the curve draws it */
    policy_gap_words(&a->st[0].r, 0, gap, sizeof gap);
    snprintf(a->msg, sizeof a->msg, "%s vs %s: %s; d: where they part, w: why", a->pol->name,
             pol->name, gap);
    if (!a->compare) {
        a->compare = 1;
        app_resize(a, a->lay.w, a->lay.h);
    }
    app_after_move(a);
}

/* o: compare mode against exact's order (searched in the background). */
void app_compare_optimum(app *a)
{
    const policy *x = policy_at(0);
    for (size_t i = 0; policy_at(i); i++)
        if (policy_at(i)->kind == POLICY_EXACT) x = policy_at(i);
    if (a->pol == x) {
        snprintf(a->msg, sizeof a->msg, "the stepped policy is exact; s picks another to compare");
        return;
    }
    if (a->have_cmp && a->cmp_pol == x) {
        if (!a->compare) app_toggle_compare(a);
        return;
    }
    app_place_start(a, x, 1, a->placer);
}

/* The c key: compare mode on or off, laid out again at the last size. */
app_reaction app_toggle_compare(app *a)
{
    if (!a->have_cmp && a->cmp_pol->kind == POLICY_EXACT) { /* a search: in the background */
        app_place_start(a, a->cmp_pol, 1, a->placer);
        return APP_REDRAW;
    }
    if (!a->have_cmp && app_init_cmp(a, a->cmp_pol)) {
        snprintf(a->msg, sizeof a->msg, "cannot compare with %s: %.150s", a->cmp_pol->name, a->err);
        return APP_REDRAW;
    }
    a->compare = !a->compare;
    if (!a->compare && a->arena == ARENA_LIVE) a->live_side = 1; /* the other side's list goes with it */
    app_resize(a, a->lay.w, a->lay.h);
    app_after_move(a);
    return APP_REDRAW | APP_RELAYOUT;
}

int64_t app_bound(const app *a, int *optimal)
{
    int64_t lb = a->bound;
    int sides = a->have_cmp ? 2 : 1; /* a proof holds shown or not */
    for (int i = 0; i < sides; i++)
        if (a->st[i].r.lower_bound > lb) lb = a->st[i].r.lower_bound;
    *optimal = 0;
    for (int i = 0; i < sides; i++) *optimal |= a->st[i].r.peak == lb;
    return lb;
}
