/* policy_exact.c: policy "exact", the proven minimum peak over all topological
 * orders. Exports policy_exact.
 *
 * How. The memory after a set of executed nodes depends only on the set, so
 * the search runs over sets (best-first on the peak so far: a bottleneck
 * Dijkstra), from the order "best" found, which is the first upper bound.
 *  - A ready node whose change is <= 0 runs at once: running it earlier never
 *    raises a later state. So only ALLOCs branch, and each state is closed.
 *  - A node that every other node reaches or is reached from (a cut) splits
 *    any order: its ancestors run first, its descendants after, with the
 *    same live bytes between. Each piece between cuts is searched alone, the
 *    highest first; a piece whose heuristic peak is at most the bound proven
 *    so far cannot lower the peak and is left as it is.
 *  - Past --time-limit or --max-states the search stops: the order is the
 *    best found, the bound the least peak still open (never a claim it has
 *    not proven). */
#define _GNU_SOURCE
#include "policy_internal.h"
#include "sched/graph/solve_watch.h"
#include "policy_piece.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ one piece */

typedef struct hitem {
    int64_t f, g; /* the bound on the order's peak through here; the peak so far */
    uint32_t depth, state;
} hitem;

typedef struct search {
    const piece *P;
    uint64_t *bits;   /* [cap * w] */
    int64_t *g, *m;   /* [cap] peak on the way, live bytes now */
    int64_t *h;       /* [cap] bound_after of the state */
    uint32_t *parent; /* [cap] */
    uint32_t *via;    /* [cap] the ALLOC (local) that led here */
    uint8_t *closed;  /* [cap] */
    uint32_t count, cap;
    uint32_t *slot; /* hash of states; UINT32_MAX empty */
    size_t hmask;
    hitem *heap;
    size_t hlen, hcap;
    int oom;
} search;

static int hless(const hitem *a, const hitem *b)
{
    if (a->f != b->f) return a->f < b->f;
    if (a->depth != b->depth) return a->depth > b->depth; /* deeper first: to the goal */
    return a->state < b->state;
}

static void hpush(search *S, hitem it)
{
    if (S->hlen == S->hcap) {
        size_t nc = S->hcap ? S->hcap * 2 : 1024;
        hitem *p = realloc(S->heap, nc * sizeof *p);
        if (!p) {
            S->oom = 1;
            return;
        }
        S->heap = p;
        S->hcap = nc;
    }
    size_t i = S->hlen++;
    while (i && hless(&it, &S->heap[(i - 1) / 2])) {
        S->heap[i] = S->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    S->heap[i] = it;
}

static hitem hpop(search *S)
{
    hitem top = S->heap[0], last = S->heap[--S->hlen];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= S->hlen) break;
        if (c + 1 < S->hlen && hless(&S->heap[c + 1], &S->heap[c])) c++;
        if (!hless(&S->heap[c], &last)) break;
        S->heap[i] = S->heap[c];
        i = c;
    }
    if (S->hlen) S->heap[i] = last;
    return top;
}

static uint64_t hash_bits(const uint64_t *b, uint32_t w)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (uint32_t i = 0; i < w; i++) {
        h ^= b[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xbf58476d1ce4e5b9ULL;
    }
    return h ^ (h >> 31);
}

static int grow(search *S)
{
    uint32_t w = S->P->w, nc = S->cap ? S->cap * 2 : 4096;
    uint64_t *bits = realloc(S->bits, (size_t)nc * w * sizeof *bits);
    if (bits) S->bits = bits;
    int64_t *g = realloc(S->g, (size_t)nc * sizeof *g);
    if (g) S->g = g;
    int64_t *m = realloc(S->m, (size_t)nc * sizeof *m);
    if (m) S->m = m;
    int64_t *hb = realloc(S->h, (size_t)nc * sizeof *hb);
    if (hb) S->h = hb;
    uint32_t *pa = realloc(S->parent, (size_t)nc * sizeof *pa);
    if (pa) S->parent = pa;
    uint32_t *via = realloc(S->via, (size_t)nc * sizeof *via);
    if (via) S->via = via;
    uint8_t *cl = realloc(S->closed, nc);
    if (cl) S->closed = cl;
    uint32_t *slot = malloc((size_t)nc * 2 * sizeof *slot);
    if (!bits || !g || !m || !hb || !pa || !via || !cl || !slot) {
        free(slot);
        return -1;
    }
    free(S->slot);
    S->slot = slot;
    S->hmask = (size_t)nc * 2 - 1;
    memset(slot, 0xff, (size_t)nc * 2 * sizeof *slot);
    for (uint32_t i = 0; i < S->count; i++) {
        size_t h = hash_bits(S->bits + (size_t)i * w, w) & S->hmask;
        while (slot[h] != UINT32_MAX) h = (h + 1) & S->hmask;
        slot[h] = i;
    }
    S->cap = nc;
    return 0;
}

