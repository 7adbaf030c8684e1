/* step.h: the stepper, the engine the TUI drives. It holds a policy's whole
 * run and the live state at step k (ready heap, remaining in-degrees); it
 * steps forward, steps back exactly by undoing the last pop, and jumps. */
#ifndef MEMTRIS_STEP_H
#define MEMTRIS_STEP_H
#include "sched/graph/graph.h"
#include "util/heap.h"
#include "policy.h"

typedef struct stepper {
    const graph *g;
    const policy *pol;
    run r;         /* the whole schedule, computed once */
    uint32_t k;    /* steps done, 0..n */
    heap ready;    /* ready set at step k, with position index */
    uint32_t *rem; /* [n] predecessors not yet popped */
} stepper;

int step_init(stepper *s, const graph *g, const policy *p, const solve_ctx *c, char *err,
              size_t errcap);
void step_free(stepper *s);
int step_forward(stepper *s); /* 1 if a node was popped, 0 at the end */
int step_back(stepper *s);    /* 1 if a pop was undone, 0 at step 0 */
void step_jump(stepper *s, uint32_t k);
/* Node popped by the last step (step k), or GRAPH_NONE at step 0. */
uint32_t step_last(const stepper *s);
int64_t step_memory_at(const stepper *s, uint32_t k); /* live bytes after step k */
int64_t step_memory(const stepper *s);
/* Peak up to step k and the (1-based) step where it was first reached (0 if none). */
int64_t step_peak(const stepper *s, uint32_t *at);
uint32_t step_ready_count(const stepper *s);
/* Ready nodes of rank skip.. in pop order, with their keys. */
uint32_t step_ready(const stepper *s, uint32_t skip, heap_item *out, uint32_t max);
/* Whether buffer b is live at step k (allocated, not yet freed). */
int step_buf_live(const stepper *s, uint32_t b);
/* Live buffers at step k, ordered by allocation step; returns the count
 * (writes at most cap). */
uint32_t step_live(const stepper *s, uint32_t *bufs, uint32_t cap);

#endif
