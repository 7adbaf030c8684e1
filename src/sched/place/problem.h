/* problem.h: a pure placement problem in google/minimalloc's CSV form (rows
 * of id, lower, upper, size: a buffer live on [lower, upper)): read from CSV
 * (problem_csv.c), written as CSV or as a chain graph and built into one
 * (problem.c), made from a plan or with a known optimum (gen_packing.c). Exports problem_*. */
#ifndef MEMTRIS_PROBLEM_H
#define MEMTRIS_PROBLEM_H
#include <stddef.h>
#include <stdint.h>
#include "sched/graph/diag.h"
#include "sched/graph/graph.h"
#include "place.h"

/* The most rows: the chain graph has two nodes a row. */
#define PROBLEM_MAX_ROWS (GRAPH_MAX_NODES / 2)

typedef struct problem {
    uint32_t n;
    char *pool; /* the ids, NUL-separated */
    size_t *id; /* [n] where row i's id starts in pool */
    int64_t *lower, *upper, *size;
    int64_t *align;    /* [n] the alignment column, or NULL (none: every buffer 1) */
    int64_t *offset;   /* [n] the offset column, or NULL */
    int64_t max_align; /* the largest alignment, 1 without the column */
} problem;

/* Row i's id. */
const char *problem_id(const problem *p, uint32_t i);
void problem_free(problem *p);

/* problem_csv.c: reads MiniMalloc's CSV from path ("-": standard input) or a
 * text: the header names the columns, in any order: id, lower, upper, size
 * (also MiniMalloc's older names buffer or buffer_id, begin or start, and end,
 * an inclusive upper), and optionally alignment (a power of two up to 2^30),
 * gaps (empty only) and offset. Returns the problem, or NULL with errors in d
 * ("FILE:LINE:COL: error: ..."). */
problem *problem_read(const char *path, diag *d);
problem *problem_parse(const char *text, size_t len, diag *d);

/* Receives written text in chunks; returns 0, or nonzero to stop writing. */
typedef int (*problem_write_fn)(void *ctx, const char *data, size_t len);

/* Writes p as MiniMalloc's CSV: id,lower,upper,size, then alignment when p
 * has the column, then offset when offset is not NULL (offset[i]: row i's).
 * 0, or -1 when write returned nonzero. */
int problem_write_csv(const problem *p, const int64_t *offset, problem_write_fn write, void *ctx);

/* Writes p as a memtris graph: one chain of ALLOC and FREE nodes (Ids from 0)
 * in time order, where at each time the FREEs of the buffers whose upper it is
 * come before the ALLOCs of those whose lower it is (so [a, b) and [b, c) are
 * never live at once), each kind in row order. Row i is BufId i, its ALLOC
 * named by its id. Every policy gives this one order. 0, or -1 as above (or
 * out of memory, err says which). */
int problem_write_graph(const problem *p, problem_write_fn write, void *ctx, char *err,
                        size_t errcap);
/* The graph problem_write_graph writes, loaded; NULL with errors in d. */
graph *problem_graph(const problem *p, diag *d);

/* A plan as a problem: row i is buffer bufs[i] of g, its id the BufId, lower
 * and upper its alloc and free steps (0-based; a buffer never freed ends at
 * the schedule's length), its size the span it takes (its Size rounded up to
 * pl->align), its offset (the offset column) the plan's. NULL out of memory. */
problem *problem_from_plan(const graph *g, const lifetimes *lt, const placement *pl,
                           const uint32_t *bufs);

#endif
