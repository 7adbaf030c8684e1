/* policy.h: scheduling policies (a table of objects: name, description and
 * ready-queue key, or a whole order) and policy_run, which runs one to
 * completion and says what is proven about its peak. A new policy is one file,
 * policy_NAME.c, and one name in policy_internal.h's POLICY_LIST. */
#ifndef MEMTRIS_POLICY_H
#define MEMTRIS_POLICY_H
#include <stddef.h>
#include <stdint.h>
#include "sched/graph/graph.h"
#include "sched/graph/solve.h"

struct run;

/* How exact's search went (zero for the other policies). */
typedef struct policy_search {
    int ran;            /* the search ran (some piece needed it) */
    solve_stop stopped; /* SOLVE_DONE, or the limit or cancel that ended it (its best order) */
    uint64_t states;    /* states it kept */
    uint32_t pieces;    /* independent pieces the graph split into */
    uint32_t solved;    /* pieces searched to the end */
} policy_search;

/* What a policy is. */
enum {
    POLICY_HEURISTIC, /* a rule, O(n log n); a member of "best" */
    POLICY_PORTFOLIO, /* "best": the smallest peak of the heuristics */
    POLICY_EXACT,     /* "exact": a search for the proven minimum peak */
    POLICY_TIMED,     /* a rule that weighs time too (weighted, multiqueue): not in "best" */
    POLICY_BASELINE   /* the graph's own order (given): not in "best", refused on some graphs */
};

extern const char *const policy_queue_names[QUEUE_COUNT]; /* "compute", "transfer", "other" */

typedef struct policy {
    const char *name;
    const char *desc;
    /* Key of node i when it is the seq-th node pushed (0-based); the ready
     * node with the smallest key pops first. Keys must be unique per run.
     * r is the run being made: r->pos of i's predecessors and r->rank are
     * set when i is pushed. */
    void (*key)(const graph *g, const struct run *r, uint32_t i, uint32_t seq, int64_t k[3]);
    /* Whole-order policies (NULL for the others): writes a topological
     * order as r->rank[i] (position of node i) and may set r->found_by and
     * r->lower_bound; key is then policy_key_rank. A plan that made the whole
     * run of that order itself (order, memory, pos, seq, pmax, peak and
     * peak_step as policy_run makes them) sets r->plan_ran, and policy_run
     * makes none. 0, or -1 with a message. */
    int (*plan)(const graph *g, const solve_ctx *c, struct run *r, char *err, size_t errcap);
    /* How the ready queue shows the key (NULL: its nkeys numbers under
     * key_names): node i's key k into out, or with i GRAPH_NONE the
     * header, for a run r of this policy. */
    void (*show)(const graph *g, const struct run *r, uint32_t i, const int64_t k[3], char *out,
                 size_t cap);
    /* Called once before the first key (NULL for most): sets r's constants
     * (r->alpha, r->kscale) from the graph and the context's parameters. */
    void (*prepare)(const graph *g, const solve_ctx *c, struct run *r);
    int kind;  /* POLICY_* */
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
    uint32_t *rank;     /* [n] whole-order policies: node i's place in their order; else NULL */
    /* What is proven: no topological order of the graph peaks below
     * lower_bound (exact's search sets it; policy_prove adds others'), and
     * optimal says peak == lower_bound. */
    int64_t lower_bound;
    int optimal;
    const struct policy *found_by; /* best: the member whose order it is */
    policy_search search;          /* exact: how the search went */
    int plan_ran;                  /* the plan made the whole run (policy.h's plan) */
    double alpha;                  /* weighted: the weight of memory its keys used */
    double kscale[3];              /* weighted: the largest change, its spread, the least latency */
} run;

/* weighted's score of node i in r (a run of weighted), and its two terms,
 * each in [0, 1] (mem, lat may be NULL). */
double policy_weighted_score(const graph *g, const run *r, uint32_t i, double *mem, double *lat);
/* Runs p on g with the context c (limits, parameters, watcher; NULL: the
 * defaults). Returns 0, or -1 with a message in err (out of memory, live
 * memory passing 2^63-1). exact, cancelled by c's watcher, returns its best
 * order so far with search.stopped SOLVE_CANCELLED. */
