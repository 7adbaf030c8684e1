/* whatif.h: a well-known table of training-memory techniques for BERT (man memtris, whatif)
 * made real on one training graph: its peak (and time) as given, under checkpointing at a share of
 * the peak (the budget solver), mixed precision, gradient accumulation over k micro-batches and the
 * fusion of elementwise ops into their producer, each alone and combined; each transform a new
 * graph (graph_build). Exports whatif_*. */
#ifndef MEMTRIS_WHATIF_H
#define MEMTRIS_WHATIF_H
#include <stddef.h>
#include <stdint.h>
#include "sched/budget/budget.h"
#include "sched/graph/graph.h"
#include "sched/graph/solve.h"
#include "sched/policy/policy.h"

/* The transforms, to combine in whatif_transform's what. */
enum { WHATIF_MIXED = 1, WHATIF_ACCUM = 2, WHATIF_FUSE = 4 };
/* The most micro-batches -k takes. */
#define WHATIF_MAX_K 65536

/* Whether Op is an elementwise op that fusion folds into its producer: its name lower case,
 * without a leading "aten::" or a ".overload", in tools/graphkit.py's INPLACE_ELEMENTWISE_OPS
 * (relu, add, mul, sigmoid, gelu, ...; test_whatif.sh keeps the two lists equal). */
int whatif_elementwise(const char *op);

/* Builds in *out (graph_free it) the graph g becomes under what, with Ids renumbered 0, 1,
 * ... in a topological order that keeps g's Id order wherever the edges allow:
 * - WHATIF_MIXED: buffers of Category activation and gradient, and of workspace unless an
 *   optimizer-Phase node makes them, at half their Size (rounded up); weights, optimizer
 *   state, inputs and outputs unchanged (fp32 master weights, as AMP keeps them);
 * - WHATIF_ACCUM with k >= 2: activation, workspace and input buffers at Size / k (rounded
 *   up); every gradient ALLOC moved before the first compute node (the gradients accumulate
 *   across micro-batches, so in every micro-batch after the first they are present from its
 *   start); the Latency of each node not of Phase optimizer / k;
 * - WHATIF_FUSE: an elementwise node E (whatif_elementwise) that reads a buffer X made by
 *   exactly one compute node P and read by no node but P and E, X of Category none,
 *   activation, workspace or gradient and freed by the graph, P the compute node just before E
 *   in the new order (ALLOCs and FREEs aside) and no path from P to E but through X: X's ALLOC and
 *   FREE go and P and E become one node (P's Id, Op, Phase and Stream, the Name "P+E", the
 *   Inputs of both, the Latencies summed); chains fold (conv+add+relu).
 * *fused counts the nodes folded (may be NULL). 0, or -1 with a message in err. */
int whatif_transform(const graph *g, unsigned what, uint32_t k, graph **out, uint32_t *fused,
                     char *err, size_t errcap);

/* The rows of the table, in order. */
enum {
    WHATIF_ROW_BASELINE,
    WHATIF_ROW_CHECKPOINT,
    WHATIF_ROW_MIXED,
    WHATIF_ROW_ACCUM,
    WHATIF_ROW_FUSION,
    WHATIF_ROW_THREE, /* mixed + accumulation + fusion */
    WHATIF_ROW_ALL,   /* those three, then checkpointing */
    WHATIF_NROWS
};

typedef struct whatif_row {
    int has_peak;
    int64_t peak;
    int has_time; /* the graph has Latency */
    double time_ms;
    int has_budget;  /* checkpointing rows: the budget was worked out (the graph had a model) */
    int64_t budget;  /* checkpointing rows: pct_micro of the budget-free peak, rounded down */
    double extra_ms; /* checkpointing rows with a peak: the reruns' time, in the whole step */
    uint64_t reruns; /* checkpointing rows with a peak, in one (micro-batch) step */
    uint32_t fused;  /* nodes folded by fusion (a row with a peak) */
    char why[512];   /* !has_peak: why not, in words */
} whatif_row;

typedef struct whatif_opts {
    const policy *pol;           /* the baseline's policy, run on every graph */
    uint32_t k;                  /* micro-batches, 1..WHATIF_MAX_K */
    int64_t pct_micro;           /* checkpointing's budget: millionths of a percent of the
                                    budget-free peak (budget_arg.h), rounded down */
    const budget_solver *solver; /* checkpointing's (NULL: DEFAULT_WHATIF_SOLVER) */
    const solve_ctx *c;
} whatif_opts;

typedef struct whatif_result {
    whatif_row row[WHATIF_NROWS];
    int has_categories, has_phases, has_latency;
} whatif_result;

/* The rows for g. Time: the makespan of the policy's order (timeline_run); checkpointing adds
 * the plan's extra time; accumulation is k times the micro-batch's makespan less (k - 1)
 * times the optimizer's latencies (the update runs once). Rows that cannot be made say why
 * (no Categories, no plan within the budget). Checkpointing runs on g renumbered as
 * whatif_transform does (the budget solver needs Ids in a topological order). 0, or -1 with a
 * message in err when the baseline itself fails (the policy refuses g) or out of memory. */
int whatif_run(const graph *g, const whatif_opts *o, whatif_result *r, char *err, size_t errcap);

/* The row's name as the JSON says it: "baseline", "checkpointing", "mixed_precision",
 * "accumulation", "fusion", "combined", "combined_checkpointing". */
const char *whatif_row_name(int row);

#endif
