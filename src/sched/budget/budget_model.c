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
    static const char *const w[] = {"run", "free", "offload", "fetch", "host"};
    return op < 5 ? w[op] : "?";
}

void budget_model_free(budget_model *bm)
{
    free(bm->order);
    free(bm->phys);
    free(bm->ver);
    free(bm->vers_off);
    free(bm->vers);
    free(bm->size);
    free(bm->pos);
    free(bm->rd_off);
    free(bm->rd);
    free(bm->wr_off);
    free(bm->wr);
    free(bm->producer);
    free(bm->rerunnable);
    free(bm->rng);
    free(bm->keep);
    free(bm->hostable);
    free(bm->lastread);
    memset(bm, 0, sizeof *bm);
}

/* Whether an Op draws random numbers: rand, dropout, bernoulli or multinomial in it, but not
 * backward (native_dropout_backward multiplies by the mask it is given). */
static int random_op(const char *op)
{
    static const char *const words[] = {"rand", "dropout", "bernoulli", "multinomial"};
    char low[64];
    size_t k = 0;
    for (; op[k] && k + 1 < sizeof low; k++) low[k] = (char)tolower((unsigned char)op[k]);
    low[k] = 0;
    if (strstr(low, "backward")) return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(low, words[i])) return 1;
    return 0;
}

static int rerunnable(const graph *g, uint32_t v)
{
    int r = graph_rerun(g, v);
    if (r != GRAPH_RERUN_NONE) return r == GRAPH_RERUN_YES;
    const char *op = graph_op(g, v);
    return strcmp(op, "Input") != 0 && graph_phase(g, v) != GRAPH_PHASE_OPTIMIZER;
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
    bm->producer = malloc(((size_t)g->nbufs + g->in_off[g->n] + 1) * sizeof *bm->producer);
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

/* Each compute node's reads: its Inputs but those it produces, once each (buffers). */
static int model_reads(budget_model *bm, uint32_t *mark)
{
    const graph *g = bm->g;
    size_t nin = g->in_off[g->n];
    bm->rd_off = calloc((size_t)g->n + 1, sizeof *bm->rd_off);
    bm->rd = malloc((nin + 1) * sizeof *bm->rd);
    if (!bm->rd_off || !bm->rd) return -1;
    size_t k = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        bm->rd_off[i] = (uint32_t)k;
        if (g->kind[i] != NODE_COMPUTE) continue;
        for (uint32_t e = g->in_off[i]; e < g->in_off[i + 1]; e++) {
            uint32_t b = graph_find_buf(g, g->inputs[e]);
            if (b == GRAPH_NONE || bm->producer[b] == i || mark[b] == i) continue;
            mark[b] = i;
            bm->rd[k++] = b;
        }
    }
    bm->rd_off[g->n] = (uint32_t)k;
    return 0;
}

/* The versions, along the given order (gorder, m nodes): each node's reads become the
 * versions current at its place, and each change in place a new version that the changer
 * produces; then phys, ver, size and each buffer's versions. */
