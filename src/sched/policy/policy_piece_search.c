/* policy_piece_search.c: exact's search of one piece (policy_piece.h): dives
 * under a budget of memory with a table of states and what each is proven to
 * cost. Exports policy_piece_search.
 *
 * A state is the set of nodes run (closed: every ready node that frees or
 * holds runs at once). Its cost is the least peak of the ways on from it; a
 * round with budget B walks depth first the ways whose every ALLOC keeps the
 * memory at most B, the ALLOC leaving the least memory first. A state whose
 * ways all pass B is proven to cost more: the least of what they passed it
 * by, kept in the table, so that no later round walks it again below that. */
#include "policy_piece.h"
#include <stdlib.h>
#include <string.h>
#include "util/stateset.h"

typedef struct cand {
    int64_t cm, top, f; /* memory after; as it runs; the least peak through it */
    uint32_t a, state;
} cand;

typedef struct frame {
    uint32_t state, via;       /* the ALLOC that led here */
    int64_t m, g, top, minf;   /* memory; peak so far; the ALLOC's top; least passed */
    uint32_t c0, cn, next;     /* its candidates in the stack */
    uint32_t nrun, nrem, nlog; /* the undo marks before the ALLOC ran */
} frame;

typedef struct dfs {
    const piece *P;
    piece_limits *L;
    uint64_t *cur, *scratch; /* the state walked; bound_after's */
    uint32_t *ready, *rpos;  /* ALLOCs whose predecessors have run; place in ready */
    uint32_t nready;
    uint32_t *runlog, nrun; /* nodes run, in order */
    uint32_t *remlog, nrem; /* predecessor counts lowered */
    uint32_t *rlog, nlog;   /* ready's changes: node << 1 | removed, and rlpos */
    uint32_t *rlpos, *queue;
    int64_t m;
    uint32_t depth;
    int table;     /* keep a table of states */
    stateset seen; /* the states of the table */
    int64_t *val;  /* [seen.cap] proven: every way on from it peaks at least this */
    frame *fr;
    uint32_t nfr;
    cand *cs;
    size_t ncs, ccap;
    uint64_t expanded;
    int64_t rootmin; /* the start's least passed, the last round that closed it */
} dfs;

static void ready_add(dfs *D, uint32_t v)
{
    D->rpos[v] = D->nready;
    D->ready[D->nready++] = v;
    D->rlog[D->nlog++] = v << 1;
}

static void ready_remove(dfs *D, uint32_t v)
{
    uint32_t i = D->rpos[v], last = D->ready[--D->nready];
    D->ready[i] = last;
    D->rpos[last] = i;
    D->rpos[v] = UINT32_MAX;
    D->rlpos[D->nlog] = i;
    D->rlog[D->nlog++] = v << 1 | 1;
}

/* Runs j, then every node that becomes ready and does not allocate. */
static void apply(dfs *D, uint32_t j)
{
    const piece *P = D->P;
    uint32_t head = 0, tail = 0, visits = 0;
    D->queue[tail++] = j;
    while (head < tail) {
        uint32_t u = D->queue[head++];
        SET(D->cur, u);
        D->m += P->change[u];
        D->depth++;
        D->runlog[D->nrun++] = u;
        if (D->rpos[u] != UINT32_MAX) ready_remove(D, u);
        for (uint32_t e = P->soff[u]; e < P->soff[u + 1]; e++) {
            uint32_t v = P->succ[e];
            D->remlog[D->nrem++] = v;
            if (--P->rem[v] == 0) {
                if (P->change[v] <= 0) D->queue[tail++] = v;
                else ready_add(D, v);
            }
        }
        visits += 1 + P->soff[u + 1] - P->soff[u];
    }
    policy_piece_tick(D->L, visits);
}

static void undo(dfs *D, uint32_t nrun, uint32_t nrem, uint32_t nlog, int64_t m)
{
    while (D->nlog > nlog) {
        uint32_t x = D->rlog[--D->nlog], v = x >> 1;
        if (x & 1) { /* put v back at its place, the one there to the end */
            uint32_t i = D->rlpos[D->nlog];
            if (i < D->nready) {
                uint32_t w = D->ready[i];
                D->ready[D->nready] = w;
                D->rpos[w] = D->nready;
            }
            D->nready++;
            D->ready[i] = v;
            D->rpos[v] = i;
        } else {
            D->nready--;
            D->rpos[v] = UINT32_MAX;
        }
    }
    while (D->nrem > nrem) D->P->rem[D->remlog[--D->nrem]]++;
    while (D->nrun > nrun) {
        uint32_t u = D->runlog[--D->nrun];
        D->cur[u >> 6] &= ~((uint64_t)1 << (u & 63));
    }
    D->depth = nrun;
    D->m = m;
}

