/* gen.h: synthetic graph generators (chain, branch, alloc-heavy, huge, random,
 * randwire, train) in the exporter's ALLOC / compute / FREE shape, built in memory
 * and written as memtris JSON through a caller's callback; and placement
 * problems with a known optimum (packing, gen_packing.c). Exports gen_*. */
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

/* The most streams gen_emit_streams spreads compute nodes over (Stream
 * 0..63), and the bandwidth of generated latencies, in bytes a nanosecond
 * (100 GB/s). */
#define GEN_MAX_STREAMS  64u
#define GEN_BYTES_PER_NS 100u

/* Writes g as memtris JSON (Nodes in Id order, Ids 0..n-1, then Edges).
 * Every compute node gets a Latency in ms: the bytes of its Inputs at
 * GEN_BYTES_PER_NS, times a jitter in [0.5, 1.5) drawn from the seed, with
 * six decimals. With streams > 1 (at most GEN_MAX_STREAMS) every compute node
 * also gets a Stream by the fork rule (tools/graphkit.py's assign_streams):
 * it continues the oldest line among the compute predecessors it is the
 * first compute consumer of, else (a side branch of a fork) starts a line on
 * the next of streams 1..streams-1 in turn; with no predecessor, stream 0.
 * gen_emit is
 * gen_emit_streams with streams 1: no Stream field. Returns 0, or -1 when
 * write returned nonzero, memory ran out or streams is out of range (err says
 * which). */
int gen_emit(const gen_graph *g, gen_write_fn write, void *ctx, char *err, size_t errcap);
int gen_emit_streams(const gen_graph *g, uint32_t streams, gen_write_fn write, void *ctx, char *err,
                     size_t errcap);

/* gen_build, gen_emit and gen_free in one call. */
int gen_write(const gen_kind *k, uint32_t nodes, uint64_t seed, gen_write_fn write, void *ctx,
              char *err, size_t errcap);

/* ----------------------------------------------- packing (gen_packing.c) */

struct problem;

/* The kind gen_packing makes, which is not a graph kind of gen_kind_at: its
 * name, description and default capacity (MiniMalloc's benchmarks': 1 MiB). */
#define GEN_PACKING_NAME     "packing"
#define GEN_PACKING_DESC     "a placement problem whose optimum arena is its capacity"
#define GEN_PACKING_CAPACITY ((int64_t)1048576)

/* A placement problem of exactly `buffers` buffers whose optimum arena is
 * `capacity` bytes: a capacity x time rectangle (time 0 to 2 x buffers)
 * cut in two, one piece cut again, and so on (guillotine cuts, each piece and
 * each cut drawn from seed), until there are that many pieces. Each piece is
 * a buffer: its height the size, its time span [lower, upper) the lifetime,
 * its bottom the offset (the problem's offset column: a plan of exactly the
 * capacity). The live bytes at every time are the capacity. Rows sorted by
 * lower then offset, ids 0 to buffers-1. The same arguments give the same
 * problem on every machine. NULL with a message in err when buffers is 0 or
 * above GEN_MAX_NODES / 2, capacity is below 1 or above 2^53-1, or memory runs out. */
struct problem *gen_packing(uint32_t buffers, int64_t capacity, uint64_t seed, char *err,
                            size_t errcap);

#endif
