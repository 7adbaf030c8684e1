/* load_opts.h: what a caller asks of the graph loader (load.h), apart so that the loader's
 * parts (load_fast.h) can take it without including load.h. Exports load_opts. */
#ifndef MEMTRIS_LOAD_OPTS_H
#define MEMTRIS_LOAD_OPTS_H
#include <stddef.h>
#include <stdint.h>

typedef struct load_opts {
    /* Called now and then while parsing with bytes done and total; may be NULL. */
    void (*progress)(void *ctx, size_t done, size_t total);
    void *progress_ctx;
    /* Refuse a graph of more nodes than this ("too large"); 0: LOAD_MAX_NODES. */
    uint32_t max_nodes;
    /* Skip the single pass (load_fast.c): the tree walk alone, as before issue 46 (for the
     * tests that compare the two and the benchmark's "before"). */
    int walk_only;
} load_opts;

#endif
