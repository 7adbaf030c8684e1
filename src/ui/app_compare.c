/* app_compare.c: compare mode's state: where the two orders part, what each side pops there, the
 * bound every run is proven against, o's policy (app.c builds and shows the sides). Exports the
 * app_compare_* of app_compare.h. */
#include "app_compare.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "sched/policy/part_why.h"

void app_compare_free(app_compare *c)
{
    free(c->parts);
    c->parts = NULL;
    c->nparts = 0;
}

void app_compare_set_partings(app_compare *c, uint32_t n, const run *mine, const run *other)
{
    c->diverge = policy_diverge(mine, other);
    uint32_t *p = realloc(c->parts, ((size_t)n + 1) * sizeof *p);
    c->why_at = UINT32_MAX;
    if (!p) { /* only d misses them: it says the orders are the same */
        c->nparts = 0;
        return;
    }
    c->parts = p;
    c->nparts = policy_partings(mine, other, p);
    c->why_at = UINT32_MAX;
}

const char *app_compare_words(const graph *g, const stepper *m, const stepper *o, uint32_t s,
                              char *out, size_t cap)
{
    char l1[GRAPH_LABEL_MAX], l2[GRAPH_LABEL_MAX];
    uint32_t u = o->r.order[s], v = m->r.order[s];
    snprintf(out, cap, "%s pops node %" PRId64 " (%s), %s pops node %" PRId64 " (%s)", o->pol->name,
             g->id[u], graph_label(g, u, l1, sizeof l1), m->pol->name, g->id[v],
             graph_label(g, v, l2, sizeof l2));
    return out;
}

const char *app_compare_part_text(const app_compare *c, const graph *g, const stepper st[2],
                                  uint32_t k, char *out, size_t cap)
{
    for (uint32_t i = 0; i < c->nparts; i++)
        if (c->parts[i] + 1 == k) {
            char what[160];
            app_compare_words(g, &st[0], &st[1], c->parts[i], what, sizeof what);
            snprintf(out, cap, "the orders part at step %u (%u of %u): %s", k, i + 1, c->nparts,
                     what);
            return out;
        }
    return NULL;
}

void app_compare_explain(app_compare *c, const graph *g, const stepper st[2], uint32_t k)
{
    if (!c->nparts) {
        c->why[0][0] = c->why[1][0] = 0;
        c->why_at = UINT32_MAX;
        return;
    }
    uint32_t j = 0;
    while (j + 1 < c->nparts && c->parts[j + 1] + 1 <= k) j++;
    if (j == c->why_at) return;
    for (int i = 0; i < 2; i++) {
        char took[sizeof c->why[0] - 16]; /* room for "step N: " */
        part_side a = {st[i].pol, &st[i].r}, b = {st[!i].pol, &st[!i].r};
        part_why_took(g, a, b, c->parts[j], took, sizeof took);
        if (j) snprintf(c->why[i], sizeof c->why[i], "step %u: %s", c->parts[j] + 1, took);
        else snprintf(c->why[i], sizeof c->why[i], "%s", took);
    }
    c->why_at = j;
}

const char *app_compare_why(const app_compare *c, int i, char *out, size_t cap)
{
    snprintf(out, cap, "%s", c->nparts ? c->why[i] : "");
    return out;
}

int64_t app_compare_bound(int64_t bound, const stepper *st, int sides, int *optimal)
{
    int64_t lb = bound; /* a proof holds shown or not */
    for (int i = 0; i < sides; i++)
        if (st[i].r.lower_bound > lb) lb = st[i].r.lower_bound;
    *optimal = 0;
    for (int i = 0; i < sides; i++) *optimal |= st[i].r.peak == lb;
    return lb;
}

const policy *app_compare_exact(void)
{
    const policy *x = policy_at(0);
    for (size_t i = 0; policy_at(i); i++)
        if (policy_at(i)->kind == POLICY_EXACT) x = policy_at(i);
    return x;
}
