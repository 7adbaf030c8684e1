/* gen_random.c: kind "random" of memtris gen: an irregular DAG whose ops read
 * 1-3 outputs of the last 16 ops. Exports gen_random. */
#include "gen_internal.h"

#define RANDOM_WINDOW 16 /* inputs come from the last 16 ops */
#define RANDOM_MAX_IN 3

static uint32_t body_random(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget,
                            uint32_t *left)
{
    static const char *const by_k[][2] = {{"Conv2d", "conv"}, {"add", "add"}, {"cat", "cat"}};
    uint32_t ops = budget / 3, win[RANDOM_WINDOW], nwin = 1, h = x;
    win[0] = x; /* a ring of the last outputs */
    for (uint32_t i = 1; i <= ops && !g->oom; i++) {
        uint32_t k = 1 + gen_rng_below(rng, RANDOM_MAX_IN), pick[RANDOM_WINDOW], in[RANDOM_MAX_IN];
        if (k > nwin) k = nwin;
        for (uint32_t j = 0; j < nwin; j++) pick[j] = j;
        for (uint32_t j = 0; j < k; j++) { /* partial Fisher-Yates */
            uint32_t r = j + gen_rng_below(rng, nwin - j), t = pick[j];
            pick[j] = pick[r];
            pick[r] = t;
            in[j] = win[pick[j]];
        }
        for (uint32_t j = 1; j < k; j++) /* ascending, for reading */
            for (uint32_t l = j; l > 0 && in[l - 1] > in[l]; l--) {
                uint32_t t = in[l];
                in[l] = in[l - 1];
                in[l - 1] = t;
            }
        h = gen_add_op(g, by_k[k - 1][0], in, k, gen_spread_size(rng), NULL, 0, GEN_OP_NEW,
                       "n%u.%s", i, by_k[k - 1][1]);
        if (nwin < RANDOM_WINDOW) win[nwin++] = h;
        else win[i % RANDOM_WINDOW] = h;
    }
    *left = budget - 3 * ops;
    return h;
}

/* min_nodes: the input (3) + the smallest body + Output (1). */
const generator gen_random = {
    .k = {"random", "irregular DAG: ops read 1-3 outputs of the last 16 ops", 7},
    .body = body_random,
    .input_size = 0,
    .stream = 5,
};
