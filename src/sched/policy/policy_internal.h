/* policy_internal.h: what each policy's file gives the table in policy.c: a
 * key and a why function, or a plan (see policy.h's struct policy). */
#ifndef MEMTRIS_POLICY_INTERNAL_H
#define MEMTRIS_POLICY_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "policy.h"

#define POLICY_WHY_ARGS \
    const graph *g, const run *r, uint32_t u, uint32_t v, uint32_t nready, char *out, size_t cap
#define POLICY_KEY_ARGS const graph *g, const run *r, uint32_t i, uint32_t seq, int64_t k[3]

void policy_key_fifo(POLICY_KEY_ARGS);
void policy_why_fifo(POLICY_WHY_ARGS);
void policy_key_priority(POLICY_KEY_ARGS);
void policy_why_priority(POLICY_WHY_ARGS);
void policy_key_bfs(POLICY_KEY_ARGS);
void policy_why_bfs(POLICY_WHY_ARGS);

void policy_prepare_weighted(const graph *g, const solve_ctx *c, run *r);
void policy_key_weighted(POLICY_KEY_ARGS);
void policy_why_weighted(POLICY_WHY_ARGS);
void policy_show_weighted(const graph *g, const run *r, uint32_t i, const int64_t k[3], char *out,
                          size_t cap);

/* Whole-order policies: their plan, and a why that says where the node
 * stands in the order (policy_why_rank, in policy.c, does the words). */
void policy_key_rank(POLICY_KEY_ARGS);
void policy_why_rank(const char *what, POLICY_WHY_ARGS);
int policy_plan_dfs(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap);
void policy_why_dfs(POLICY_WHY_ARGS);
int policy_plan_postorder(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap);
void policy_why_postorder(POLICY_WHY_ARGS);
int policy_plan_lpmf(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap);
void policy_why_lpmf(POLICY_WHY_ARGS);
int policy_plan_best(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap);
void policy_why_best(POLICY_WHY_ARGS);
int policy_plan_multiqueue(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap);
void policy_why_multiqueue(POLICY_WHY_ARGS);
/* The queue multiqueue puts node i in (QUEUE_*). */
int policy_queue_of(const graph *g, uint32_t i);
int policy_plan_exact(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap);
void policy_why_exact(POLICY_WHY_ARGS);

/* Post-order of the graph from its sinks (taken in ascending Id), each
 * node's predecessors visited in the order less(g, ctx, a, b) says (NULL:
 * edge order); writes r->rank. 0, or -1 when memory runs out. */
int policy_postorder_by(const graph *g, run *r, const void *ctx,
                        int (*less)(const graph *g, const void *ctx, uint32_t a, uint32_t b));

#endif
