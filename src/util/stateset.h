/* stateset.h: a set of search states, each a bit set of the same number of
 * 64-bit words, numbered 0, 1, 2... in the order they were added (the
 * caller keeps what it knows of state i in arrays of its own, indexed by
 * i); an open-addressing hash of the numbers finds a state. The exact
 * searches' table of states seen (policy_piece_search.c, policy_piece_beam.c,
 * budget_exact.c). Exports stateset_*. */
#ifndef MEMTRIS_STATESET_H
#define MEMTRIS_STATESET_H
#include <stddef.h>
#include <stdint.h>

typedef struct stateset {
    uint64_t *bits; /* [cap * w]: state i at bits + i * w */
    uint32_t *slot; /* [mask + 1]: a state's number, or UINT32_MAX (empty) */
    size_t mask;    /* slots less one: a power of two, at least 2 cap */
    uint32_t w;     /* words of a state */
    uint32_t n;     /* states held */
    uint32_t cap;   /* states there is room for */
    uint64_t ops;   /* finds and adds: the sampled checks (util/check.h) */
} stateset;

/* An empty set of states of w words (w > 0) with no room yet. */
void stateset_init(stateset *s, uint32_t w);
void stateset_free(stateset *s);
/* Room for cap states in all (cap >= s->n; at most UINT32_MAX - 1) and a
 * table of the least power of two of slots at or above 2 cap; the states
 * held stay, with their numbers. 0, or -1 out of memory (s unchanged). */
int stateset_reserve(stateset *s, uint32_t cap);
/* Forgets every state (the room stays). O(slots). */
void stateset_clear(stateset *s);
/* State i's words (i < s->cap: i == s->n is the room the next state added
 * may be written in first). */
static inline uint64_t *stateset_at(const stateset *s, uint32_t i)
{
    return s->bits + (size_t)i * s->w;
}
/* The number of the state equal to b (w words), or UINT32_MAX. */
uint32_t stateset_find(const stateset *s, const uint64_t *b);
/* Adds b, which the set does not hold, where there is room (s->n <
 * s->cap); b may be stateset_at(s, s->n). Returns its number, s->n - 1. */
uint32_t stateset_add(stateset *s, const uint64_t *b);
/* The whole set checked: 0 when whole, else the number of problems found:
 * n within cap, slots a power of two at least 2 cap, every slot empty or a
 * state below n, each state in exactly one slot, found from its hash with
 * no empty slot on the way. O(slots + n w); the assertion builds run it
 * after the 1st, 2nd, 4th... find or add, and at every reserve and clear. */
int stateset_check(const stateset *s);

#endif