/* Doubles the table, within the memory limit. 0, or -1 (L->stopped set). */
static int grow(dfs *D)
{
    uint32_t w = D->P->w, cap = D->seen.cap, nc = cap ? cap * 2 : 1024;
    size_t per = (size_t)w * sizeof(uint64_t) + sizeof *D->val + 2 * sizeof(uint32_t);
    if ((int64_t)(per * nc) > D->L->max_bytes || nc > UINT32_MAX / 4) {
        D->L->stopped = SOLVE_MEMORY;
        return -1;
    }
    int64_t *val = realloc(D->val, (size_t)nc * sizeof *val);
    if (val) D->val = val;
    if (!val || stateset_reserve(&D->seen, nc)) {
        D->L->stopped = SOLVE_MEMORY;
        return -1;
    }
    policy_piece_tick(D->L, (uint64_t)D->seen.n * w);
    return 0;
}

/* The state now walked: its index in the table (a new one with the bound
 * as its value), or UINT32_MAX without a table or at a limit. */
static uint32_t lookup(dfs *D)
{
    if (!D->table) return UINT32_MAX;
    uint32_t w = D->P->w;
    if (D->seen.n + 1 > D->seen.cap && grow(D)) return UINT32_MAX;
    if (D->L->states + 1 > D->L->max_states) {
        D->L->stopped = SOLVE_STATES;
        return UINT32_MAX;
    }
    uint32_t i = stateset_find(&D->seen, D->cur);
    if (i != UINT32_MAX) return i;
    i = stateset_add(&D->seen, D->cur);
    D->L->states++;
    D->val[i] = policy_piece_bound_after(D->P, D->cur, D->scratch);
    policy_piece_tick(D->L, (uint64_t)D->P->na * D->P->wb + w);
    return i;
}

static int64_t value(const dfs *D, uint32_t s) { return s == UINT32_MAX ? INT64_MIN : D->val[s]; }

static int cmp_cand(const void *x, const void *y)
{
    const cand *a = x, *b = y;
    if (a->cm != b->cm) return a->cm < b->cm ? -1 : 1;
    if (a->f != b->f) return a->f < b->f ? -1 : 1;
    return (a->a > b->a) - (a->a < b->a);
}

/* The candidates of the top frame under budget B: each ready ALLOC that
 * keeps the memory at most B, whose state is not proven to cost more. The
 * others lower the frame's minf. 0, or -1 at a limit. */
static int expand(dfs *D, int64_t B)
{
    frame *F = &D->fr[D->nfr - 1];
    F->c0 = (uint32_t)D->ncs;
    if (D->ccap - D->ncs < D->nready) {
        size_t nc = D->ccap * 2 + D->nready;
        cand *p = realloc(D->cs, nc * sizeof *p);
        if (!p) {
            D->L->stopped = SOLVE_MEMORY;
            return -1;
        }
        D->cs = p;
        D->ccap = nc;
    }
    D->expanded++;
    uint32_t nrun = D->nrun, nrem = D->nrem, nlog = D->nlog;
    for (uint32_t i = 0; i < D->nready; i++) {
        uint32_t a = D->ready[i];
        int64_t top = F->m + D->P->change[a];
        if (top > B) {
            if (top < F->minf) F->minf = top;
            continue;
        }
        apply(D, a);
        int64_t cm = D->m;
        uint32_t c = lookup(D);
        undo(D, nrun, nrem, nlog, F->m);
        if (D->L->stopped) return -1;
        int64_t f = value(D, c) > top ? value(D, c) : top;
        if (f > B) {
            if (f < F->minf) F->minf = f;
            continue;
        }
        D->cs[D->ncs++] = (cand){.cm = cm, .top = top, .f = f, .a = a, .state = c};
    }
    F->cn = (uint32_t)(D->ncs - F->c0);
    F->next = 0;
    qsort(D->cs + F->c0, F->cn, sizeof *D->cs, cmp_cand);
    return 0;
}

