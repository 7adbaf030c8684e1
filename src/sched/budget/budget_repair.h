/* budget_repair.h: what the repair solver (budget_repair.c), its orders (budget_orders.c) and
 * greedy (budget_greedy.c) share: greedy along a model, models along other first-run orders,
 * the search over orders and the large-neighbourhood repair. Exports nothing outside the budget
 * folder. */
#ifndef MEMTRIS_BUDGET_REPAIR_H
#define MEMTRIS_BUDGET_REPAIR_H
#include <stddef.h>
#include <stdint.h>
#include "budget.h"

/* Greedy's rules walked along along's order (a model of given's graph), never evicting under
 * pressure a logical buffer that keepers (NULL: none) marks 1, evicting first one it marks 2,
 * and with fit, evicting the cheapest buffer that alone makes the room wanted where one does
 * (else the rule's choice); each plan checked on given; the plan of least extra time into p,
 * *o said. 0, or -1 out of memory. */
int budget_greedy_along(const budget_model *given, const budget_model *along, const budget_goal *gl,
                        const uint8_t *keepers, int fit, budget_plan *p, budget_outcome *o);

/* bm along another first-run order (bm->m compute nodes, each once; that each comes after its
 * predecessors along the Edges is the caller's to keep, and the checker's to catch in any plan
 * walked along it): bm's arrays shared, but order, pos and lastread, which are view's own. 1
 * made, 0 when order is not a permutation of the compute nodes or moves a buffer's producer
 * (view untouched), -1 out of memory.
 * Free it with budget_orders_view_free, never budget_model_free. */
int budget_orders_view(const budget_model *bm, const uint32_t *order, budget_model *view);
void budget_orders_view_free(budget_model *view);

/* Greedy along the first-run orders worth trying (budget_orders.c: every heuristic policy's,
 * the training orders, and seed's when seed is not NULL), each checked on bm; the plan of least
 * extra time within gl's budget into p when it takes less than *pe (p's extra time, HUGE_VAL:
 * none yet), *pe then updated. *tried counts the orders walked. Honours gl->c's time limit,
 * deadline and cancel (the orders not walked are skipped). 0, or -1 out of memory. */
int budget_orders_search(const budget_model *bm, const budget_goal *gl, const budget_plan *seed,
                         budget_plan *p, double *pe, uint32_t *tried);

/* The large-neighbourhood repair of plan p (within gl's budget, recompute only, extra time *pe):
 * windows of its first runs freed and re-solved exactly (budget_repair.c); each improvement
 * checked on bm and kept. *windows counts the windows re-solved, *kept those kept. 0, or -1 out
 * of memory. */
int budget_repair_lns(const budget_model *bm, const budget_goal *gl, budget_plan *p, double *pe,
                      uint32_t *windows, uint32_t *kept);

#endif
