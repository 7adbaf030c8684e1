/* cli_job.c: the work of the commands that load, run, place and write: the
 * graph, a policy's run on it, its timeline and its plan in one struct with
 * one free function, each step saying on stderr why it failed. Exports cli_job_*. */
#include "cli_job.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_plan.h"
#include "cli_progress.h"
#include "cli_proof.h"
#include "cli_sigint.h"
#include "cli_time.h"

int cli_job_load(cli_job *j, const char *path)
{
    memset(j, 0, sizeof *j);
    j->g = cli_load(path, 0);
    return j->g ? EXIT_OK : EXIT_BAD;
}

int cli_job_run(cli_job *j, const policy *p, const solve_ctx *c)
{
    char err[256];
    cli_progress("scheduling with policy %s...", p->name);
    solve_ctx s = cli_search_begin(c);
    int rc = policy_run(j->g, p, &s, &j->r, err, sizeof err);
    cli_progress_clear();
    cli_search_end(rc);
    if (rc) {
        cli_eprintf("%s: error: %s\n", j->g->source, err);
        return EXIT_BAD;
    }
    j->pol = p;
    j->has_run = 1;
    return EXIT_OK;
}

int cli_job_time(cli_job *j)
{
    if (cli_timeline(j->g, &j->r, &j->t)) return EXIT_BAD;
    j->has_time = 1;
    return EXIT_OK;
}

int cli_job_place(cli_job *j, const char *cmd, const placer *pc, int64_t align, const solve_ctx *c)
{
    if (c && c->seconds > 0)
        cli_progress("placing with %s (--time-limit %g s)...", pc->name, c->seconds);
    else cli_progress("placing with %s...", pc->name);
    int st = cli_place(cmd, j->g, &j->r, NULL, pc, align, c, &j->pl);
    cli_progress_clear();
    if (st) return st;
    const placement *pl = &j->pl;
    if (pl->fits == PLACE_FITS_NO) {
        cli_eprintf("%s: no plan fits in %" PRId64 " bytes: proven, every plan of this schedule "
                    "takes at least %" PRId64 " bytes\n",
                    j->g->source, pl->capacity, pl->bound);
        return EXIT_BAD;
    }
    if (pl->fits == PLACE_FITS_UNKNOWN) {
        cli_eprintf("%s: not known whether a plan fits in %" PRId64 " bytes: placer %s's smallest "
                    "takes %" PRId64 " bytes, the bound is %" PRId64 "%s%s%s\n",
                    j->g->source, pl->capacity, pc->name, pl->arena, pl->bound,
                    pl->search.ran ? " (the search stopped: " : "",
                    pl->search.ran ? cli_place_stop_word(pl->search.stopped) : "",
                    pl->search.ran ? ")" : "");
        return EXIT_BAD;
    }
    j->pc = pc;
    j->has_plan = 1;
    return EXIT_OK;
}

int cli_job_plan(cli_job *j, cli_plan *cp)
{
    j->order = cli_bufid_order(j->g);
    if (!j->order || place_lifetimes(j->g, &j->r, &j->lt)) {
        cli_eprintf("%s: error: out of memory listing %u buffers\n", j->g->source, j->g->nbufs);
        return EXIT_BAD;
    }
    cp->g = j->g;
    cp->r = &j->r;
    cp->pc = j->pc;
    cp->pl = &j->pl;
    cp->lt = &j->lt;
    cp->policy = j->prob ? NULL : j->pol->name;
    cp->order = j->order;
    cp->prob = j->prob;
    return EXIT_OK;
}

void cli_job_free(cli_job *j)
{
    free(j->order);
    place_lifetimes_free(&j->lt);
    place_free(&j->pl);
    if (j->has_time) timeline_free(&j->t);
    if (j->has_run) policy_run_free(&j->r);
    graph_free(j->g);
    problem_free(j->prob);
    memset(j, 0, sizeof *j);
}
