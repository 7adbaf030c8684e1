/* policy_closure.c: the closure bound, a proven lower bound on every
 * topological order's peak (policy_closure_bound). Exports it.
 *
 * Why it holds. The live bytes after a prefix of an order are the sum of the
 * changes of the nodes in it, and a prefix is closed under predecessors (an
 * ideal). Just after node v's step the prefix holds v and all its ancestors
 * and none of v's strict descendants, so every order's peak is at least
 *     B(v) = min { sum of change over I : I an ideal, anc(v) in I, sdesc(v) not }.
 * The must-live bound (policy_bound.c) is a relaxation of B(v): it lets each
 * buffer whose FREE is not a descendant of v be freed, where freeing it means
 * running its readers, whose own outputs then stay live unless their readers
 * run too, and so on. B(v) counts that chain exactly: over the nodes neither
 * forced in nor out it is a maximum-weight closure (weight: -change), one
 * minimum cut (Dinic's max flow on the free nodes, the source feeding the
 * nodes that lower the memory, the sink fed by those that raise it).
 *
 * Nodes are taken in index order while the clock, c's watcher and the cap on
 * arc visits allow; the greatest B(v) of those done holds. With every node's
 * B(v), sets of up to CLOSURE_SET nodes grow from those of the highest B(v)
 * (set_bound: the same prefixes over the orders of the set). */
#define _GNU_SOURCE
#include "policy_internal.h"
#include <stdlib.h>
#include <string.h>

#define CLOSURE_INF (INT64_MAX / 4)

typedef struct flow_net {
    uint32_t nv, ne, cap_e;  /* vertices (nodes + source + sink); arcs; room */
    uint32_t *to, *next;     /* [cap_e] arc's head; next arc out of its tail */
    int64_t *res;            /* [cap_e] residual capacity */
    uint32_t *head;          /* [nv] first arc out */
    uint32_t *level, *cur;   /* [nv] BFS level; current arc */
    uint32_t *queue, *stack; /* [nv] */
    uint8_t *mark;           /* [n] 0 free, 1 forced in (anc(v)), 2 forced out (sdesc(v)) */
    uint64_t work;           /* arc visits */
} flow_net;

static void net_free(flow_net *F)
{
    free(F->to);
    free(F->next);
    free(F->res);
    free(F->head);
    free(F->level);
    free(F->cur);
    free(F->queue);
    free(F->stack);
    free(F->mark);
}

static int net_alloc(flow_net *F, const graph *g)
{
    memset(F, 0, sizeof *F);
    F->nv = g->n + 2;
    F->cap_e = 2 * (g->nedges + g->n) + 2;
    F->to = malloc((size_t)F->cap_e * sizeof *F->to);
    F->next = malloc((size_t)F->cap_e * sizeof *F->next);
    F->res = malloc((size_t)F->cap_e * sizeof *F->res);
    F->head = malloc((size_t)F->nv * sizeof *F->head);
    F->level = malloc((size_t)F->nv * sizeof *F->level);
    F->cur = malloc((size_t)F->nv * sizeof *F->cur);
    F->queue = malloc((size_t)F->nv * sizeof *F->queue);
    F->stack = malloc((size_t)F->nv * sizeof *F->stack);
    F->mark = malloc((size_t)g->n + 1);
    return F->to && F->next && F->res && F->head && F->level && F->cur && F->queue && F->stack &&
                   F->mark
               ? 0
               : -1;
}

static void arc(flow_net *F, uint32_t a, uint32_t b, int64_t c)
{
    F->to[F->ne] = b;
    F->res[F->ne] = c;
    F->next[F->ne] = F->head[a];
    F->head[a] = F->ne++;
    F->to[F->ne] = a;
    F->res[F->ne] = 0;
    F->next[F->ne] = F->head[b];
    F->head[b] = F->ne++;
}

