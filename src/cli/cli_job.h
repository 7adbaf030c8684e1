/* cli_job.h: a command's work (cli_job.c): load, run, time and place a graph, each step saying
 * why on stderr when it fails, and one free for whatever was made. Exports cli_job,
 * cli_job_*. */
#ifndef MEMTRIS_CLI_JOB_H
#define MEMTRIS_CLI_JOB_H
#include <stdint.h>
#include "cli_plan.h"
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/place/problem.h"
#include "sched/policy/policy.h"
#include "sched/time/timeline.h"

/* What load -> run -> place -> write commands make (schedule, plan, place,
 * replay, iterate; compare keeps its graph here): each step fills its part,
 * says on stderr why when it fails (EXIT_BAD, or cli_place's status), and
 * cli_job_free frees whatever was made. */
typedef struct cli_job {
    graph *g;
    problem *prob;     /* place: the CSV read (freed with the job); else NULL */
    const policy *pol; /* the policy run */
    run r;             /* has_run */
    timeline t;        /* has_time */
    const placer *pc;  /* has_plan: the placer, */
    placement pl;      /* its plan of r (zeroed until then) */
    lifetimes lt;      /* cli_job_plan: r's buffer lifetimes, */
    uint32_t *order;   /* and the buffers in BufId order */
    int has_run, has_time, has_plan;
} cli_job;
/* Zeroes j and loads path (cli_load): EXIT_OK or EXIT_BAD. */
int cli_job_load(cli_job *j, const char *path);
/* Runs policy p on the graph: EXIT_OK, or EXIT_BAD after "SOURCE: error: ...". */
int cli_job_run(cli_job *j, const policy *p, const solve_ctx *c);
/* Times the run on the graph's streams (cli_timeline). */
int cli_job_time(cli_job *j);
/* Places the run with pc, the plan checked (cli_place for CMD). */
int cli_job_place(cli_job *j, const char *cmd, const placer *pc, int64_t align, const solve_ctx *c);
/* The placed run as plan and place write it: lifetimes and BufId order made,
 * cp's fields but --rank-by's set (policy: the policy's name, NULL for
 * place's problem). */
int cli_job_plan(cli_job *j, cli_plan *cp);
void cli_job_free(cli_job *j);

#endif
