/* gaps.c: treap of free gaps keyed by address, each node carrying the
 * largest gap of its subtree so first fit descends in one path; optionally a
 * second treap over the same nodes keyed by (len, off), for best fit. */
#include "gaps.h"
#include <stdlib.h>
#include <string.h>

int gaps_init(gaps *t, uint32_t cap)
{
    memset(t, 0, sizeof *t);
    t->n = malloc(((size_t)cap + 1) * sizeof *t->n);
    if (!t->n) return -1;
    t->cap = cap + 1;
    t->root = t->free_list = GAPS_NONE;
    t->seed = 0x9E3779B97F4A7C15ULL;
    t->sroot = GAPS_NONE;
    return 0;
}

int gaps_init_sized(gaps *t, uint32_t cap)
{
    if (gaps_init(t, cap)) return -1;
    t->sized = 1;
    return 0;
}

void gaps_free(gaps *t)
{
    free(t->n);
    memset(t, 0, sizeof *t);
}

static int64_t max_of(const gaps *t, uint32_t i) { return i == GAPS_NONE ? -1 : t->n[i].max; }

static void pull(gaps *t, uint32_t i)
{
    gap_node *x = &t->n[i];
    int64_t m = x->len, l = max_of(t, x->left), r = max_of(t, x->right);
    x->max = m > l ? (m > r ? m : r) : (l > r ? l : r);
}

/* Splits subtree i into keys < off (*a) and keys >= off (*b). */
static void split(gaps *t, uint32_t i, int64_t off, uint32_t *a, uint32_t *b)
{
    if (i == GAPS_NONE) {
        *a = *b = GAPS_NONE;
        return;
    }
    if (t->n[i].off < off) {
        split(t, t->n[i].right, off, &t->n[i].right, b);
        *a = i;
    } else {
        split(t, t->n[i].left, off, a, &t->n[i].left);
        *b = i;
    }
    pull(t, i);
}

/* Joins a and b, every key of a below every key of b. */
static uint32_t merge(gaps *t, uint32_t a, uint32_t b)
{
    if (a == GAPS_NONE) return b;
    if (b == GAPS_NONE) return a;
    if (t->n[a].prio > t->n[b].prio) {
        t->n[a].right = merge(t, t->n[a].right, b);
        pull(t, a);
        return a;
    }
    t->n[b].left = merge(t, a, t->n[b].left);
    pull(t, b);
    return b;
}

/* The size index: the same nodes, linked by sleft/sright, ordered by (len, off). */
static int size_less(const gap_node *x, int64_t len, int64_t off)
{
    return x->len < len || (x->len == len && x->off < off);
}

/* Splits size subtree i into keys < (len, off) (*a) and the rest (*b). */
static void ssplit(gaps *t, uint32_t i, int64_t len, int64_t off, uint32_t *a, uint32_t *b)
{
    if (i == GAPS_NONE) {
        *a = *b = GAPS_NONE;
        return;
    }
    if (size_less(&t->n[i], len, off)) {
        ssplit(t, t->n[i].sright, len, off, &t->n[i].sright, b);
        *a = i;
    } else {
        ssplit(t, t->n[i].sleft, len, off, a, &t->n[i].sleft);
        *b = i;
    }
}

static uint32_t smerge(gaps *t, uint32_t a, uint32_t b)
{
    if (a == GAPS_NONE) return b;
    if (b == GAPS_NONE) return a;
    if (t->n[a].prio > t->n[b].prio) {
        t->n[a].sright = smerge(t, t->n[a].sright, b);
        return a;
    }
    t->n[b].sleft = smerge(t, a, t->n[b].sleft);
    return b;
}

uint32_t gaps_best_fit(const gaps *t, int64_t len)
{
    uint32_t i = t->sroot, best = GAPS_NONE;
    while (i != GAPS_NONE) {
        if (t->n[i].len >= len) {
            best = i;
            i = t->n[i].sleft;
        } else i = t->n[i].sright;
    }
    return best;
}

uint32_t gaps_insert(gaps *t, int64_t off, int64_t len)
{
    uint32_t i;
    if (t->free_list != GAPS_NONE) {
        i = t->free_list;
        t->free_list = t->n[i].left;
    } else if (t->used < t->cap) {
        i = t->used++;
    } else {
        return GAPS_NONE;
    }
    t->seed ^= t->seed << 13;
    t->seed ^= t->seed >> 7;
    t->seed ^= t->seed << 17; /* xorshift64 */
    t->n[i] = (gap_node){off,       len,      len, GAPS_NONE, GAPS_NONE, (uint32_t)(t->seed >> 32),
                         GAPS_NONE, GAPS_NONE};
    uint32_t a, b;
    split(t, t->root, off, &a, &b);
    t->root = merge(t, merge(t, a, i), b);
    if (t->sized) {
        ssplit(t, t->sroot, len, off, &a, &b);
        t->sroot = smerge(t, smerge(t, a, i), b);
    }
    return i;
}

void gaps_remove(gaps *t, int64_t off)
{
    uint32_t a, b, c, d;
    split(t, t->root, off, &a, &b);
    split(t, b, off + 1, &c, &d); /* c: the node at off, if any */
    if (c != GAPS_NONE) {
        if (t->sized) { /* out of the size index too: split off exactly (len, off) */
            uint32_t e, f, g, h;
            ssplit(t, t->sroot, t->n[c].len, off, &e, &f);
            ssplit(t, f, t->n[c].len, off + 1, &g, &h);
            t->sroot = smerge(t, e, h);
            (void)g;
        }
        t->n[c].left = t->free_list;
        t->free_list = c;
    }
    t->root = merge(t, a, d);
}

uint32_t gaps_first_fit(const gaps *t, int64_t len)
{
    uint32_t i = t->root;
    if (max_of(t, i) < len) return GAPS_NONE;
    for (;;) {
        const gap_node *x = &t->n[i];
        if (max_of(t, x->left) >= len) i = x->left;
        else if (x->len >= len) return i;
        else i = x->right;
    }
}

uint32_t gaps_pred(const gaps *t, int64_t addr)
{
    uint32_t i = t->root, best = GAPS_NONE;
    while (i != GAPS_NONE) {
        if (t->n[i].off < addr) {
            best = i;
            i = t->n[i].right;
        } else i = t->n[i].left;
    }
    return best;
}

uint32_t gaps_succ(const gaps *t, int64_t addr)
{
    uint32_t i = t->root, best = GAPS_NONE;
    while (i != GAPS_NONE) {
        if (t->n[i].off > addr) {
            best = i;
            i = t->n[i].left;
        } else i = t->n[i].right;
    }
    return best;
}
