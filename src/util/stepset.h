/* stepset.h: a set of integers below a bound with a fast "next member at or
 * after x": a bitset with a summary level per 64 words. Exports stepset_*. */
#ifndef MEMTRIS_STEPSET_H
#define MEMTRIS_STEPSET_H
#include <stdint.h>

typedef struct stepset {
    uint64_t *w[6];
    uint64_t nw[6];
    int levels;
} stepset;

/* An empty set of the integers below n; 0, or -1 out of memory. */
int stepset_init(stepset *b, uint64_t n);
void stepset_free(stepset *b);
void stepset_clear(stepset *b); /* removes every member */
void stepset_add(stepset *b, uint64_t x);
/* The smallest member >= x, or UINT64_MAX. */
uint64_t stepset_next(const stepset *b, uint64_t x);
/* The whole set checked: 0 when whole, else the number of problems found:
 * 1 to 6 levels, each a 64th of the one below (rounded up) down to one word
 * at the top, and each summary bit set exactly when its word below is not
 * empty (no bit past the words below). O(words); the assertion builds run
 * it at every stepset_clear, and check each add's bound and each answer of
 * stepset_next. */
int stepset_check(const stepset *b);

#endif
