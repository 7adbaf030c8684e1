/* budget_model.c: a memory budget's model of a graph (the given order, each node's reads and
 * writes, producers, which nodes may run again, the buffers that end present), plans as event
 * lists, the plan of the given order with no budget and the lower bound on every plan's peak.
 * Exports budget_model_*, budget_plan_*, budget_op_word, budget_given_plan and
 * budget_lower_bound. */
#define _GNU_SOURCE
#include "budget.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/policy/policy.h"

int budget_plan_push(budget_plan *p, uint32_t op, uint32_t x)
{
    if (p->n == p->cap) {
        size_t nc = p->cap ? p->cap * 2 : 256;
        budget_event *q = realloc(p->ev, nc * sizeof *q);
        if (!q) return -1;
        p->ev = q;
        p->cap = nc;
    }
    p->ev[p->n++] = (budget_event){op, x};
    return 0;
}

void budget_plan_free(budget_plan *p)
{
    free(p->ev);
    memset(p, 0, sizeof *p);
}

const char *budget_op_word(uint32_t op)
{
    static const char *const w[] = {"run", "free", "offload", "fetch"};
    return op < 4 ? w[op] : "?";
}

void budget_model_free(budget_model *bm)
{
    free(bm->order);
    free(bm->changed_at);
    free(bm->frozen_from);
    free(bm->pos);
    free(bm->rd_off);
    free(bm->rd);
    free(bm->wr_off);
    free(bm->wr);
    free(bm->producer);
    free(bm->rerunnable);
    free(bm->keep);
    free(bm->lastread);
    memset(bm, 0, sizeof *bm);
}

/* Whether an Op draws random numbers: rand, dropout, bernoulli or multinomial in it. */
static int random_op(const char *op)
{
    static const char *const words[] = {"rand", "dropout", "bernoulli", "multinomial"};
    char low[64];
    size_t k = 0;
    for (; op[k] && k + 1 < sizeof low; k++) low[k] = (char)tolower((unsigned char)op[k]);
    low[k] = 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(low, words[i])) return 1;
    return 0;
}

static int rerunnable(const graph *g, uint32_t v)
{
    int r = graph_rerun(g, v);
    if (r != GRAPH_RERUN_NONE) return r == GRAPH_RERUN_YES;
    const char *op = graph_op(g, v);
    return strcmp(op, "Input") != 0 && graph_phase(g, v) != GRAPH_PHASE_OPTIMIZER && !random_op(op);
}

/* A buffer changed in place ("InPlace") holds what its writers made of it: a writer never
 * runs again (it would change it twice), and a node that writes or reads it may run again
 * only before its next change after the node's own place: after it, the rerun would make or
 * read something else (rerunning the writers in order is not modelled). From then on what the
 * node made is kept or offloaded. */
static int model_inplace(budget_model *bm)
{
    const graph *g = bm->g;
    bm->changed_at = malloc(((size_t)g->nbufs + 1) * sizeof *bm->changed_at);
    bm->frozen_from = malloc(((size_t)g->n + 1) * sizeof *bm->frozen_from);
    int64_t *next = malloc(((size_t)g->nbufs + 1) * sizeof *next);
    if (!bm->changed_at || !bm->frozen_from || !next) {
        free(next);
        return -1;
    }
    for (uint32_t b = 0; b < g->nbufs; b++) bm->changed_at[b] = next[b] = INT64_MAX;
    for (uint32_t v = 0; v < g->n; v++) bm->frozen_from[v] = INT64_MAX;
    /* Back to front, next[b] is b's first change after the place being looked at. */
    for (uint32_t i = bm->m; g->inplace && i-- > 0;) {
        uint32_t v = bm->order[i];
        int64_t f = INT64_MAX;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
            if (next[bm->rd[e]] < f) f = next[bm->rd[e]];
        for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++)
            if (next[bm->wr[e]] < f) f = next[bm->wr[e]];
        bm->frozen_from[v] = f;
        for (uint32_t k = 0; k < g->in_off[v + 1] - g->in_off[v]; k++) {
            if (!graph_input_inplace(g, v, k)) continue;
            uint32_t b = graph_find_buf(g, g->inputs[g->in_off[v] + k]);
            bm->rerunnable[v] = 0;
            if (b != GRAPH_NONE) bm->changed_at[b] = next[b] = i;
        }
    }
    free(next);
    return 0;
}

