/* place.h: where each buffer lives in one arena for a given schedule.
 * Exports place_first_fit (an online first-fit allocator over an
 * address-ordered free space that coalesces neighbours). */
#ifndef MEMTRIS_PLACE_H
#define MEMTRIS_PLACE_H
#include <stddef.h>
#include <stdint.h>
#include "graph.h"
#include "policy.h"

#define PLACE_ALIGN_DEFAULT 64

typedef struct placement {
    int64_t *offset;   /* [nbufs] byte offset of each buffer */
    int64_t *hwm;      /* [n] arena high-water mark after step s */
    int64_t arena;     /* arena size: the final high-water mark */
    int64_t align;
} placement;

int place_first_fit(const graph *g, const run *r, int64_t align, placement *pl, char *err, size_t errcap);
void place_free(placement *pl);
/* Bytes a buffer occupies: its size rounded up to the alignment. */
int64_t place_span(int64_t size, int64_t align);

#endif
