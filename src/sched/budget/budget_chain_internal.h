/* budget_chain_internal.h: what the chain solver (budget_chain.c) and its plan
 * (budget_chain_plan.c) share: the chain's state, the DP's table and the helpers the plan
 * reads it with. Exports nothing outside the budget folder. */
#ifndef MEMTRIS_BUDGET_CHAIN_INTERNAL_H
#define MEMTRIS_BUDGET_CHAIN_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "budget.h"

#define CHAIN_SLOTS 1000 /* memory slots of the DP at most (else they grow coarser) */

/* What a buffer is to the chain. */
enum { C_OUT, C_FWD, C_KEEP, C_BWD };

typedef struct chain {
    const budget_model *bm;
    const graph *g;
    const solve_ctx *c;
    double start;
    budget_outcome *o;
    uint32_t f0, f1, b1; /* places: forward [f0, f1), backward [f1, b1), the rest after */
    uint32_t l;          /* segments */
    uint8_t *cutafter;   /* [m] an active cut after this forward place */
    uint32_t *seg;       /* [m] a forward or backward place's segment */
    uint8_t *cls;        /* [nl] C_* */
    int64_t *lf, *lb;    /* [nl] a buffer's last forward, last backward reader's place */
    /* per segment: */
    uint32_t *fs, *gs;  /* [l + 1] its first forward place, its group's first backward place */
    uint32_t *cut;      /* [l] the buffer joining it to the next (GRAPH_NONE for the last) */
    uint8_t *reads_cut; /* [l] its backward reads its own cut buffer (1), the one before (2) */
    double *lat;        /* [l] its forward latency */
    int64_t *A, *fn, *fa, *T, *Bn, *D; /* bytes: cut, forward peaks, tape, backward, in flight */
    int64_t W;                         /* bytes held through the chain, outside it */
    /* the DP */
    int64_t q, M; /* bytes a slot, slots */
    int lossy;
    int64_t *sA, *sfn, *sfa, *sT, *sBn, *sD; /* the same in slots */
    double *opt;
    int32_t *how; /* -1 none, 0 the base or the tape kept, j > 0 a checkpoint before segment j */
    /* the plan */
    budget_plan *p;
    uint8_t *present;
    uint32_t *off, *at; /* the buffers by the place after which they go (deaths) */
    int oom;
} chain;

/* The end of segment k's backward group (the place after its last node). */
uint32_t chain_group_end(const chain *ch, uint32_t k);
/* The DP table's index of segments a..b with m slots. */
size_t chain_at3(const chain *ch, uint32_t a, uint32_t b, int64_t m);
/* Whether the cut before segment a may go before a's backward (neither that backward nor the
 * one of the segment before reads it). */
int chain_spare_cut(const chain *ch, uint32_t a);
/* Whether segment k, not the last, has no backward and no tape (it need not run again). */
int chain_idle(const chain *ch, uint32_t k);
/* The whole plan into ch->p (ch->oom on failure): what comes before the forward, the DP's
 * sequence, what comes after the backward. */
void chain_emit(chain *ch);

#endif
