/* gen_chain.c: kind "chain" of memtris gen: Conv2d, BatchNorm2d, ReLU, over and
 * over, each op reading the previous op's output. Exports gen_chain. */
#include "gen_internal.h"

static const char *const chain_ops[][2] = {
    {"Conv2d", "conv"}, {"BatchNorm2d", "bn"}, {"ReLU", "relu"}};

static uint32_t body_chain(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget, uint32_t *left)
{
    uint32_t ops = budget / 3, h = x;
    for (uint32_t i = 1; i <= ops && !g->oom; i++) {
        const char *const *o = chain_ops[(i - 1) % 3];
        h = gen_add_op(g, o[0], &h, 1, 64 * GEN_KiB * (1 + gen_rng_below(rng, 64)), NULL, 0,
                       GEN_OP_NEW, "layer%u.%s", (i - 1) / 3 + 1, o[1]);
    }
    *left = budget - 3 * ops;
    return h;
}

/* min_nodes: the input (3) + the smallest body + Output (1). */
const generator gen_chain = {
    .k = {"chain", "each op reads the previous op's output", 7},
    .body = body_chain,
    .input_size = 1024 * GEN_KiB,
    .stream = 1,
};
