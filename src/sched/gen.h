/* gen.h: synthetic graph generators (chain, branch, alloc-heavy, huge, random,
 * randwire) in the exporter's ALLOC / compute / FREE shape, built in memory
 * and written as memtris JSON through a caller's callback. Exports gen_*. */
#ifndef MEMTRIS_GEN_H
#define MEMTRIS_GEN_H
#include <stddef.h>
#include <stdint.h>

/* The most nodes one graph may have (ids, edge counts and name offsets fit
 * 32 bits well below this). */
#define GEN_MAX_NODES 100000000u

/* The size of the one big buffer of kind "huge": 2^52 bytes. */
#define GEN_HUGE_SIZE ((int64_t)1 << 52)

typedef struct gen_kind {
    const char *name;   /* "chain", "branch", ... */
    const char *desc;   /* one line for --help */
    uint32_t min_nodes; /* the smallest node count the kind can make */
} gen_kind;

const gen_kind *gen_kind_find(const char *name); /* NULL if unknown */
const gen_kind *gen_kind_at(size_t i);           /* NULL past the end */

/* A generated graph; read it through gen_counts and gen_emit. */
typedef struct gen_graph gen_graph;

/* Builds exactly `nodes` nodes of kind k (from gen_kind_find or gen_kind_at)
 * from seed: the same (kind, nodes, seed) gives the same graph on every
 * machine. Returns NULL with a message in err when nodes is below
 * k->min_nodes or above GEN_MAX_NODES, or when memory runs out. */
gen_graph *gen_build(const gen_kind *k, uint32_t nodes, uint64_t seed, char *err, size_t errcap);
void gen_free(gen_graph *g);

typedef struct gen_count {
    uint32_t nodes, edges, buffers;
    uint32_t ops; /* compute nodes, Input and Output included */
} gen_count;
gen_count gen_counts(const gen_graph *g);

/* Receives the JSON text in chunks; returns 0, or nonzero to stop writing. */
typedef int (*gen_write_fn)(void *ctx, const char *data, size_t len);

/* Writes g as memtris JSON (Nodes in Id order, Ids 0..n-1, then Edges).
 * Returns 0, or -1 when write returned nonzero or memory ran out (err says
 * which). */
int gen_emit(const gen_graph *g, gen_write_fn write, void *ctx, char *err, size_t errcap);

/* gen_build, gen_emit and gen_free in one call. */
int gen_write(const gen_kind *k, uint32_t nodes, uint64_t seed, gen_write_fn write, void *ctx,
              char *err, size_t errcap);

#endif
