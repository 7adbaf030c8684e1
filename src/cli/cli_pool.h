/* cli_pool.h: the pool options that iterate and view's I share (cli_pool.c): --iterations,
 * --scale, --seed. Exports CLI_OPT_ITERATIONS, CLI_OPT_SCALE, CLI_OPT_SEED, CLI_POOL_OPTIONS,
 * CLI_POOL_HELP, cli_pool_defaults, cli_pool_opt. */
#ifndef MEMTRIS_CLI_POOL_H
#define MEMTRIS_CLI_POOL_H
#include <getopt.h>
#include "sched/time/pool.h"

/* Long-only options of the pool simulation: iterate, and view's I. */
enum { CLI_OPT_ITERATIONS = 1100, CLI_OPT_SCALE, CLI_OPT_SEED };
#define CLI_POOL_OPTIONS                                      \
    {"iterations", required_argument, 0, CLI_OPT_ITERATIONS}, \
        {"scale", required_argument, 0, CLI_OPT_SCALE},       \
    {                                                         \
        "seed", required_argument, 0, CLI_OPT_SEED            \
    }
#define CLI_POOL_HELP                                                                    \
    "      --iterations N  iterations of the schedule (default 100, at most 10000000)\n" \
    "      --scale MIN:MAX each iteration scales every buffer by a factor drawn\n"       \
    "                      uniformly in [MIN, MAX) (default 0.25:1; 0 < MIN <= MAX)\n"   \
    "      --seed S        the factors' seed (default 1): same seed, same factors\n"
/* iterate's defaults (defaults.h). */
void cli_pool_defaults(pool_params *pp);
/* Parses --iterations, --scale or --seed (opt CLI_OPT_*) into pp. 0, or -1
 * after a usage error for CMD naming the option. */
int cli_pool_opt(const char *cmd, int opt, const char *arg, pool_params *pp);

#endif
