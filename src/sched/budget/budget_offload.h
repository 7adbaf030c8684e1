/* budget_offload.h: what the solvers share about plans that move buffers to the host
 * (ZeRO-Offload's and FSDP's weights and optimizer state): a plan's copies tidied. Exports
 * budget_offload_tidy, nothing outside the budget folder. */
#ifndef MEMTRIS_BUDGET_OFFLOAD_H
#define MEMTRIS_BUDGET_OFFLOAD_H
#include "budget.h"

/* Plan p on bm made no worse in peak or time: an offload whose copy no later fetch reads becomes
 * a free, but the last copy of a never-freed buffer that no run makes again after it (its copy
 * at the end); the offloads of buffers that may start on the host (budget_model.hostable) that
 * come before any other event touches them (but the Input node that makes them) become
 * BUDGET_HOST events at the plan's head (less on the device until then, no
 * copy out). 0, or -1 out of memory (p then no plan to give). */
int budget_offload_tidy(const budget_model *bm, budget_plan *p);

#endif
