/* budget.h: memory budgets. A plan is a sequence of events over a graph's compute nodes and
 * buffers (run, free, offload, fetch) that runs every compute node at least once and keeps the
 * present buffers' bytes at or under a budget; the model (what a node reads and writes, which
 * nodes may run again, which buffers must end present), the plan of the graph's own order, an
 * independent checker that replays any plan, a sound lower bound on every plan's peak, and the
 * greedy solver. Exports budget_*. */
#ifndef MEMTRIS_BUDGET_H
#define MEMTRIS_BUDGET_H
#include <stddef.h>
#include <stdint.h>
#include "defaults.h"
#include "sched/graph/graph.h"
#include "sched/graph/solve.h"

/* The bytes of a random op's generator state, kept for its reruns: the CPU generator's state
 * (torch.get_rng_state(), 5056 bytes) and a CUDA Philox seed and offset (8 bytes each). */
#define BUDGET_RNG_BYTES (5056 + 16)

/* Events; x is a compute node's index (RUN) or a buffer's index (the others). HOST: a buffer
 * that may start on the host (budget_model.hostable) starts there (its copy there, version 0;
 * its first use fetches it; the Input node that makes it leaves it there), as ZeRO-Offload's
 * and FSDP's weights and optimizer state do: only before every other event of the plan, and
 * the start's bytes count only what starts on the device. */
enum { BUDGET_RUN, BUDGET_FREE, BUDGET_OFFLOAD, BUDGET_FETCH, BUDGET_HOST };
typedef struct budget_event {
    uint32_t op;
    uint32_t x;
} budget_event;

typedef struct budget_plan {
    budget_event *ev;
    size_t n, cap;
} budget_plan;

/* Appends an event: 0, or -1 out of memory. */
int budget_plan_push(budget_plan *p, uint32_t op, uint32_t x);
void budget_plan_free(budget_plan *p);
/* "run", "free", "offload", "fetch", "host". */
const char *budget_op_word(uint32_t op);

/* What may be used to fit (--allow). */
enum { BUDGET_ALLOW_RECOMPUTE = 1, BUDGET_ALLOW_OFFLOAD = 2 };
#define BUDGET_BANDWIDTH DEFAULT_BUDGET_BANDWIDTH /* bytes a second each way (defaults.h) */

/* The model of a graph, read off it once:
 * - the given order: the compute nodes by ascending Id (policy given; a graph whose Ids are
 *   not a topological order has none);
 * - a buffer's producer is the first compute node, in the given order, that its ALLOC has an
 *   edge to; a compute node writes the buffers it produces and reads its other Inputs; a
 *   buffer with no producer is present from the start;
 * - a node may run again unless its Op is Input, its Phase optimizer or it says "Rerun": false;
 *   "Rerun": true allows it whatever the rest says;
 * - a random op (its Op has rand, dropout, bernoulli or multinomial in it, any case) that may
 *   run again does so as torch.utils.checkpoint(preserve_rng_state=True) does: from the
 *   generator state saved before its first run, a logical buffer of BUDGET_RNG_BYTES (the CPU
 *   generator's state, torch.get_rng_state(), and a CUDA Philox seed and offset) present from
 *   its first run to its last rerun in a plan that reruns it (none where it never reruns);
 * - a buffer changed in place ("InPlace") by c nodes has c + 1 versions, each a logical buffer
 *   of the model: version 0 is what its producer makes, version k what the k-th node that
 *   changes it (along the given order, whatever order the model follows) makes of version
 *   k - 1: that node reads version k - 1 and writes version k in the same bytes; every other
 *   reader reads the version that the changes before it (in the given order) made. So a
 *   version is made again by rerunning its producer and then its changers in order. The
 *   versions of a buffer share its bytes: one at most is present, and a node that writes one
 *   overwrites the one present (the k-th change consumes version k - 1);
 * - the buffers the graph never frees (no FREE) must be present at the end, at their last
 *   version: on the device, or on the host (a copy of that version offloaded, as ZeRO-Offload
 *   keeps weights and optimizer state).
 * Logical buffers [0, nbufs) are the buffers' versions 0 (index for index), the later versions
 * come after them. */
