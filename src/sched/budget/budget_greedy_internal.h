/* budget_greedy_internal.h: what the greedy solver's walk (budget_greedy_walk.c), its rules
 * (budget_greedy.c) and the baselines (budget_baselines.c) share: the walk's state. Exports nothing
 * outside the budget folder. */
#ifndef MEMTRIS_BUDGET_GREEDY_INTERNAL_H
#define MEMTRIS_BUDGET_GREEDY_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "budget.h"
#include "util/heap.h"

typedef struct gs {
    const budget_model *bm;
    const graph *g;
    int64_t budget;
    unsigned allow;
    const solve_ctx *c;
    double start;
    uint64_t work;
    budget_plan *p;
    budget_outcome *o;
    uint8_t *present, *host, *inheap;
    uint8_t *hosted; /* [nl] made by an Input node that leaves it on the host (BUDGET_HOST) */
    uint32_t *pin;
    int64_t *dead; /* [nl] the place after which it is not needed (INT64_MAX: kept) */
    uint32_t *dead_off, *dead_at; /* buffers by dead place + 1 (0: at the start) */
    uint32_t place;               /* the place in the given order being run */
    uint32_t done;                /* the places whose first runs are done */
    uint32_t *stack, *cursor;     /* the reruns under way: node, and the next of its reads */
    uint32_t *made;               /* what need's reruns made (freed after if dead), nmade of them */
    size_t nmade, madecap;
    int64_t mem;
    int64_t rngmem;  /* of mem: the generator states of the random ops that ran and may rerun */
    int64_t reserve; /* the first run under way takes this much more: a generator state */
    heap h;
    int oom;
    uint32_t *use_off, *use, *ucur; /* each buffer's readers' places, ascending; the next */
    const uint8_t *ckpt;            /* a baseline: [n] the forward nodes whose outputs stay */
    int64_t last_fwd;               /* the place of the last forward node */
    int staleness;                  /* the eviction key divides by the places to the next use */
    double rerun_ms;                /* the walk's reruns' latencies */
    int64_t peak;                   /* the walk's most bytes present */
    int hold;         /* keep what cannot be made again until its horizon (else its last reader); 2
                       * and 3: "made again" only by a producer that may rerun to the horizon */
    uint8_t *nomake;  /* [nl] hold 3: kept rather than made again (see dead_places) */
    int64_t *frozen;  /* [n] the first place after the node's own at which a buffer it reads is
                       * changed in place by another node: it may run again only before */
    int64_t *cfrozen; /* [nl] the least frozen of the producers that make it again (its own and,
                       * for a change in place, those of the versions before), or -1 */
    uint8_t *cok;     /* [nl] every one of those producers exists and may run again */
    double *remake;   /* [nl] their latencies together */
    uint8_t *rr;      /* [n] may run again: rerunnable, and with frozen_versions no changer */
    int frozen_versions;    /* none made again: a producer reruns only until what it writes is
                             * changed in place, and a version changed in place never */
    double bw;              /* bytes a second each way */
    uint64_t checks;        /* run_node's calls: its sampled check (util/check.h) */
    const uint8_t *keepers; /* [nl] or NULL: repair's moves: 1 never evicted under pressure, 2
                             * evicted first */
    int fit; /* repair's rule: evict the cheapest buffer that alone makes the room (fitting) */
} gs;

/* The walks of one rule (s's staleness, allow, ckpt) along s->bm's order: the first plan found
 * at hold 3, 2, 1 or 0, in s->p with *s->o said; where versions changed in place could be made
 * again, the better of the walks that make them again and those that keep them (see
 * budget_greedy_walk.c). 0, or -1 out of memory. */
int budget_greedy_walks(gs *s);

/* The walk's tables (budget_greedy_tables.c). uses: each buffer's readers' places, ascending
 * (use_off, use, ucur). dead_places: when each buffer is no longer needed at s->hold (dead);
 * dead_buckets: the buffers by that place (dead_off, dead_at). chains: rr, frozen, cfrozen, cok
 * and remake with s->frozen_versions: 0, or -1 out of memory (chains_free frees them either
 * way). */
void budget_greedy_uses(gs *s);
void budget_greedy_dead_places(gs *s);
void budget_greedy_dead_buckets(gs *s);
int budget_greedy_chains(gs *s);
void budget_greedy_chains_free(gs *s);

#endif