enum { ROUND_FOUND, ROUND_NONE, ROUND_LIMIT, ROUND_STOPPED };

/* Closes the top frame (walked to the end: nothing under the budget) and
 * tells its parent what it cost. */
static void close_frame(dfs *D)
{
    frame *F = &D->fr[--D->nfr];
    if (F->state != UINT32_MAX && F->minf > D->val[F->state]) D->val[F->state] = F->minf;
    D->ncs = F->c0;
    if (!D->nfr) {
        D->rootmin = F->minf;
        return;
    }
    frame *up = &D->fr[D->nfr - 1];
    int64_t f = F->minf > F->top ? F->minf : F->top;
    if (f < up->minf) up->minf = f;
    undo(D, F->nrun, F->nrem, F->nlog, up->m);
}

/* One round under budget B, at most effort expansions: ROUND_FOUND (the
 * way in path, its peak *peak), ROUND_NONE (every way passes B: the start's
 * value says by how much), ROUND_LIMIT or ROUND_STOPPED. */
static int round_walk(dfs *D, uint32_t s0, int64_t B, uint64_t effort, uint32_t *path,
                      uint32_t *npath, int64_t *peak)
{
    D->nfr = 1;
    D->ncs = 0;
    D->fr[0] = (frame){.state = s0,
                       .via = UINT32_MAX,
                       .m = D->m,
                       .g = D->P->base,
                       .top = INT64_MIN,
                       .minf = INT64_MAX,
                       .nrun = D->nrun,
                       .nrem = D->nrem,
                       .nlog = D->nlog};
    uint64_t e0 = D->expanded;
    if (expand(D, B)) return ROUND_STOPPED;
    int rc = ROUND_NONE;
    while (D->nfr) {
        frame *F = &D->fr[D->nfr - 1];
        if (F->next == F->cn) {
            close_frame(D);
            continue;
        }
        cand c = D->cs[F->c0 + F->next++];
        if (c.state != UINT32_MAX && D->val[c.state] > B) { /* proven since */
            int64_t f = D->val[c.state] > c.top ? D->val[c.state] : c.top;
            if (f < F->minf) F->minf = f;
            continue;
        }
        if (D->L->stopped || D->expanded - e0 >= effort) {
            rc = D->L->stopped ? ROUND_STOPPED : ROUND_LIMIT;
            break;
        }
        frame nf = {.state = c.state,
                    .via = c.a,
                    .top = c.top,
                    .minf = INT64_MAX,
                    .nrun = D->nrun,
                    .nrem = D->nrem,
                    .nlog = D->nlog};
        nf.g = F->g > c.top ? F->g : c.top;
        apply(D, c.a);
        nf.m = D->m;
        D->fr[D->nfr++] = nf;
        if (D->depth == D->P->k) { /* every node run: a way under B */
            *npath = 0;
            for (uint32_t i = 1; i < D->nfr; i++) path[(*npath)++] = D->fr[i].via;
            *peak = nf.g;
            rc = ROUND_FOUND;
            break;
        }
        if (expand(D, B)) {
            rc = ROUND_STOPPED;
            break;
        }
    }
    while (D->nfr > 1) { /* back to the start, proving nothing more */
        frame *F = &D->fr[--D->nfr];
        undo(D, F->nrun, F->nrem, F->nlog, D->fr[D->nfr - 1].m);
    }
    D->nfr = 0;
    return rc;
}

