/* gen_internal.h: struct gen_graph, the generated graph as gen.c builds it
 * and gen_json.c writes it; the generators' random numbers (gen.c), which
 * gen_packing.c draws too. Included by those three only. */
#ifndef MEMTRIS_GEN_INTERNAL_H
#define MEMTRIS_GEN_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "gen.h"

struct gen_graph {
    /* Nodes in creation order: ALLOCs and computes. The FREE of buffer b is
     * node n + b of the combined index space used by edges and ids. */
    uint32_t n;
    size_t ncap;
    uint8_t *kind;    /* NODE_ALLOC or NODE_COMPUTE */
    uint32_t *ref;    /* ALLOC: its buffer; compute: pool offset of its Name */
    const char **op;  /* compute: its Op */
    uint32_t *in_off; /* [n+1] Inputs of compute i: in[in_off[i]..in_off[i+1]) */
    uint32_t *fork;   /* compute: its fork (0: stream 0's line, k: the k-th side branch) and
                       * GEN_CONSUMED once a later compute reads what it wrote */
    uint32_t *in;
    size_t nin, incap;

    uint32_t nb; /* buffers */
    size_t bcap;
    int64_t *size;
    uint32_t *prod;  /* compute node that writes it first */
    uint32_t *dep;   /* what a new reader depends on: its last writer */
    uint32_t *bname; /* pool offset of its producer's Name */
    uint8_t *suffix; /* 0: ".out", k: ".wsk" */

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

/* splitmix64 (gen.c): the next number of the stream s. */
uint64_t gen_rng_next(uint64_t *s);

#endif
