/* gaps.c: treap of free gaps keyed by address, each node carrying the largest
 * gap of its subtree so first fit descends in one path; optionally a second
 * treap over the same nodes keyed by (len, off), for best fit; gaps_check. */
#include "gaps.h"
#include <stdlib.h>
#include <string.h>
#include "check.h"

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

/* Gap i, just inserted, has a length, is the only one at its offset, does
 * not overlap its neighbours, and the root knows a gap as large: O(log n). */
static inline int gap_fits(const gaps *t, uint32_t i)
{
    const gap_node *x = &t->n[i];
    uint32_t p = gaps_pred(t, x->off), q = gaps_succ(t, x->off);
    return x->len > 0 && gaps_pred(t, x->off + 1) == i &&
           (p == GAPS_NONE || t->n[p].off + t->n[p].len <= x->off) &&
           (q == GAPS_NONE || x->off + x->len <= t->n[q].off) && t->n[t->root].max >= x->len;
}

static inline uint32_t max_prio(const gaps *t, uint32_t i)
{
    return i == GAPS_NONE ? 0 : t->n[i].prio;
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
    /* Down to where i belongs, the nodes of higher priority above it (each of
     * them gains i below: its max at least len), then i takes that place with
     * the subtree there split around off: one path, not three. */
    uint32_t *at = &t->root;
    while (*at != GAPS_NONE && t->n[*at].prio > t->n[i].prio) {
        gap_node *x = &t->n[*at];
        if (x->max < len) x->max = len;
        at = off < x->off ? &x->left : &x->right;
    }
    split(t, *at, off, &t->n[i].left, &t->n[i].right);
    pull(t, i);
    *at = i;
    uint32_t a, b;
    if (t->sized) {
        ssplit(t, t->sroot, len, off, &a, &b);
        t->sroot = smerge(t, smerge(t, a, i), b);
    }
    MEMTRIS_ASSERT(gap_fits(t, i));
    MEMTRIS_ASSERT_SAMPLED(&t->ops, gaps_check(t) == 0);
    return i;
}

/* Takes the node at off (into *gone) out of subtree i: its children merged
 * in its place, the max of each node above it made again; returns the
 * subtree's root. */
static uint32_t take_out(gaps *t, uint32_t i, int64_t off, uint32_t *gone)
{
    if (i == GAPS_NONE) return GAPS_NONE;
    gap_node *x = &t->n[i];
    if (off == x->off) {
        *gone = i;
        uint32_t m = merge(t, x->left, x->right);
        x->left = x->right = GAPS_NONE;
        return m;
    }
    if (off < x->off) x->left = take_out(t, x->left, off, gone);
    else x->right = take_out(t, x->right, off, gone);
    if (*gone != GAPS_NONE) pull(t, i);
    return i;
}