static int model_versions(budget_model *bm, const uint32_t *gorder, uint32_t *cur)
{
    const graph *g = bm->g;
    uint32_t nb = g->nbufs;
    bm->nl = nb;
    for (uint32_t b = 0; b < nb; b++) cur[b] = b;
    size_t cap = (size_t)nb + g->in_off[g->n] + 1;
    bm->phys = malloc(cap * sizeof *bm->phys);
    bm->ver = malloc(cap * sizeof *bm->ver);
    if (!bm->phys || !bm->ver) return -1;
    for (uint32_t b = 0; b < nb; b++) {
        bm->phys[b] = b;
        bm->ver[b] = 0;
    }
    for (uint32_t s = 0; g->inplace && s < bm->m; s++) {
        uint32_t v = gorder[s];
        /* the reads, as before its own change */
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) bm->rd[e] = cur[bm->rd[e]];
        for (uint32_t k = 0; k < g->in_off[v + 1] - g->in_off[v]; k++) {
            uint32_t b = graph_find_buf(g, g->inputs[g->in_off[v] + k]), e = bm->rd_off[v];
            if (!graph_input_inplace(g, v, k) || b == GRAPH_NONE) continue;
            while (e < bm->rd_off[v + 1] && bm->phys[bm->rd[e]] != b) e++;
            if (e == bm->rd_off[v + 1] || cur[b] != bm->rd[e]) continue; /* its own, or twice */
            uint32_t n = bm->nl++;
            bm->phys[n] = b;
            bm->ver[n] = bm->ver[bm->rd[e]] + 1;
            bm->producer[n] = v;
            cur[b] = n;
        }
    }
    bm->size = malloc(((size_t)bm->nl + 1) * sizeof *bm->size);
    bm->vers_off = calloc((size_t)nb + 2, sizeof *bm->vers_off);
    bm->vers = malloc(((size_t)bm->nl + 1) * sizeof *bm->vers);
    if (!bm->size || !bm->vers_off || !bm->vers) return -1;
    for (uint32_t l = 0; l < bm->nl; l++) {
        bm->size[l] = g->buf_size[bm->phys[l]];
        bm->vers_off[bm->phys[l] + 2]++;
    }
    for (uint32_t b = 0; b < nb; b++) bm->vers_off[b + 2] += bm->vers_off[b + 1];
    for (uint32_t l = 0; l < bm->nl; l++) bm->vers[bm->vers_off[bm->phys[l] + 1]++] = l;
    return 0;
}

/* What each compute node writes: the logical buffers it produces. */
static int model_writes(budget_model *bm)
{
    const graph *g = bm->g;
    bm->wr_off = calloc((size_t)g->n + 2, sizeof *bm->wr_off);
    bm->wr = malloc(((size_t)bm->nl + 1) * sizeof *bm->wr);
    if (!bm->wr_off || !bm->wr) return -1;
    for (uint32_t l = 0; l < bm->nl; l++)
        if (bm->producer[l] != GRAPH_NONE) bm->wr_off[bm->producer[l] + 2]++;
    for (uint32_t i = 0; i < g->n; i++) bm->wr_off[i + 2] += bm->wr_off[i + 1];
    for (uint32_t l = 0; l < bm->nl; l++)
        if (bm->producer[l] != GRAPH_NONE) bm->wr[bm->wr_off[bm->producer[l] + 1]++] = l;
    return 0;
}

static int by_id(const void *a, const void *b, void *ctx)
{
    const graph *g = *(const graph **)ctx;
    int64_t x = g->id[*(const uint32_t *)a], y = g->id[*(const uint32_t *)b];
    return (x > y) - (x < y);
}

/* The given order (the compute nodes by ascending Id, as policy given runs them) where the
 * model follows another order and some node changes a buffer in place; else bm's own order
 * (nothing to free). NULL out of memory. */
