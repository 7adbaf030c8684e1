/* cli_limits.c: what a plan's output formats can hold, checked before any
 * output is written, and how those messages name a buffer: plan --format
 * minimalloc's sizes within 2^53-1 (cli_memviz.c checks its own addresses).
 * Exports cli_plan_buf_label and cli_plan_minimalloc_check. */
#include "cli_plan.h"
#include <inttypes.h>
#include "cli.h"

const char *cli_plan_buf_label(char *out, size_t cap, const cli_plan *cp, uint32_t b)
{
    const graph *g = cp->g;
    uint32_t u = g->buf_alloc[b];
    const char *name = g->name[u] ? graph_name(g, u) : "";
    uint32_t row = (uint32_t)g->buf_id[b]; /* place: BufId i is the CSV's row i */
    if (cp->prob)
        snprintf(out, cap, "buffer '%s' (line %" PRIu32 ")", problem_id(cp->prob, row), row + 2);
    else if (*name) snprintf(out, cap, "buffer '%s' (BufId %" PRId64 ")", name, g->buf_id[b]);
    else snprintf(out, cap, "buffer %" PRId64, g->buf_id[b]);
    return out;
}

int cli_plan_minimalloc_check(const char *cmd, const cli_plan *cp)
{
    if (cp->prob) return EXIT_OK; /* place writes the CSV's own sizes and times */
    for (uint32_t i = 0; i < cp->g->nbufs; i++) {
        uint32_t b = cp->order[i];
        int64_t span = place_span(cp->g->buf_size[b], cp->pl->align);
        if (span <= GRAPH_MAX_SIZE) continue;
        char who[GRAPH_LABEL_MAX + 64];
        cli_eprintf("memtris %s: %s of %" PRId64 " bytes takes %" PRId64 " at --align %" PRId64
                    ", past 2^53-1 bytes, the most a MiniMalloc CSV's size holds\n",
                    cmd, cli_plan_buf_label(who, sizeof who, cp, b), cp->g->buf_size[b], span,
                    cp->pl->align);
        return EXIT_BAD;
    }
    return EXIT_OK;
}
