/* stepset.c: a set of integers below a bound, as a bitset with a summary level
 * per 64 words, for "the next member at or after x" in a few word reads (the
 * greedy placer's placed ticks), and its check. Exports stepset_*. */
#include "stepset.h"
#include <stdlib.h>
#include <string.h>
#include "check.h"

int stepset_init(stepset *b, uint64_t n)
{
    memset(b, 0, sizeof *b);
    uint64_t bits = n ? n : 1;
    do {
        b->nw[b->levels] = (bits + 63) / 64;
        b->w[b->levels] = calloc(b->nw[b->levels], sizeof(uint64_t));
        if (!b->w[b->levels]) return -1;
        bits = b->nw[b->levels++];
    } while (bits > 1);
    return 0;
}

void stepset_free(stepset *b)
{
    for (int l = 0; l < b->levels; l++) free(b->w[l]);
    memset(b, 0, sizeof *b);
}

void stepset_clear(stepset *b)
{
    MEMTRIS_ASSERT(stepset_check(b) == 0); /* as it was used, in the time the clear takes */
    for (int l = 0; l < b->levels; l++) memset(b->w[l], 0, b->nw[l] * sizeof(uint64_t));
}

void stepset_add(stepset *b, uint64_t x)
{
    MEMTRIS_ASSERT(b->levels > 0 && (x >> 6) < b->nw[0]);
    for (int l = 0; l < b->levels; l++, x >>= 6) b->w[l][x >> 6] |= (uint64_t)1 << (x & 63);
}

/* The smallest member >= x, or UINT64_MAX. */
uint64_t stepset_next(const stepset *b, uint64_t x)
{
    int l = 0;
    for (;; l++, x = (x >> 6) + 1) {
        if (l == b->levels || (x >> 6) >= b->nw[l]) return UINT64_MAX;
        uint64_t w = b->w[l][x >> 6] & (~(uint64_t)0 << (x & 63));
        if (w) {
            x = (x & ~(uint64_t)63) | (uint64_t)__builtin_ctzll(w);
            break;
        }
    }
    while (l-- > 0) x = (x << 6) | (uint64_t)__builtin_ctzll(b->w[l][x]);
    MEMTRIS_ASSERT((x >> 6) < b->nw[0] && (b->w[0][x >> 6] >> (x & 63) & 1));
    return x;
}

int stepset_check(const stepset *b)
{
    if (b->levels < 1 || b->levels > 6 || b->nw[0] < 1 || b->nw[b->levels - 1] != 1) return 1;
    int bad = 0;
    for (int l = 0; l < b->levels; l++)
        if (!b->w[l]) return 1;
    for (int l = 0; l + 1 < b->levels; l++) {
        if (b->nw[l + 1] != (b->nw[l] + 63) / 64) return bad + 1;
        for (uint64_t j = 0; j < b->nw[l + 1] * 64; j++) {
            int want = j < b->nw[l] && b->w[l][j] != 0;
            if ((int)(b->w[l + 1][j >> 6] >> (j & 63) & 1) != want) bad++;
        }
    }
    return bad;
}
