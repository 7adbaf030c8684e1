/* budget_arg.h: a budget as the user writes it (memtris budget --budget, the TUI's budget
 * prompt): bytes (1048576, 8MiB, 1.5G) or N% of the budget-free peak, what may be used to fit
 * (--allow), and the solvers' names (--solver). Exports budget_arg_*. */
#ifndef MEMTRIS_BUDGET_ARG_H
#define MEMTRIS_BUDGET_ARG_H
#include <stddef.h>
#include <stdint.h>

/* What a budget must be, for the messages that refuse one (a printf format: "%%"). */
#define BUDGET_ARG_WANTS                                                                      \
    "a size of at least 1 byte (as 1048576 or 8MiB) or a percentage of the budget-free peak " \
    "above 0 (as 60%%)"

/* Reads arg: 0 with *bytes set (>= 1; *pct 0) or *pct set (> 0, at most 1e6, "60%" with no
 * space; *bytes 0), or -1 when it is neither. */
int budget_arg_parse(const char *arg, int64_t *bytes, double *pct);
/* What --allow lists: recompute, offload or recompute,offload: 0 with *allow the
 * BUDGET_ALLOW_* bits, or -1. */
int budget_arg_allow(const char *arg, unsigned *allow);
/* The solvers' names in the list's order (BUDGET_SOLVER_LIST) between sep: "best, greedy,
 * chain, exact" (sep ", "), for the messages that refuse a name. Returns out. */
const char *budget_arg_solvers(char *out, size_t cap, const char *sep);
/* pct% of the budget-free peak free_peak, in whole bytes (rounded down). */
int64_t budget_arg_of_pct(int64_t free_peak, double pct);

#endif
