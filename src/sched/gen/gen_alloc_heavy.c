/* gen_alloc_heavy.c: kind "alloc-heavy" of memtris gen: a chain whose ops also
 * take 1-4 small workspace buffers. Exports gen_alloc_heavy. */
#include "gen_internal.h"

static const char *const heavy_ops[][2] = {
    {"Conv2d", "conv"}, {"Matmul", "matmul"}, {"Softmax", "softmax"}, {"LayerNorm", "norm"}};

static uint32_t body_alloc_heavy(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget,
                                 uint32_t *left)
{
    uint32_t h = x, i = 0;
    while (budget >= 5 && !g->oom) {
        uint32_t nws = 1 + gen_rng_below(rng, GEN_MAX_WS), fit = (budget - 3) / 2;
        if (nws > fit) nws = fit;
        int64_t ws[GEN_MAX_WS];
        for (uint32_t k = 0; k < nws; k++) ws[k] = 256 * (1 + (int64_t)gen_rng_below(rng, 64));
        const char *const *o = heavy_ops[i % 4];
        i++;
        h = gen_add_op(g, o[0], &h, 1, 4 * GEN_KiB * (1 + gen_rng_below(rng, 64)), ws, nws,
                       GEN_OP_NEW, "op%u.%s", i, o[1]);
        budget -= 3 + 2 * nws;
    }
    *left = budget;
    return h;
}

/* min_nodes: the input (3) + the smallest body + Output (1). */
const generator gen_alloc_heavy = {
    .k = {"alloc-heavy", "a chain whose ops also take 1-4 small workspaces", 9},
    .body = body_alloc_heavy,
    .input_size = 16 * GEN_KiB,
    .stream = 3,
};
