/* graph_build.h: the graph builder, sched/graph's interface for making a graph node by node
 * and edge by edge (ids, interned Ops and Names, buffers), then packing it into a graph with
 * CSR adjacency: the loader fills it from a file (load.c), budget's plan graph
 * (budget_graph.c) and what-if's transforms (whatif_transform.c) from graphs of their own. Exports
 * graph_build_*. */
#ifndef MEMTRIS_GRAPH_BUILD_H
#define MEMTRIS_GRAPH_BUILD_H
#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "graph.h"

/* A builder: callers read n (the nodes added) and oom; the rest is graph_build.c's. */
typedef struct graph_builder {
    diag *d;
    int oom;           /* out of memory, or a limit passed (then `limit` says which): stop */
    const char *limit; /* "nodes", "buffers", ... when the graph is larger than memtris holds */
    uint64_t limit_max;
    uint32_t max_nodes; /* the most nodes taken */

    uint32_t n, cap;
    int64_t *id, *change; /* change holds Size (ALLOC), declared Size or -1 (FREE) */
    uint8_t *kind;
    uint32_t *buf, *op, *name;
    uint32_t *src;   /* the caller's index of each node (Nodes[] in the file), for messages */
    double *latency; /* allocated when the first Latency appears */
    int64_t *stream;
    uint8_t *tag;   /* Category or Phase: allocated when the first appears */
    uint8_t *rerun; /* "Rerun" (GRAPH_RERUN_*): allocated when the first appears */
    uint32_t *in_off;
    int64_t *inputs;
    size_t nin, incap;
    uint8_t *inplace; /* [inplacecap] marks of Inputs entries ("InPlace"), once one is marked */
    size_t inplacecap;

    int64_t *ep; /* edges as written: u, v pairs of Ids */
    size_t ne, ecap;
    uint32_t *ei; /* or (graph_build_edge_nodes) u, v pairs of node indices */
    size_t nei, eicap;

    char **ops; /* interned Op strings and their hash table */
    uint32_t nops, opscap;
    uint32_t *opslot;
    size_t opmask;

    char *pool;
    size_t plen, pcap;

    imap ids, bufids;
    int64_t *bid, *bsize;
    uint32_t *balloc, *bfree;
    uint32_t nb, bcap;
} graph_builder;

/* One node's fields, decoded. */
typedef struct graph_node_spec {
    int64_t id;
    int kind; /* NODE_* */
    const char *op;
    const char *name; /* NULL: none */
    int64_t size;     /* ALLOC: Size; FREE: the Size it declares, or -1 */
    int64_t bufid;    /* ALLOC and FREE */
    int has_latency;
    double latency;
    int64_t stream; /* -1: none */
    int tag;        /* GRAPH_CAT_* of an ALLOC, GRAPH_PHASE_* of a compute node; 0: none */
    int rerun;      /* GRAPH_RERUN_* of a compute node */
    size_t ninputs;
} graph_node_spec;

/* What graph_build_buffer found. */
enum { GRAPH_BUILD_OK, GRAPH_BUILD_ALLOC_TWICE, GRAPH_BUILD_FREE_TWICE, GRAPH_BUILD_STOP };

void graph_build_init(graph_builder *b, diag *d, uint32_t max_nodes);
void graph_build_free(graph_builder *b);

/* Adds node s, from the caller's index src. Returns its index, with *inputs
 * pointing at room for s->ninputs Inputs for the caller to fill; or
 * GRAPH_NONE, with *dup the src of the node that already has s->id, else
 * (dup = GRAPH_NONE) b->oom set. */
uint32_t graph_build_node(graph_builder *b, const graph_node_spec *s, uint32_t src, uint32_t *dup,
                          int64_t **inputs);
/* Ties ALLOC or FREE node i to its buffer. Not OK: the buffer already had an
 * ALLOC (or FREE), node *other; or b->oom is set (STOP). */
int graph_build_buffer(graph_builder *b, uint32_t i, int64_t bufid, int64_t size, uint32_t *other);
/* Marks the k-th entry of all Inputs (node i's are in_off[i]..) as changed in place by its
 * node: 0, or -1 (b->oom). */
int graph_build_inplace(graph_builder *b, size_t k);
/* Records the edge [u, v] (Ids, resolved by graph_build_edges); 0 or -1 (b->oom). */
int graph_build_edge(graph_builder *b, int64_t u, int64_t v);
/* Records the edge [u, v] of node indices (both added, u != v) the caller resolved; a builder
 * takes its edges one way or the other, not both. 0 or -1 (b->oom). */
int graph_build_edge_nodes(graph_builder *b, uint32_t u, uint32_t v);

/* Moves the nodes, buffers and names into a new graph named source, without
 * edges, each FREE's change still as graph_node_spec.size gave it (see
 * graph_build_free_changes); NULL out of memory (b->oom). */
graph *graph_build_take(graph_builder *b, const char *source);
/* Sets each FREE's change to minus its ALLOC's Size (every buffer has one). */
void graph_build_free_changes(graph *g);
/* Resolves the edges into g's CSR arrays (input order kept, repeats dropped
 * with a warning); 0, or -1 with an error in b->d or b->oom set. */
int graph_build_edges(graph_builder *b, graph *g);

#endif
