/* imap.c: open-addressing (linear probing) int64 -> uint32 map, kept at most
 * half full so probes stay short. */
#include "imap.h"
#include <stdlib.h>
#include <string.h>

static size_t imap_hash(int64_t k)
{
    uint64_t x = (uint64_t)k;            /* splitmix64 finaliser */
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return (size_t)x;
}

static int imap_alloc(imap *m, size_t cap)
{
    m->keys = malloc(cap * sizeof *m->keys);
    m->vals = malloc(cap * sizeof *m->vals);
    if (!m->keys || !m->vals) {
        free(m->keys); free(m->vals);
        m->keys = NULL; m->vals = NULL;
        return -1;
    }
    memset(m->keys, 0xff, cap * sizeof *m->keys);
    m->mask = cap - 1;
    m->count = 0;
    return 0;
}

int imap_init(imap *m, size_t expect)
{
    size_t cap = 16;
    while (cap < expect * 2) cap <<= 1;
    return imap_alloc(m, cap);
}

void imap_free(imap *m)
{
    free(m->keys); free(m->vals);
    memset(m, 0, sizeof *m);
}

uint32_t imap_get(const imap *m, int64_t key)
{
    if (!m->keys) return IMAP_NONE;
    for (size_t i = imap_hash(key) & m->mask;; i = (i + 1) & m->mask) {
        if (m->keys[i] == key) return m->vals[i];
        if (m->keys[i] < 0) return IMAP_NONE;
    }
}

static int imap_grow(imap *m)
{
    imap old = *m;
    if (imap_alloc(m, (old.mask + 1) * 2)) { *m = old; return -1; }
    for (size_t i = 0; i <= old.mask; i++)
        if (old.keys[i] >= 0) imap_put(m, old.keys[i], old.vals[i]);
    free(old.keys); free(old.vals);
    return 0;
}

uint32_t imap_put(imap *m, int64_t key, uint32_t val)
{
    if (!m->keys && imap_init(m, 8)) return IMAP_NONE - 1;
    if ((m->count + 1) * 2 > m->mask + 1 && imap_grow(m)) return IMAP_NONE - 1;
    for (size_t i = imap_hash(key) & m->mask;; i = (i + 1) & m->mask) {
        if (m->keys[i] == key) return m->vals[i];
        if (m->keys[i] < 0) {
            m->keys[i] = key; m->vals[i] = val; m->count++;
            return IMAP_NONE;
        }
    }
}
