/* cli_proof.h: the policies' shared options (cli_proof.c): exact's limits (--time-limit,
 * --max-states, --max-memory), --capacity, the time-aware policies' parameters (--alpha,
 * --queue-order) and the list of policies in --help; and what the commands say of a search and
 * its proof. Exports the CLI_OPT_* and CLI_*_OPTIONS and _HELP of those options, cli_param,
 * cli_limit, cli_capacity, cli_place_stop_word, cli_policy_help, cli_help_entry, cli_prove,
 * cli_search_stop_word, cli_search_words. */
#ifndef MEMTRIS_CLI_PROOF_H
#define MEMTRIS_CLI_PROOF_H
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include "sched/graph/graph.h"
#include "sched/graph/solve.h"
#include "sched/policy/policy.h"

/* Long-only options of the commands that run exact's search. */
enum { CLI_OPT_TIME_LIMIT = 1000, CLI_OPT_MAX_STATES, CLI_OPT_MAX_MEMORY, CLI_OPT_CAPACITY };
#define CLI_MAX_STATES 1000000000ull
#define CLI_LIMIT_OPTIONS                                         \
    {"time-limit", required_argument, 0, CLI_OPT_TIME_LIMIT},     \
        {"max-states", required_argument, 0, CLI_OPT_MAX_STATES}, \
    {                                                             \
        "max-memory", required_argument, 0, CLI_OPT_MAX_MEMORY    \
    }
#define CLI_LIMIT_HELP                                                                   \
    "      --time-limit S  exact: stop after S seconds (default 10), the whole of its\n" \
    "                      solving (best's start, bound, search, answer) included;\n"    \
    "                      best: at most S seconds, when given\n"                        \
    "      --max-states N  exact: stop after keeping N states (default 4000000)\n"       \
    "      --max-memory SIZE exact: the memory its search may hold (default a\n"         \
    "                      quarter of the machine's, at most 2GiB); past a limit,\n"     \
    "                      or at Ctrl-C, the best answer found and the bound\n"
/* Long-only options of the commands that run the time-aware policies. */
enum { CLI_OPT_ALPHA = 1010, CLI_OPT_QUEUE_ORDER };
#define CLI_PARAM_OPTIONS                                        \
    {"alpha", required_argument, 0, CLI_OPT_ALPHA},              \
    {                                                            \
        "queue-order", required_argument, 0, CLI_OPT_QUEUE_ORDER \
    }
#define CLI_PARAM_HELP                                                                \
    "      --alpha A       weighted: the weight of memory against latency, 0 to 1\n"  \
    "                      (default 0.7; 1 is priority's order)\n"                    \
    "      --queue-order Q multiqueue: the queues served each round, a permutation\n" \
    "                      of compute,transfer,other (the default)\n"
/* Parses --alpha (opt CLI_OPT_ALPHA) or --queue-order into pp. 0, or -1 after
 * a usage error for CMD. */
int cli_param(const char *cmd, int opt, const char *arg, solve_ctx *pp);
/* A placement search's end as JSON and text say it: "finished", "limit",
 * "cancelled" or "too large" (place_search.stopped). */
const char *cli_place_stop_word(solve_stop stopped);
/* Parses --time-limit (opt CLI_OPT_TIME_LIMIT), --max-states or --max-memory into l. 0, or
 * -1 after a usage error for CMD. */
int cli_limit(const char *cmd, int opt, const char *arg, solve_ctx *l);
/* Parses --capacity SIZE (bytes, or with a unit: 1MiB) into l->capacity.
 * 0, or -1 after a usage error for CMD. */
int cli_capacity(const char *cmd, const char *arg, solve_ctx *l);
/* Prints "Policies:" and each policy's name and description (from the
 * table) to stdout: the end of the --help of the commands that take one. */
void cli_policy_help(void);
/* "  NAME       DESC", the description wrapped at 79 columns under itself: an entry of a
 * help's list (policies, budget solvers). */
void cli_help_entry(const char *name, const char *desc);
/* Proves each of the n runs of g against the best bound known (policy's
 * lower bound, and any a run found); returns that bound. */
int64_t cli_prove(const graph *g, run *runs, int n);
/* Why exact's search stopped, as schedule's JSON says it: "done", "time" or
 * "states" (run.search.stopped). */
const char *cli_search_stop_word(const run *r);
/* "search: 1234 states, 2 of 3 pieces searched to the end (stopped at the
 * time limit)" for exact's run. Returns out. */
const char *cli_search_words(const run *r, char *out, size_t cap);

#endif
