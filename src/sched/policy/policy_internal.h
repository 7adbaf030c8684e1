/* policy_internal.h: what the policies' files share inside policy/: the
 * policy objects the table lists, the whole-order policies' key and why,
 * and the post-order that dfs and postorder walk. */
#ifndef MEMTRIS_POLICY_INTERNAL_H
#define MEMTRIS_POLICY_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "policy.h"

#define POLICY_WHY_ARGS \
    const graph *g, const run *r, uint32_t u, uint32_t v, uint32_t nready, char *out, size_t cap
#define POLICY_KEY_ARGS const graph *g, const run *r, uint32_t i, uint32_t seq, int64_t k[3]

/* The table of policies, in its order: policy_NAME.c defines `const policy
 * policy_NAME` (static functions and that object), policy_table.c makes
 * this list its array. A new policy is one file and one name here (and the
 * file in src/sched/CMakeLists.txt). */
#define POLICY_LIST(X) \
    X(fifo)            \
    X(priority)        \
    X(dfs) X(postorder) X(lpmf) X(bfs) X(best) X(exact) X(weighted) X(multiqueue) X(given)
#define POLICY_DECLARE(name) extern const policy policy_##name;
POLICY_LIST(POLICY_DECLARE)

/* Whole-order policies: their key is the place in their order (policy.c),
 * and their why says where the node stands in it (policy_why_rank does the
 * words). */
#define RANK_KEYS .nkeys = 1, .key_names = {"rank", NULL, NULL}, .key = policy_key_rank
void policy_key_rank(POLICY_KEY_ARGS);
void policy_why_rank(const char *what, POLICY_WHY_ARGS);

/* Whether c's watcher cancelled or its clock is past deadline (HUGE_VAL:
 * never; policy.c). */
int policy_past(const solve_ctx *c, double deadline);

/* best's plan with a deadline (on c's clock), for exact and for best under
 * --time-limit: the first member always runs; a later one only when nobody
 * cancelled and, judged by the longest member so far, it ends by deadline.
 * Each runs with policy_run_until: one of a key past the deadline or
 * cancelled finishes its order by Kahn's rule, and is the last
 * (r->search.stopped says why; then the order is the first's when it was
 * the first); a plan (dfs, postorder, lpmf) cut short has no order and is
 * dropped, the best whole order standing. *first: the first's seconds. 0, or
 * -1 with a message. HUGE_VAL: no deadline, and no cancel either. */
int policy_best_until(const graph *g, const solve_ctx *c, run *r, double deadline, double *first,
                      char *err, size_t errcap);

/* A heuristic's plan cut short: what it returns (not 0, not -1) when
 * policy_plan_stop said stop; its ranks are then no order. */
#define POLICY_PLAN_CUT 1
/* For a heuristic's plan (dfs, postorder, lpmf), at its i-th unit of work:
 * every 4096, whether c's watcher cancelled or c->deadline passed.
 * policy_run_until gives the plan a context with its deadline (and no
 * watcher, no deadline, when it has none), so policy_run never cuts one. */
int policy_plan_stop(const solve_ctx *c, uint64_t i);

/* Post-order of the graph from its sinks (taken in ascending Id), each
 * node's predecessors visited in the order less(g, ctx, a, b) says (NULL:
 * edge order); writes r->rank. 0, -1 when memory runs out, or
 * POLICY_PLAN_CUT when policy_plan_stop(sc, ...) stopped it. */
int policy_postorder_by(const graph *g, const solve_ctx *sc, run *r, const void *ctx,
                        int (*less)(const graph *g, const void *ctx, uint32_t a, uint32_t b));

#endif