/* Levels from the source s; whether the sink t is reached. */
static int levels(flow_net *F, uint32_t s, uint32_t t)
{
    uint32_t h = 0, tl = 0;
    memset(F->level, 0xff, (size_t)F->nv * sizeof *F->level);
    F->queue[tl++] = s;
    F->level[s] = 0;
    while (h < tl) {
        uint32_t u = F->queue[h++];
        for (uint32_t e = F->head[u]; e != UINT32_MAX; e = F->next[e]) {
            F->work++;
            if (F->res[e] > 0 && F->level[F->to[e]] == UINT32_MAX) {
                F->level[F->to[e]] = F->level[u] + 1;
                F->queue[tl++] = F->to[e];
            }
        }
    }
    return F->level[t] != UINT32_MAX;
}

/* One augmenting path along the levels (iterative: F->stack holds the arcs
 * taken): its flow, or 0 when the level graph is blocked. */
static int64_t augment(flow_net *F, uint32_t s, uint32_t t)
{
    uint32_t depth = 0, u = s;
    while (1) {
        if (u == t) {
            int64_t f = CLOSURE_INF;
            for (uint32_t i = 0; i < depth; i++)
                if (F->res[F->stack[i]] < f) f = F->res[F->stack[i]];
            for (uint32_t i = 0; i < depth; i++) {
                F->res[F->stack[i]] -= f;
                F->res[F->stack[i] ^ 1] += f;
            }
            return f;
        }
        uint32_t e = F->cur[u];
        for (; e != UINT32_MAX; e = F->next[e]) {
            F->work++;
            if (F->res[e] > 0 && F->level[F->to[e]] == F->level[u] + 1) break;
        }
        F->cur[u] = e;
        if (e != UINT32_MAX) {
            F->stack[depth++] = e;
            u = F->to[e];
            continue;
        }
        if (!depth) return 0;
        F->level[u] = UINT32_MAX; /* a dead end: never again this phase */
        e = F->stack[--depth];
        u = F->to[e ^ 1];
        F->cur[u] = F->next[F->cur[u]];
    }
}

static int64_t max_flow(flow_net *F, uint32_t s, uint32_t t)
{
    int64_t total = 0, f;
    while (levels(F, s, t)) {
        memcpy(F->cur, F->head, (size_t)F->nv * sizeof *F->cur);
        while ((f = augment(F, s, t)) > 0) total += f;
    }
    return total;
}

/* Marks v and its ancestors 1, v's strict descendants 2, the rest 0. */
static void mark_around(const graph *g, flow_net *F, uint32_t v)
{
    uint32_t sp = 0, *st = F->stack;
    memset(F->mark, 0, g->n);
    F->mark[v] = 1;
    st[sp++] = v;
    while (sp) {
        uint32_t u = st[--sp];
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++)
            if (!F->mark[g->pred[e]]) {
                F->mark[g->pred[e]] = 1;
                st[sp++] = g->pred[e];
            }
    }
    for (uint32_t e = g->succ_off[v]; e < g->succ_off[v + 1]; e++)
        if (!F->mark[g->succ[e]]) {
            F->mark[g->succ[e]] = 2;
            st[sp++] = g->succ[e];
        }
    while (sp) {
        uint32_t u = st[--sp];
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
            if (!F->mark[g->succ[e]]) {
                F->mark[g->succ[e]] = 2;
                st[sp++] = g->succ[e];
            }
    }
    F->work += (uint64_t)g->n + g->nedges;
}

/* The least live bytes of a prefix that holds the nodes marked 1 and none
 * of those marked 2 (B(v) when they are v's ancestors and strict
 * descendants); INT64_MIN (no bound) where the sums pass what int64_t
 * holds. */
