/* cli_bycat.h: a run's live bytes at its peak by Category, as text and JSON (cli_bycat.c).
 * Exports cli_bycat_text, cli_bycat_json. */
#ifndef MEMTRIS_CLI_BYCAT_H
#define MEMTRIS_CLI_BYCAT_H
#include <stdio.h>
#include "sched/graph/graph.h"
#include "sched/policy/policy.h"
#include "util/jw.h"

/* The live bytes at r's peak by Category (cli_bycat.c), only when g has Categories: text, one
 * line after lead ("at the peak:"), biggest first, "other" for untagged buffers; JSON, the key
 * "peak_by_category": {"CATEGORY": bytes, ...} in the same order. */
void cli_bycat_text(FILE *f, const char *lead, const graph *g, const run *r);
void cli_bycat_json(jw *w, const graph *g, const run *r);

#endif
