/* imap.h: open-addressing hash map from int64 keys to uint32 values.
 * Used for node ids and buffer ids, which are arbitrary non-negative integers. */
#ifndef MEMTRIS_IMAP_H
#define MEMTRIS_IMAP_H
#include <stdint.h>
#include <stddef.h>

#define IMAP_NONE UINT32_MAX

typedef struct imap {
    int64_t *keys;     /* -1 marks an empty slot (keys are never negative) */
    uint32_t *vals;
    size_t mask;       /* capacity - 1; capacity is a power of two */
    size_t count;
} imap;

int imap_init(imap *m, size_t expect);            /* 0 ok, -1 out of memory */
void imap_free(imap *m);
uint32_t imap_get(const imap *m, int64_t key);    /* IMAP_NONE if absent */
/* Inserts key->val unless present; returns the existing value, IMAP_NONE if
 * inserted, or IMAP_NONE-1 when out of memory. */
uint32_t imap_put(imap *m, int64_t key, uint32_t val);

#endif
