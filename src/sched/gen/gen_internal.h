/* gen_internal.h: struct gen_graph, the generated graph as gen.c builds it
 * and gen_emit.c writes it; struct generator, a kind (one gen_KIND.c each,
 * listed by gen_kinds.c), and the builder and random numbers they use
 * (gen.c), which gen_packing.c draws too. Included by gen's files only. */
#ifndef MEMTRIS_GEN_INTERNAL_H
#define MEMTRIS_GEN_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "gen.h"
#include "sched/graph/graph.h"

struct gen_graph {
    /* Nodes in creation order: ALLOCs and computes. The FREE of buffer b is
     * node n + b of the combined index space used by edges and ids. */
    uint32_t n;
    size_t ncap;
    uint8_t *kind;    /* NODE_ALLOC or NODE_COMPUTE */
    uint32_t *ref;    /* ALLOC: its buffer; compute: pool offset of its Name */
    const char **op;  /* compute: its Op */
    uint8_t *phase;   /* compute: its Phase (GRAPH_PHASE_*, 0: none) | how many of its first
                       * Inputs it changes in place << GEN_INPLACE_SHIFT */
    uint32_t *in_off; /* [n+1] Inputs of compute i: in[in_off[i]..in_off[i+1]) */
    uint32_t *fork;   /* compute: its fork (0: stream 0's line, k: the k-th side branch) and
                       * GEN_CONSUMED once a later compute reads what it wrote */
    uint32_t *in;
    size_t nin, incap;
    uint32_t *mark, stamp; /* [ncap] for gen_add_ex's distinct writers */

    uint32_t nb; /* buffers */
    size_t bcap;
    int64_t *size;
    uint32_t *prod;  /* compute node that writes it first */
    uint32_t *dep;   /* what a new reader depends on: its last writer */
    uint32_t *bname; /* pool offset of its producer's Name */
    uint8_t *suffix; /* its Name's suffix: GEN_SFX_* */
    uint8_t *cat;    /* its Category (GRAPH_CAT_*, 0: none), | GEN_KEEP: freed after Output */

    size_t ne, ecap; /* edges [eu, ev] in combined indices */
    uint32_t *eu, *ev;

    char *pool; /* Names, NUL-separated */
    size_t plen, pcap;

    uint32_t *id;    /* [n+nb] Id of each combined index */
    uint32_t *order; /* [n+nb] combined index of each Id */
    uint32_t ncomp;
    uint32_t nfork;    /* side branches so far */
    uint64_t lat_seed; /* the latencies' jitter: its own stream of the seed */
    int oom;
};

#define GEN_CONSUMED 0x80000000u

/* splitmix64 (gen.c): the next number of the stream s; one below n. */
uint64_t gen_rng_next(uint64_t *s);
uint32_t gen_rng_below(uint64_t *s, uint32_t n);
/* Log-uniform-ish sizes: a power of two from 2^8 to 2^23, then uniform up to the next. */
int64_t gen_spread_size(uint64_t *rng);

#define GEN_NONE   GRAPH_NONE
#define GEN_KiB    ((int64_t)1024)
#define GEN_MAX_WS 4 /* workspaces of one op */

enum { GEN_OP_NEW = 0, GEN_OP_INPLACE = 1 };

/* A buffer's Name is its producer's and a suffix: GEN_SFX_OUT ".out", 1..GEN_MAX_WS ".wsK",
 * GEN_SFX_GRAD_W ".grad_weight", GEN_SFX_GRAD_IN + k ".grad_input" (k = 0) or
 * ".grad_inputK+1". */
enum { GEN_SFX_OUT = 0, GEN_SFX_GRAD_W = 16, GEN_SFX_GRAD_IN = 17 };
/* Or'ed into a buffer's cat: its FREE waits for the Output node (the last node), as the
 * exporters free weights: live all step in every order. */
#define GEN_KEEP     0x80u
#define GEN_CAT_MASK 0x7fu

