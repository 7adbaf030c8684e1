/* fuzz_util.h: what the libFuzzer harnesses share: the entry points'
 * prototypes, FUZZ_CHECK (an invariant that aborts with a message), a reader
 * of bounded values from the fuzz input, loading the fixed graphs, and the
 * invariants of a schedule and of a stepper. */
#ifndef MEMTRIS_FUZZ_UTIL_H
#define MEMTRIS_FUZZ_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sched/graph/diag.h"
#include "sched/graph/graph.h"
#include "util/heap.h"
#include "sched/graph/load.h"
#include "sched/policy/policy.h"
#include "sched/policy/step.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Straight to file descriptor 2: the CLI harness points the stderr FILE
 * elsewhere while memtris runs. */
#define FUZZ_CHECK(cond, fmt, ...)                                                          \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            dprintf(STDERR_FILENO, "%s:%d: fuzz invariant failed: %s: " fmt "\n", __FILE__, \
                    __LINE__, #cond, ##__VA_ARGS__);                                        \
            abort();                                                                        \
        }                                                                                   \
    } while (0)

/* The fuzz input read front to back; past its end every read gives 0. */
typedef struct fuzz_in {
    const uint8_t *p;
    size_t n;
} fuzz_in;

static inline unsigned fuzz_byte(fuzz_in *in)
{
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}

/* A value in 0..n-1 (0 when n is 0). */
static inline unsigned fuzz_pick(fuzz_in *in, unsigned n) { return n ? fuzz_byte(in) % n : 0; }

static inline unsigned fuzz_u16(fuzz_in *in)
{
    unsigned hi = fuzz_byte(in);
    return hi << 8 | fuzz_byte(in);
}

/* Loads a graph the harness needs (a sample, or JSON text when path is
 * NULL); aborts when it does not load: the harness itself is broken. */
static inline graph *fuzz_graph(const char *path, const char *text)
{
    diag d;
    diag_init(&d, path ? path : "fuzz-text.json");
    graph *g = path ? load_file(path, &d, NULL, NULL)
                    : load_buffer(text, strlen(text), "fuzz-text.json", &d, NULL, NULL);
    for (size_t i = 0; !g && i < d.nlines; i++) dprintf(STDERR_FILENO, "%s\n", d.lines[i]);
    diag_free(&d);
    FUZZ_CHECK(g != NULL, "cannot load %s", path ? path : text);
    return g;
}

/* A schedule: a topological order of every node once, memory the running
 * sum of the changes, pmax and peak consistent with it. */
static inline void fuzz_check_run(const graph *g, const run *r)
{
    FUZZ_CHECK(r->n == g->n, "run of %u steps for %u nodes", r->n, g->n);
    int64_t mem = 0, peak = 0;
    uint32_t peak_step = 0, best = 0;
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s];
        FUZZ_CHECK(u < g->n && r->pos[u] == s, "step %u: node %u, pos %u", s, u,
                   u < g->n ? r->pos[u] : 0);
        FUZZ_CHECK(r->seq[u] < g->n, "seq %u", r->seq[u]);
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++)
            FUZZ_CHECK(r->pos[g->pred[e]] < s, "node %u pops before its predecessor %u", u,
                       g->pred[e]);
        mem += g->change[u]; /* policy_run failed rather than overflow */
        FUZZ_CHECK(r->memory[s] == mem, "memory at step %u", s);
        if (mem > r->memory[best]) best = s;
        FUZZ_CHECK(r->pmax[s] == best, "pmax at step %u: %u, expected %u", s, r->pmax[s], best);
        if (mem > peak) {
            peak = mem;
            peak_step = s + 1;
        }
    }
    FUZZ_CHECK(r->peak == peak && r->peak_step == peak_step, "peak %lld at %u, expected %lld at %u",
               (long long)r->peak, r->peak_step, (long long)peak, peak_step);
}

/* The state a stepper is in: k, the ready heap in pop order, the remaining
 * in-degrees and the live bytes. */
typedef struct fuzz_snap {
    uint32_t k, nready;
    int64_t memory;
    heap_item *ready; /* [n + 1] */
    uint32_t *rem;    /* [n + 1] */
} fuzz_snap;