/* The state with these bits: its index, or a new one (count grows). */
static uint32_t find_or_add(search *S, const uint64_t *b, int *added)
{
    uint32_t w = S->P->w;
    if (S->count + 1 > S->cap && grow(S)) {
        S->oom = 1;
        return UINT32_MAX;
    }
    size_t h = hash_bits(b, w) & S->hmask;
    for (; S->slot[h] != UINT32_MAX; h = (h + 1) & S->hmask)
        if (!memcmp(S->bits + (size_t)S->slot[h] * w, b, (size_t)w * sizeof *b)) {
            *added = 0;
            return S->slot[h];
        }
    uint32_t i = S->count++;
    memcpy(S->bits + (size_t)i * w, b, (size_t)w * sizeof *b);
    S->closed[i] = 0;
    S->slot[h] = i;
    *added = 1;
    return i;
}

typedef struct budget {
    double deadline;
    uint64_t max_states, *states;
    solve_stop stopped;   /* SOLVE_DONE, or the limit it met, or SOLVE_CANCELLED */
    int64_t lb;           /* the graph's bound before this piece: with the piece's, the watcher's */
    const solve_ctx *ctx; /* its clock and watcher */
} budget;

/* What search_piece found. */
enum {
    PIECE_FOUND = 1,    /* an order below P->ub, the least */
    PIECE_NONE = 0,     /* none below P->ub: it is the least */
    PIECE_STOPPED = -1, /* at a limit or cancelled (B->stopped says which) */
    PIECE_OOM = -2      /* out of memory */
};

/* Searches piece P for an order whose peak is below P->ub: PIECE_FOUND with
 * the chosen ALLOCs in *path (*npath of them), PIECE_NONE, PIECE_STOPPED
 * (*lb: the bound it proved) or PIECE_OOM. */
static int search_piece(const piece *P, budget *B, uint32_t *path, uint32_t *npath, int64_t *lb)
{
    search S = {.P = P};
    uint32_t w = P->w, k = P->k, nt = 0, depth = 0;
    uint64_t *cur = calloc((size_t)w * 2 + P->wb + 1, sizeof *cur), *child = cur + w;
    uint64_t *alloc = child + w; /* bound_after's scratch */
    int rc = PIECE_OOM;
    if (!cur) return PIECE_OOM;
    int64_t mem = P->base;
    policy_piece_start(P, cur, &mem, &depth, NULL, NULL);
    int added;
    uint32_t s0 = find_or_add(&S, cur, &added);
    if (s0 == UINT32_MAX) goto out;
    S.g[s0] = P->base;
    S.m[s0] = mem;
    S.parent[s0] = UINT32_MAX;
    S.via[s0] = UINT32_MAX;
    int64_t h0 = S.h[s0] = policy_piece_bound_after(P, cur, alloc);
    hpush(&S, (hitem){.f = h0 > P->base ? h0 : P->base, .g = P->base, .depth = depth, .state = s0});
    uint64_t expanded = 0;
    solve_watch *ctl = B->ctx ? B->ctx->watch : NULL;
    while (S.hlen && !S.oom) {
        hitem it = hpop(&S);
        uint32_t s = it.state;
        if (S.closed[s] || it.g > S.g[s]) continue;
        if (it.depth == k) { /* the goal: the least peak below ub */
            uint32_t n = 0;
            for (uint32_t x = s; S.via[x] != UINT32_MAX; x = S.parent[x]) path[n++] = S.via[x];
            for (uint32_t i = 0; i < n / 2; i++) {
                uint32_t t = path[i];
                path[i] = path[n - 1 - i];
                path[n - 1 - i] = t;
            }
            *npath = n;
            *lb = it.g; /* = it.f: a goal's bound is its peak */
            rc = PIECE_FOUND;
            goto out;
        }
        S.closed[s] = 1;
        if ((++expanded & 255) == 1) { /* the first, then every 256th */
            if (ctl) {
                atomic_store_explicit(&ctl->states, *B->states + S.count, memory_order_relaxed);
                atomic_store_explicit(&ctl->bound, it.f > B->lb ? it.f : B->lb,
                                      memory_order_relaxed); /* no order left peaks lower */
            }
            /* the last that holds says why: a limit over a cancel */
            if (solve_cancelled(B->ctx)) B->stopped = SOLVE_CANCELLED;
            if (solve_now(B->ctx) > B->deadline) B->stopped = SOLVE_TIME;
        }
        if (*B->states + S.count >= B->max_states) B->stopped = SOLVE_STATES;
        if (B->stopped) {
            *lb = it.f; /* every order left to try peaks at least this */
            rc = PIECE_STOPPED;
            goto out;
        }
        memcpy(cur, S.bits + (size_t)s * w, (size_t)w * sizeof *cur);
        policy_piece_count_rem(P, cur);
        int64_t g = S.g[s], m = S.m[s];
        for (uint32_t a = 0; a < k; a++) {
            if (HAS(cur, a) || P->rem[a] || P->change[a] <= 0) continue;
            int64_t top = m + P->change[a]; /* the closure after a only frees */
            if (top >= P->ub) continue;     /* no better than the incumbent */
            memcpy(child, cur, (size_t)w * sizeof *child);
            int64_t cm = m;
            uint32_t cd = it.depth;
            nt = 0;
            policy_piece_run(P, child, a, &cm, &cd, &nt, NULL, NULL);
            for (uint32_t i = 0; i < nt; i++) P->rem[P->touched[i]]++; /* undo */
            int64_t cg = top > g ? top : g;
            uint32_t c = find_or_add(&S, child, &added);
            if (c == UINT32_MAX) break;
            if (!added && (S.closed[c] || S.g[c] <= cg)) continue;
            if (added)
                S.h[c] =
                    policy_piece_bound_after(P, child, alloc); /* the set's, whatever the way */
            S.g[c] = cg;
            S.m[c] = cm;
            S.parent[c] = s;
            S.via[c] = a;
            int64_t cf = S.h[c] > cg ? S.h[c] : cg;
            if (cf < P->ub) hpush(&S, (hitem){.f = cf, .g = cg, .depth = cd, .state = c});
        }
    }
    if (!S.oom) {
        *lb = P->ub; /* nothing below ub: the incumbent is the least */
        rc = PIECE_NONE;
    }
out:
    *B->states += S.count;
    free(cur);
    free(S.bits);
    free(S.g);
    free(S.m);
    free(S.h);
    free(S.parent);
    free(S.via);
    free(S.closed);
    free(S.slot);
    free(S.heap);
    return rc;
}

