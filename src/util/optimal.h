/* optimal.h: every optimality phrase and percentage memtris shows (schedule,
 * compare, plan, place, the TUI, the SVG), worded and rounded one way, so one
 * excess is one figure everywhere. Exports optimal_*. */
#ifndef MEMTRIS_OPTIMAL_H
#define MEMTRIS_OPTIMAL_H
#include <stddef.h>
#include <stdint.h>

/* The one percentage: num / den in tenths of a percent, rounded half up from
 * the exact ratio, computed in integers: floor((2000 num + den) / (2 den)),
 * so 12.05% is 121 tenths (12.1%) and 12.0499% is 120 (12.0%); -1 when
 * den <= 0 or num < 0; at most INT64_MAX. */
int64_t optimal_tenths(int64_t num, int64_t den);
/* How far value is above bound, as a share of the bound: the gap,
 * (value - bound) / bound, in tenths of a percent as optimal_tenths rounds
 * it; -1 when bound <= 0 or value < bound. */
int64_t optimal_gap_tenths(int64_t value, int64_t bound);
/* num / den as people read it: "12.1%", "-3.0%" for a negative num, "<0.1%"
 * for a positive share that rounds to 0.0% (never "0.0%" of something), "-"
 * when den <= 0. Returns out. */
const char *optimal_pct(char *out, size_t cap, int64_t num, int64_t den);

/* How a phrase is worded; value is a peak or an arena, bound a proven lower
 * bound on it. proven: the bound is the optimum (some order or plan reaches
 * it); a value at the bound is always "optimal (proven)". Without proven the
 * phrase never says optimum: it measures against "the lower bound".
 *                   value at the bound  proven bound below   unproven bound below
 * OPTIMAL_LONG      optimal (proven)    12.1% above the      not proven optimal: 12.1% above
 *                                       optimum 16.5 MiB     the lower bound 16.5 MiB
 * OPTIMAL_SHORT     optimal (proven)    12.1% above the      12.1% above the bound 16.5 MiB
 *                                       optimum 16.5 MiB
 * OPTIMAL_TERSE     optimal (proven)    12.1% above the      12.1% above the bound
 *                                       optimum
 * OPTIMAL_TINY      optimal (proven)    +12.1% vs optimum    +12.1% vs bound
 * OPTIMAL_CELL      optimal             +12.1%               -
 * OPTIMAL_SEARCH    optimal: 16.5 MiB   (as LONG)            not proven: 18.5 MiB, bound
 *                   (proven)                                 16.5 MiB, gap 12.1%
 * OPTIMAL_VALUE     optimal: 16.5 MiB   18.5 MiB, 12.1%      not proven: 18.5 MiB
 *                   (proven)            above the optimum
 * A bound of 0 under a value above it has no percentage: "not proven optimal
 * (lower bound 0 B)", "above the optimum 0 B" and the like, "-" in a cell. */
enum {
    OPTIMAL_LONG,
    OPTIMAL_SHORT,
    OPTIMAL_TERSE,
    OPTIMAL_TINY,
    OPTIMAL_CELL,
    OPTIMAL_SEARCH,
    OPTIMAL_VALUE
};
const char *optimal_phrase(char *out, size_t cap, int64_t value, int64_t bound, int proven,
                           int style);

/* A plan's one excess figure, its fragmentation, as XLA's heap simulator
 * counts it (fragmentation_size): the arena less the peak of live bytes,
 * arena - live_peak (0 when the arena is no larger), in bytes and as a
 * share of the arena ("13.0% of the arena"). Alignment padding counts:
 * the peak is of the buffers' sizes. */
int64_t optimal_frag_bytes(int64_t arena, int64_t live_peak);
/* How it reads, by style:
 * OPTIMAL_LONG   2.8 MiB (2883584 bytes), 13.0% of the arena
 * OPTIMAL_SHORT  2.8 MiB (13.0% of the arena)
 * OPTIMAL_TERSE  2.8 MiB (13.0%)
 * OPTIMAL_TINY   2.8 MiB
 * OPTIMAL_CELL   13.0%
 * (0 B alone, and "0.0%" as a cell, where there is none). Returns out. */
const char *optimal_frag(char *out, size_t cap, int64_t arena, int64_t live_peak, int style);
#endif