static uint32_t *given_order(budget_model *bm, const struct policy *pol, char *err, size_t errcap)
{
    const graph *g = bm->g;
    if (!pol || pol == policy_find("given") || !g->inplace) return bm->order;
    uint32_t *o = malloc(((size_t)bm->m + 1) * sizeof *o);
    if (!o) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    memcpy(o, bm->order, (size_t)bm->m * sizeof *o);
    qsort_r(o, bm->m, sizeof *o, by_id, &g);
    return o;
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
    uint32_t *gorder = NULL;
    bm->rerunnable = malloc((size_t)g->n + 1);
    bm->rng = calloc((size_t)g->n + 1, 1);
    if (!mark || !bm->rerunnable || !bm->rng) goto oom;
    for (uint32_t b = 0; b < g->nbufs; b++) mark[b] = GRAPH_NONE;
    if (model_reads(bm, mark)) goto oom;
    gorder = given_order(bm, pol, err, errcap);
    if (!gorder) {
        free(mark);
        budget_model_free(bm);
        return -1;
    }
    if (model_versions(bm, gorder, mark) || model_writes(bm)) goto oom;
    if (gorder != bm->order) free(gorder);
    gorder = NULL;
    free(mark);
    mark = NULL;
    bm->keep = malloc((size_t)bm->nl + 1);
    bm->hostable = malloc((size_t)g->nbufs + 1);
    bm->lastread = malloc(((size_t)bm->nl + 1) * sizeof *bm->lastread);
    if (!bm->keep || !bm->hostable || !bm->lastread) goto oom;
    for (uint32_t v = 0; v < g->n; v++) {
        bm->rerunnable[v] = g->kind[v] == NODE_COMPUTE && rerunnable(g, v);
        bm->rng[v] = bm->rerunnable[v] && random_op(graph_op(g, v));
    }
    for (uint32_t b = 0; b < g->nbufs; b++)
        bm->hostable[b] =
            bm->producer[b] == GRAPH_NONE || strcmp(graph_op(g, bm->producer[b]), "Input") == 0;
    for (uint32_t l = 0; l < bm->nl; l++) {
        uint32_t b = bm->phys[l];
        bm->keep[l] = g->buf_free[b] == GRAPH_NONE && budget_last_version(bm, b) == l;
        bm->lastread[l] = bm->producer[l] == GRAPH_NONE ? -1 : (int64_t)bm->pos[bm->producer[l]];
        if (bm->producer[l] == GRAPH_NONE) bm->initial += bm->size[l];
    }
    for (uint32_t v = 0; v < g->n; v++)
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++)
            if ((int64_t)bm->pos[v] > bm->lastread[bm->rd[e]]) bm->lastread[bm->rd[e]] = bm->pos[v];
    return 0;
oom:
    if (gorder && gorder != bm->order) free(gorder);
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
    /* a buffer goes after its last version's last reader (the versions before are consumed) */
    for (uint32_t b = 0; !bad && b < g->nbufs; b++) {
        uint32_t l = budget_last_version(bm, b);
        if (g->buf_free[b] != GRAPH_NONE) off[bm->lastread[l] + 2]++;
    }
    for (uint32_t s = 0; !bad && s < bm->m + 1; s++) off[s + 1] += off[s];
    for (uint32_t b = 0; !bad && b < g->nbufs; b++) {
        uint32_t l = budget_last_version(bm, b);
        if (g->buf_free[b] != GRAPH_NONE) at[off[bm->lastread[l] + 1]++] = b;
    }
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
    return budget_lower_bound_allow(bm, BUDGET_ALLOW_RECOMPUTE);
}

int64_t budget_lower_bound_allow(const budget_model *bm, unsigned allow)
{
    int64_t lb = 0, end = 0;
    int off = (allow & BUDGET_ALLOW_OFFLOAD) != 0;
    if (!off) { /* else they may start and end on the host */
        lb = bm->initial;
        for (uint32_t l = 0; l < bm->nl; l++)
            if (bm->keep[l]) end += bm->size[l];
    }
    if (end > lb) lb = end;
    for (uint32_t s = 0; s < bm->m; s++) {
        uint32_t v = bm->order[s];
        int64_t ws = 0;
        for (uint32_t e = bm->rd_off[v]; e < bm->rd_off[v + 1]; e++) ws += bm->size[bm->rd[e]];
        /* a change in place takes no bytes: it writes over the version it reads; with offload
         * an Input node may leave what it makes on the host */
        for (uint32_t e = bm->wr_off[v]; e < bm->wr_off[v + 1]; e++) {
            uint32_t l = bm->wr[e];
            if (!bm->ver[l] && !(off && l < bm->g->nbufs && bm->hostable[l])) ws += bm->size[l];
        }
        if (ws > lb) lb = ws;
    }
    return lb;
}
