/* cli_sigint.c: Ctrl-C during a search. The first SIGINT while a command
 * searches (exact's schedule or plan, best's climbs) asks the search to stop,
 * as Esc does in the TUI: the command goes on with the best answer found and
 * says it was interrupted. A second SIGINT during that search, or one outside
 * a search, ends the process as SIGINT does, an output file being written
 * removed (its old content untouched). In a command of many searches
 * (compare, cli_search_sticky) only the first SIGINT stops a search: the
 * next one, in a later search or not, ends the process. A search that a
 * SIGINT stopped before it had anything to give ends the process as well
 * (status 130): nothing follows to be the best found. Exports cli_search_*. */
#define _GNU_SOURCE
#include "cli_sigint.h"
#include <signal.h>
#include <stdio.h>
#include "cli_progress.h"
#include "sched/graph/solve_watch.h"
#include "util/atomic_out.h"

static solve_watch watch;
static volatile sig_atomic_t searching, sticky, stopped;

static void die(int sig)
{
    cli_progress_sigclear();   /* no progress line left on the terminal */
    atomic_out_unlink_temps(); /* an output being written is left as it was */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_sigint(int sig)
{
    if (searching && !atomic_load(&watch.cancel) && !(sticky && stopped)) {
        atomic_store(&watch.cancel, 1);
        stopped = 1;
        return;
    }
    die(sig);
}

solve_ctx cli_search_begin(const solve_ctx *c)
{
    static int installed;
    solve_ctx s = c ? *c : (solve_ctx){0};
    if (!s.watch) s.watch = &watch;
    if (!installed) {
        struct sigaction sa = {.sa_handler = on_sigint};
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        installed = 1;
    }
    searching = 1;
    return s;
}

void cli_search_end(int failed)
{
    static int told;
    searching = 0;
    /* the next search (plan's placing after its schedule) runs anew */
    int cancelled = atomic_exchange(&watch.cancel, 0);
    if (cancelled && failed) die(SIGINT); /* stopped with nothing found */
    if (cancelled && !told) {
        cli_progress_clear();
        fprintf(stderr, "memtris: interrupted: the search stopped; what follows is the best "
                        "it had found\n");
        told = 1;
    }
}

void cli_search_sticky(void) { sticky = 1; }
