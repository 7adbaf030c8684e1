/* timeline.c: the timeline of a schedule (timeline.h says the model): start
 * and finish of every node, per-stream busy time, the makespan and its
 * bounds, in one pass over the order, O(nodes + edges); and the Pareto front
 * of (peak, makespan) points. Exports timeline_*. */
#include "timeline.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void timeline_free(timeline *t)
{
    free(t->start);
    free(t->finish);
    free(t->busy);
    memset(t, 0, sizeof *t);
}

int timeline_run(const graph *g, const run *r, timeline *t, char *err, size_t errcap)
{
    memset(t, 0, sizeof *t);
    uint32_t n = g->n, ns = 1;
    for (uint32_t i = 0; i < n; i++) {
        int s = graph_stream(g, i);
        if (s >= 0 && (uint32_t)s + 1 > ns) ns = (uint32_t)s + 1;
    }
    t->n = n;
    t->nstreams = ns;
    t->start = malloc(((size_t)n + 1) * sizeof *t->start);
    t->finish = malloc(((size_t)n + 1) * sizeof *t->finish);
    t->busy = calloc(ns, sizeof *t->busy);
    double *last = calloc(ns, sizeof *last);                 /* finish of each stream's last node */
    double *chain = malloc(((size_t)n + 1) * sizeof *chain); /* longest chain ending at i */
    if (!t->start || !t->finish || !t->busy || !last || !chain) {
        free(last);
        free(chain);
        timeline_free(t);
        snprintf(err, errcap, "out of memory timing %u nodes", n);
        return -1;
    }
    double mem_last = 0; /* when the last ALLOC or FREE happened */
    for (uint32_t s = 0; s < n; s++) {
        uint32_t u = r->order[s];
        double ready = 0, c = 0;
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++) {
            uint32_t p = g->pred[e];
            if (t->finish[p] > ready) ready = t->finish[p];
            if (chain[p] > c) c = chain[p];
        }
        double lat = graph_latency(g, u);
        chain[u] = c + lat;
        if (chain[u] > t->critical) t->critical = chain[u];
        int st = graph_stream(g, u);
        if (st < 0) {
            if (mem_last > ready) ready = mem_last;
            t->start[u] = t->finish[u] = mem_last = ready;
            continue;
        }
        if (last[st] > ready) ready = last[st];
        t->start[u] = ready;
        t->finish[u] = last[st] = ready + lat;
        t->busy[st] += lat;
        if (t->finish[u] > t->makespan) t->makespan = t->finish[u];
    }
    if (mem_last > t->makespan) t->makespan = mem_last;
    t->bound = t->critical;
    for (uint32_t i = 0; i < ns; i++)
        if (t->busy[i] > t->bound) t->bound = t->busy[i];
    free(last);
    free(chain);
    return 0;
}

void timeline_pareto(uint32_t n, const int64_t *peak, const double *makespan, uint8_t *front)
{
    for (uint32_t a = 0; a < n; a++) {
        front[a] = 1;
        for (uint32_t b = 0; b < n && front[a]; b++)
            if (peak[b] <= peak[a] && makespan[b] <= makespan[a] &&
                (peak[b] < peak[a] || makespan[b] < makespan[a]))
                front[a] = 0;
    }
}
