/* test_place.h: what test_place's files share (one binary, test_place):
 * the alignments, every_placer and the greedy reference (test_place.c),
 * chains placed by hand (test_place_cases.c), and the tests the main of
 * test_place.c lists from test_place_cases.c and test_place_verify.c. */
#ifndef MEMTRIS_TEST_PLACE_H
#define MEMTRIS_TEST_PLACE_H
#include <stdint.h>
#include "sched/graph/diag.h"
#include "sched/place/place.h"

/* test_place.c */
extern const int64_t aligns[3];
/* Runs every placer on one schedule and alignment: the verifier and the
 * all-pairs check accept each plan, the arena is at least the lower bound,
 * the references agree, and best is the smallest. */
void every_placer(const graph *g, const run *r, int64_t align);
/* The orders and fits of reference_greedy. */
enum { REF_SIZE, REF_LIFETIME, REF_SPATIAL, REF_CONFLICTS };
enum { REF_BEST, REF_XLA, REF_FIRST };
int64_t reference_greedy(const graph *g, const run *r, int64_t align, int order, int fit,
                         int64_t *off);

/* test_place_cases.c: a chain of tokens placed with one placer. */
typedef struct planned {
    graph *g;
    diag d;
    run r;
    placement pl;
} planned;
graph *chain_graph(const char *spec, diag *d);
void plan(planned *x, const char *spec, const char *placer_name, int64_t align);
int64_t offset_of(const planned *x, int64_t bufid);
void unplan(planned *x);

/* The tests of test_place_cases.c and test_place_verify.c. */
void best_fit_takes_the_smaller_gap(void **state);
void pool_rounds_and_reuses(void **state);
void coloring_wastes_blocks(void **state);
void greedy_size_beats_first_fit(void **state);
void greedy_size_keeps_the_lifetime_order(void **state);
void best_beats_greedy(void **state);
void best_leaves_a_local_minimum(void **state);
void placers_are_deterministic(void **state);
void best_stops_a_greedy_over_its_work_limit(void **state);
void lower_bound_counts_aligned_spans(void **state);
void verify_names_overlapping_buffers(void **state);
void verify_names_misaligned_buffers(void **state);
void run_checked_tells_failure_from_a_bad_plan(void **state);
void many_live_buffers(void **state);
void arena_overflow_is_an_error(void **state);
void cancelled_placements(void **state);
void empty_plans(void **state);
void fuzz_found_graphs(void **state);

#endif
