/* policy_piece_beam.c: a beam search over one piece's states, for exact's
 * better orders (policy_piece.h): layer by layer (one ALLOC more each), the
 * width states of least peak so far, then least memory, are kept. Exports
 * policy_piece_beam. */
#include "policy_piece.h"
#include <stdlib.h>
#include <string.h>
#include "util/stateset.h"

typedef struct bstate {
    int64_t g, m;     /* peak so far, memory now */
    uint32_t up, via; /* the parent (its place in all), the ALLOC that led here */
    uint32_t bits;    /* its set's place in the layer's bits (the next layer's: in nset) */
} bstate;

typedef struct beam {
    const piece *P;
    piece_limits *L;
    uint32_t w, *queue;
    uint64_t *bits; /* the layer's sets */
    stateset nset;  /* the next layer's: next[i]'s set is state i until they are sorted */
    bstate *cur, *next;
    uint32_t ncur, nnext, cnext; /* next: count, room */
    uint32_t *up, *via;          /* every layer's kept states: parent and ALLOC */
    uint32_t nall;
} beam;

static int ready_in(const piece *P, const uint64_t *b, uint32_t v)
{
    for (uint32_t e = P->poff[v]; e < P->poff[v + 1]; e++)
        if (!HAS(b, P->pred[e])) return 0;
    return 1;
}

/* Runs ALLOC a from set b (memory *m) into out, with the closure. */
static uint32_t run_into(const beam *B, const uint64_t *b, uint32_t a, uint64_t *out, int64_t *m)
{
    const piece *P = B->P;
    uint32_t head = 0, tail = 0, visits = 0;
    memcpy(out, b, (size_t)B->w * sizeof *out);
    B->queue[tail++] = a;
    SET(out, a);
    while (head < tail) {
        uint32_t u = B->queue[head++];
        *m += P->change[u];
        for (uint32_t e = P->soff[u]; e < P->soff[u + 1]; e++) {
            uint32_t v = P->succ[e];
            visits += 1 + P->poff[v + 1] - P->poff[v];
            if (HAS(out, v) || P->change[v] > 0 || !ready_in(P, out, v)) continue;
            SET(out, v);
            B->queue[tail++] = v;
        }
    }
    return visits + B->w;
}

static int cmp_state(const bstate *x, const bstate *y)
{
    if (x->g != y->g) return x->g < y->g ? -1 : 1;
    if (x->m != y->m) return x->m < y->m ? -1 : 1;
    if (x->up != y->up) return x->up < y->up ? -1 : 1;
    return (x->via > y->via) - (x->via < y->via);
}

static int cmp_state_q(const void *x, const void *y) { return cmp_state(x, y); }

/* Adds the child (its set in nset's room for the next state) unless an
 * equal set is kept already, keeping the better of the two. */
static void offer(beam *B, bstate c)
{
    const uint64_t *cb = stateset_at(&B->nset, c.bits);
    uint32_t k = stateset_find(&B->nset, cb);
    if (k != UINT32_MAX) {
        bstate *o = &B->next[k];
        if (cmp_state(&c, o) < 0) { /* the same set, better: take its place */
            c.bits = o->bits;
            *o = c;
        }
        return;
    }
    stateset_add(&B->nset, cb);
    B->next[B->nnext++] = c;
}

/* One layer: every kept state's children under ub, the width best kept.
 * 0, or -1 at a limit. */