static inline void fuzz_snap_take(const stepper *s, fuzz_snap *o)
{
    size_t n = (size_t)s->g->n + 1;
    o->ready = malloc(n * sizeof *o->ready);
    o->rem = malloc(n * sizeof *o->rem);
    FUZZ_CHECK(o->ready && o->rem, "out of memory");
    o->k = s->k;
    o->memory = step_memory(s);
    o->nready = step_ready(s, 0, o->ready, s->g->n);
    FUZZ_CHECK(o->nready == step_ready_count(s), "step_ready gave %u of %u", o->nready,
               step_ready_count(s));
    memcpy(o->rem, s->rem, s->g->n * sizeof *o->rem);
}

static inline void fuzz_snap_free(fuzz_snap *o)
{
    free(o->ready);
    free(o->rem);
}

/* Whether stepper s is in state o (k, ready heap, in-degrees, memory). */
static inline int fuzz_snap_same(const stepper *s, const fuzz_snap *o)
{
    fuzz_snap now;
    fuzz_snap_take(s, &now);
    int same = now.k == o->k && now.memory == o->memory && now.nready == o->nready &&
               !memcmp(now.rem, o->rem, s->g->n * sizeof *o->rem);
    for (uint32_t i = 0; same && i < now.nready; i++)
        same = now.ready[i].node == o->ready[i].node &&
               !memcmp(now.ready[i].k, o->ready[i].k, sizeof o->ready[i].k);
    fuzz_snap_free(&now);
    return same;
}

/* The stepper's state at k is the one its run implies: the ready set is the
 * nodes not popped whose predecessors all popped, the in-degrees count the
 * predecessors not popped, and the next pop is the run's next node. */
static inline void fuzz_check_stepper(const stepper *s)
{
    const graph *g = s->g;
    const run *r = &s->r;
    FUZZ_CHECK(s->k <= g->n, "k %u past n %u", s->k, g->n);
    FUZZ_CHECK(step_memory(s) == (s->k ? r->memory[s->k - 1] : 0), "memory at k %u", s->k);
    FUZZ_CHECK(step_last(s) == (s->k ? r->order[s->k - 1] : GRAPH_NONE), "last pop at k %u", s->k);
    uint32_t ready = 0;
    for (uint32_t v = 0; v < g->n; v++) {
        uint32_t rem = 0;
        for (uint32_t e = g->pred_off[v]; e < g->pred_off[v + 1]; e++)
            rem += r->pos[g->pred[e]] >= s->k;
        FUZZ_CHECK(s->rem[v] == rem, "node %u: rem %u, expected %u at k %u", v, s->rem[v], rem,
                   s->k);
        ready += !rem && r->pos[v] >= s->k;
    }
    FUZZ_CHECK(step_ready_count(s) == ready, "%u ready, expected %u at k %u", step_ready_count(s),
               ready, s->k);
    if (s->k < g->n) {
        heap_item top;
        FUZZ_CHECK(step_ready(s, 0, &top, 1) == 1 && top.node == r->order[s->k], "next pop at k %u",
                   s->k);
    }
}

/* Back then forward (and forward then back) leaves the stepper as it was. */
static inline void fuzz_check_undo(stepper *s)
{
    fuzz_snap before;
    fuzz_snap_take(s, &before);
    if (s->k > 0) {
        FUZZ_CHECK(step_back(s) == 1, "step_back at k %u", s->k);
        FUZZ_CHECK(step_forward(s) == 1, "step_forward at k %u", s->k);
        FUZZ_CHECK(fuzz_snap_same(s, &before), "back then forward changed the state at k %u",
                   before.k);
    }
    if (s->k < s->g->n) {
        FUZZ_CHECK(step_forward(s) == 1, "step_forward at k %u", s->k);
        FUZZ_CHECK(step_back(s) == 1, "step_back at k %u", s->k);
        FUZZ_CHECK(fuzz_snap_same(s, &before), "forward then back changed the state at k %u",
                   before.k);
    }
    fuzz_snap_free(&before);
}

#endif