/* Sets up D's walk at P's start state (its closure run). 0, or -1 out of memory. */
static int dfs_init(dfs *D, const piece *P, piece_limits *L)
{
    uint32_t k = P->k, w = P->w ? P->w : 1;
    memset(D, 0, sizeof *D);
    D->P = P;
    D->L = L;
    D->table = k <= PIECE_TABLE_MAX && P->na;
    stateset_init(&D->seen, w);
    D->cur = calloc((size_t)w + P->wb + 1, sizeof *D->cur);
    D->scratch = D->cur + w;
    D->ready = malloc(((size_t)k + 1) * sizeof *D->ready);
    D->rpos = malloc(((size_t)k + 1) * sizeof *D->rpos);
    D->runlog = malloc(((size_t)k + 1) * sizeof *D->runlog);
    D->remlog = malloc(((size_t)P->ne + 1) * sizeof *D->remlog);
    D->rlog = malloc(((size_t)k * 2 + 2) * sizeof *D->rlog);
    D->rlpos = malloc(((size_t)k * 2 + 2) * sizeof *D->rlpos);
    D->queue = malloc(((size_t)k + 1) * sizeof *D->queue);
    D->fr = malloc(((size_t)k + 2) * sizeof *D->fr);
    if (!D->cur || !D->ready || !D->rpos || !D->runlog || !D->remlog || !D->rlog || !D->rlpos ||
        !D->queue || !D->fr)
        return -1;
    memset(D->rpos, 0xff, ((size_t)k + 1) * sizeof *D->rpos);
    D->m = P->base;
    policy_piece_count_rem(P, D->cur);
    for (uint32_t v = 0; v < k; v++)
        if (P->rem[v] == 0 && P->change[v] > 0) ready_add(D, v);
    for (uint32_t v = 0; v < k; v++)
        if (!HAS(D->cur, v) && P->rem[v] == 0 && P->change[v] <= 0) apply(D, v);
    D->nlog = 0; /* the start is never undone */
    D->nrem = 0;
    return 0;
}

static void dfs_free(dfs *D)
{
    free(D->cur);
    free(D->ready);
    free(D->rpos);
    free(D->runlog);
    free(D->remlog);
    free(D->rlog);
    free(D->rlpos);
    free(D->queue);
    free(D->fr);
    stateset_free(&D->seen);
    free(D->val);
    free(D->cs);
}

static void tell(const piece_limits *L, int64_t ub, int64_t lb)
{
    int64_t best = ub > L->others ? ub : L->others, bound = lb > L->lb && !L->local ? lb : L->lb;
    solve_progress(L->ctx, L->states, best, bound);
}

#define PIECE_BEAM_MAX (1u << 16) /* the widest beam */

int64_t policy_piece_search(const piece *P, piece_limits *L, uint32_t *path, uint32_t *npath,
                            int64_t *lb)
{
    dfs D;
    int64_t ub = P->ub, low = P->base;
    uint32_t *way = malloc(((size_t)P->k + 1) * sizeof *way), nway = 0;
    *npath = 0;
    if (!way || dfs_init(&D, P, L)) {
        L->stopped = SOLVE_MEMORY;
        goto out;
    }
    if (D.depth == P->k) { /* nothing allocates: the start is the end */
        *lb = ub;
        goto out;
    }
    uint32_t s0 = lookup(&D);
    if (L->stopped) goto out;
    if (value(&D, s0) > low) low = value(&D, s0);
    /* No order of the graph peaks below L->lb: a round under it proves nothing new, so the
     * rounds at the bound start there (what they prove holds of the graph, whose peak is at
     * least this piece's). */
    if (L->lb > low) low = L->lb;
    /* Rounds: just below the best found (a better order, or the proof that
     * there is none), then at the bound (raising it), each with twice the
     * effort of the last when neither settles. */
    uint32_t width = 8;
    for (uint64_t effort = 256; low < ub && !L->stopped;) {
        int64_t peak;
        if (width <= PIECE_BEAM_MAX) { /* a wider beam for a better order */
            peak = policy_piece_beam(P, L, width, D.cur, D.m, way, &nway);
            width *= 2;
            if (peak < ub) {
                ub = peak;
                memcpy(path, way, (size_t)nway * sizeof *way);
                *npath = nway;
                tell(L, ub, low);
                continue;
            }
            if (L->stopped || low >= ub) break;
        }
        int rc = round_walk(&D, s0, ub - 1, effort, way, &nway, &peak);
        if (rc == ROUND_FOUND) {
            ub = peak;
            memcpy(path, way, (size_t)nway * sizeof *way);
            *npath = nway;
            tell(L, ub, low);
            continue;
        }
        if (rc == ROUND_NONE) low = ub;
        if (rc != ROUND_LIMIT) continue;
        rc = round_walk(&D, s0, low, effort, way, &nway, &peak);
        if (rc == ROUND_FOUND) { /* at the bound: the least */
            ub = peak;
            memcpy(path, way, (size_t)nway * sizeof *way);
            *npath = nway;
        }
        if (rc == ROUND_NONE && D.rootmin > low) low = D.rootmin;
        if (rc == ROUND_LIMIT) effort *= 2;
        tell(L, ub, low);
    }
out:
    *lb = low < ub ? low : ub;
    if (way) dfs_free(&D);
    free(way);
    return ub;
}