typedef struct budget_model {
    const graph *g;
    uint32_t m;            /* compute nodes */
    uint32_t nl;           /* logical buffers: the versions of every buffer */
    uint32_t *order;       /* [m] the compute nodes in the given order */
    uint32_t *pos;         /* [n] a compute node's place in order; GRAPH_NONE for the others */
    uint32_t *rd_off, *rd; /* [n+1] the logical buffers node i reads: rd[rd_off[i]..rd_off[i+1]) */
    uint32_t *wr_off, *wr; /* the logical buffers node i writes, same layout */
    uint32_t *producer;    /* [nl] its compute node, or GRAPH_NONE (present from the start) */
    uint32_t *phys;        /* [nl] the buffer (index) it is a version of */
    uint32_t *ver;         /* [nl] its version: 0, or the count of changes in place it holds */
    uint32_t *vers_off, *vers; /* [nbufs+1] buffer b's versions in order:
                                * vers[vers_off[b]..vers_off[b+1]), vers[vers_off[b]] == b */
    int64_t *size;             /* [nl] its buffer's bytes */
    uint8_t *rerunnable;       /* [n] */
    uint8_t *rng;              /* [n] a random op that may run again: from its generator state */
    uint8_t *keep;     /* [nl] the last version of a buffer never freed: present at the end */
    int64_t *lastread; /* [nl] the place of its last reader (else its producer's), or -1 */
    uint8_t *hostable; /* [nbufs] may start on the host (BUDGET_HOST): present from the start,
                          or made by a node of Op Input (the step's inputs, weights and state,
                          there before the step: that node then leaves it on the host) */
    int64_t initial;   /* bytes present at the start (buffers without a producer), before any
                          starts on the host (BUDGET_HOST) */
} budget_model;

/* Buffer b's last version (a logical buffer). */
static inline uint32_t budget_last_version(const budget_model *bm, uint32_t b)
{
    return bm->vers[bm->vers_off[b + 1] - 1];
}
/* The version after l of its buffer, or GRAPH_NONE. */
static inline uint32_t budget_next_version(const budget_model *bm, uint32_t l)
{
    uint32_t b = bm->phys[l], k = bm->vers_off[b] + bm->ver[l] + 1;
    return k < bm->vers_off[b + 1] ? bm->vers[k] : GRAPH_NONE;
}

/* Builds bm for g: 0, or -1 with a message (no given order, out of memory). */
int budget_model_init(budget_model *bm, const graph *g, char *err, size_t errcap);
/* The same model along another order of the compute nodes, pol's run of g (any policy's run
 * is an order the checker takes): "order", "pos" and "lastread" follow it; the producers of
 * versions 0 are the first writers along it; the versions stay the given order's. */
struct policy;
int budget_model_init_order(budget_model *bm, const graph *g, const struct policy *pol, char *err,
                            size_t errcap);
void budget_model_free(budget_model *bm);

/* What a plan comes to, from the checker's replay. */
typedef struct budget_stats {
    int64_t peak;            /* the most bytes present, after any event (or at the start) */
    int64_t start;           /* the bytes on the device at the start (less what starts on the
                                host: BUDGET_HOST) */
    double extra_ms;         /* makespan minus the budget-free schedule's (sum of latencies) */
    double makespan_ms;      /* the plan's, in the timeline model of budget_check */
    uint64_t reruns;         /* runs of a node after its first */
    int64_t offloaded_bytes; /* bytes copied out */
    uint64_t rng_states;     /* random ops run again, each from its generator state kept */
    int64_t rng_bytes;       /* those states' bytes together */
    uint64_t events;
} budget_stats;

