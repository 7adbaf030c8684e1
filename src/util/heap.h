/* heap.h: binary min-heap of nodes keyed by three int64s, compared in order:
 * the ready queues (the seed's (change, type, id) tuple, or FIFO's queue
 * position), exact's pieces by their peak and budget exact's open states
 * (doubles as keys through heap_dkey). Items of equal keys come out in an
 * order fixed by the pushes and pops alone. With a position index it can
 * also remove any node (used by undo); without one it can grow
 * (heap_reserve). Exports heap_*. */
#ifndef MEMTRIS_HEAP_H
#define MEMTRIS_HEAP_H
#include <stdint.h>

typedef struct heap_item {
    int64_t k[3];
    uint32_t node;
} heap_item;

typedef struct heap {
    heap_item *a;
    uint32_t len, cap;
    uint32_t *pos; /* pos[node] = index in a[], or UINT32_MAX; may be NULL */
    uint32_t npos; /* nodes in pos[] */
    uint64_t ops;  /* pushes, pops and removes: the sampled checks (util/check.h) */
} heap;

/* cap: most items ever held at once; npos: nodes for the position index, or 0. */
int heap_init(heap *h, uint32_t cap, uint32_t npos);
void heap_free(heap *h);
void heap_clear(heap *h);
static inline int heap_less(const heap_item *x, const heap_item *y)
{
    if (x->k[0] != y->k[0]) return x->k[0] < y->k[0];
    if (x->k[1] != y->k[1]) return x->k[1] < y->k[1];
    return x->k[2] < y->k[2];
}
/* Room for cap items (cap >= len), the items held staying; the position
 * index stays as it is. 0, or -1 out of memory (h unchanged). */
int heap_reserve(heap *h, uint32_t cap);
/* A double as a key, in its order: heap_dkey(x) < heap_dkey(y) exactly when
 * x < y, equal when x == y (x and y not NaN; -0 is taken as 0);
 * heap_dkey_value gives the double back. ~heap_dkey(x) orders the largest
 * first. */
static inline int64_t heap_dkey(double x)
{
    union {
        double d;
        int64_t k;
    } u = {.d = x == 0 ? 0.0 : x};
    return u.k < 0 ? u.k ^ INT64_MAX : u.k; /* negatives: the larger magnitude lower */
}
static inline double heap_dkey_value(int64_t k)
{
    union {
        int64_t k;
        double d;
    } u = {.k = k < 0 ? k ^ INT64_MAX : k};
    return u.d;
}
void heap_push(heap *h, heap_item it);
heap_item heap_pop(heap *h);
void heap_remove(heap *h, uint32_t node); /* needs the position index */
/* Writes items of rank skip.. skip+max-1 in key order into out (without
 * changing h); returns how many were written. */
uint32_t heap_sorted(const heap *h, uint32_t skip, heap_item *out, uint32_t max);
/* The whole heap checked: 0 when whole, else the number of problems found:
 * no item less than its parent, len within cap, and with the position index
 * every item's node below npos and found at its index, and as many nodes
 * indexed as items held. O(len + npos); the assertion builds run it after
 * the 1st, 2nd, 4th... push, pop or remove, and O(1) checks of the item
 * moved after every one. */
int heap_check(const heap *h);

#endif
