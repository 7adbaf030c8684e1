/* app_compare.h: compare mode's state (the other side's policy, whether it is
 * built and shown, where the two orders part) and what is worked out from it,
 * knowing nothing of the app. Exports app_compare_*. */
#ifndef MEMTRIS_APP_COMPARE_H
#define MEMTRIS_APP_COMPARE_H
#include <stddef.h>
#include <stdint.h>
#include "sched/graph/graph.h"
#include "sched/policy/step.h"

typedef struct app_compare {
    const policy *pol; /* the other side's policy */
    int have;          /* the other side (the app's st[1]) is built */
    int shown;         /* compare mode shown */
    uint32_t diverge;  /* first step (0-based) where the orders differ, n if never */
    uint32_t *parts;   /* where the orders part (policy_partings, 0-based) */
    uint32_t nparts;
    /* Why each side took its node at the parting the cursor is at or has passed last
     * (app_compare_explain, when the cursor moves: its search never runs while a view draws):
     * the parting's index, UINT32_MAX when not worked out since the partings changed. */
    uint32_t why_at;
    char why[2][512];
} app_compare;

void app_compare_free(app_compare *c);
/* Where the orders of mine (the stepped side) and other part (the first is
 * diverge); n is the graph's node count. */
void app_compare_set_partings(app_compare *c, uint32_t n, const run *mine, const run *other);
/* "fifo pops node 3 (alloc b2), priority pops node 4 (free b1)": what the
 * other side o and the stepped side m pop at step s (0-based). Returns out. */
const char *app_compare_words(const graph *g, const stepper *m, const stepper *o, uint32_t s,
                              char *out, size_t cap);
/* "the orders part at step 7 (2 of 3): ..." when step k (1-based) is a
 * parting of st[0] (stepped) and st[1] (other), else NULL. */
const char *app_compare_part_text(const app_compare *c, const graph *g, const stepper st[2],
                                  uint32_t k, char *out, size_t cap);
/* Works out why each side (0: st[0], the stepped; 1: st[1]) took its node at the parting the
 * cursor (step k, 1-based) is at or has passed last (the first parting before any), as
 * part_why_took says it (a bounded search for a whole-order policy), after "step N: " where
 * that is not the first; "" when the orders never part. Kept in c->why until the cursor
 * reaches another parting or the partings change. */
void app_compare_explain(app_compare *c, const graph *g, const stepper st[2], uint32_t k);
/* Side i's words of app_compare_explain into out. Returns out. */
const char *app_compare_why(const app_compare *c, int i, char *out, size_t cap);
/* The best proven bound on g's least peak: bound (the graph's) or any the
 * runs of st[0 .. sides-1] proved; *optimal: a run peaks there. */
int64_t app_compare_bound(int64_t bound, const stepper *st, int sides, int *optimal);
/* o's other side: exact's policy (the table's first when it has none). */
const policy *app_compare_exact(void);

#endif
