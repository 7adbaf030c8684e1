/* place_ctl_internal.h: the placers' hooks into the context of the placement that
 * runs on this thread (set by place_run from the context it was given):
 * cancel, progress, the limits. Internal to place/. */
#ifndef MEMTRIS_PLACE_CTL_H
#define MEMTRIS_PLACE_CTL_H
#include <stdint.h>
#include "sched/graph/solve.h"

/* The context of this thread's placement, or NULL (the defaults). */
const solve_ctx *place_ctx_now(void);
/* Binds c to this thread (a thread the placement starts). */
void place_ctx_bind(const solve_ctx *c);
/* Whether this thread's placement was asked to stop. */
int place_cancel_asked(void);
/* Says what the placement does now (a static string), for the watcher. */
void place_doing(const char *what);
/* Says how exact's search stands, for the watcher. */
void place_progress(uint64_t states, int64_t best, int64_t bound);

#endif
