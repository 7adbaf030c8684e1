/* heap.c: the min-heap (array layout, children 2i+1 and 2i+2) and its
 * check (heap_check). */
#include "heap.h"
#include <stdlib.h>
#include <string.h>
#include "check.h"

int heap_init(heap *h, uint32_t cap, uint32_t npos)
{
    memset(h, 0, sizeof *h);
    h->a = malloc(((size_t)cap + 1) * sizeof *h->a);
    if (!h->a) return -1;
    h->cap = cap;
    if (npos) {
        h->pos = malloc((size_t)npos * sizeof *h->pos);
        if (!h->pos) {
            free(h->a);
            h->a = NULL;
            return -1;
        }
        memset(h->pos, 0xff, (size_t)npos * sizeof *h->pos);
        h->npos = npos;
    }
    return 0;
}

void heap_free(heap *h)
{
    free(h->a);
    free(h->pos);
    memset(h, 0, sizeof *h);
}

int heap_reserve(heap *h, uint32_t cap)
{
    MEMTRIS_ASSERT(cap >= h->len);
    heap_item *a = realloc(h->a, ((size_t)cap + 1) * sizeof *a);
    if (!a) return -1;
    h->a = a;
    h->cap = cap;
    return 0;
}

void heap_clear(heap *h)
{
    if (h->pos)
        for (uint32_t i = 0; i < h->len; i++) h->pos[h->a[i].node] = UINT32_MAX;
    h->len = 0;
}

static inline void heap_set(heap *h, uint32_t i, heap_item it)
{
    h->a[i] = it;
    if (h->pos) h->pos[it.node] = i;
}

/* Both return where the item came to rest. */
static uint32_t sift_up(heap *h, uint32_t i, heap_item it)
{
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!heap_less(&it, &h->a[p])) break;
        heap_set(h, i, h->a[p]);
        i = p;
    }
    heap_set(h, i, it);
    return i;
}

static uint32_t sift_down(heap *h, uint32_t i, heap_item it)
{
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->len) break;
        if (c + 1 < h->len && heap_less(&h->a[c + 1], &h->a[c])) c++;
        if (!heap_less(&h->a[c], &it)) break;
        heap_set(h, i, h->a[c]);
        i = c;
    }
    heap_set(h, i, it);
    return i;
}

/* The item at i (< len) is in order with its parent and children, and
 * indexed at i: what a sift must leave behind, in O(1). */
static inline int settled(const heap *h, uint32_t i)
{
    uint64_t c = 2 * (uint64_t)i + 1;
    return (i == 0 || !heap_less(&h->a[i], &h->a[(i - 1) / 2])) &&
           (c >= h->len || !heap_less(&h->a[c], &h->a[i])) &&
           (c + 1 >= h->len || !heap_less(&h->a[c + 1], &h->a[i])) &&
           (!h->pos || (h->a[i].node < h->npos && h->pos[h->a[i].node] == i));
}

void heap_push(heap *h, heap_item it)
{
    MEMTRIS_ASSERT(h->len < h->cap + 1 && (!h->pos || it.node < h->npos));
    uint32_t i = sift_up(h, h->len++, it);
    MEMTRIS_ASSERT(settled(h, i));
    MEMTRIS_ASSERT_SAMPLED(&h->ops, heap_check(h) == 0);
    (void)i;
}

heap_item heap_pop(heap *h)
{
    MEMTRIS_ASSERT(h->len > 0);
    heap_item top = h->a[0];
    if (h->pos) h->pos[top.node] = UINT32_MAX;
    if (--h->len > 0) {
        uint32_t i = sift_down(h, 0, h->a[h->len]);
        MEMTRIS_ASSERT(settled(h, i) && settled(h, 0));
        (void)i;
    }
    MEMTRIS_ASSERT_SAMPLED(&h->ops, heap_check(h) == 0);
    return top;
}

void heap_remove(heap *h, uint32_t node)
{
    MEMTRIS_ASSERT(h->pos && node < h->npos && h->pos[node] < h->len);
    uint32_t i = h->pos[node];
    h->pos[node] = UINT32_MAX;
    if (--h->len != i) {
        heap_item last = h->a[h->len];
        if (i > 0 && heap_less(&last, &h->a[(i - 1) / 2])) i = sift_up(h, i, last);
        else i = sift_down(h, i, last);
        MEMTRIS_ASSERT(settled(h, i));
    }
    MEMTRIS_ASSERT_SAMPLED(&h->ops, heap_check(h) == 0);
}

/* Best-first walk of the heap tree with a small side heap of indices. */
uint32_t heap_sorted(const heap *h, uint32_t skip, heap_item *out, uint32_t max)
{
    if (skip >= h->len || max == 0) return 0;
    uint64_t want = (uint64_t)skip + max;
    if (want > h->len) want = h->len;
    uint32_t *side = malloc((size_t)(2 * want + 2) * sizeof *side);
    if (!side) return 0;
    uint32_t slen = 0, got = 0, rank = 0;
    side[slen++] = 0;
    while (slen && rank < want) {
        uint32_t top = side[0];
        uint32_t last = side[--slen]; /* pop the side heap */
        uint32_t i = 0;
        for (;;) {
            uint32_t c = 2 * i + 1;
            if (c >= slen) break;
            if (c + 1 < slen && heap_less(&h->a[side[c + 1]], &h->a[side[c]])) c++;
            if (!heap_less(&h->a[side[c]], &h->a[last])) break;
            side[i] = side[c];
            i = c;
        }
        if (slen) side[i] = last;
        if (rank++ >= skip) out[got++] = h->a[top];
        for (uint32_t c = 2 * top + 1; c <= 2 * top + 2 && c < h->len; c++) {
            uint32_t j = slen++; /* push child c onto the side heap */
            while (j > 0 && heap_less(&h->a[c], &h->a[side[(j - 1) / 2]])) {
                side[j] = side[(j - 1) / 2];
                j = (j - 1) / 2;
            }
            side[j] = c;
        }
    }
    free(side);
    return got;
}

int heap_check(const heap *h)
{
    int bad = h->len > h->cap + 1 || (h->len && !h->a); /* heap_init allocates cap + 1 */
    if (bad) return bad;
    for (uint32_t i = 1; i < h->len; i++)
        if (heap_less(&h->a[i], &h->a[(i - 1) / 2])) bad++;
    if (!h->pos) return bad;
    for (uint32_t i = 0; i < h->len; i++)
        if (h->a[i].node >= h->npos || h->pos[h->a[i].node] != i) bad++;
    uint32_t indexed = 0;
    for (uint32_t x = 0; x < h->npos; x++)
        if (h->pos[x] != UINT32_MAX) indexed++;
    if (indexed != h->len) bad++; /* a node indexed but not held */
    return bad;
}
