/* budget_baselines.c: the baseline of recomputing every cheap op (as PyTorch's min-cut
 * partitioner does by default), on the greedy solver's walk (budget_greedy_walk.c); Chen's
 * sqrt(n) is budget_chen.c. Exports budget_cheap and budget_cheap_op. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget_greedy_internal.h"

/* A baseline's walk: the forward nodes not in ckpt have their outputs dropped after the
 * forward and made again in the backward. */
static int baseline(const budget_model *bm, const solve_ctx *c, uint8_t *ckpt, int64_t last,
                    budget_plan *p, budget_outcome *o)
{
    gs s = {.bm = bm,
            .g = bm->g,
            .budget = INT64_MAX,
            .allow = BUDGET_ALLOW_RECOMPUTE,
            .c = c,
            .p = p,
            .o = o,
            .ckpt = ckpt,
            .last_fwd = last};
    s.start = solve_now(c);
    int r = budget_greedy_walks(&s);
    free(ckpt);
    if (!o->found) p->n = 0;
    return r;
}

/* The last forward node's place and the count of forward nodes (0: none, o says so). */
static uint32_t forward_nodes(const budget_model *bm, int64_t *last, budget_outcome *o)
{
    uint32_t nf = 0;
    *last = -1;
    memset(o, 0, sizeof *o);
    for (uint32_t i = 0; i < bm->m; i++)
        if (graph_phase(bm->g, bm->order[i]) == GRAPH_PHASE_FORWARD) {
            nf++;
            *last = i;
        }
    if (!nf) snprintf(o->why, sizeof o->why, "no compute node has Phase forward");
    return nf;
}

/* Pointwise ops and views, by name (lower case, a word in it; not where a word of a costly
 * op is in it, as addmm's add): cheap to run again (PyTorch's min-cut partitioner recomputes
 * such ops by default). */
int budget_cheap_op(const char *op)
{
    static const char *const words[] = {
        "relu",  "gelu",   "silu",  "sigmoid", "tanh",       "threshold", "hardtanh", "add",
        "sub",   "mul",    "div",   "neg",     "exp",        "log",       "sqrt",     "pow",
        "clamp", "where",  "view",  "reshape", "permute",    "transpose", "expand",   "squeeze",
        "slice", "select", "clone", "detach",  "contiguous", "flatten",   "alias",    "_to_copy"};
    char low[64];
    size_t k = 0;
    for (; op[k] && k + 1 < sizeof low; k++) low[k] = (char)tolower((unsigned char)op[k]);
    low[k] = 0;
    if (!strcmp(low, "t")) return 1; /* the transpose of a matrix */
    static const char *const dear[] = {"mm",   "conv",    "matmul",    "linear",    "norm",
                                       "pool", "softmax", "embedding", "attention", "lstm"};
    for (size_t i = 0; i < sizeof dear / sizeof dear[0]; i++) /* addmm, matmul: not pointwise */
        if (strstr(low, dear[i])) return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(low, words[i])) return 1;
    return 0;
}

int budget_cheap(const budget_model *bm, const solve_ctx *c, budget_plan *p, budget_outcome *o)
{
    const graph *g = bm->g;
    int64_t last;
    if (!forward_nodes(bm, &last, o)) return 0;
    uint8_t *ckpt = calloc((size_t)g->n + 1, 1);
    if (!ckpt) return -1;
    for (uint32_t i = 0; i < bm->m; i++) {
        uint32_t v = bm->order[i];
        if (graph_phase(g, v) == GRAPH_PHASE_FORWARD && !budget_cheap_op(graph_op(g, v)))
            ckpt[v] = 1;
    }
    return baseline(bm, c, ckpt, last, p, o);
}
