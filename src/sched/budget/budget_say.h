/* budget_say.h: budget answers in words that every view shares: how far a plan may be from
 * the optimum (the gap to the lower bound) and why the search stopped short of a proof, when no
 * plan fits what fills the least budget by Category, and what a graph without Latency makes of
 * every plan's time. Exports budget_gap, budget_gap_pct, budget_gap_words, budget_stop_name,
 * budget_stop_words, budget_fill, budget_fill_words, budget_has_latency,
 * budget_no_latency_words. */
#ifndef MEMTRIS_BUDGET_SAY_H
#define MEMTRIS_BUDGET_SAY_H
#include <stddef.h>
#include <stdint.h>
#include "budget_fit.h"

/* The relative gap of a plan's extra time to the lower bound: (extra - lb) / lb; 0 when proven
 * (or extra is 0); -1 when unknown (the bound is 0 and the plan takes time). */
double budget_gap(double extra_ms, double lb_ms, int proven);
/* A gap above 0 as a whole percent, rounded up, at least 1 (capped at 1000000). */
int budget_gap_pct(double gap);
/* "proven optimal", "within 12% of optimal (lower bound 0.27 ms)" (the percent rounded up), or
 * "gap unknown (lower bound 0 ms)"; out. */
char *budget_gap_words(char *out, size_t cap, double extra_ms, double lb_ms, int proven);

/* Why the search for a better plan (or a higher bound) ended, as JSON's "stopped" says it:
 * "done" (proven: the plan is optimal, or no plan fits), "time", "states", "memory",
 * "cancelled" (exact stopped at that limit), "too-large" (best did not run exact: the graph is
 * past BUDGET_BEST_EXACT_NODES), "offload-bound" (exact's search ended, but with offload its
 * bound counts the reruns alone, not the copies' time), or "no-search" (the solver proves
 * nothing of its own: greedy, chain, repair). */
const char *budget_stop_name(const budget_result *res);
/* The same for the text line after the gap, with the solver's name: "" when proven, else
 * ", exact stopped at the time limit after 120 states" and the like; out. */
char *budget_stop_words(char *out, size_t cap, const budget_result *res, const char *solver);

/* What fills the least budget: the bytes forced at the compute node where they are most
 * (res->bb.peak_at), by Category (bytes[GRAPH_CAT_*], GRAPH_CAT_NONE: untagged); the node (or
 * GRAPH_NONE when the bound is another: the buffers present at the start or at the end). The
 * total is res->bb.peak. */
uint32_t budget_fill(const budget_result *res, int64_t bytes[GRAPH_NCAT]);
/* "weight 44.7 MiB (48%), gradient 44.7 MiB (48%), activation 3.2 MiB (4%) at Id 81 (name)",
 * biggest first, "other" for untagged; "" when nothing is known; out. */
char *budget_fill_words(char *out, size_t cap, const budget_result *res);

/* Whether a compute node of g takes time (a Latency above 0): without one every rerun costs
 * 0 ms, and a plan's extra time (and the claim of checkpointing, "65% less memory for 15% more
 * time") says nothing. */
int budget_has_latency(const graph *g);
/* What that means, in the words budget, its sweep, whatif and the TUI share: "the graph has no
 * Latency: every plan costs 0 ms; export with --latency flops|measure" (allow with
 * BUDGET_ALLOW_OFFLOAD: every rerun costs 0 ms, only copies take time); terse, for a narrow
 * line (at most 70 columns): "no Latency: every plan costs 0 ms; export with ..." ("reruns cost
 * 0 ms" with offload). */
const char *budget_no_latency_words(unsigned allow, int terse);

#endif
