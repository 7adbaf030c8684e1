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
 * reads in[v]; node 0 is an Input; some nodes cannot run again. */
typedef struct small {
    int m, nb;
    unsigned out[MAXN], in[MAXN];
    int lat[MAXN], rerun[MAXN];
    int64_t size[MAXB];
    unsigned keep; /* buffers never freed */
    char json[20000];
} small;

int rnd(uint64_t *s, int n);
/* A random graph of 3 to maxn (at most MAXN) compute nodes, its JSON in g->json. */
void small_random(small *g, uint64_t *s, int maxn);
/* The least extra time (sum of the reruns' latencies) of any plan within budget, recompute
 * only, or -1: Dijkstra over the (ran, present) states reached, every run and free a move. */
long brute(const small *g, int64_t budget);
/* The same, or -2 past cap states reached (0: no cap). */
long brute_capped(const small *g, int64_t budget, size_t cap);
graph *load_ok(const char *json);
void model_ok(budget_model *bm, const graph *g);
/* greedy at budget: its plan checked (within the budget, never better than opt), or none. */
int greedy_checked(const budget_model *bm, int64_t budget, unsigned allow, long opt);

/* test_budget_exact.c */
void exact_against_brute_force(void **state);
void exact_with_offload(void **state);
void exact_honours_limits(void **state);
void best_of_the_solvers(void **state);

/* test_budget_greedy.c */
void greedy_on_generated_training(void **state);
void greedy_walks_priority_order(void **state);
void greedy_prefers_hidden_offload(void **state);

#endif