/* Replays plan p on bm's graph with nothing from the solver that made it: every event legal
 * (a run's reads present at the versions it reads, a node's first run after the first runs of
 * the compute nodes before it along the Edges, only rerunnable nodes run again, free and
 * offload of a present buffer, fetch of one offloaded: the version last offloaded; host of a
 * buffer present from the start, before any other event), every compute node run, the
 * never-freed buffers present at the end at their last version, on the device or as the host's
 * copy (a run
 * that writes a buffer present writes over its version); the peak, the reruns and the time
 * (compute in plan order on one stream; offloads and fetches one at a time on the transfer
 * stream at bandwidth bytes/s, an offload once the buffer is made; a run after the fetches it
 * reads; an event that takes bytes (a run that makes a buffer, a fetch) after every earlier
 * free and offload has taken effect: a free when the runs that used the buffer have ended, an
 * offload when its copy has too); a random op that runs again (budget_model.rng) holds its
 * generator state's BUDGET_RNG_BYTES from its first run to its last (st->rng_states,
 * st->rng_bytes). 0 with st filled, or -1 with the first wrong event named in err ("event 12
 * (run Id 7): ..."). */
int budget_check(const budget_model *bm, const budget_plan *p, double bandwidth, budget_stats *st,
                 char *err, size_t errcap);
/* budget_check, also filling after[k] (p->n of them) with the bytes present after event k. */
int budget_check_memory(const budget_model *bm, const budget_plan *p, double bandwidth,
                        budget_stats *st, int64_t *after, char *err, size_t errcap);

/* The checked extra time of plan p (budget_check) when it is whole and within budget, else
 * HUGE_VAL: how solvers that try many plans compare them. */
double budget_plan_extra(const budget_model *bm, const budget_plan *p, int64_t budget, double bw);

/* The plan of the given order with no budget: each node run once in order, each buffer freed
 * right after its last reader; its peak is the budget-free peak. 0, or -1 out of memory. */
int budget_given_plan(const budget_model *bm, budget_plan *p);

/* A sound lower bound on every plan's peak: the largest of the bytes present at the start, of
 * a compute node's reads and writes together (present when it runs) and of the never-freed
 * buffers together (present at the end). */
int64_t budget_lower_bound(const budget_model *bm);
/* The same for the plans that use what allow allows (BUDGET_ALLOW_*): with offload, the bytes at
 * the start and the never-freed ones together need not be on the device (they may start and
 * end on the host), so only a node's reads and writes count. */
int64_t budget_lower_bound_allow(const budget_model *bm, unsigned allow);

/* What a solver says. */
typedef struct budget_outcome {
    int found;          /* p is a whole plan within the budget */
    solve_stop stopped; /* SOLVE_DONE, or the limit or cancel that stopped it (no plan) */
    char why[200];      /* not found: why, in words */
} budget_outcome;

/* What a search proves besides its plan. */
typedef struct budget_proof {
    int proven;            /* a plan: none takes less extra time; none: no plan fits at all */
    double lower_bound_ms; /* every plan takes at least this much extra time (0: none known) */
    solve_stop stopped;    /* SOLVE_DONE, or the limit or cancel that ended the search */
    uint64_t states;       /* the states it kept */
    int searched;          /* exact's search ran: SOLVE_DONE with no proof then means that its
                              bound (with offload: the reruns alone) stops short of the plan */
} budget_proof;

/* What a solver is asked: a plan whose peak is at most budget bytes, using what allow allows
 * (BUDGET_ALLOW_*), transfers at bandwidth bytes a second each way, within c's limits (time,
 * deadline, cancel, states, memory; NULL: the defaults). */
typedef struct budget_goal {
    int64_t budget;
    unsigned allow;
    double bandwidth;
    const solve_ctx *c;
} budget_goal;

/* Every solver's signature: bm's plan for goal gl into p, *o said; seed (may be NULL) is a
 * plan to start from where the solver takes one (exact: its incumbent; an empty seed: none;
 * NULL: greedy's), else ignored; *pf (may be NULL) says what the solver proved (a solver that
 * proves nothing says only why it stopped). 0, or -1 out of memory. */
#define BUDGET_SOLVER_ARGS                                                                  \
    const budget_model *bm, const budget_goal *gl, const budget_plan *seed, budget_plan *p, \
        budget_outcome *o, budget_proof *pf

