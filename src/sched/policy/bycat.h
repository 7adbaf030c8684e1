/* bycat.h: where a run's live bytes are, by Category (graph.h's GRAPH_CAT_*):
 * after one step, after every step (for a curve stacked by category), at the
 * peak. Buffers without a Category count under GRAPH_CAT_NONE, shown as "other".
 * Steps are 0-based, as run's memory[]: out after step s sums to r->memory[s]. */
#ifndef MEMTRIS_BYCAT_H
#define MEMTRIS_BYCAT_H
#include <stdint.h>
#include "sched/graph/graph.h"
#include "policy.h"

/* Whether some ALLOC of g has a Category (only then is a breakdown worth showing). */
int bycat_any(const graph *g);
/* Live bytes by category after step s (0-based, s < r->n) of r, a whole run of g:
 * out[GRAPH_CAT_*]. O(s). */
void run_live_by_category(const graph *g, const run *r, uint32_t s, int64_t out[GRAPH_NCAT]);
/* The same after every step: out[s * GRAPH_NCAT + c] for s in 0..r->n-1 (the caller's
 * array of r->n * GRAPH_NCAT). O(n). */
void run_live_by_category_all(const graph *g, const run *r, int64_t *out);
/* At r's peak (its first peak step; all zero when the peak is 0). */
void run_peak_by_category(const graph *g, const run *r, int64_t out[GRAPH_NCAT]);
/* The categories in the order a breakdown shows them: biggest first (ties in
 * GRAPH_CAT_* order), those of 0 bytes left out. Writes them to order (room for
 * GRAPH_NCAT) and returns how many. */
int bycat_order(const int64_t bytes[GRAPH_NCAT], int order[GRAPH_NCAT]);
/* A category's word in a breakdown: graph_category_word's, "other" for NONE. */
const char *bycat_word(int cat);

#endif
