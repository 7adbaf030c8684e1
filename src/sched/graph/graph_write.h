/* graph_write.h: the one writer of memtris JSON graphs, which every command loads back:
 * Nodes one a line, then Edges eight a line (or all on one), through util's jw a megabyte at
 * a time to the caller's callback. Its nodes come from a graph (graph_write: budget -o's plan
 * graphs) or one by one from a caller's source (graph_write_source: gen's graphs, millions of
 * nodes never built as a graph, and a placement problem's chain of ALLOCs and FREEs). Exports
 * graph_write*. */
#ifndef MEMTRIS_GRAPH_WRITE_H
#define MEMTRIS_GRAPH_WRITE_H
#include <stddef.h>
#include <stdint.h>
#include "graph.h"
#include "util/outbuf.h"

/* One node as it is written: its fields, those absent NULL, 0 or -1. */
typedef struct graph_wnode {
    int64_t id;
    int kind;               /* NODE_ALLOC, NODE_FREE or NODE_COMPUTE */
    const char *op;         /* its Op: "ALLOC", "FREE" or a compute node's */
    const char *name;       /* its Name; NULL: none */
    int64_t size, bufid;    /* an ALLOC's Size and BufId, a FREE's BufId */
    int category;           /* an ALLOC's GRAPH_CAT_*; 0: none */
    int phase, rerun;       /* a compute node's GRAPH_PHASE_* and GRAPH_RERUN_*; 0: none */
    const int64_t *inputs;  /* a compute node's Inputs (BufIds), ninputs of them */
    const int64_t *inplace; /* the BufIds of those it changes in place, ninplace of them */
    uint32_t ninputs, ninplace;
    const char *latency; /* its Latency in ms, a JSON number as text; NULL: none */
    int64_t stream;      /* its Stream; -1: none */
} graph_wnode;

/* The order of a node's keys. Both start Id, Op. */
enum {
    /* graph_write's: Name; an ALLOC's Size, BufId, Category, a FREE's BufId; a compute
     * node's Inputs (when it has any), InPlace, Latency, Stream, Phase, Rerun. */
    GRAPH_KEYS_PLAIN,
    /* gen's, which every generated graph has had: an ALLOC's Size, BufId, Name, Category, a
     * FREE's BufId, Name; a compute node's Name, Phase, Inputs (even none), InPlace, Latency,
     * Stream, Rerun. */
    GRAPH_KEYS_GEN
};

/* Where graph_write_source takes the nodes and the edges from. */
typedef struct graph_wsource {
    uint32_t nodes;     /* written in the order 0..nodes-1 */
    int keys;           /* GRAPH_KEYS_* */
    int indent;         /* each node's line starts with two spaces */
    int edges_one_line; /* every edge on the line of "Edges", not eight a line */
    /* Node i into *out; what it points to lasts until the next call. */
    void (*node)(void *ctx, uint32_t i, graph_wnode *out);
    /* The next edge, the Ids of its two nodes: 1, or 0 after the last. */
    int (*edge)(void *ctx, int64_t *from, int64_t *to);
    void *ctx;
} graph_wsource;

/* Writes the nodes and edges of s as a memtris graph through write (0 to go on, nonzero to
 * stop). 0, or -1 with err (a write stopped, out of memory). */
int graph_write_source(const graph_wsource *s, outbuf_write_fn write, void *ctx, char *err,
                       size_t errcap);

/* Writes g (any graph) as memtris JSON: Nodes in index order with their fields in
 * GRAPH_KEYS_PLAIN's order (Latency with 17 digits), then Edges from each node's successors.
 * 0, or -1 with err, as graph_write_source. */
int graph_write(const graph *g, outbuf_write_fn write, void *ctx, char *err, size_t errcap);

#endif