/* ------------------------------------------------------------ the graph */

/* Tells the watcher (if any) the peak of the order so far and the bound. */
static void publish(const solve_ctx *c, const int64_t *pub, uint32_t np, int64_t lb)
{
    solve_watch *ctl_now = c ? c->watch : NULL;
    if (!ctl_now) return;
    int64_t top = 0;
    for (uint32_t j = 0; j < np; j++) top = pub[j] > top ? pub[j] : top;
    atomic_store(&ctl_now->best, top);
    atomic_store(&ctl_now->bound, lb);
}

/* Pieces by their peak, highest first, then in order. */
static int cmp_peak_desc(const void *a, const void *b, void *ctx)
{
    const int64_t *pub = ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (pub[x] != pub[y]) return pub[x] < pub[y] ? 1 : -1;
    return (x > y) - (x < y);
}

/* Cuts of the order: position p is one when every node before it reaches
 * it and every node after is reached from it. The first holds when every
 * node before p has a successor at p or before (follow those edges: they
 * climb to p); the second when every node after p has a predecessor at p or
 * after. Sets cut[p]. */
static int find_cuts(const graph *g, const uint32_t *order, const uint32_t *rank, uint8_t *cut)
{
    uint32_t n = g->n;
    int64_t *sufmin = malloc(((size_t)n + 1) * sizeof *sufmin);
    if (!sufmin) return -1;
    int64_t lo = INT64_MAX; /* least last-predecessor position over q > p */
    for (uint32_t q = n; q-- > 0;) {
        sufmin[q] = lo;
        int64_t last = -1; /* a root: reached from nothing */
        for (uint32_t e = g->pred_off[order[q]]; e < g->pred_off[order[q] + 1]; e++)
            if ((int64_t)rank[g->pred[e]] > last) last = rank[g->pred[e]];
        if (last < lo) lo = last;
    }
    int64_t hi = -1; /* greatest first-successor position over q < p */
    for (uint32_t p = 0; p < n; p++) {
        cut[p] = (uint8_t)(hi <= (int64_t)p && sufmin[p] >= (int64_t)p);
        int64_t first = INT64_MAX; /* a sink reaches nothing */
        for (uint32_t e = g->succ_off[order[p]]; e < g->succ_off[order[p] + 1]; e++)
            if ((int64_t)rank[g->succ[e]] < first) first = rank[g->succ[e]];
        if (first > hi) hi = first;
    }
    free(sufmin);
    return 0;
}