static int64_t closure_marked(const graph *g, flow_net *F)
{
    uint32_t n = g->n, src = n, sink = n + 1;
    int64_t forced = 0, gain = 0; /* the forced nodes' bytes; what the free nodes could lower */
    F->ne = 0;
    memset(F->head, 0xff, (size_t)F->nv * sizeof *F->head);
    for (uint32_t u = 0; u < n; u++) {
        if (F->mark[u]) {
            if (F->mark[u] == 1 && __builtin_add_overflow(forced, g->change[u], &forced))
                return INT64_MIN;
            continue;
        }
        if (g->change[u] < 0) {
            if (__builtin_sub_overflow(gain, g->change[u], &gain) || gain >= CLOSURE_INF)
                return INT64_MIN; /* past what the flow holds: no bound from v */
            arc(F, src, u, -g->change[u]);
        } else if (g->change[u] > 0) {
            arc(F, u, sink, g->change[u]);
        }
        /* in the prefix only with its predecessors (none of them forced out: u would be too) */
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++)
            if (!F->mark[g->pred[e]]) arc(F, u, g->pred[e], CLOSURE_INF);
    }
    return forced - (gain - max_flow(F, src, sink));
}

static int64_t closure_at(const graph *g, flow_net *F, uint32_t v)
{
    mark_around(g, F, v);
    return closure_marked(g, F);
}

static int cmp_desc(const void *a, const void *b, void *ctx)
{
    const int64_t *key = ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (key[x] != key[y]) return key[x] < key[y] ? 1 : -1;
    return (x > y) - (x < y);
}

/* Sets. For nodes S = set[0..k), every order runs them in some order that
 * keeps their paths; just after s of S runs, with T of S run (s last of
 * them), the prefix holds T's ancestors and none of s's strict descendants
 * nor of the rest of S or its descendants. The least over the orders of S
 * of the most over their steps of the least such prefix bounds the peak: by
 * dynamic programming over the subsets T closed within S. */
#define CLOSURE_SET   4 /* the most nodes in a set */
#define CLOSURE_STALE 4 /* sets grown in a row that raise nothing, at most */

typedef struct set_ctx {
    const graph *g;
    flow_net *F;
    const solve_ctx *c;
    double deadline;
    uint64_t cap;
    int64_t enough; /* a bound this high ends the sets */
    uint32_t set[CLOSURE_SET], k;
    uint32_t below[CLOSURE_SET]; /* the members each is a strict ancestor of, as bits */
} set_ctx;

/* Marks from node u along pred (dir 0) or succ (dir 1) edges with m, u too. */
static void flood(const graph *g, flow_net *F, uint32_t u, int dir, uint8_t m)
{
    const uint32_t *off = dir ? g->succ_off : g->pred_off, *adj = dir ? g->succ : g->pred;
    uint32_t sp = 0, *st = F->stack;
    F->mark[u] = m;
    st[sp++] = u;
    while (sp) {
        uint32_t x = st[--sp];
        for (uint32_t e = off[x]; e < off[x + 1]; e++)
            if (F->mark[adj[e]] != m) {
                F->mark[adj[e]] = m;
                st[sp++] = adj[e];
            }
    }
    F->work += (uint64_t)g->n + g->nedges;
}

/* For each member, the members it is a strict ancestor of. */
static void set_order(set_ctx *X)
{
    for (uint32_t i = 0; i < X->k; i++) {
        memset(X->F->mark, 0, X->g->n);
        flood(X->g, X->F, X->set[i], 1, 1);
        X->below[i] = 0;
        for (uint32_t j = 0; j < X->k; j++)
            if (j != i && X->F->mark[X->set[j]]) X->below[i] |= 1u << j;
    }
}

/* The least prefix just after member i runs with the members T run. */
static int64_t set_value(set_ctx *X, uint32_t T, uint32_t i)
{
    const graph *g = X->g;
    flow_net *F = X->F;
    memset(F->mark, 0, g->n);
    for (uint32_t j = 0; j < X->k; j++)
        if (T >> j & 1) flood(g, F, X->set[j], 0, 1);
    for (uint32_t e = g->succ_off[X->set[i]]; e < g->succ_off[X->set[i] + 1]; e++)
        flood(g, F, g->succ[e], 1, 2);
    for (uint32_t j = 0; j < X->k; j++)
        if (!(T >> j & 1)) flood(g, F, X->set[j], 1, 2);
    return closure_marked(g, F);
}

