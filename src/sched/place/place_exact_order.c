/* place_exact_order.c: the orders exact's search tries its candidates in.
 * The static order of a run sorts the buffers once by three keys (xp_key);
 * the dynamic order (P->dyn) sorts the candidates at one offset, at each
 * node, by the slack of their tightest section now. Exports xp_key,
 * xp_prekey_cmp, xp_dyn_group, xp_dyn_before_later (place_exact_internal.h). */
#include "place_exact_internal.h"
#include <stdlib.h>

/* The static order of MiniMalloc's heuristics: W the lifetime's width
 * (canonical), A the area (size x width), T the largest section total over
 * its sections; V and B the width and the area in the problem's own times,
 * where it has them (a CSV's); N the buffers it overlaps, O their bytes; X
 * the sum of its sections' totals (the live bytes its lifetime crosses, in
 * canonical time: a lifetime's weight where the problem has no times); s
 * the size, the smaller first. Each larger first, then the buffer. */
int64_t xp_key(const xp *P, uint32_t b, char c)
{
    if (c == 's') return -P->size[b];
    if (c == 'N') return (int64_t)P->ovs[b + 1] - P->ovs[b];
    if (c == 'O') return P->ovb[b];
    if (c == 'W' || c == 'V') return c == 'W' ? P->w[b] : P->tw[b];
    if (c == 'A' || c == 'B') {
        int64_t a;
        return __builtin_mul_overflow(P->size[b], c == 'A' ? P->w[b] : P->tw[b], &a) ? INT64_MAX
                                                                                     : a;
    }
    if (c == 'X') {
        int64_t x = 0;
        for (uint32_t s = P->s0[b]; s < P->s1[b]; s++)
            if (__builtin_add_overflow(x, P->total0[s], &x)) return INT64_MAX;
        return x;
    }
    int64_t t = 0;
    for (uint32_t s = P->s0[b]; s < P->s1[b]; s++)
        if (P->total[s] > t) t = P->total[s];
    return t;
}

int xp_prekey_cmp(const void *x, const void *y)
{
    const prekey *a = x, *b = y;
    for (int i = 0; i < 3; i++)
        if (a->k[i] != b->k[i]) return a->k[i] > b->k[i] ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

/* The slack of b's tightest section, were b placed at off: the bytes that
 * section may still leave unused (its capacity less its floor, or off, and
 * its unplaced bytes). */
static int64_t dyn_slack(const xp *P, uint32_t b, int64_t off)
{
    int64_t m = INT64_MAX;
    for (uint32_t s = P->s0[b]; s < P->s1[b]; s++) {
        int64_t f = P->floor[s] > off ? P->floor[s] : off, k = P->cap - P->total[s] - f;
        if (k < m) m = k;
    }
    return m;
}

static int dkey_cmp(const void *x, const void *y)
{
    const dkey *a = x, *b = y;
    if (a->k != b->k) return a->k < b->k ? -1 : 1;
    return a->c.pre < b->c.pre ? -1 : a->c.pre > b->c.pre;
}

uint32_t xp_dyn_group(xp *P, const uint32_t *pre, const cand *ord, uint32_t n, uint32_t i0,
                      dkey *grp)
{
    uint32_t i1 = i0 + 1;
    while (i1 < n && ord[i1].off == ord[i0].off) i1++;
    for (uint32_t i = i0; i < i1; i++)
        grp[i] = (dkey){dyn_slack(P, pre[ord[i].pre], ord[i].off), ord[i]};
    qsort(grp + i0, i1 - i0, sizeof *grp, dkey_cmp);
    P->work += i1 - i0;
    return i1;
}

int xp_dyn_before_later(const dkey *grp, uint32_t i, uint32_t g1, int64_t min_off, uint32_t min_pre)
{
    cand c = grp[i].c;
    for (uint32_t k = i + 1; k < g1; k++) {
        cand o = grp[k].c;
        if (o.pre < c.pre && !(o.off == min_off && o.pre < min_pre)) return 1;
    }
    return 0;
}
