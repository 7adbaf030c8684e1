/* validate.c: the meaning of a graph: buffers allocated once and freed by a
 * FREE that depends on their ALLOC, Inputs that name buffers, no cycle (one
 * is named when there is). Exports validate_*. */
#define _GNU_SOURCE
#include "validate.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ERR(d, cls, ...)  diag_add((d), DIAG_ERROR, (cls), 0, 0, __VA_ARGS__)
#define WARN(d, cls, ...) diag_add((d), DIAG_WARNING, (cls), 0, 0, __VA_ARGS__)

/* ------------------------------------------------------------ buffers */

int validate_buffers(const graph *g, diag *d)
{
    size_t errors = d->nerrors;
    for (uint32_t k = 0; k < g->nbufs; k++) {
        uint32_t a = g->buf_alloc[k], f = g->buf_free[k];
        if (a == GRAPH_NONE) {
            if (f == GRAPH_NONE) continue; /* neither: no node names it */
            ERR(d, DC_BUFFER, "FREE node %lld frees buffer %lld, which no ALLOC creates",
                (long long)g->id[f], (long long)g->buf_id[k]);
            continue;
        }
        if (f == GRAPH_NONE) {
            WARN(d, DC_LEAK,
                 "buffer %lld (ALLOC node %lld, %lld bytes) is never freed; it stays live to the "
                 "end",
                 (long long)g->buf_id[k], (long long)g->id[a], (long long)g->buf_size[k]);
            continue;
        }
        if (g->change[f] >= 0 && g->change[f] != g->buf_size[k])
            WARN(d, DC_SIZE_MISMATCH,
                 "FREE node %lld gives Size %lld for buffer %lld, which ALLOC node %lld "
                 "allocates with %lld; the ALLOC's size is used",
                 (long long)g->id[f], (long long)g->change[f], (long long)g->buf_id[k],
                 (long long)g->id[a], (long long)g->buf_size[k]);
    }
    return d->nerrors > errors ? VALIDATE_BAD : VALIDATE_OK;
}

void validate_inputs(const graph *g, diag *d)
{
    for (uint32_t i = 0; i < g->n; i++)
        for (uint32_t j = g->in_off[i]; j < g->in_off[i + 1]; j++)
            if (graph_find_buf(g, g->inputs[j]) == GRAPH_NONE)
                WARN(d, DC_INPUTS,
                     "node %lld lists buffer %lld in \"Inputs\", but no ALLOC creates it",
                     (long long)g->id[i], (long long)g->inputs[j]);
}

/* ------------------------------------------------------------ order */

/* Kahn's algorithm; fills pos[] (each node's place in the order) and q[]
 * (the order): VALIDATE_OK; or reports one cycle: VALIDATE_BAD. */
static int check_cycles(const graph *g, diag *d, uint32_t *pos, uint32_t *q)
{
    uint32_t n = g->n, head = 0, tail = 0;
    uint32_t *rem = malloc(((size_t)n + 1) * sizeof *rem);
    if (!rem) return VALIDATE_OOM;
    for (uint32_t i = 0; i < n; i++) {
        rem[i] = g->pred_off[i + 1] - g->pred_off[i];
        if (!rem[i]) q[tail++] = i;
    }
    while (head < tail) {
        uint32_t u = q[head];
        pos[u] = head++;
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
            if (--rem[g->succ[e]] == 0) q[tail++] = g->succ[e];
    }
    if (tail == n) {
        free(rem);
        return VALIDATE_OK;
    }

    /* Every node left has a predecessor that is left too: walk back until a
     * node repeats; the walk from there is a cycle (in reverse). */
    uint32_t start = 0;
    while (rem[start] == 0) start++;
    for (uint32_t i = 0; i < n; i++) pos[i] = UINT32_MAX; /* reuse as "step seen" */
    uint32_t len = 0, u = start;
    while (pos[u] == UINT32_MAX) {
        pos[u] = len;
        q[len++] = u;
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++)
            if (rem[g->pred[e]]) {
                u = g->pred[e];
                break;
            }
    }
    /* q[i+1] -> q[i] are edges, so the cycle runs q[len-1] -> ... -> q[first]
     * -> q[len-1]; print it starting from its smallest id. */
    uint32_t first = pos[u], total = len - first, j0 = 0;
