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

#endif