/* A solver, as policies and placers are: one `const budget_solver budget_solver_NAME` in its
 * own file, named in BUDGET_SOLVER_LIST (budget_solvers.c makes the table): the command's
 * --solver, its help and its errors, the TUI and best take them from there. */
typedef struct budget_solver {
    const char *name;  /* as --solver takes it */
    const char *about; /* what it does, for --help: one sentence, no line breaks */
    int in_best;       /* best runs it (in the list's order, each from the best plan so far) */
    uint32_t best_max; /* best runs it only on graphs of at most this many compute nodes (0: any) */
    int (*solve)(BUDGET_SOLVER_ARGS);
    int seed_alone; /* given a seed, it starts from that plan alone, making none of its own
                       (exact: no greedy plan then); budget_solve weighs greedy's beside it */
} budget_solver;

/* The solvers, in the order --help lists them and best runs them: best first (the default),
 * then the fast ones, exact last (it starts from the best plan the others found). A new solver
 * is one file (budget_NAME.c, defining budget_solver_NAME) and one name here. */
#define BUDGET_SOLVER_LIST(X)       X(best) X(greedy) X(chain) X(repair) X(exact)
#define BUDGET_SOLVER_DECLARE(name) extern const budget_solver budget_solver_##name;
BUDGET_SOLVER_LIST(BUDGET_SOLVER_DECLARE)

size_t budget_solver_count(void);
/* The i-th solver of the list, or NULL past its end. */
const budget_solver *budget_solver_at(size_t i);
/* The solver of that name, or NULL. */
const budget_solver *budget_solver_find(const char *name);
/* Solver s's answer, never worse for allowing more: with recompute and offload both allowed, s
 * solves recompute alone and offload alone first (each where the budget is not under its bound,
 * each with a quarter of c's time limit) and then both together, from the plan of least extra
 * time so far (the caller's seed, the restricted plans and, for a solver that starts from its
 * seed alone, greedy's joint plan) for the rest of the time; the plan of least extra time
 * (checked) is p. What is proven is the joint search's alone (a restricted optimum proves
 * nothing of the joint problem): proven where its lower bound meets p's extra time, its lower
 * bound never above p's, never "no plan fits" beside a restricted plan. Any other allow: s
 * itself. 0, or -1 out of memory. */
int budget_solve(const budget_solver *s, BUDGET_SOLVER_ARGS);

/* The greedy solver: walks an order; when the next event would pass the budget it
 * frees the present buffer not needed by the node about to run with the least rerun latency a
 * byte (recompute allowed, the buffer's producer rerunnable; ties: the largest), then offloads
 * the largest (offload allowed), and makes a missing buffer again when it is next needed
 * (fetch, or rerun its producer, its producer's missing reads first: a version changed in
 * place, by rerunning its producer, then its changers). Where versions changed in place could
 * be made again it walks twice, once making them again and once keeping them from their first
 * change on, and keeps the plan of less extra time (then the lower peak). It walks with that rule
 * and with DTR's (the latency a byte over the places to the next use; ties and offloads: the
 * next use farthest), along the given order and, where that plan takes extra time, along
 * policy priority's (budget_model_init_order), and keeps the plan of least extra time (at
 * bandwidth bytes/s). With offload it leaves on the host what an Input node makes where that
 * node's reads and writes do not fit (first used last first) and what is present from the start
 * where it does not fit, keeps never-freed buffers on the host at the end, fetches the next
 * node's reads the host holds before each run where they fit (evicting only what the host
 * holds a copy of), and tidies the plan (budget_offload_tidy).
 * O((n + e) log n) plus the reruns. Honours c's time limit, deadline and cancel. The seed is
 * ignored. 0 with *o said (a plan in p when found), or -1 out of memory. */
int budget_greedy(BUDGET_SOLVER_ARGS);