#define CYC(j) q[len - 1 - (j) % total]
    for (uint32_t j = 1; j < total; j++)
        if (g->id[CYC(j)] < g->id[CYC(j0)]) j0 = j;
    char msg[900];
    size_t k = 0;
    uint32_t j = 0;
    for (; j < total && k < sizeof msg - 64; j++)
        k += (size_t)snprintf(msg + k, sizeof msg - k, "%lld -> ", (long long)g->id[CYC(j0 + j)]);
    if (j < total) k += (size_t)snprintf(msg + k, sizeof msg - k, "... -> ");
    snprintf(msg + k, sizeof msg - k, "%lld", (long long)g->id[CYC(j0)]);
#undef CYC
    ERR(d, DC_CYCLE,
        "the graph has a cycle, so no schedule exists: cycle: %s (%u nodes cannot run)", msg,
        n - tail);
    free(rem);
    return VALIDATE_BAD;
}

/* Every FREE must depend by some path on its buffer's ALLOC. First a small
 * search from both ends: forward from the ALLOC marking what it reaches, then
 * backward from the FREE until it meets a mark, both pruned to the nodes
 * between them in a topological order and both on a budget of edges. The
 * buffers it cannot settle are then done 64 at a time, by pushing a bit per
 * ALLOC forward along the edges over the window of the order they span. */
#define FREE_SEARCH_BUDGET 256

static void order_error(const graph *g, diag *d, uint32_t k)
{
    ERR(d, DC_ORDER,
        "FREE node %lld of buffer %lld does not depend on ALLOC node %lld by any path "
        "of Edges, so a schedule could free the buffer before allocating it",
        (long long)g->id[g->buf_free[k]], (long long)g->buf_id[k],
        (long long)g->id[g->buf_alloc[k]]);
}

static int cmp_by_alloc_pos(const void *x, const void *y, void *ctx)
{
    const graph *g = ((const void **)ctx)[0];
    const uint32_t *pos = ((const void **)ctx)[1];
    uint32_t a = pos[g->buf_alloc[*(const uint32_t *)x]],
             c = pos[g->buf_alloc[*(const uint32_t *)y]];
    return (a > c) - (a < c);
}

enum { SEARCH_FOUND, SEARCH_NONE, SEARCH_BUDGET };

/* Backward from f over predecessors placed after a, for a itself or (with
 * fwd) for any node that fwd marks with k; seen[] is stamped with stamp. */
static int search_back(const graph *g, const uint32_t *pos, uint32_t a, uint32_t f, uint64_t stamp,
                       uint64_t *seen, uint32_t *stack, const uint32_t *fwd, uint32_t k)
{
    uint32_t sp = 0, work = 0;
    stack[sp++] = f;
    seen[f] = stamp;
    while (sp) {
        uint32_t u = stack[--sp];
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++) {
            if (++work > FREE_SEARCH_BUDGET) return SEARCH_BUDGET;
            uint32_t p = g->pred[e];
            if (p == a || (fwd && fwd[p] == k)) return SEARCH_FOUND;
            if (seen[p] == stamp || pos[p] < pos[a]) continue;
            seen[p] = stamp;
            stack[sp++] = p;
        }
    }
    return SEARCH_NONE;
}

