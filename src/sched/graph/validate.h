/* validate.h: the checks of what a graph means, run on the graph itself (the
 * loader's, or one built in memory): buffers, Inputs, cycles and that every
 * FREE depends on its ALLOC. Errors and warnings go to a diag. Exports validate_*. */
#ifndef MEMTRIS_VALIDATE_H
#define MEMTRIS_VALIDATE_H
#include "diag.h"
#include "graph.h"

/* Results: valid (warnings aside); errors reported in d; out of memory (not
 * reported: the caller says so). */
enum { VALIDATE_OK = 0, VALIDATE_BAD = -1, VALIDATE_OOM = -2 };

/* Each buffer: a FREE of a buffer no ALLOC creates (buf_alloc GRAPH_NONE) is
 * an error; a buffer never freed, a warning; so is a FREE whose change holds
 * a declared Size (>= 0, as the loader leaves it) other than its ALLOC's.
 * VALIDATE_OK or VALIDATE_BAD. */
int validate_buffers(const graph *g, diag *d);
/* Warns of each Inputs entry that names no buffer. */
void validate_inputs(const graph *g, diag *d);
/* Over the CSR edges: a cycle is an error (one is named, from its smallest
 * Id); then every FREE must depend on its buffer's ALLOC by a path.
 * VALIDATE_OK, VALIDATE_BAD or VALIDATE_OOM. */
int validate_order(const graph *g, diag *d);

/* All of them, in the loader's order (buffers, and only when they are
 * right the rest); out of memory is reported as an error. VALIDATE_OK, or
 * VALIDATE_BAD with the errors in d. */
int validate_graph(const graph *g, diag *d);

#endif
