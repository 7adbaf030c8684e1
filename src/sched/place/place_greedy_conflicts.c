/* place_greedy_conflicts.c: placer "greedy-conflicts", TVM USMP's greedy by conflicts.
 * Exports place_greedy_conflicts. */
#include "place_internal.h"

/* TVM's USMP (src/tir/usmp/algo/greedy.cc) orders the buffers by the number
 * of others whose lifetimes meet theirs, most first, then by size, and puts
 * each at the lowest offset where it meets none of the placed buffers that
 * live with it (first fit, not best fit: the plans MiniMalloc calls
 * canonical). Same engine as greedy-size. */
int place_greedy_conflicts(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                           placement *pl, char *err, size_t errcap)
{
    place_greedy *G = place_greedy_new(g, r, lt, align);
    if (!G) return place_oom(g, err, errcap);
    static const place_way ways[] = {{PLACE_ORDER_CONFLICTS, PLACE_FIT_FIRST}};
    int64_t arena = INT64_MAX;
    int rc = place_greedy_orders(G, ways, 1, place_lower_bound(g, r, align), &arena, pl, NULL, NULL,
                                 NULL, err, errcap);
    place_greedy_free(G);
    pl->reserved = 0;
    return rc ? -1 : 0;
}
