/* policy_piece.h: a piece of the graph between two cut nodes as exact's
 * search sees it (policy_exact.c): its local graph, running a node and the
 * ready nodes that free or hold memory after it, the order of a path, and
 * the bound on what is still to come (policy_piece.c). Internal to sched. */
#ifndef MEMTRIS_POLICY_PIECE_H
#define MEMTRIS_POLICY_PIECE_H
#include <stdint.h>
#include "sched/graph/graph.h"
#include "sched/graph/solve.h"

typedef struct piece {
    uint32_t k, w, ne;       /* nodes, 64-bit words of a state, local edges */
    const uint32_t *node;    /* [k] graph node of local node j (in the incumbent's order) */
    int64_t *change;         /* [k] */
    uint32_t *poff, *pred;   /* local predecessors (those inside the piece) */
    uint32_t *soff, *succ;   /* local successors */
    int64_t base;            /* live bytes before the piece */
    int64_t ub;              /* the incumbent's peak in the piece */
    uint32_t *rem, *touched; /* [k] scratch: unmet predecessors; what a child changed */
    /* The bound on what is still to come (when the piece is small enough,
     * PIECE_BOUND_MAX nodes): for each ALLOC a, the buffers surely live as
     * it runs are the allocated ones (a state's, and those allocated by a's
     * ancestors) that its descendants free (or nothing in the piece does). */
    uint32_t nb, wb;     /* buffers allocated or freed in the piece; words of a set of them */
    uint32_t na;         /* ALLOCs in the piece */
    uint32_t *anode;     /* [na] local node of each */
    uint32_t *abuf;      /* [na] its local buffer */
    int64_t *bsize;      /* [nb] */
    uint64_t *pre;       /* [wb] buffers allocated before the piece */
    uint64_t *anc, *dsc; /* [na * wb]: allocated by a's ancestors (a too); freed after a */
    int64_t kept;        /* bytes live all through the piece (in no set) */
} piece;

#define PIECE_BOUND_MAX 8192

#define HAS(b, j) ((b)[(j) >> 6] >> ((j)&63) & 1)
#define SET(b, j) ((b)[(j) >> 6] |= (uint64_t)1 << ((j)&63))

/* Runs local node j in state b (rem holds the unmet predecessors), then
 * every node that becomes ready with change <= 0; adds the changes to *mem
 * and the nodes run to *depth. Records each rem it lowers in touched (*nt),
 * so the caller can undo. Appends the nodes run to out when set. */
void policy_piece_run(const piece *P, uint64_t *b, uint32_t j, int64_t *mem, uint32_t *depth,
                      uint32_t *nt, uint32_t *out, uint32_t *nout);
/* The unmet predecessors of every node (P->rem) for state b. */
void policy_piece_count_rem(const piece *P, const uint64_t *b);
/* The start state: the closure of the empty set. */
void policy_piece_start(const piece *P, uint64_t *b, int64_t *mem, uint32_t *depth, uint32_t *out,
                        uint32_t *nout);
/* A bound on the peak of every way to finish the piece from state b: the
 * most bytes surely live as one of the ALLOCs still to run runs (alloc:
 * P->wb words of scratch). */
int64_t policy_piece_bound_after(const piece *P, const uint64_t *b, uint64_t *alloc);
/* Writes the piece's order for the chosen ALLOCs path into out (local nodes). */
void policy_piece_order(const piece *P, const uint32_t *path, uint32_t npath, uint32_t *out);
/* Fills the bound's tables of P (its local graph built; the piece starts at
 * position s0 of the order whose ranks are rank; bloc: a buffer-to-local
 * map, all GRAPH_NONE, left so). 0, or -1 when memory runs out; a piece of
 * more than PIECE_BOUND_MAX nodes gets no tables (its bound is 0). */
int policy_piece_bound(const graph *g, piece *P, const uint32_t *rank, uint32_t s0, uint32_t *bloc);
/* Makes P the local graph of the nodes at positions [s0, s0 + k) of order
 * (rank: its inverse; mem: the live bytes after each step; ub: the piece's
 * peak there), with its bound; loc maps a node to its place in the piece,
 * bloc is policy_piece_bound's map. The nodes before s0 count as run, those
 * from s0 + k on as not: any window of a topological order is a piece. 0, or
 * -1 out of memory (policy_piece_free frees what it made either way). */
int policy_piece_make(const graph *g, const uint32_t *rank, const uint32_t *order,
                      const int64_t *mem, uint32_t s0, uint32_t k, int64_t ub, uint32_t *loc,
                      uint32_t *bloc, piece *P);
/* Puts the piece's order for the ALLOCs path[0..npath) its search chose
 * into order and rank from s0 (lorder: room for P->k; path too, as
 * scratch). 0, or -1 when the order does not cover the piece. */
int policy_piece_adopt(const piece *P, uint32_t *path, uint32_t npath, uint32_t *lorder,
                       uint32_t *order, uint32_t *rank, uint32_t s0);
/* Frees P's local graph and tables and zeroes it. */
void policy_piece_free(piece *P);

/* The limits of exact's search, shared by its pieces (policy_piece_search.c). */
typedef struct piece_limits {
    const solve_ctx *ctx; /* its clock and watcher */
    double deadline;      /* on the context's clock */
    uint64_t max_states;  /* states kept, all pieces together */
    uint64_t states;      /* states kept so far */
    int64_t max_bytes;    /* the search's own memory (a piece's tables at a time) */
    uint64_t work;        /* node visits since the clock was last read */
    solve_stop stopped;   /* SOLVE_DONE, or why it stopped */
    int64_t lb, others;   /* for the watcher: the graph's bound; the other pieces' peak */
    double now;           /* the clock's last reading (policy_piece_tick's) */
    int local;            /* a window, not a piece: its bound proves nothing of the graph */
} piece_limits;

/* Node visits between two readings of the clock and the watcher's flag: a
 * few hundred microseconds of work. */
#define PIECE_CHECK (1u << 16)
/* Counts visits of work; reads the clock and the flag when PIECE_CHECK have
 * passed. Returns 1 when the search must stop (L->stopped says why). */
int policy_piece_tick(piece_limits *L, uint64_t visits);
/* Pieces of more nodes than this are searched without a table of states
 * (no proof, dives for a better order only). */
#define PIECE_TABLE_MAX PIECE_BOUND_MAX

/* A beam search of P from its start state (the set start, memory m0): the
 * width states of least peak so far, then memory, kept at each ALLOC run.
 * Returns the peak of the best whole order found below P->ub, its ALLOCs
 * in path[0..*npath), or P->ub. Its memory stays under half of L's. */
int64_t policy_piece_beam(const piece *P, piece_limits *L, uint32_t width, const uint64_t *start,
                          int64_t m0, uint32_t *path, uint32_t *npath);

/* Searches P for an order whose peak is below P->ub (its incumbent's): by
 * depth-first dives under a budget of memory, with a table of states that
 * remembers what each is proven to cost at least (ub side: the budget just
 * below the best found; lb side: the bound proven, each round raising it).
 * Returns the least peak found (< P->ub) with its ALLOCs in path[0..*npath),
 * or P->ub when it found none. *lb: no order of the graph peaks below it
 * (its rounds at the bound start at L->lb, what was proven before). Stops at
 * L's limits (L->stopped). */
int64_t policy_piece_search(const piece *P, piece_limits *L, uint32_t *path, uint32_t *npath,
                            int64_t *lb);

#endif
