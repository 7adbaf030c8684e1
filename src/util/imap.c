/* imap.c: direct table while keys are dense, else linear-probing hash kept
 * at most half full; and its check (imap_check). */
#include "imap.h"
#include <stdlib.h>
#include <string.h>
#include "check.h"

static size_t imap_hash(int64_t k)
{
    uint64_t x = (uint64_t)k; /* splitmix64 finaliser */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return (size_t)x;
}

void imap_free(imap *m)
{
    free(m->dense);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

uint32_t imap_get(const imap *m, int64_t key)
{
    if (!m->keys) return (uint64_t)key < m->dcap ? m->dense[key] : IMAP_NONE;
    for (size_t i = imap_hash(key) & m->mask;; i = (i + 1) & m->mask) {
        if (m->keys[i] == key) return m->vals[i];
        if (m->keys[i] < 0) return IMAP_NONE;
    }
}

static uint32_t hash_put(imap *m, int64_t key, uint32_t val)
{
    for (size_t i = imap_hash(key) & m->mask;; i = (i + 1) & m->mask) {
        if (m->keys[i] == key) return m->vals[i];
        if (m->keys[i] < 0) {
            m->keys[i] = key;
            m->vals[i] = val;
            m->count++;
            return IMAP_NONE;
        }
    }
}

/* Rebuilds as a hash of at least cap slots, moving every entry over. */
static int rehash(imap *m, size_t cap)
{
    imap old = *m;
    int64_t *keys = malloc(cap * sizeof *keys);
    uint32_t *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    memset(keys, 0xff, cap * sizeof *keys);
    memset(m, 0, sizeof *m);
    m->keys = keys;
    m->vals = vals;
    m->mask = cap - 1;
    if (old.keys) {
        for (size_t i = 0; i <= old.mask; i++)
            if (old.keys[i] >= 0) hash_put(m, old.keys[i], old.vals[i]);
    } else {
        for (size_t k = 0; k < old.dcap; k++)
            if (old.dense[k] != IMAP_NONE) hash_put(m, (int64_t)k, old.dense[k]);
    }
    free(old.dense);
    free(old.keys);
    free(old.vals);
    MEMTRIS_ASSERT(imap_check(m) == 0 && m->count == old.count);
    return 0;
}

uint32_t imap_put(imap *m, int64_t key, uint32_t val)
{
    MEMTRIS_ASSERT(key >= 0);
    if (!m->keys) {
        if ((uint64_t)key < m->dcap) {
            if (m->dense[key] != IMAP_NONE) return m->dense[key];
            m->dense[key] = val;
            m->count++;
            return IMAP_NONE;
        }
        /* Grow the table while it stays at most 4 slots an entry; else hash. */
        if ((uint64_t)key < 4 * (uint64_t)m->count + 4096) {
            size_t cap = m->dcap ? m->dcap : 1024;
            while (cap <= (uint64_t)key) cap *= 2;
            uint32_t *d = realloc(m->dense, cap * sizeof *d);
            if (!d) return IMAP_NONE - 1;
            memset(d + m->dcap, 0xff, (cap - m->dcap) * sizeof *d);
            m->dense = d;
            m->dcap = cap;
            MEMTRIS_ASSERT(imap_check(m) == 0);
            return imap_put(m, key, val);
        }
        size_t cap = 16;
        while (cap < (m->count + 1) * 2) cap <<= 1;
        if (rehash(m, cap)) return IMAP_NONE - 1;
    }
    if ((m->count + 1) * 2 > m->mask + 1 && rehash(m, (m->mask + 1) * 2)) return IMAP_NONE - 1;
    uint32_t was = hash_put(m, key, val);
    MEMTRIS_ASSERT(imap_get(m, key) == (was == IMAP_NONE ? val : was));
    return was;
}

int imap_check(const imap *m)
{
    int bad = 0;
    size_t held = 0;
    if (!m->keys) {
        if (m->vals || (m->dcap && !m->dense)) return 1;
        for (size_t k = 0; k < m->dcap; k++) held += m->dense[k] != IMAP_NONE;
        return bad + (held != m->count);
    }
    size_t cap = m->mask + 1;
    if (m->dense || m->dcap || !m->vals || (cap & m->mask) || m->count * 2 > cap) return 1;
    for (size_t i = 0; i < cap; i++) {
        int64_t k = m->keys[i];
        if (k < -1) bad++;
        if (k < 0) continue;
        held++;
        /* from the key's home slot to i: no hole (imap_get would stop
         * there) and no other copy of the key (it would answer first) */
        for (size_t j = imap_hash(k) & m->mask; j != i; j = (j + 1) & m->mask)
            if (m->keys[j] < 0 || m->keys[j] == k) {
                bad++;
                break;
            }
    }
    return bad + (held != m->count);
}
