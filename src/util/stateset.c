/* stateset.c: the set of bit-set states (linear probing over the states'
 * numbers, the states themselves in one array) and its check
 * (stateset_check). */
#include "stateset.h"
#include <stdlib.h>
#include <string.h>
#include "check.h"

static uint64_t hash_bits(const uint64_t *b, uint32_t w)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (uint32_t i = 0; i < w; i++) {
        h ^= b[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xbf58476d1ce4e5b9ULL;
    }
    return h ^ (h >> 31);
}

static int same(const stateset *s, uint32_t i, const uint64_t *b)
{
    return !memcmp(stateset_at(s, i), b, (size_t)s->w * sizeof *b);
}

void stateset_init(stateset *s, uint32_t w)
{
    memset(s, 0, sizeof *s);
    s->w = w;
}

void stateset_free(stateset *s)
{
    free(s->bits);
    free(s->slot);
    stateset_init(s, s->w);
}

/* The first empty slot on b's probe path (the table has one: n < slots). */
static size_t empty_slot(const uint32_t *slot, size_t mask, const uint64_t *b, uint32_t w)
{
    size_t h = hash_bits(b, w) & mask;
    while (slot[h] != UINT32_MAX) h = (h + 1) & mask;
    return h;
}

int stateset_reserve(stateset *s, uint32_t cap)
{
    MEMTRIS_ASSERT(cap >= s->n && cap < UINT32_MAX && s->w > 0);
    size_t nslots = 1;
    while (nslots < 2 * (size_t)cap) nslots *= 2;
    uint64_t *bits = realloc(s->bits, ((size_t)cap ? cap : 1) * s->w * sizeof *bits);
    if (!bits) return -1;
    s->bits = bits;
    uint32_t *slot = malloc(nslots * sizeof *slot);
    if (!slot) return -1; /* the states stay where they were, and as many */
    memset(slot, 0xff, nslots * sizeof *slot);
    for (uint32_t i = 0; i < s->n; i++)
        slot[empty_slot(slot, nslots - 1, stateset_at(s, i), s->w)] = i;
    free(s->slot);
    s->slot = slot;
    s->mask = nslots - 1;
    s->cap = cap;
    MEMTRIS_ASSERT(stateset_check(s) == 0);
    return 0;
}

void stateset_clear(stateset *s)
{
    if (s->slot) memset(s->slot, 0xff, (s->mask + 1) * sizeof *s->slot);
    s->n = 0;
    MEMTRIS_ASSERT(stateset_check(s) == 0);
}

uint32_t stateset_find(const stateset *s, const uint64_t *b)
{
    if (!s->slot) return UINT32_MAX;
    for (size_t h = hash_bits(b, s->w) & s->mask; s->slot[h] != UINT32_MAX; h = (h + 1) & s->mask)
        if (same(s, s->slot[h], b)) return s->slot[h];
    return UINT32_MAX;
}

uint32_t stateset_add(stateset *s, const uint64_t *b)
{
    MEMTRIS_ASSERT(s->n < s->cap && stateset_find(s, b) == UINT32_MAX);
    uint32_t i = s->n++;
    uint64_t *to = stateset_at(s, i);
    if (to != b) memcpy(to, b, (size_t)s->w * sizeof *b);
    s->slot[empty_slot(s->slot, s->mask, to, s->w)] = i;
    MEMTRIS_ASSERT_SAMPLED(&s->ops, stateset_check(s) == 0);
    return i;
}

int stateset_check(const stateset *s)
{
    int bad = s->n > s->cap || (s->cap && (!s->bits || !s->slot));
    if (bad || !s->slot) return bad;
    size_t nslots = s->mask + 1;
    if ((nslots & s->mask) || nslots < 2 * (size_t)s->cap) bad++;
    uint32_t held = 0;
    for (size_t h = 0; h < nslots; h++) {
        uint32_t i = s->slot[h];
        if (i == UINT32_MAX) continue;
        held++;
        if (i >= s->n) {
            bad++;
            continue;
        }
        /* i is found from its hash: no empty slot and no equal state before h */
        for (size_t k = hash_bits(stateset_at(s, i), s->w) & s->mask; k != h; k = (k + 1) & s->mask)
            if (s->slot[k] == UINT32_MAX ||
                (s->slot[k] < s->n && same(s, s->slot[k], stateset_at(s, i)))) {
                bad++;
                break;
            }
    }
    if (held != s->n) bad++; /* a state in no slot, or in two */
    return bad;
}