/* Chen et al.'s sqrt(n) checkpointing as published, the baseline to beat (budget_chen.c): the
 * f compute nodes of Phase forward cut into segments of k = ceil(sqrt(f)), each segment's last
 * node keeping its outputs; a segment's other outputs that the backward reads are freed after
 * its forward and the segment runs again just before the first backward node that reads one,
 * one segment at a time; a segment whose rerun would pass the budget-free peak keeps its outputs,
 * so the plan never peaks above it. 0 with *o said (a plan in p when found; none without a
 * forward Phase), or -1 out of memory. */
int budget_chen(const budget_model *bm, const solve_ctx *c, budget_plan *p, budget_outcome *o);

/* The other baseline, recompute every cheap op: the outputs of the forward nodes whose Op is
 * pointwise or a view (budget_cheap_op) are freed after the forward and made again when the
 * backward needs them; the other forward nodes keep theirs. As budget_chen otherwise. */
int budget_cheap(const budget_model *bm, const solve_ctx *c, budget_plan *p, budget_outcome *o);
int budget_cheap_op(const char *op);

/* The exact solver: the least extra time, proven, by a best-first (A*) search over states (compute
 * nodes run, versions of buffers present, with offload the host's copies) from greedy's plan (or
 * seed's, when seed is not NULL; an empty seed: none) as the incumbent. Its cost is the sum of the
 * reruns' latencies: with recompute alone the extra time itself, so its optimum is proven; with
 * offload a sound lower bound on the extra time (a makespan, never below the compute stream's
 * runs), so the plan is proven only where its checked extra time meets that bound; with offload
 * an Input node leaves what it makes on the host, what is present from the start starts there
 * where it does not fit, and a never-freed buffer may end there. Honours c's
 * time limit, deadline, cancel, state limit and memory (its states are at most max_states, and
 * their bytes at most max_memory): past one it keeps the incumbent, with the least f on its
 * frontier as the lower bound. Proves that no plan fits when its search ends without one. 0 with
 * *o and *pf said (a plan in p when found), or -1 out of memory. */
int budget_exact(BUDGET_SOLVER_ARGS);

/* best: each solver of the list marked in_best in turn, sharing c's time limit (chain, repair
 * and exact only on graphs of at most BUDGET_BEST_EXACT_NODES compute nodes), each seeded with the
 * best plan so far (itself starting from seed's when it is within the budget); the plan of
 * least extra time (checked), the highest lower bound any proved, proven when they meet or
 * when exact proves that none fits. 0, or -1 out of memory. */
#define BUDGET_BEST_EXACT_NODES 20000
int budget_best(BUDGET_SOLVER_ARGS);

/* The plan as a memtris graph (budget_graph.c). Node Ids ascend in the plan's event order, so
 * that policy given replays the plan and peaks where budget_check says. The buffers present
 * from the start are ALLOCed first (but those that start on the host: their first fetch makes
 * them, under their own BufId); a first run keeps its node's Op, Name, Latency, Stream,
 * Phase and Rerun; a rerun is a new compute node named "NAME (rerun)"; a buffer made again (by
 * a rerun or a fetch) is a new ALLOC with a new BufId (past the input's largest), named
 * "NAME (rerun)" or "NAME (fetched)", its Size and Category kept, read by the later readers; a
 * free is a FREE of the current incarnation after everything that used it; an offload is a
 * compute node of Op "Offload" (Stream 1, Latency bytes / bandwidth in ms) that reads the
 * buffer, then its FREE; a fetch is the new ALLOC, then a compute node of Op "Fetch" after the
 * offload. Edges go from what makes a buffer to what reads it, from its users to its FREE, and
 * between first runs as the input's Edges between compute nodes (directly or through one ALLOC
 * or FREE). A random op that runs again reads its generator state: an ALLOC "rng state of NAME"
 * (BUDGET_RNG_BYTES, a new BufId) before its first run, each run after the one before, its FREE
 * after the last. map (when not NULL) says what each node is, by the node's index (its Id). */
