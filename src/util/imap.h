/* imap.h: map from non-negative int64 keys to uint32 values. While keys stay
 * small (ids 0, 1, 2... as most graphs number them) it is a direct table;
 * once a key is far beyond the count it turns into an open-addressing hash. */
#ifndef MEMTRIS_IMAP_H
#define MEMTRIS_IMAP_H
#include <stdint.h>
#include <stddef.h>

#define IMAP_NONE UINT32_MAX

typedef struct imap {
    uint32_t *dense; /* direct mode: dense[key], IMAP_NONE if absent */
    size_t dcap;
    int64_t *keys; /* hash mode: -1 marks an empty slot */
    uint32_t *vals;
    size_t mask; /* capacity - 1; capacity is a power of two */
    size_t count;
} imap;

void imap_free(imap *m);
uint32_t imap_get(const imap *m, int64_t key); /* IMAP_NONE if absent */
/* Inserts key->val unless present; returns the existing value, IMAP_NONE if
 * inserted, or IMAP_NONE-1 when out of memory. Keys must be >= 0. */
uint32_t imap_put(imap *m, int64_t key, uint32_t val);
/* The whole map checked: 0 when whole, else the number of problems found.
 * Direct mode: count is the number of keys held. Hash mode: a power-of-two
 * capacity at most half full, count the slots held, no key below -1, and
 * every key found where imap_get looks for it (no empty slot and no copy of
 * it on its probe path). O(capacity); the assertion builds run it whenever
 * the table grows or turns into a hash, and imap_get on every key put. */
int imap_check(const imap *m);

#endif
