/* cli_bycat.c: where a run's peak bytes are, by Category, as schedule, compare and
 * plan print them (one text line, biggest first; a JSON object), only for a graph
 * with Categories. Exports cli_bycat_text, cli_bycat_json. */
#include "cli_bycat.h"
#include "sched/policy/bycat.h"
#include "util/units.h"

void cli_bycat_text(FILE *f, const char *lead, const graph *g, const run *r)
{
    if (!bycat_any(g) || !r->peak_step) return;
    int64_t at[GRAPH_NCAT];
    int order[GRAPH_NCAT];
    char b[32];
    run_peak_by_category(g, r, at);
    int k = bycat_order(at, order);
    fprintf(f, "%s", lead);
    for (int i = 0; i < k; i++)
        fprintf(f, "%s %s %s", i ? "," : "", bycat_word(order[i]),
                units_bytes(b, sizeof b, at[order[i]], 0));
    fprintf(f, "\n");
}

void cli_bycat_json(jw *w, const graph *g, const run *r)
{
    if (!bycat_any(g)) return;
    int64_t at[GRAPH_NCAT];
    int order[GRAPH_NCAT];
    run_peak_by_category(g, r, at);
    int k = bycat_order(at, order);
    jw_key(w, "peak_by_category");
    jw_object(w);
    for (int i = 0; i < k; i++) jw_kint(w, bycat_word(order[i]), at[order[i]]);
    jw_object_end(w);
}