/* Makes P the local graph of the nodes at positions [s0, s0 + k) of order
 * (mem: the live bytes after each step; ub: the piece's peak there), with
 * its bound; loc maps a node to its place in the piece, bloc is
 * policy_piece_bound's map. 0, or -1 out of memory (policy_piece_free frees
 * what it made either way). */
static int piece_make(const graph *g, const run *r, const uint32_t *order, const int64_t *mem,
                      uint32_t s0, uint32_t k, int64_t ub, uint32_t *loc, uint32_t *bloc, piece *P)
{
    P->k = k;
    P->w = (k + 63) / 64;
    P->node = order + s0;
    P->base = s0 ? mem[s0 - 1] : 0;
    P->ub = ub;
    for (uint32_t j = 0; j < k; j++) loc[order[s0 + j]] = j;
    uint32_t ne = 0;
    for (uint32_t j = 0; j < k; j++)
        ne += g->pred_off[order[s0 + j] + 1] - g->pred_off[order[s0 + j]];
    P->change = malloc(((size_t)k + 1) * sizeof *P->change);
    P->poff = calloc((size_t)k + 1, sizeof *P->poff);
    P->soff = calloc((size_t)k + 2, sizeof *P->soff);
    P->pred = malloc(((size_t)ne + 1) * sizeof *P->pred);
    P->succ = malloc(((size_t)ne + 1) * sizeof *P->succ);
    P->rem = malloc(((size_t)k + 1) * sizeof *P->rem);
    P->touched = malloc(((size_t)ne + k + 1) * sizeof *P->touched);
    if (!P->change || !P->poff || !P->soff || !P->pred || !P->succ || !P->rem || !P->touched)
        return -1;
    P->ne = ne;
    ne = 0;
    for (uint32_t j = 0; j < k; j++) {
        uint32_t u = order[s0 + j];
        P->change[j] = g->change[u];
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++) {
            uint32_t p = g->pred[e];
            if (r->rank[p] < s0) continue; /* before the piece: done */
            P->pred[ne++] = loc[p];
            P->soff[loc[p] + 2]++;
        }
        P->poff[j + 1] = ne;
    }
    for (uint32_t j = 0; j < k; j++) P->soff[j + 2] += P->soff[j + 1];
    for (uint32_t j = 0; j < k; j++)
        for (uint32_t e = P->poff[j]; e < P->poff[j + 1]; e++)
            P->succ[P->soff[P->pred[e] + 1]++] = j;
    return policy_piece_bound(g, P, r->rank, s0, bloc) ? -1 : 0;
}

/* Puts the piece's better order, from the ALLOCs path[0..npath) its search
 * chose, into order and r->rank (lorder: room for P->k, path too, as
 * scratch). 0, or -1 when the order does not cover the piece. */
static int piece_adopt(const piece *P, uint32_t *path, uint32_t npath, uint32_t *lorder,
                       uint32_t *order, uint32_t s0, run *r)
{
    uint32_t k = P->k, cnt = 0;
    for (uint32_t j = 0; j < k; j++) lorder[j] = UINT32_MAX;
    policy_piece_order(P, path, npath, lorder);
    for (uint32_t j = 0; j < k && lorder[j] != UINT32_MAX; j++) cnt++;
    if (cnt != k) return -1;
    for (uint32_t j = 0; j < k; j++) path[j] = P->node[lorder[j]]; /* P->node is order */
    for (uint32_t j = 0; j < k; j++) {
        order[s0 + j] = path[j];
        r->rank[path[j]] = s0 + j;
    }
    return 0;
}

