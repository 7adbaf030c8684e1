/* budget_exact_dom.c: dominance among the exact search's states: of two states with the same
 * compute nodes run, one whose present versions are a superset of the other's at no more cost
 * is never worse (whatever the other does next it can do after freeing the difference), so the
 * other is not kept, or not expanded. The states are grouped by their runs (a hash of the run
 * words to the newest state of the group, each state linked to the one before). Recompute
 * only: with offload an eviction is an offload, which replaces the host's copy of another
 * version, so a superset present does not always do what a subset does. Exports xdom_*. */
#include <stdlib.h>
#include <string.h>
#include "budget_exact_internal.h"

/* The most states of a group compared with a new one: the newest first (a partial look only
 * prunes less). */
#define XDOM_SCAN 256

static uint64_t hash_ran(const xs *x, const uint64_t *s)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < x->wr; i++) {
        h ^= s[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xbf58476d1ce4e5b9ULL;
    }
    return h ^ (h >> 31);
}

/* The slot of s's group (its newest state), or the empty slot where it would go. */
static size_t slot_of(const xs *x, const uint64_t *s)
{
    size_t mask = x->dcap - 1, h = hash_ran(x, s) & mask;
    while (x->dslot[h] != UINT32_MAX &&
           memcmp(stateset_at(&x->seen, x->dslot[h]), s, x->wr * sizeof *s))
        h = (h + 1) & mask;
    return h;
}

/* Whether present set a holds every version b holds. */
static int superset(const xs *x, const uint64_t *a, const uint64_t *b)
{
    for (size_t i = 0; i < x->wp; i++)
        if (PRES(x, b)[i] & ~PRES(x, a)[i]) return 0;
    return 1;
}

int xdom_reserve(xs *x, uint32_t states)
{
    if (x->offload) return 0;
    uint32_t *nx = realloc(x->dnext, (size_t)states * sizeof *nx);
    if (nx) x->dnext = nx;
    uint8_t *dd = nx ? realloc(x->dead, states) : NULL;
    if (dd) x->dead = dd;
    if (!dd) return -1;
    if ((size_t)states * 2 <= x->dcap) return 0;
    size_t cap = x->dcap ? x->dcap : 1024;
    while (cap < (size_t)states * 2) cap *= 2;
    uint32_t *old = x->dslot;
    size_t oldcap = x->dcap;
    x->dslot = malloc(cap * sizeof *x->dslot);
    if (!x->dslot) {
        x->dslot = old;
        return -1;
    }
    memset(x->dslot, 0xff, cap * sizeof *x->dslot);
    x->dcap = cap;
    for (size_t k = 0; k < oldcap; k++)
        if (old[k] != UINT32_MAX) x->dslot[slot_of(x, stateset_at(&x->seen, old[k]))] = old[k];
    free(old);
    return 0;
}

int xdom_pruned(xs *x, const uint64_t *s, double g, uint32_t self)
{
    if (x->offload || !x->dcap) return 0;
    uint32_t j = x->dslot[slot_of(x, s)];
    for (int n = 0; j != UINT32_MAX && n < XDOM_SCAN; j = x->dnext[j], n++)
        if (j != self && x->rec[j].g <= g && superset(x, stateset_at(&x->seen, j), s)) return 1;
    return 0;
}

void xdom_add(xs *x, uint32_t k, double g, int fresh)
{
    if (x->offload) return;
    const uint64_t *s = stateset_at(&x->seen, k);
    size_t h = slot_of(x, s);
    if (fresh) { /* the newest of its group */
        x->dnext[k] = x->dslot[h];
        x->dslot[h] = k;
    }
    x->dead[k] = 0;
    /* the states it dominates are not expanded (they stay, so that their copies are known) */
    uint32_t j = x->dslot[h];
    for (int n = 0; j != UINT32_MAX && n < XDOM_SCAN; j = x->dnext[j], n++)
        if (j != k && !x->dead[j] && g <= x->rec[j].g && superset(x, s, stateset_at(&x->seen, j)))
            x->dead[j] = 1;
}

void xdom_free(xs *x)
{
    free(x->dslot);
    free(x->dnext);
    free(x->dead);
}