/* Adds an op of type `op`, named by fmt, reading the nin distinct buffers
 * in[]. It writes a new output of out_size bytes when out_size >= 0, and nws
 * (at most GEN_MAX_WS) workspace buffers of ws[] bytes; with GEN_OP_INPLACE
 * it writes in[0] in place (later readers then depend on it). An op with one
 * output costs 3 nodes (ALLOC, compute, FREE), 2 more per workspace. Returns
 * the output buffer, or GEN_NONE (and g->oom when memory ran out). */
__attribute__((format(printf, 9, 10))) uint32_t
gen_add_op(gen_graph *g, const char *op, const uint32_t *in, uint32_t nin, int64_t out_size,
           const int64_t *ws, uint32_t nws, int flags, const char *fmt, ...);

/* An op in full (gen_add_ex): it reads the nin distinct buffers in[], of which it writes
 * the first ninplace in place (later readers then depend on it), and writes nout new
 * buffers of out[] bytes, with Categories cat[] and Name suffixes sfx[] (GEN_SFX_*; at most
 * 1 + GEN_MAX_WS buffers); its compute node also waits for the nafter nodes after[]. */
/* gen_graph.phase: the Phase in the low bits, the count of in-place Inputs above. */
#define GEN_PHASE_MASK    0x0f
#define GEN_INPLACE_SHIFT 4

typedef struct gen_opdef {
    const char *op;
    const uint32_t *in;
    uint32_t nin, ninplace;
    const int64_t *out;
    const uint8_t *cat, *sfx;
    uint32_t nout;
    const uint32_t *after;
    uint32_t nafter;
    uint8_t phase; /* GRAPH_PHASE_*, 0: none */
} gen_opdef;

/* Adds op d named by fmt: one ALLOC per new buffer, depending on the last writers of in[]
 * (each once), then the compute node. Writes the new buffers to outs (nout entries, may be
 * NULL); returns the compute node, or GEN_NONE (and g->oom when memory ran out). */
__attribute__((format(printf, 4, 5))) uint32_t gen_add_ex(gen_graph *g, const gen_opdef *d,
                                                          uint32_t *outs, const char *fmt, ...);

/* Adds a buffer of size bytes that exists before the step (a weight): an ALLOC named by fmt
 * with its Category cat (| GEN_KEEP to free it after Output) and no producing op; its readers
 * depend on the ALLOC. Returns the buffer, or GEN_NONE. */
__attribute__((format(printf, 4, 5))) uint32_t gen_add_param(gen_graph *g, int64_t size,
                                                             uint8_t cat, const char *fmt, ...);

/* A kind's body gets the network input x and a budget of nodes; it returns
 * the final buffer and leaves in *left the nodes it did not use (gen_build
 * pads them). */
typedef uint32_t (*gen_body_fn)(gen_graph *g, uint64_t *rng, uint32_t x, uint32_t budget,
                                uint32_t *left);

/* A kind of memtris gen: one file defines `const generator gen_KIND`, and
 * one line of gen_kinds.c's table lists it. */
typedef struct generator {
    gen_kind k; /* first: a gen_kind pointer is its generator's */
    gen_body_fn body;
    /* Or the whole graph: exactly nodes nodes, the network input's ALLOC first, an Output
     * node last (body, input_size and the padding are then unused). */
    void (*build)(gen_graph *g, uint64_t *rng, uint32_t nodes);
    int64_t input_size; /* the network input's bytes; 0: drawn by gen_spread_size */
    /* The kind's own stream of the seed (seed ^ stream x a constant): fixed
     * for ever, since every generated graph depends on it. */
    uint64_t stream;
} generator;

/* The kinds, in --help's order: a new kind is its file gen_NAME.c defining
 * `const generator gen_NAME` and one X(NAME) here (gen_kinds.c lists them). */
#define GEN_LIST(X)       X(chain) X(branch) X(alloc_heavy) X(huge) X(random) X(randwire) X(train)
#define GEN_DECLARE(name) extern const generator gen_##name;
GEN_LIST(GEN_DECLARE)

#endif