void gaps_remove(gaps *t, int64_t off)
{
    uint32_t c = GAPS_NONE; /* the node at off, if any */
    t->root = take_out(t, t->root, off, &c);
    if (c != GAPS_NONE) {
        if (t->sized) { /* out of the size index too: split off exactly (len, off) */
            uint32_t e, f, g, h;
            ssplit(t, t->sroot, t->n[c].len, off, &e, &f);
            ssplit(t, f, t->n[c].len, off + 1, &g, &h);
            t->sroot = smerge(t, e, h);
            MEMTRIS_ASSERT(g == c && t->n[g].sleft == GAPS_NONE && t->n[g].sright == GAPS_NONE);
            (void)g;
        }
        /* one gap at off, never two */
        MEMTRIS_ASSERT(t->n[c].left == GAPS_NONE && t->n[c].right == GAPS_NONE);
        t->n[c].left = t->free_list;
        t->free_list = c;
    }
    MEMTRIS_ASSERT(t->root == GAPS_NONE ||
                   (t->n[t->root].prio >= max_prio(t, t->n[t->root].left) &&
                    t->n[t->root].prio >= max_prio(t, t->n[t->root].right)));
    MEMTRIS_ASSERT_SAMPLED(&t->ops, gaps_check(t) == 0);
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

void gaps_around(const gaps *t, int64_t addr, uint32_t *le, uint32_t *gt)
{
    uint32_t i = t->root;
    *le = *gt = GAPS_NONE; /* both lie on addr's path down */
    while (i != GAPS_NONE) {
        if (t->n[i].off <= addr) {
            *le = i;
            i = t->n[i].right;
        } else {
            *gt = i;
            i = t->n[i].left;
        }
    }
}

/* ------------------------------------------------------------ checks */

/* A walk of one treap in order, counting what is wrong. */
typedef struct gwalk {
    const gaps *t;
    uint32_t seen; /* nodes visited: past t->used, a node is reached twice */
    uint32_t prev; /* the node visited last, GAPS_NONE before the first */
    int bad, touching;
} gwalk;

/* Visits node i (reached from a parent of priority prio); 0 when it cannot
 * be entered (out of range, or a cycle), else 1. */
static int enter(gwalk *w, uint32_t i, uint32_t prio)
{
    if (i >= w->t->used || ++w->seen > w->t->used) {
        w->bad++;
        return 0;
    }
    if (w->t->n[i].prio > prio) w->bad++; /* heap order */
    return 1;
}

/* The address treap under i: returns the largest len there, -1 if empty. */
static int64_t walk_addr(gwalk *w, uint32_t i, uint32_t prio)
{
    if (i == GAPS_NONE || !enter(w, i, prio)) return -1;
    const gap_node *x = &w->t->n[i];
    int64_t l = walk_addr(w, x->left, x->prio);
    if (x->len <= 0 || x->off < 0 || x->len > INT64_MAX - x->off) w->bad++;
    if (w->prev != GAPS_NONE) {
        const gap_node *p = &w->t->n[w->prev];
        if (p->off >= x->off) w->bad++;              /* in order, one gap an offset */
        else if (p->off + p->len > x->off) w->bad++; /* overlapping */
        else if (p->off + p->len == x->off) w->touching++;
    }
    w->prev = i;
    int64_t r = walk_addr(w, x->right, x->prio), m = x->len;
    if (l > m) m = l;
    if (r > m) m = r;
    if (x->max != m) w->bad++;
    return m;
}

/* The size index under i: (len, off) in order, each node the one of the
 * address treap at its offset. */
static void walk_size(gwalk *w, uint32_t i, uint32_t prio)
{
    if (i == GAPS_NONE || !enter(w, i, prio)) return;
    const gap_node *x = &w->t->n[i];
    walk_size(w, x->sleft, x->prio);
    if (w->prev != GAPS_NONE && !size_less(&w->t->n[w->prev], x->len, x->off)) w->bad++;
    if (gaps_pred(w->t, x->off + 1) != i) w->bad++;
    w->prev = i;
    walk_size(w, x->sright, x->prio);
}

int gaps_check(const gaps *t)
{
    if (!t->n || t->used > t->cap) return 1;
    gwalk w = {t, 0, GAPS_NONE, 0, 0};
    walk_addr(&w, t->root, UINT32_MAX);
    uint32_t in_tree = w.seen, nfree = 0;
    int bad = w.bad;
    for (uint32_t i = t->free_list; i != GAPS_NONE; i = t->n[i].left)
        if (i >= t->used || ++nfree > t->used) {
            bad++;
            break;
        }
    if (in_tree + nfree != t->used) bad++; /* a node lost, or on the list and in the tree */
    if (bad) return bad;                   /* the size index's lookups need a whole address treap */
    if (t->sized) {
        gwalk ws = {t, 0, GAPS_NONE, 0, 0};
        walk_size(&ws, t->sroot, UINT32_MAX);
        bad += ws.bad + (ws.seen != in_tree);
    } else if (t->sroot != GAPS_NONE) {
        bad++;
    }
    return bad;
}

int gaps_check_coalesced(const gaps *t)
{
    gwalk w = {t, 0, GAPS_NONE, 0, 0};
    walk_addr(&w, t->root, UINT32_MAX);
    return w.touching;
}