enum { BPG_RUN, BPG_RERUN, BPG_OFFLOAD, BPG_FETCH, BPG_ALLOC, BPG_FREE };
typedef struct budget_graph_map {
    uint32_t *kind;  /* [plan graph's nodes] BPG_* */
    uint32_t *of;    /* [plan graph's nodes] the input graph's node index (RUN, RERUN) or
                        buffer index (OFFLOAD, FETCH, ALLOC, FREE; GRAPH_NONE: the ALLOC or
                        FREE of a random op's generator state) */
    uint32_t *event; /* [plan graph's nodes] the plan's event it is part of (GRAPH_NONE: the
                        ALLOCs of the buffers present from the start) */
} budget_graph_map;
/* The plan as a memtris graph: 0 with *out (and map, when not NULL) set, or -1 with err (the
 * plan fails budget_check, out of memory, Ids or BufIds past 2^53 - 1). */
int budget_plan_graph(const budget_model *bm, const budget_plan *p, double bandwidth, graph **out,
                      budget_graph_map *map, char *err, size_t errcap);
void budget_graph_map_free(budget_graph_map *map);

/* The chain solver, rotor's dynamic programme (Herrmann et al. 2019) where the graph is a chain of
 * segments: compute nodes in the given order as [others] [Phase forward] [Phase backward]
 * [others], every forward node able to run again; the forward cut after each place where one
 * buffer alone is made before and read after (a segment's cut buffer), the cuts merged until every
 * backward node reads only its own segment's buffers, the cut buffer of the segment before it and
 * buffers from outside the forward, and the backward visits the segments from the last to the
 * first. Per segment: its forward latency, its forward peak with and without keeping what its
 * backward reads (the tape), the tape, the cut buffer, the backward's need and the backward's
 * bytes in flight; the buffers from outside the chain are held through it. The DP (segments^3 x
 * slots) chooses, for each stretch of segments, to run the first with its tape or to run some
 * without and keep a cut buffer, with memory in slots: the greatest common divisor of those sizes
 * when the budget is at most 1000 of them, else budget / 1000 rounded up (sizes rounded up: the
 * answer is optimal only within the chain model at that grain, never claimed proven). Recompute
 * only; a forward or backward node that changes a buffer in place breaks the chain (its buffers
 * have one version each). The plan is replayed by budget_check before it is given. Not a chain:
 * o->found 0 and o->why "not a chain of segments: ..." naming the node or buffer that breaks it.
 * Found: o->why says the segments and the slot. Honours c's time limit, deadline, cancel and its
 * memory (the table's bytes over solve_max_memory: refused, SOLVE_MEMORY). The seed is ignored.
 * 0 with *o said, or -1 out of memory. */
int budget_chain(BUDGET_SOLVER_ARGS);

/* The repair solver: from seed's plan (when within the budget, else greedy's), greedy along
 * every heuristic policy's first-run order, the training orders (each optimizer update right
 * after its gradient is complete, and that with the backward of a branch finished before another
 * starts, from the given order and from priority's; the first k updates early, the rest where
 * the given order puts them) and seed's own first-run order, each with greedy's rules and with
 * one more (evict the cheapest buffer that alone makes the room); the plan of least extra time.
 * Then ruin and recreate: one buffer a rerun makes kept from eviction, or one that can be made
 * again evicted first, greedy walked again along the plan's order and the given one, the first
 * improvement taken, REPAIR_WALKS (256) walks at most. Then a large-neighbourhood search
 * (recompute only; a plan with offloads is left as it is): windows of 8, 12 and 16 first runs,
 * each re-solved by the exact solver (at most 2000 states a window) as a graph of its own, with
 * the state at its ends fixed (what is present at its start, what the rest of the plan needs
 * present at its end), kept where the whole plan, checked, takes less extra time; passes over
 * the plan until one keeps nothing. Every plan kept is checked by budget_check. Honours c's
 * deadline and cancel and half its time limit (exact, after it in best, keeps the rest), and
 * stops after c's max_states (the windows' states together). Proves nothing. 0 with *o said
 * (o->why: the orders and moves walked, the windows re-solved and kept), or -1 out of memory. */
int budget_repair(BUDGET_SOLVER_ARGS);

#endif
