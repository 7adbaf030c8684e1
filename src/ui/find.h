/* find.h: the TUI's find (/): which nodes a query names (an id, or a part of a
 * Name or an Op, in any case) and which of them pops next or last before a
 * step. Knows no app. Exports find_*. */
#ifndef MEMTRIS_FIND_H
#define MEMTRIS_FIND_H
#include <stdint.h>
#include "sched/graph/graph.h"
#include "sched/policy/policy.h"

/* 1 when node u matches query q: q is u's Id written in decimal, or q
 * appears in u's Name or Op, letters compared without case. An empty q
 * matches nothing. */
int find_match(const graph *g, uint32_t u, const char *q);

/* What find_step found. */
typedef struct find_hit {
    uint32_t node;  /* the matching node, GRAPH_NONE when none matches */
    uint32_t step;  /* the step it pops at in r (its position + 1) */
    uint32_t index; /* its place among the matches in schedule order, from 1 */
    uint32_t count; /* how many nodes match */
    int wrapped;    /* it was found past the end (or before the start) of the run */
} find_hit;

/* The match that pops first after step `from` (dir > 0) or last before it
 * (dir < 0) in run r, wrapping around the run's ends. */
find_hit find_step(const graph *g, const run *r, const char *q, uint32_t from, int dir);

#endif