int policy_run(const graph *g, const policy *p, const solve_ctx *c, run *r, char *err,
               size_t errcap);
/* policy_run with a deadline on c's clock (HUGE_VAL: none, and no cancel
 * either): a policy of a key reads the clock and c's watcher every 4096
 * steps and, past the deadline or cancelled, runs the rest first ready, first
 * run (Kahn's rule), so the run is still a whole order; search.stopped then
 * says SOLVE_TIME or SOLVE_CANCELLED. A heuristic's plan (dfs, postorder,
 * lpmf) reads them every 4096 units of its work too: cut short, it has no
 * order, and this returns 1 with r freed (best drops it). A whole-order
 * policy's run from its plan is linear: no heap, nothing to stop. */
int policy_run_until(const graph *g, const policy *p, const solve_ctx *c, double deadline, run *r,
                     char *err, size_t errcap);
/* Records lb, a proven bound on g's minimum peak, in r (a bound above r's
 * peak, impossible, is ignored) and sets r->optimal. */
void policy_prove(run *r, int64_t lb);
/* A proven lower bound on every order's peak (policy_bound.c): the bytes
 * surely live after a node's step (allocated by its ancestors, freed by its
 * descendants), over nodes, pairs and small sets of nodes that some order
 * must interleave; under a cap on its work (about 0.1 s), else less. */
int64_t policy_lower_bound(const graph *g);
/* The bound before the must-live sets (policy.c): the largest
 * buffer, or the Inputs of a compute node that short searches prove live. */
int64_t policy_lower_bound_plain(const graph *g);
/* The same with a deadline on c's clock (HUGE_VAL: none) and c's watcher,
 * read every 4096 nodes: past either, what the nodes done so far prove (at
 * least the largest buffer), still a lower bound. */
int64_t policy_lower_bound_plain_until(const graph *g, const solve_ctx *c, double deadline);
/* policy_lower_bound with a deadline on c's clock (HUGE_VAL: none) and a cap
 * on the words it visits: what the nodes and buffers done by then prove
 * (policy_bound.c); the clock and the watcher are read every 4096 nodes. */
int64_t policy_lower_bound_until(const graph *g, const solve_ctx *c, double deadline, uint64_t cap);
/* The same from lb, a bound proven before: the greater of the two, the sets
 * of nodes kept only where they raise it. */
int64_t policy_lower_bound_from(const graph *g, const solve_ctx *c, double deadline, uint64_t cap,
                                int64_t lb);
#define POLICY_BOUND_CAP (1ull << 31) /* exact's cap on the bound's word visits */
/* The closure bound (policy_closure.c): the least live bytes of any prefix
 * of an order just after node v's step (v and its ancestors run, none of its
 * strict descendants), one minimum cut a node, over the nodes in index order,
 * then over the orders of small sets of nodes, while the deadline on c's
 * clock, c's watcher and the cap on arc visits allow; the greater of it and
 * lb. At least the must-live bytes of the nodes done; graphs of more than
 * POLICY_CLOSURE_MAX nodes are not tried (lb). The sets stop once the bound
 * reaches enough (a known order's peak: no bound passes it). */
int64_t policy_closure_bound(const graph *g, const solve_ctx *c, double deadline, uint64_t cap,
                             int64_t lb, int64_t enough);
#define POLICY_CLOSURE_MAX (1u << 16)

void policy_run_free(run *r);
/* First step (0-based) where the orders differ, or n if they never do. */
uint32_t policy_diverge(const run *a, const run *b);
/* Where the two orders part: the steps s (0-based, ascending) at which they
 * pop different nodes although they had popped the same set of nodes before
 * s (they met again: a block both finished, in different orders). The first
 * is policy_diverge's. Writes them to out (room for n) and returns how many. */
uint32_t policy_partings(const run *a, const run *b, uint32_t *out);
/* The least peak of an order of g that makes the first s + 1 steps of order
 * (a whole topological order) first: exact's search of the window after
 * them, within c's limits (policy_after.c). *peak: the least found (at most
 * order's own); *proven: no such order peaks lower. 0, or -1 out of memory. */
int policy_best_after(const graph *g, const uint32_t *order, uint32_t s, const solve_ctx *c,
                      int64_t *peak, int *proven);

#endif
