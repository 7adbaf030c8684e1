/* part_why.h: why each of two orders took its node where they part: the key a greedy policy
 * compares, field by field, and which field decided ("priority took node 12: change +1.0 MiB
 * beats node 3's +1.5 MiB"); for a whole-order policy (exact, dfs...) the order it leads to and
 * what is proven about the other node's best continuation, never more (a bounded search, a
 * few milliseconds: the TUI asks when its cursor moves to another parting and keeps the words,
 * never while it draws). For the TUI's compare panels and the CLI's compare. Exports
 * part_why_took, part_why. */
#ifndef MEMTRIS_PART_WHY_H
#define MEMTRIS_PART_WHY_H
#include <stddef.h>
#include <stdint.h>
#include "sched/graph/graph.h"
#include "sched/policy/policy.h"

/* A side of a comparison: a policy and its whole run. */
typedef struct part_side {
    const policy *pol;
    const run *r;
} part_side;

/* Why side a popped its node at step s (0-based) where side b popped
 * another, both ready there (s is a parting: both orders have popped the
 * same set of nodes before it). Heuristics: "priority took node 12: change
 * +1.0 MiB beats node 3's +1.5 MiB", with the fields that tied before the
 * one that decided ("change +1.0 MiB ties; type FREE beats node 3's
 * ALLOC"). Whole orders: "exact took node 28: it leads to a 16.5 MiB order
 * (proven least); node 12's best continuation peaks at 18.5 MiB" where b's
 * run proves it (its peak is reached by step s, or meets a lower bound),
 * "at 18.5 MiB or more (not computed exactly; fifo's order through it
 * peaks at 20.0 MiB)" where only a bound is proven, else "not computed".
 * Returns out. */
const char *part_why_took(const graph *g, part_side a, part_side b, uint32_t s, char *out,
                          size_t cap);
/* Both sides' reasons at step s, mine first: "<mine's>; <other's>". */
const char *part_why(const graph *g, part_side mine, part_side other, uint32_t s, char *out,
                     size_t cap);

#endif
