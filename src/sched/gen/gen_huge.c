/* gen_huge.c: kind "huge" of memtris gen: a chain of small outputs with one of
 * GEN_HUGE_SIZE bytes in the middle. Exports gen_huge. */
#include "gen_internal.h"

/* Small sizes for "huge": 512 B .. 64.5 GEN_KiB, any integer. */
static int64_t small_size(uint64_t *rng) { return 512 + gen_rng_below(rng, 65536); }

static uint32_t body_huge(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget, uint32_t *left)
{
    uint32_t ops = budget / 3, big = ops / 2, h = x;
    for (uint32_t i = 0; i < ops && !g->oom; i++) {
        int64_t size = i == big ? GEN_HUGE_SIZE : small_size(rng);
        h = gen_add_op(g, "Conv2d", &h, 1, size, NULL, 0, GEN_OP_NEW,
                       i == big ? "layer%u.huge" : "layer%u.conv", i + 1);
    }
    *left = budget - 3 * ops;
    return h;
}

/* min_nodes: the input (3) + the smallest body + Output (1). */
const generator gen_huge = {
    .k = {"huge", "a chain with one 2^52-byte output among small ones", 13},
    .body = body_huge,
    .input_size = 4 * GEN_KiB,
    .stream = 4,
};
