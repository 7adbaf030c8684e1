/* policy.h: scheduling policies (a table of name, description and ready-queue
 * key) and policy_run, which runs one to completion. A new policy is one key
 * function and one line in the table in policy.c. */
#ifndef MEMTRIS_POLICY_H
#define MEMTRIS_POLICY_H
#include <stddef.h>
#include <stdint.h>
#include "graph.h"

struct run;

typedef struct policy {
    const char *name;
    const char *desc;
    /* Key of node i when it is the seq-th node pushed (0-based); the ready
     * node with the smallest key pops first. Keys must be unique per run. */
    void (*key)(const graph *g, uint32_t i, uint32_t seq, int64_t k[3]);
    int nkeys; /* key fields worth showing */
    const char *key_names[3];
    /* Why node u popped, in words, when v was the runner-up among nready
     * ready nodes (r is the policy's whole run); for the TUI. */
    void (*why)(const graph *g, const struct run *r, uint32_t u, uint32_t v, uint32_t nready,
                char *out, size_t cap);
} policy;

const policy *policy_find(const char *name); /* NULL if unknown */
/* The order others are measured against: FIFO, Kahn's plain topological order. */
const policy *policy_baseline(void);
const policy *policy_at(size_t i); /* NULL past the end */
size_t policy_count(void);

/* One whole schedule. Steps are 0-based here; users see step s+1. */
typedef struct run {
    uint32_t n;
    uint32_t *order;    /* [n] node popped at step s */
    int64_t *memory;    /* [n] live bytes after step s */
    uint32_t *pos;      /* [n] step at which node i pops */
    uint32_t *seq;      /* [n] push number of node i (its FIFO position) */
    uint32_t *pmax;     /* [n] step of the first maximum of memory[0..s] */
    int64_t peak;       /* max(0, memory[*]) */
    uint32_t peak_step; /* users' step number (1-based) of the first peak; 0 if peak is 0 */
} run;

/* Runs p on g. Returns 0, or -1 with a message in err (out of memory, or live
 * memory passing 2^63-1). */
int policy_run(const graph *g, const policy *p, run *r, char *err, size_t errcap);
void policy_run_free(run *r);
/* First step (0-based) where the orders differ, or n if they never do. */
uint32_t policy_diverge(const run *a, const run *b);
/* Where the two orders part: the steps s (0-based, ascending) at which they
 * pop different nodes although they had popped the same set of nodes before
 * s (they met again: a block both finished, in different orders). The first
 * is policy_diverge's. Writes them to out (room for n) and returns how many. */
uint32_t policy_partings(const run *a, const run *b, uint32_t *out);

#endif