/* The set's bound, or INT64_MIN cut short by the clock or the cap. */
static int64_t set_bound(set_ctx *X)
{
    uint32_t full = (1u << X->k) - 1;
    int64_t best[1u << CLOSURE_SET];
    set_order(X);
    best[0] = INT64_MIN;
    for (uint32_t T = 1; T <= full; T++) {
        best[T] = INT64_MAX;
        uint32_t open = 0; /* T closed within S: no member outside it is above one in it */
        for (uint32_t j = 0; j < X->k; j++) open |= !(T >> j & 1) && (X->below[j] & T);
        for (uint32_t i = 0; i < X->k && !open; i++) {
            uint32_t R = T & ~(1u << i);
            if (!(T >> i & 1) || (X->below[i] & R) || best[R] == INT64_MAX) continue;
            if (X->F->work >= X->cap || policy_past(X->c, X->deadline)) return INT64_MIN;
            int64_t v = set_value(X, T, i);
            if (v < best[R]) v = best[R];
            if (v < best[T]) best[T] = v;
        }
    }
    return best[full] == INT64_MAX ? INT64_MIN : best[full];
}

/* Grows sets greedily from the nodes of the highest B(v) first, each step
 * adding the node that raises the set's bound most, while the clock and the
 * cap allow; each set's bound holds, so the greatest does. */
static int64_t sets(set_ctx *X, int64_t *B, int64_t lb)
{
    uint32_t n = X->g->n, *by = malloc(((size_t)n + 1) * sizeof *by);
    if (!by) return lb;
    for (uint32_t v = 0; v < n; v++) by[v] = v;
    qsort_r(by, n, sizeof *by, cmp_desc, B);
    for (uint32_t s = 0, stale = 0; s < n && stale < CLOSURE_STALE && lb < X->enough; s++) {
        int64_t was = lb;
        X->set[0] = by[s];
        for (X->k = 1; X->k < CLOSURE_SET;) {
            int64_t most = INT64_MIN;
            uint32_t pick = GRAPH_NONE;
            for (uint32_t v = 0; v < n; v++) {
                uint32_t in = 0;
                for (uint32_t j = 0; j < X->k; j++) in |= X->set[j] == v;
                if (in) continue;
                X->set[X->k++] = v;
                int64_t b = set_bound(X);
                X->k--;
                if (b == INT64_MIN) goto out; /* the clock or the cap */
                if (b > most) {
                    most = b;
                    pick = v;
                }
            }
            if (pick == GRAPH_NONE) break;
            X->set[X->k++] = pick;
            if (most > lb) lb = most;
        }
        stale = lb > was ? 0 : stale + 1;
    }
out:
    free(by);
    return lb;
}

int64_t policy_closure_bound(const graph *g, const solve_ctx *c, double deadline, uint64_t cap,
                             int64_t lb, int64_t enough)
{
    flow_net F;
    if (!g->n || g->n > POLICY_CLOSURE_MAX || net_alloc(&F, g)) {
        if (g->n && g->n <= POLICY_CLOSURE_MAX) net_free(&F);
        return lb;
    }
    int64_t most = INT64_MIN, *B = malloc((size_t)g->n * sizeof *B);
    uint32_t v = 0;
    for (; B && v < g->n; v++) {
        if (F.work >= cap || policy_past(c, deadline)) break;
        B[v] = closure_at(g, &F, v);
        if (B[v] > most) most = B[v];
    }
    lb = most > lb ? most : lb;
    if (B && v == g->n) { /* every node's B: sets of them, those of the highest first */
        set_ctx X = {.g = g, .F = &F, .c = c, .deadline = deadline, .cap = cap, .enough = enough};
        lb = sets(&X, B, lb);
    }
    free(B);
    net_free(&F);
    return lb;
}