/* Forward from a over successors placed before f, marking them with k. */
static int search_forward(const graph *g, const uint32_t *pos, uint32_t a, uint32_t f, uint32_t k,
                          uint32_t *fwd, uint32_t *stack)
{
    uint32_t sp = 0, work = 0;
    stack[sp++] = a;
    fwd[a] = k;
    while (sp) {
        uint32_t u = stack[--sp];
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++) {
            if (++work > FREE_SEARCH_BUDGET) return SEARCH_BUDGET;
            uint32_t v = g->succ[e];
            if (v == f) return SEARCH_FOUND;
            if (fwd[v] == k || pos[v] > pos[f]) continue;
            fwd[v] = k;
            stack[sp++] = v;
        }
    }
    return SEARCH_NONE;
}

/* Whether order is the graph's only topological order: an edge from each
 * node to the next, as in a chain ('memtris place' makes one of a CSV).
 * Then every node depends on every one before it, and a FREE after its
 * ALLOC needs no search: at 10^6 buffers of long lifetimes the searches,
 * then the sweeps over the chain, took a minute. */
static int one_order(const graph *g, const uint32_t *order)
{
    for (uint32_t t = 0; t + 1 < g->n; t++) {
        uint32_t u = order[t], e = g->succ_off[u];
        while (e < g->succ_off[u + 1] && g->succ[e] != order[t + 1]) e++;
        if (e == g->succ_off[u + 1]) return 0;
    }
    return 1;
}

/* Whether FREE f depends on ALLOC a by an edge or through one node between (the usual
 * shape: a consumer of the buffer, then its FREE), looking at no more than
 * FREE_SEARCH_BUDGET edges; 0 says nothing. Reads only the two nodes' predecessor lists, so
 * it costs no scattered reads where the searches below would. */
static int two_hops(const graph *g, uint32_t a, uint32_t f)
{
    uint32_t work = 0;
    for (uint32_t e = g->pred_off[f]; e < g->pred_off[f + 1]; e++) {
        uint32_t p = g->pred[e];
        if (p == a) return 1;
        for (uint32_t x = g->pred_off[p]; x < g->pred_off[p + 1]; x++) {
            if (++work > FREE_SEARCH_BUDGET) return 0;
            if (g->pred[x] == a) return 1;
        }
    }
    return 0;
}

static int check_free_order(const graph *g, diag *d, const uint32_t *pos, const uint32_t *order)
{
    if (one_order(g, order)) {
        for (uint32_t k = 0; k < g->nbufs; k++)
            if (g->buf_free[k] != GRAPH_NONE && pos[g->buf_free[k]] < pos[g->buf_alloc[k]])
                order_error(g, d, k);
        return VALIDATE_OK;
    }
    uint32_t n = g->n, ndefer = 0;
    uint32_t *fwd = malloc(((size_t)n + 1) * sizeof *fwd); /* = k: reached from buffer k's ALLOC */
    uint64_t *seen = malloc(((size_t)n + 1) * sizeof *seen); /* stamps of the backward searches */
    uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack);
    uint32_t *defer = malloc(((size_t)g->nbufs + 1) * sizeof *defer);
    if (!fwd || !seen || !stack || !defer) {
        free(fwd);
        free(seen);
        free(stack);
        free(defer);
        return VALIDATE_OOM;
    }
    memset(fwd, 0xff, (size_t)n * sizeof *fwd);
    memset(seen, 0xff, (size_t)n * sizeof *seen);
    for (uint32_t k = 0; k < g->nbufs; k++) {
        uint32_t a = g->buf_alloc[k], f = g->buf_free[k];
        if (f == GRAPH_NONE) continue;
        if (pos[f] < pos[a]) {
            order_error(g, d, k);
            continue;
        }
        if (two_hops(g, a, f)) continue;
        /* Backward from f for a itself (enough for most graphs), then forward
         * from a marking, then backward again for any mark. */
        int r = search_back(g, pos, a, f, 2 * (uint64_t)k, seen, stack, NULL, k);
        if (r == SEARCH_BUDGET) r = search_forward(g, pos, a, f, k, fwd, stack);
        if (r == SEARCH_BUDGET)
            r = search_back(g, pos, a, f, 2 * (uint64_t)k + 1, seen, stack, fwd, k);
        if (r == SEARCH_NONE) order_error(g, d, k);
        else if (r == SEARCH_BUDGET) defer[ndefer++] = k;
    }
    free(fwd);
    free(seen);
    free(stack);

    uint64_t *mask = ndefer ? calloc((size_t)n + 1, sizeof *mask) : NULL;
    if (ndefer && !mask) {
        free(defer);
        return VALIDATE_OOM;
    }
    const void *ctx[2] = {g, pos};
    qsort_r(defer, ndefer, sizeof *defer, cmp_by_alloc_pos, ctx);
    for (uint32_t c0 = 0; c0 < ndefer; c0 += 64) {
        uint32_t cnt = ndefer - c0 < 64 ? ndefer - c0 : 64;
        uint32_t lo = pos[g->buf_alloc[defer[c0]]], hi = 0;
        for (uint32_t i = 0; i < cnt; i++) {
            uint32_t k = defer[c0 + i];
            mask[g->buf_alloc[k]] |= (uint64_t)1 << i;
            if (pos[g->buf_free[k]] > hi) hi = pos[g->buf_free[k]];
        }
        for (uint32_t t = lo; t <= hi; t++) {
            uint32_t u = order[t];
            if (!mask[u]) continue;
            for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
                if (pos[g->succ[e]] <= hi) mask[g->succ[e]] |= mask[u];
        }
        for (uint32_t i = 0; i < cnt; i++) {
            uint32_t k = defer[c0 + i];
            if (!(mask[g->buf_free[k]] >> i & 1)) order_error(g, d, k);
        }
        for (uint32_t t = lo; t <= hi; t++) mask[order[t]] = 0;
    }
    free(mask);
    free(defer);
    return VALIDATE_OK;
}

