/* gen_branch.c: kind "branch" of memtris gen: inception-like blocks of 2-4
 * branches of 1-3 ops joined by a concat. Exports gen_branch. */
#include "gen_internal.h"

static uint32_t body_branch(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget,
                            uint32_t *left)
{
    uint32_t h = x;
    for (uint32_t blk = 1; budget >= 9 && !g->oom; blk++) {
        uint32_t nbr = 2 + gen_rng_below(rng, 3), depth[4], ops = 1;
        for (uint32_t j = 0; j < nbr; j++) ops += depth[j] = 1 + gen_rng_below(rng, 3);
        /* Shrink to fit: the deepest last branch first, then fewer branches. */
        while (3 * ops > budget) {
            uint32_t deep = 0;
            for (uint32_t j = 1; j < nbr; j++)
                if (depth[j] >= depth[deep]) deep = j;
            if (depth[deep] > 1) depth[deep]--;
            else nbr--;
            ops--;
        }
        uint32_t outs[4];
        int64_t total = 0;
        for (uint32_t j = 0; j < nbr; j++) {
            uint32_t hb = h;
            for (uint32_t t = 1; t <= depth[j]; t++) {
                int64_t size = 128 * GEN_KiB * (1 + gen_rng_below(rng, 16));
                /* The last branch of a deep block starts with a pool, as in inception. */
                if (t == 1 && j == nbr - 1 && depth[j] > 1)
                    hb = gen_add_op(g, "MaxPool2d", &hb, 1, size, NULL, 0, GEN_OP_NEW,
                                    "block%u.b%u.pool", blk, j + 1);
                else if (depth[j] == 1)
                    hb = gen_add_op(g, "Conv2d", &hb, 1, size, NULL, 0, GEN_OP_NEW,
                                    "block%u.b%u.conv", blk, j + 1);
                else
                    hb = gen_add_op(g, "Conv2d", &hb, 1, size, NULL, 0, GEN_OP_NEW,
                                    "block%u.b%u.conv%u", blk, j + 1, t);
                if (g->oom) break;
                if (t == depth[j]) total += size;
            }
            outs[j] = hb;
        }
        if (g->oom) break;
        h = gen_add_op(g, "cat", outs, nbr, total, NULL, 0, GEN_OP_NEW, "block%u.concat", blk);
        budget -= 3 * ops;
    }
    *left = budget;
    return h;
}

/* min_nodes: the input (3) + the smallest body + Output (1). */
const generator gen_branch = {
    .k = {"branch", "inception-like: 2-4 branches of 1-3 ops, then a concat", 13},
    .body = body_branch,
    .input_size = 1024 * GEN_KiB,
    .stream = 2,
};
