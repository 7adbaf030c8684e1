/* budget_arg.h: a budget as the user writes it (memtris budget --budget, the TUI's budget
 * prompt): bytes (1048576, 8MiB, 1.5G) or N% of the budget-free peak, read and worked out in
 * integers, what may be used to fit (--allow), and the solvers' names (--solver). Exports
 * budget_arg_*. */
#ifndef MEMTRIS_BUDGET_ARG_H
#define MEMTRIS_BUDGET_ARG_H
#include <stddef.h>
#include <stdint.h>

/* What a budget must be, for the messages that refuse one (a printf format: "%%"). */
#define BUDGET_ARG_WANTS                                                              \
    "a size from 1 byte to 2^63-1 bytes (as 1048576 or 8MiB) or a percentage of the " \
    "budget-free peak above 0, at most 1000000, with at most 6 decimals (as 60%% or 12.5%%)"

/* A percentage, exactly: in millionths of a percent (60% is 60000000, 12.5% is 12500000). */
#define BUDGET_PCT_ONE ((int64_t)1000000)         /* 1% */
#define BUDGET_PCT_MAX (1000000 * BUDGET_PCT_ONE) /* 1000000% */

/* Reads arg: 0 with *bytes set (1 to 2^63-1, as units_parse reads a size: no decimals without
 * a unit; *pct 0) or *pct set (digits, at most 6 decimals after a point, then % with no space:
 * above 0 and at most BUDGET_PCT_MAX, in millionths of a percent; *bytes 0), or -1 when it is
 * neither (a sign, an exponent, hex, 1.5 bytes, a space before the %). */
int budget_arg_parse(const char *arg, int64_t *bytes, int64_t *pct);
/* What --allow lists: recompute, offload or recompute,offload: 0 with *allow the
 * BUDGET_ALLOW_* bits, or -1. */
int budget_arg_allow(const char *arg, unsigned *allow);
/* The solvers' names in the list's order (BUDGET_SOLVER_LIST) between sep: "best, greedy,
 * chain, exact" (sep ", "), for the messages that refuse a name. Returns out. */
const char *budget_arg_solvers(char *out, size_t cap, const char *sep);
/* pct (millionths of a percent) of the budget-free peak free_peak, in whole bytes, rounded
 * down, in integers: 0 with *bytes, or -1 when it would pass 2^63-1. */
int budget_arg_of_pct(int64_t free_peak, int64_t pct, int64_t *bytes);
/* pct (millionths of a percent) as the user wrote it, exactly: "60%", "12.5%", "0.000001%".
 * Returns out. */
const char *budget_arg_pct_words(char *out, size_t cap, int64_t pct);

#endif