/* When every edge goes from a lower node index to a higher one (gen writes graphs so), the
 * indices are a topological order and there is no cycle: the FREE order checked in that order,
 * with no Kahn's pass. Which buffers are wrong does not depend on the order, but the order of
 * their messages does: when there is any, VALIDATE_BAD says to check again in Kahn's order. */
static int free_order_by_index(const graph *g, diag *d, uint32_t *pos, uint32_t *order)
{
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
            if (g->succ[e] <= u) return VALIDATE_BAD;
    for (uint32_t u = 0; u < g->n; u++) pos[u] = order[u] = u;
    diag scratch;
    diag_init(&scratch, d->source);
    int rc = check_free_order(g, &scratch, pos, order);
    if (rc == VALIDATE_OK && scratch.nerrors) rc = VALIDATE_BAD;
    diag_free(&scratch);
    return rc;
}

int validate_order(const graph *g, diag *d)
{
    size_t errors = d->nerrors;
    /* pos[i]: node i's place in a topological order; order: that order. */
    uint32_t *pos = malloc(((size_t)g->n + 1) * sizeof *pos);
    uint32_t *order = malloc(((size_t)g->n + 1) * sizeof *order);
    int rc = !pos || !order ? VALIDATE_OOM : free_order_by_index(g, d, pos, order);
    if (rc == VALIDATE_BAD) {
        rc = check_cycles(g, d, pos, order);
        if (rc == VALIDATE_OK) rc = check_free_order(g, d, pos, order);
    }
    free(pos);
    free(order);
    return rc == VALIDATE_OK && d->nerrors > errors ? VALIDATE_BAD : rc;
}

int validate_graph(const graph *g, diag *d)
{
    size_t errors = d->nerrors;
    int rc = validate_buffers(g, d);
    if (rc == VALIDATE_OK) {
        validate_inputs(g, d);
        rc = validate_order(g, d);
    }
    if (rc == VALIDATE_OOM) ERR(d, DC_LIMIT, "out of memory validating %u nodes", g->n);
    return d->nerrors > errors ? VALIDATE_BAD : VALIDATE_OK;
}
