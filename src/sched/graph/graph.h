/* graph.h: the immutable computation graph (struct of arrays, CSR adjacency
 * in input edge order) and its lookups. Built through graph_build.c (by load.c,
 * budget's plan graph and what-if's transforms), read by the rest. */
#ifndef MEMTRIS_GRAPH_H
#define MEMTRIS_GRAPH_H
#include <stdint.h>
#include <stddef.h>
#include "util/imap.h"

/* Node kinds; the values are the seed's type codes (FREE < compute < ALLOC). */
enum { NODE_FREE = 0, NODE_COMPUTE = 1, NODE_ALLOC = 2 };

#define GRAPH_NONE     UINT32_MAX
#define GRAPH_MAX_SIZE ((int64_t)9007199254740991) /* 2^53 - 1 */
/* The largest Stream a node may name: streams are 0..63, each a lane of the timeline. */
#define GRAPH_MAX_STREAM 63
/* The largest Latency, in ms (11.6 days): any graph's sum of them stays finite. */
#define GRAPH_MAX_LATENCY 1e9
/* The most nodes (and buffers) a graph may have: indices are 32-bit, with
 * GRAPH_NONE meaning "none" and room for a sentinel. */
#define GRAPH_MAX_NODES ((uint32_t)UINT32_MAX - 3)

typedef struct graph {
    char *source;    /* display name of the input */
    uint32_t n;      /* nodes, indexed 0..n-1 in input order */
    uint32_t nedges; /* distinct edges */
    uint32_t nbufs;

    int64_t *id;               /* [n] the node's Id */
    int64_t *change;           /* [n] memory change: +Size, -Size or 0 */
    uint8_t *kind;             /* [n] NODE_* */
    uint32_t *buf;             /* [n] buffer index (ALLOC/FREE) or GRAPH_NONE */
    uint32_t *op;              /* [n] index into ops[] */
    uint32_t *name;            /* [n] offset into strpool of Name; 0 = none */
    uint32_t *succ_off, *succ; /* successors: succ[succ_off[i]..succ_off[i+1]) */
    uint32_t *pred_off, *pred; /* predecessors, same layout */
    uint32_t *in_off;          /* [n+1] Inputs of node i: inputs[in_off[i]..in_off[i+1]) */
    int64_t *inputs;           /* buffer ids as written (unknown ones were warned about) */
    double *latency;           /* [n] or NULL when no node has one; NAN = absent */
    int64_t *stream;           /* [n] or NULL when no node has one; -1 = absent */
    uint8_t *tag;     /* [n] or NULL when no node has one: an ALLOC's Category (GRAPH_CAT_*),
                       * a compute node's Phase (GRAPH_PHASE_*); 0 = none. Read them with
                       * graph_category and graph_phase */
    uint8_t *rerun;   /* [n] or NULL when no node has one: a compute node's "Rerun" (GRAPH_RERUN_*);
                       * read it with graph_rerun */
    uint8_t *inplace; /* [entries of inputs] or NULL when no node has "InPlace": 1 where the
                       * node changes that Input in place; read it with graph_input_inplace */
    int64_t *time;    /* [n] or NULL: when each node happens in the problem it was made from (a
                       * placement CSV's lower and upper); exact placement's orders measure
                       * lifetimes with it, in steps without it */

    int64_t *buf_id;     /* [nbufs] BufId */
    int64_t *buf_size;   /* [nbufs] Size of its ALLOC */
    uint32_t *buf_alloc; /* [nbufs] node index of the ALLOC */
    uint32_t *buf_free;  /* [nbufs] node index of the FREE, or GRAPH_NONE */

    char **ops; /* distinct Op strings */
    uint32_t nops;
    char *strpool; /* names, NUL-separated; offset 0 is "" */
    size_t strpool_len;

    int64_t measured_peak; /* the top-level "Measured" peak in bytes, or -1 when absent */
    char *measured_how;    /* its "how", or NULL */

    imap ids;    /* Id -> node index */
    imap bufids; /* BufId -> buffer index */
} graph;

