/* place_xla.c: placer "xla", XLA's GlobalDecreasingSizeBestFitHeap in its spatial and
 * temporal orders, the smaller plan (as XLA's ChooseBestHeapAlgorithm keeps). Exports
 * place_xla. */
#include "place_internal.h"

/* XLA places the buffers one by one, largest first (spatial: size, then
 * lifetime length; temporal: lifetime length, then size), each in the
 * smallest free chunk left by the placed buffers whose lifetimes meet its
 * own; unlike TFLite's rule the room between their top and the heap so far
 * is such a chunk too, so a buffer may go above them without growing the
 * heap rather than into a larger hole below. Same engine as greedy-size. */
int place_xla(const graph *g, const run *r, const lifetimes *lt, int64_t align, placement *pl,
              char *err, size_t errcap)
{
    place_greedy *G = place_greedy_new(g, r, lt, align);
    if (!G) return place_oom(g, err, errcap);
    static const place_way ways[] = {{PLACE_ORDER_SPATIAL, PLACE_FIT_XLA},
                                     {PLACE_ORDER_LIFETIME, PLACE_FIT_XLA}};
    int64_t arena = INT64_MAX;
    int rc = place_greedy_orders(G, ways, 2, place_lower_bound(g, r, align), &arena, pl, NULL, NULL,
                                 NULL, err, errcap);
    place_greedy_free(G);
    pl->reserved = 0;
    return rc ? -1 : 0;
}
