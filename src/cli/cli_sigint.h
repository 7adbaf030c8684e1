/* cli_sigint.h: Ctrl-C around a search (cli_sigint.c): the first SIGINT stops the search, not
 * the process. Exports cli_search_begin, cli_search_end, cli_search_sticky. */
#ifndef MEMTRIS_CLI_SIGINT_H
#define MEMTRIS_CLI_SIGINT_H
#include "sched/graph/solve.h"

/* Around a search (cli_sigint.c): begin returns c with the CLI's watcher
 * (when c has none) and lets the first SIGINT stop the search instead of
 * the process; end says on stderr, once, when a SIGINT did, and when the
 * search failed (failed nonzero: no answer to go on with) after a SIGINT
 * stopped it, ends the process as that SIGINT would have. */
solve_ctx cli_search_begin(const solve_ctx *c);
void cli_search_end(int failed);
/* From now on, once a SIGINT has stopped a search, the next SIGINT ends the
 * process even in a later search: for a command of many searches (compare),
 * which a second Ctrl-C then ends. */
void cli_search_sticky(void);

#endif