static int layer(beam *B, uint32_t width, int64_t ub)
{
    const piece *P = B->P;
    uint32_t w = B->w;
    B->nnext = 0;
    stateset_clear(&B->nset);
    for (uint32_t i = 0; i < B->ncur && B->nnext < B->cnext; i++) {
        const bstate *s = &B->cur[i];
        const uint64_t *b = B->bits + (size_t)s->bits * w;
        for (uint32_t x = 0; x < P->na; x++) {
            uint32_t a = P->anode[x];
            if (HAS(b, a) || !ready_in(P, b, a)) continue;
            int64_t top = s->m + P->change[a];
            if (top >= ub) continue;
            if (B->nnext == B->cnext) break; /* full: the rest is not offered */
            bstate c = {.g = s->g > top ? s->g : top,
                        .m = s->m,
                        .up = B->nall - B->ncur + i,
                        .via = a,
                        .bits = B->nnext};
            uint32_t v = run_into(B, b, a, stateset_at(&B->nset, c.bits), &c.m);
            offer(B, c);
            if (policy_piece_tick(B->L, v)) return -1;
        }
    }
    qsort(B->next, B->nnext, sizeof *B->next, cmp_state_q);
    if (B->nnext > width) B->nnext = width;
    /* the kept sets to the front of bits, in their order */
    for (uint32_t i = 0; i < B->nnext; i++) {
        memcpy(B->bits + (size_t)i * w, stateset_at(&B->nset, B->next[i].bits),
               (size_t)w * sizeof *B->bits);
        B->next[i].bits = i;
        B->up[B->nall + i] = B->next[i].up;
        B->via[B->nall + i] = B->next[i].via;
    }
    bstate *t = B->cur;
    B->cur = B->next;
    B->next = t;
    B->ncur = B->nnext;
    B->nall += B->ncur;
    return 0;
}

int64_t policy_piece_beam(const piece *P, piece_limits *L, uint32_t width, const uint64_t *start,
                          int64_t m0, uint32_t *path, uint32_t *npath)
{
    uint32_t w = P->w ? P->w : 1, room = width * 8 + 64, hsize = 1;
    while (hsize < room * 2) hsize *= 2; /* the slots of nset's table (stateset_reserve) */
    size_t total = (size_t)width * (P->na + 1) + 1;
    int64_t bytes = (int64_t)((size_t)(width + room) * w * 8 + (size_t)(width + room) * 32 +
                              total * 8 + (size_t)hsize * 4);
    int64_t ub = P->ub;
    uint32_t layers = 0; /* one ALLOC a layer (one of size 0 runs with the closure) */
    for (uint32_t x = 0; x < P->na; x++) layers += P->change[P->anode[x]] > 0;
    if (bytes > L->max_bytes / 2 || !layers) return ub;
    beam B = {.P = P, .L = L, .w = w};
    stateset_init(&B.nset, w);
    B.queue = malloc(((size_t)P->k + 1) * sizeof *B.queue);
    int nset_ok = !stateset_reserve(&B.nset, room);
    B.bits = malloc((size_t)width * w * sizeof *B.bits);
    B.cur = malloc((size_t)room * sizeof *B.cur);
    B.next = malloc((size_t)room * sizeof *B.next);
    B.up = malloc(total * sizeof *B.up);
    B.via = malloc(total * sizeof *B.via);
    B.cnext = room;
    if (B.queue && nset_ok && B.bits && B.cur && B.next && B.up && B.via) {
        memcpy(B.bits, start, (size_t)w * sizeof *B.bits);
        B.cur[0] = (bstate){.g = P->base, .m = m0, .up = UINT32_MAX, .via = UINT32_MAX};
        B.up[0] = UINT32_MAX;
        B.ncur = B.nall = 1;
        uint32_t depth = 0;
        while (depth < layers && B.ncur && !layer(&B, width, ub)) depth++;
        if (depth == layers && B.ncur && B.cur[0].g < ub) { /* the best complete order */
            ub = B.cur[0].g;
            *npath = depth;
            for (uint32_t x = B.nall - B.ncur; x != UINT32_MAX; x = B.up[x])
                if (B.up[x] != UINT32_MAX) path[--depth] = B.via[x];
        }
    }
    free(B.queue);
    stateset_free(&B.nset);
    free(B.bits);
    free(B.cur);
    free(B.next);
    free(B.up);
    free(B.via);
    return ub;
}
