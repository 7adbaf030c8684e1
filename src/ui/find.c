/* find.c: the TUI's find: matching nodes by Id, Name (or the name shown for
 * an unnamed node: "free b1") or Op, and the next or previous match in a run. Exports find_match,
 * find_step. */
#define _GNU_SOURCE
#include "find.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int find_match(const graph *g, uint32_t u, const char *q)
{
    if (!*q) return 0;
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, g->id[u]);
    if (!strcmp(id, q)) return 1;
    char lb[GRAPH_LABEL_MAX]; /* a Name, or the name shown in its place ("free b1") */
    if (strcasestr(graph_display(g, u, lb, sizeof lb), q)) return 1;
    return strcasestr(graph_op(g, u), q) != NULL;
}

find_hit find_step(const graph *g, const run *r, const char *q, uint32_t from, int dir)
{
    find_hit h = {.node = GRAPH_NONE};
    /* One pass: the nearest match on the asked side, and the farthest on
     * the other (where the search wraps to). */
    uint32_t near = GRAPH_NONE, wrap = GRAPH_NONE, before = 0;
    for (uint32_t u = 0; u < g->n; u++) {
        if (!find_match(g, u, q)) continue;
        uint32_t s = r->pos[u] + 1;
        h.count++;
        int ahead = dir > 0 ? s > from : s < from;
        if (ahead) {
            if (near == GRAPH_NONE || (dir > 0 ? s < r->pos[near] + 1 : s > r->pos[near] + 1))
                near = u;
        } else if (wrap == GRAPH_NONE || (dir > 0 ? s < r->pos[wrap] + 1 : s > r->pos[wrap] + 1)) {
            wrap = u;
        }
    }
    h.node = near != GRAPH_NONE ? near : wrap;
    h.wrapped = near == GRAPH_NONE && wrap != GRAPH_NONE;
    if (h.node == GRAPH_NONE) return h;
    h.step = r->pos[h.node] + 1;
    for (uint32_t u = 0; u < g->n; u++)
        if (r->pos[u] + 1 < h.step && find_match(g, u, q)) before++;
    h.index = before + 1;
    return h;
}
