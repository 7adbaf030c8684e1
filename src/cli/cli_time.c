/* cli_time.c: what the commands print about a schedule's timeline: the
 * makespan, each stream's busy time and the bound no order beats (text, and
 * JSON through jw); times in ms as JSON and CSV write them. */
#include "cli_time.h"
#include <inttypes.h>
#include "cli.h"
#include "util/units.h"

int cli_timeline(const graph *g, const run *r, timeline *t)
{
    char err[128];
    if (timeline_run(g, r, t, err, sizeof err) == 0) return EXIT_OK;
    cli_eprintf("%s: error: %s\n", g->source, err);
    return EXIT_BAD;
}

void cli_csv_ms(FILE *f, double ms) { fprintf(f, "%.12g", ms); }

void cli_jw_ms(jw *w, double ms) { jw_g(w, ms, 12); }

void cli_time_json(jw *w, const timeline *t)
{
    jw_key(w, "makespan");
    cli_jw_ms(w, t->makespan);
    jw_key(w, "critical_path");
    cli_jw_ms(w, t->critical);
    jw_key(w, "makespan_bound");
    cli_jw_ms(w, t->bound);
    jw_key(w, "stream_busy");
    jw_array(w);
    for (uint32_t s = 0; s < t->nstreams; s++) cli_jw_ms(w, t->busy[s]);
    jw_array_end(w);
}

void cli_time_text(FILE *f, const graph *g, const timeline *t)
{
    char a[24], b[24];
    if (!g->latency) {
        fprintf(f, "makespan 0 ms: no node has a Latency\n");
        return;
    }
    if (!(t->makespan > 0)) {
        fprintf(f, "makespan 0 ms: every Latency is 0\n");
        return;
    }
    uint32_t used = 0;
    for (uint32_t s = 0; s < t->nstreams; s++) used += t->busy[s] > 0;
    fprintf(f, "makespan %s on %u stream%s (busy:", units_ms(a, sizeof a, t->makespan), used,
            used == 1 ? "" : "s");
    for (uint32_t s = 0, k = 0; s < t->nstreams; s++)
        if (t->busy[s] > 0)
            fprintf(f, "%s %u %s", k++ ? "," : "", s, units_ms(a, sizeof a, t->busy[s]));
    fprintf(f, "); no order finishes before %s (critical path %s)\n",
            units_ms(a, sizeof a, t->bound), units_ms(b, sizeof b, t->critical));
}