static int exact_plan(const graph *g, const solve_ctx *c, run *r, char *err, size_t errcap)
{
    uint32_t n = g->n;
    double t0 = solve_now(c);
    budget B = {.deadline = t0 + solve_seconds(c),
                .max_states = solve_max_states(c),
                .ctx = c,
                .states = &r->search.states};
    if (policy_best.plan(g, c, r, err, errcap)) return -1;
    r->found_by = NULL;
    memset(&r->search, 0, sizeof r->search);
    B.states = &r->search.states;

    uint32_t *order = malloc(((size_t)n + 1) * sizeof *order);
    int64_t *mem = malloc(((size_t)n + 1) * sizeof *mem);
    uint8_t *cut = malloc((size_t)n + 1);
    uint32_t *loc = malloc(((size_t)n + 1) * sizeof *loc);
    uint32_t *bloc = malloc(((size_t)g->nbufs + 1) * sizeof *bloc); /* piece_bound's map */
    uint32_t *starts = malloc(((size_t)n + 2) * sizeof *starts);
    int64_t *pub = malloc(((size_t)n + 1) * sizeof *pub);
    uint32_t *byub = malloc(((size_t)n + 1) * sizeof *byub);
    piece P = {0};
    uint32_t *path = NULL, *lorder = NULL;
    int rc = -1;
    if (!order || !mem || !cut || !loc || !bloc || !starts || !pub || !byub) goto oom;
    memset(bloc, 0xff, ((size_t)g->nbufs + 1) * sizeof *bloc);
    for (uint32_t i = 0; i < n; i++) order[r->rank[i]] = i;
    int64_t live = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (__builtin_add_overflow(live, g->change[order[s]], &live)) {
            snprintf(err, errcap, "exact: live memory passes 2^63-1 bytes at step %u (node %lld)",
                     s + 1, (long long)g->id[order[s]]);
            goto fail;
        }
        mem[s] = live;
    }
    if (find_cuts(g, order, r->rank, cut)) goto oom;
    /* Pieces: positions starts[i] .. starts[i+1]-1, each ending at a cut. */
    uint32_t np = 0;
    for (uint32_t s = 0; s < n; s++)
        if (s == 0 || cut[s - 1]) starts[np++] = s;
    starts[np] = n;
    r->search.pieces = np;
    for (uint32_t i = 0; i < np; i++) {
        pub[i] = starts[i] ? mem[starts[i] - 1] : 0;
        for (uint32_t s = starts[i]; s < starts[i + 1]; s++)
            if (mem[s] > pub[i]) pub[i] = mem[s];
        byub[i] = i;
    }
    /* The highest pieces first (a search lowers only its own piece's peak,
     * so the order is fixed up front). */
    qsort_r(byub, np, sizeof *byub, cmp_peak_desc, pub);
    int64_t lb = policy_lower_bound(g);
    publish(c, pub, np, lb);
    for (uint32_t i = 0; i < np; i++) {
        uint32_t pi = byub[i];
        if (pub[pi] <= lb) break; /* this piece and the rest cannot lower the peak */
        if (B.stopped) {          /* out of budget: the piece's own peak bounds nothing */
            continue;
        }
        uint32_t s0 = starts[pi], k = starts[pi + 1] - s0;
        path = malloc(((size_t)k + 1) * sizeof *path);
        lorder = malloc(((size_t)k + 1) * sizeof *lorder);
        if (!path || !lorder || piece_make(g, r, order, mem, s0, k, pub[pi], loc, bloc, &P))
            goto oom;
        uint32_t npath = 0;
        int64_t plb = lb;
        r->search.ran = 1;
        B.lb = lb;
        int got = search_piece(&P, &B, path, &npath, &plb);
        if (got == PIECE_OOM) goto oom;
        if (got == PIECE_STOPPED && B.stopped == SOLVE_CANCELLED) {
            snprintf(err, errcap, "cancelled");
            goto fail;
        }
        if (got == PIECE_FOUND || got == PIECE_NONE) r->search.solved++;
        if (got == PIECE_FOUND) { /* a better order for the piece */
            if (piece_adopt(&P, path, npath, lorder, order, s0, r)) goto oom;
            pub[pi] = plb;
        }
        if (plb > lb) lb = plb;
        publish(c, pub, np, lb);
        policy_piece_free(&P);
        free(path);
        free(lorder);
        path = lorder = NULL;
    }
    r->search.stopped = B.stopped;
    r->lower_bound = lb;
    rc = 0;
    goto done;
oom:
    snprintf(err, errcap, "out of memory searching the orders of %u nodes", n);
fail:
    rc = -1;
done:
    policy_piece_free(&P);
    free(path);
    free(lorder);
    free(order);
    free(mem);
    free(cut);
    free(loc);
    free(bloc);
    free(starts);
    free(pub);
    free(byub);
    return rc;
}

static void exact_why(POLICY_WHY_ARGS)
{
    policy_why_rank(r->optimal ? "the proven-optimal order" : "the best order the search found", g,
                    r, u, v, nready, out, cap);
}

const policy policy_exact = {
    .name = "exact",
    .desc = "the proven minimum peak: a best-first search over the sets of nodes run, within "
            "--time-limit and --max-states",
    .plan = exact_plan,
    .kind = POLICY_EXACT,
    RANK_KEYS,
    .why = exact_why};
