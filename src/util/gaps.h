/* gaps.h: the free gaps of an arena, ordered by address, in a treap whose
 * nodes know the largest gap below them (first fit, neighbour lookups and
 * coalescing in O(log n)), optionally also by (size, address) for best fit. Exports gaps_*. */
#ifndef MEMTRIS_GAPS_H
#define MEMTRIS_GAPS_H
#include <stdint.h>

#define GAPS_NONE UINT32_MAX

typedef struct gap_node {
    int64_t off, len, max; /* the gap [off, off+len); max: largest len in the subtree */
    uint32_t left, right, prio;
    uint32_t sleft, sright; /* the size index (gaps_init_sized only): keyed by (len, off) */
} gap_node;

typedef struct gaps {
    gap_node *n;
    uint32_t root, cap, used, free_list;
    uint64_t seed;
    uint32_t sroot; /* root of the size index */
    int sized;      /* keeps the size index (gaps_init_sized) */
    uint64_t ops;   /* inserts and removes: the sampled checks (util/check.h) */
} gaps;

int gaps_init(gaps *t, uint32_t cap); /* cap: most gaps at once; 0 or -1 */
/* The same, also keeping the gaps ordered by (len, off) for gaps_best_fit. */
int gaps_init_sized(gaps *t, uint32_t cap);
void gaps_free(gaps *t);
/* Returns the new gap's node index, or GAPS_NONE when full. len > 0, and the
 * gap overlaps none already there; touching one is fine (its user coalesces
 * them where it wants to: gaps_pred and gaps_succ find them). */
uint32_t gaps_insert(gaps *t, int64_t off, int64_t len);
void gaps_remove(gaps *t, int64_t off);
/* The lowest-addressed gap of at least len bytes, or GAPS_NONE. */
uint32_t gaps_first_fit(const gaps *t, int64_t len);
/* The smallest gap of at least len bytes, the lowest-addressed among equals,
 * or GAPS_NONE; only for a tree made by gaps_init_sized. */
uint32_t gaps_best_fit(const gaps *t, int64_t len);
/* The gap with the largest off below (pred) or smallest off above (succ) addr. */
uint32_t gaps_pred(const gaps *t, int64_t addr);
uint32_t gaps_succ(const gaps *t, int64_t addr);
/* Both in one walk down: *le = gaps_pred(t, addr + 1), *gt = gaps_succ(t, addr). */
void gaps_around(const gaps *t, int64_t addr, uint32_t *le, uint32_t *gt);

/* The whole structure checked: 0 when whole, else the number of problems
 * found: the address treap in order (offsets strictly increasing) and in
 * heap order of priorities, each node's max the largest len below it, every
 * len > 0, no two gaps overlapping, the nodes in the tree and on the free
 * list together the nodes used; with the size index, the same nodes in
 * (len, off) order and heap order. O(n log n); the assertion builds run it
 * after the 1st, 2nd, 4th... insert or remove, and O(log n) checks of the
 * gap touched after every one. */
int gaps_check(const gaps *t);
/* The number of pairs of gaps that touch (one ends where the next starts):
 * 0 in a free list that its user keeps coalesced. O(n). */
int gaps_check_coalesced(const gaps *t);

#endif