/* The order (pol's run, policy given's when NULL), the compute nodes' places and the
 * producers. */
static int model_order(budget_model *bm, const policy *pol, char *err, size_t errcap)
{
    const graph *g = bm->g;
    run r;
    if (policy_run(g, pol ? pol : policy_find("given"), NULL, &r, err, errcap)) return -1;
    bm->order = malloc(((size_t)g->n + 1) * sizeof *bm->order);
    bm->pos = malloc(((size_t)g->n + 1) * sizeof *bm->pos);
    bm->producer = malloc(((size_t)g->nbufs + 1) * sizeof *bm->producer);
    if (!bm->order || !bm->pos || !bm->producer) {
        policy_run_free(&r);
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    bm->m = 0;
    for (uint32_t s = 0; s < g->n; s++) {
        uint32_t v = r.order[s];
        bm->pos[v] = GRAPH_NONE;
        if (g->kind[v] == NODE_COMPUTE) {
            bm->pos[v] = bm->m;
            bm->order[bm->m++] = v;
        }
    }
    policy_run_free(&r);
    for (uint32_t b = 0; b < g->nbufs; b++) {
        uint32_t a = g->buf_alloc[b], best = GRAPH_NONE;
        for (uint32_t e = g->succ_off[a]; e < g->succ_off[a + 1]; e++) {
            uint32_t v = g->succ[e];
            if (g->kind[v] == NODE_COMPUTE && (best == GRAPH_NONE || bm->pos[v] < bm->pos[best]))
                best = v;
        }
        bm->producer[b] = best;
    }
    return 0;
}

/* Each compute node's writes (what it produces) and reads (its other Inputs, once each). */
static int model_access(budget_model *bm, uint32_t *mark)
{
    const graph *g = bm->g;
    size_t nin = g->in_off[g->n];
    bm->rd_off = calloc((size_t)g->n + 1, sizeof *bm->rd_off);
    bm->wr_off = calloc((size_t)g->n + 2, sizeof *bm->wr_off);
    bm->rd = malloc((nin + 1) * sizeof *bm->rd);
    bm->wr = malloc(((size_t)g->nbufs + 1) * sizeof *bm->wr);
    if (!bm->rd_off || !bm->wr_off || !bm->rd || !bm->wr) return -1;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (bm->producer[b] != GRAPH_NONE) bm->wr_off[bm->producer[b] + 2]++;
    for (uint32_t i = 0; i < g->n; i++) bm->wr_off[i + 2] += bm->wr_off[i + 1];
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (bm->producer[b] != GRAPH_NONE) bm->wr[bm->wr_off[bm->producer[b] + 1]++] = b;
    size_t k = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        bm->rd_off[i] = (uint32_t)k;
        if (g->kind[i] != NODE_COMPUTE) continue;
        for (uint32_t e = bm->wr_off[i]; e < bm->wr_off[i + 1]; e++) mark[bm->wr[e]] = i;
        for (uint32_t e = g->in_off[i]; e < g->in_off[i + 1]; e++) {
            uint32_t b = graph_find_buf(g, g->inputs[e]);
            if (b == GRAPH_NONE || mark[b] == i) continue;
            mark[b] = i;
            bm->rd[k++] = b;
        }
    }
    bm->rd_off[g->n] = (uint32_t)k;
    return 0;
}