/* What an ALLOC's buffer holds (its "Category"), in the order the categories are listed. */
enum {
    GRAPH_CAT_NONE = 0,
    GRAPH_CAT_INPUT,
    GRAPH_CAT_WEIGHT,
    GRAPH_CAT_GRADIENT,
    GRAPH_CAT_OPTIMIZER,
    GRAPH_CAT_ACTIVATION,
    GRAPH_CAT_WORKSPACE,
    GRAPH_CAT_OUTPUT,
    GRAPH_NCAT
};
/* Which part of a training step a compute node belongs to (its "Phase"). */
enum {
    GRAPH_PHASE_NONE = 0,
    GRAPH_PHASE_FORWARD,
    GRAPH_PHASE_BACKWARD,
    GRAPH_PHASE_OPTIMIZER,
    GRAPH_NPHASE
};

void graph_free(graph *g);
uint32_t graph_find(const graph *g, int64_t id);        /* node index or GRAPH_NONE */
uint32_t graph_find_buf(const graph *g, int64_t bufid); /* buffer index or GRAPH_NONE */
const char *graph_op(const graph *g, uint32_t i);
const char *graph_name(const graph *g, uint32_t i); /* Name, else Op */
/* "ALLOC", "FREE" or "compute". */
const char *graph_kind_word(int kind);
/* Room for what graph_label and graph_display write into the caller's buffer;
 * the columns of a buffer's name in a sentence ("free …layer4.0.conv2.weight"). */
#define GRAPH_LABEL_MAX 128
#define GRAPH_BUF_WORDS 32
/* How a node is called in sentences, before its id: what an ALLOC or FREE
 * does to its buffer, by its ALLOC's Name ("free layer1.conv", shortened from
 * the left past GRAPH_BUF_WORDS columns) or BufId ("alloc b1", "free b1"), a
 * compute node's Name (else its Op). Returns
 * a string of the graph's or buf (cap bytes, GRAPH_LABEL_MAX is enough). */
const char *graph_label(const graph *g, uint32_t i, char *buf, size_t cap);
/* A node's name where a name is shown: its Name, else something readable:
 * "alloc b1", "free b1", or a compute node's Op and Id ("Input 1"). Returns
 * a string of the graph's or buf, as graph_label. */
const char *graph_display(const graph *g, uint32_t i, char *buf, size_t cap);
/* Buffer b's name where a buffer is shown: its ALLOC's Name less a trailing
 * ".out" (fx2memtris's name for an op's output), else "b" and its BufId.
 * Written into buf (cap bytes; GRAPH_LABEL_MAX for an unnamed one; a longer
 * Name is cut at a character); returns buf. */
const char *graph_buf_display(const graph *g, uint32_t b, char *buf, size_t cap);

/* The stream node i runs on: its Stream (compute nodes; 0 without one), or
 * -1 for an ALLOC or FREE. */
int graph_stream(const graph *g, uint32_t i);
/* Node i's latency in ms: its Latency (compute nodes; 0 without one), 0 for
 * an ALLOC or FREE. */
double graph_latency(const graph *g, uint32_t i);

/* Node i's Category: an ALLOC's or a FREE's (its buffer's ALLOC's), GRAPH_CAT_NONE for a
 * compute node or without one. */
int graph_category(const graph *g, uint32_t i);
/* Buffer b's Category (its ALLOC's). */
int graph_buf_category(const graph *g, uint32_t b);
/* A compute node's "Rerun", as given: GRAPH_RERUN_NONE (absent), _NO (false) or _YES (true). */
enum { GRAPH_RERUN_NONE = 0, GRAPH_RERUN_NO, GRAPH_RERUN_YES };
int graph_rerun(const graph *g, uint32_t i);
/* Whether node i changes its k-th Input (inputs[in_off[i] + k]) in place ("InPlace"). */
int graph_input_inplace(const graph *g, uint32_t i, uint32_t k);
/* Node i's Phase: a compute node's, GRAPH_PHASE_NONE otherwise or without one. */
int graph_phase(const graph *g, uint32_t i);
/* The word a Category or a Phase is written as ("weight", "backward"); "" for NONE. */
const char *graph_category_word(int cat);
const char *graph_phase_word(int phase);
/* The GRAPH_CAT_* (GRAPH_PHASE_*) that word names, or -1 for none (NONE is not named). */
int graph_category_parse(const char *word);
int graph_phase_parse(const char *word);

#endif
