/* test_budget.h: what test_budget's files share (one binary, test_budget): small random graphs
 * and the brute force over their (ran, present) states (test_budget.c), and the tests of the
 * exact and best solvers (test_budget_exact.c) that the main of test_budget.c lists. */
#ifndef MEMTRIS_TEST_BUDGET_H
#define MEMTRIS_TEST_BUDGET_H
#include <stdint.h>
#include "sched/budget/budget.h"

#define MAXN 16 /* compute nodes */
#define MAXB 24

/* A random graph as the brute force sees it: node v produces the buffers out[v] (a mask) and
 * reads in[v], of which it changes chg[v] in place ("InPlace"); node 0 is an Input; some nodes
 * cannot run again. */
typedef struct small {
    int m, nb;
    int inplace; /* small_random: some nodes change a buffer they read in place */
    int chained; /* small_chain: each node's first run after the one before it (Edges) */
    unsigned out[MAXN], in[MAXN], chg[MAXN];
    int lat[MAXN], rerun[MAXN];
    int64_t size[MAXB];
    unsigned keep; /* buffers never freed */
    char json[20000];
} small;

int rnd(uint64_t *s, int n);
/* A random graph of 3 to maxn (at most MAXN) compute nodes, its JSON in g->json; with inplace,
 * some nodes change a buffer they read in place (at most 4 buffers, twice each). */
void small_random(small *g, uint64_t *s, int maxn);
void small_random_inplace(small *g, uint64_t *s, int maxn);
/* g with its order fixed: an Edge from each compute node to the next (its JSON made again). */
void small_chain(small *g);
/* The least extra time (sum of the reruns' latencies) of any plan within budget, recompute
 * only, or -1: Dijkstra over the (ran, present, version) states reached, every run and free a
 * move. A node reads each buffer as the changes in place before it (by index) left it; a
 * change needs that version and makes the next; a producer makes version 0; the kept buffers
 * end at their last version. */
long brute(const small *g, int64_t budget);
/* The same, or -2 past cap states reached (0: no cap). */
long brute_capped(const small *g, int64_t budget, size_t cap);
graph *load_ok(const char *json);
void model_ok(budget_model *bm, const graph *g);
/* greedy at budget: its plan checked (within the budget, never better than opt), or none. */
int greedy_checked(const budget_model *bm, int64_t budget, unsigned allow, long opt);

/* test_budget_exact.c */
/* exact at budget b: its plan checked; the extra time in *extra. */
int exact_checked(const budget_model *bm, int64_t b, unsigned allow, const solve_ctx *c,
                  const budget_plan *seed, double *extra, budget_proof *pf, budget_outcome *o);
/* The budgets of a graph worth trying: below and at the bound, between it and the peak (the
 * given plan's, in *peak). */
size_t budgets_of(const budget_model *bm, int64_t *out, int64_t *peak);
void exact_against_brute_force(void **state);
void exact_with_offload(void **state);
void exact_honours_limits(void **state);
void best_of_the_solvers(void **state);

/* test_budget_greedy.c */
void greedy_on_generated_training(void **state);
void greedy_walks_priority_order(void **state);
void greedy_prefers_hidden_offload(void **state);

/* test_budget_repair.c */
void repair_against_brute_force(void **state);
void repair_on_generated_training(void **state);
void repair_honours_limits(void **state);

/* test_budget_inplace.c */
void inplace_against_brute_force(void **state);
/* test_budget_exact_scale.c */
void exact_bounds_whole_chains(void **state);
void exact_drops_doomed_evictions(void **state);
void exact_dominance_on_present_sets(void **state);
void exact_fixed_order_against_brute_force(void **state);
void exact_bound_from_memory(void **state);

/* test_budget_bound.c */
void bound_against_brute_force(void **state);
void bound_proves_in_fit(void **state);

#endif