int budget_model_init(budget_model *bm, const graph *g, char *err, size_t errcap)
{
    return budget_model_init_order(bm, g, NULL, err, errcap);
}

int budget_model_init_order(budget_model *bm, const graph *g, const policy *pol, char *err,
                            size_t errcap)
{
    memset(bm, 0, sizeof *bm);
    bm->g = g;
    if (model_order(bm, pol, err, errcap)) {
        budget_model_free(bm);
        return -1;
    }
    uint32_t *mark = malloc(((size_t)g->nbufs + 1) * sizeof *mark);
    bm->rerunnable = malloc((size_t)g->n + 1);
    bm->keep = malloc((size_t)g->nbufs + 1);
    bm->lastread = malloc(((size_t)g->nbufs + 1) * sizeof *bm->lastread);
    if (!mark || !bm->rerunnable || !bm->keep || !bm->lastread) goto oom;
    for (uint32_t b = 0; b < g->nbufs; b++) mark[b] = GRAPH_NONE;
    if (model_access(bm, mark)) goto oom;
    free(mark);
    mark = NULL;
    for (uint32_t v = 0; v < g->n; v++)
        bm->rerunnable[v] = g->kind[v] == NODE_COMPUTE && rerunnable(g, v);
    if (model_inplace(bm)) goto oom;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        bm->keep[b] = g->buf_free[b] == GRAPH_NONE;
        bm->lastread[b] = bm->producer[b] == GRAPH_NONE ? -1 : (int64_t)bm->pos[bm->producer[b]];
        if (bm->producer[b] == GRAPH_NONE) bm->initial += g->buf_size[b];
    }
    for (uint32_t v = 0; v < g->n; v++)
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
            if ((int64_t)bm->pos[v] > bm->lastread[bm->rd[e]]) bm->lastread[bm->rd[e]] = bm->pos[v];
    return 0;
oom:
    free(mark);
    budget_model_free(bm);
    snprintf(err, errcap, "out of memory");
    return -1;
}

int budget_given_plan(const budget_model *bm, budget_plan *p)
{
    const graph *g = bm->g;
    /* Buffers by the place after which they are freed (-1: at the start). */
    uint32_t *off = calloc((size_t)bm->m + 2, sizeof *off);
    uint32_t *at = malloc(((size_t)g->nbufs + 1) * sizeof *at);
    int bad = !off || !at;
    for (uint32_t b = 0; !bad && b < g->nbufs; b++)
        if (!bm->keep[b]) off[bm->lastread[b] + 2]++;
    for (uint32_t s = 0; !bad && s < bm->m + 1; s++) off[s + 1] += off[s];
    for (uint32_t b = 0; !bad && b < g->nbufs; b++)
        if (!bm->keep[b]) at[off[bm->lastread[b] + 1]++] = b;
    /* After the fill, off[s] ends bucket s: the frees after the run at place s - 1 (s = 0: at
     * the start), which begins where bucket s - 1 ends. */
    for (uint32_t s = 0; !bad && s <= bm->m; s++) {
        if (s > 0) bad |= budget_plan_push(p, BUDGET_RUN, bm->order[s - 1]);
        for (uint32_t k = s ? off[s - 1] : 0; !bad && k < off[s]; k++)
            bad |= budget_plan_push(p, BUDGET_FREE, at[k]);
    }
    free(off);
    free(at);
    return bad ? -1 : 0;
}

int64_t budget_lower_bound(const budget_model *bm)
{
    const graph *g = bm->g;
    int64_t lb = bm->initial, end = 0;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (bm->keep[b]) end += g->buf_size[b];
    if (end > lb) lb = end;
    for (uint32_t s = 0; s < bm->m; s++) {
        uint32_t v = bm->order[s];
        int64_t ws = 0;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) ws += g->buf_size[bm->rd[e]];
        for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) ws += g->buf_size[bm->wr[e]];
        if (ws > lb) lb = ws;
    }
    return lb;
}
