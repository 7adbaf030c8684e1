/* cli_time.h: what the commands print of a timeline (cli_time.c): the makespan, the bound, the
 * busy streams, and times in ms as CSV and JSON write them. Exports cli_timeline, cli_csv_ms,
 * cli_jw_ms, cli_time_json, cli_time_text. */
#ifndef MEMTRIS_CLI_TIME_H
#define MEMTRIS_CLI_TIME_H
#include <stdio.h>
#include "sched/graph/graph.h"
#include "sched/policy/policy.h"
#include "sched/time/timeline.h"
#include "util/jw.h"

/* Times r's order on g (timeline_run): EXIT_OK, or EXIT_BAD after
 * "SOURCE: error: ..." on stderr. */
int cli_timeline(const graph *g, const run *r, timeline *t);
/* A time in ms as CSV and JSON write it (12 significant digits). */
void cli_csv_ms(FILE *f, double ms);
void cli_jw_ms(jw *w, double ms);
/* The members "makespan": MS, "critical_path": MS, "makespan_bound": MS,
 * "stream_busy": [MS per stream]. */
void cli_time_json(jw *w, const timeline *t);
/* "makespan 12.3 ms on 2 streams (busy: 0 10.0 ms, 1 2.30 ms); no order
 * finishes before 11.0 ms (critical path 10.2 ms)" (the streams that run
 * something), or "makespan 0 ms: no node has a Latency" (or "every Latency
 * is 0"), and a newline. */
void cli_time_text(FILE *f, const graph *g, const timeline *t);

#endif
