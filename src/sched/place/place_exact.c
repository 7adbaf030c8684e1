/* place_exact.c: exact's search, for placer "exact" (place_exact_placer.c) and best's last
 * step: the smallest arena for the schedule, proven. A decision search answers "do the buffers fit
 * in C bytes?" and a capacity search around it narrows C between the proven bound and the smallest
 * plan found. The decision search follows MiniMalloc (Moffitt, ASPLOS 2023): it builds only
 * canonical plans (each buffer at the lowest offset the buffers placed before it leave, offsets
 * never decreasing), orders the candidates by that offset, prunes a branch that leaves a gap some
 * buffer could have filled (dominance) or whose section floors plus the sizes still to place pass C
 * (inference), and splits the problem where no unplaced buffer crosses from one section to the
 * next. Exports xp_capacity_search (place_exact_internal.h), place_exact_improve (best's last
 * step). */
#include "place_exact_internal.h"
#include "util/clock.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* An undo record: a min offset (kind 0) or a section floor (kind 1). */

/* ------------------------------------------------------------ the decision search */

/* The search's own memory, counted against the context's --max-memory:
 * past it, or when malloc fails, the search stops (SOLVE_MEMORY) and the
 * capacity search keeps the best plan it has. NULL then. */
static void *xalloc(xp *P, size_t bytes)
{
    void *p = P->mem + bytes <= P->mem_cap ? malloc(bytes) : NULL;
    if (!p) {
        if (!P->stopped) P->stopped = SOLVE_MEMORY;
        return NULL;
    }
    P->mem += bytes;
    return p;
}

static void xfree(xp *P, void *p, size_t bytes)
{
    if (!p) return;
    free(p);
    P->mem -= bytes;
}

static int push_undo(xp *P, uint32_t idx, uint32_t kind, int64_t old)
{
    if (P->nu == P->capu) {
        size_t c = P->capu ? 2 * P->capu : 1024, more = (c - P->capu) * sizeof(undo);
        undo *u = P->mem + more <= P->mem_cap ? realloc(P->u, c * sizeof *u) : NULL;
        if (!u) {
            if (!P->stopped) P->stopped = SOLVE_MEMORY;
            return -1;
        }
        P->mem += more;
        P->u = u;
        P->capu = c;
    }
    P->u[P->nu++] = (undo){idx, kind, old};
    return 0;
}

static void pop_undo(xp *P, size_t mark)
{
    while (P->nu > mark) {
        undo x = P->u[--P->nu];
        if (x.kind) P->floor[x.idx] = x.old;
        else P->minoff[x.idx] = x.old;
    }
}

static int search(xp *P, const uint32_t *list, uint32_t nlist, uint32_t sec0, uint32_t sec1,
                  const uint32_t *pre, const cand *parent, uint32_t nparent, int64_t min_off,
                  uint32_t min_pre);

/* Solves the unplaced buffers list[0..n), which live in sections
 * [sec0, sec1), on their own: a static order, then the search. */
static int subsolve(xp *P, const uint32_t *list, uint32_t n, uint32_t sec0, uint32_t sec1)
{
    size_t n1 = (size_t)n + 1;
    prekey *k = xalloc(P, n1 * sizeof *k);
    uint32_t *pre = xalloc(P, n1 * sizeof *pre);
    cand *c = xalloc(P, n1 * sizeof *c);
    if (!k || !pre || !c) {
        xfree(P, k, n1 * sizeof *k);
        xfree(P, pre, n1 * sizeof *pre);
        xfree(P, c, n1 * sizeof *c);
        return X_STOP;
    }
    for (uint32_t i = 0; i < n; i++) {
        k[i].b = list[i];
        for (int j = 0; j < 3; j++) k[i].k[j] = xp_key(P, list[i], P->heur[j]);
    }
    qsort(k, n, sizeof *k, xp_prekey_cmp);
    for (uint32_t i = 0; i < n; i++) {
        pre[i] = k[i].b;
        c[i] = (cand){0, i};
    }
    xfree(P, k, n1 * sizeof *k);
    int r = search(P, list, n, sec0, sec1, pre, c, n, 0, 0);
    xfree(P, pre, n1 * sizeof *pre);
    xfree(P, c, n1 * sizeof *c);
    return r;
}

/* Places buffer b (already at off[b]): the floors of its sections rise to
 * its top, and so do the min offsets of the unplaced buffers it overlaps. 1
 * when no unplaced buffer overlaps b (nothing sits above it), 0 otherwise,
 * -1 out of memory. */
static int place_one(xp *P, uint32_t b)
{
    int64_t top = P->off[b] + P->size[b];
    int hatless = 1;
    for (uint32_t s = P->s0[b]; s < P->s1[b]; s++) {
        if (push_undo(P, s, 1, P->floor[s])) return -1;
        P->floor[s] = top;
        P->total[s] -= P->size[b];
    }
    uint32_t lo = P->s0[b], hi = P->s1[b];
    for (uint32_t k = P->ovs[b]; k < P->ovs[b + 1]; k++) {
        uint32_t o = P->ov[k];
        if (P->off[o] >= 0) continue;
        hatless = 0;
        if (P->minoff[o] >= top) continue;
        if (push_undo(P, o, 0, P->minoff[o])) return -1;
        P->minoff[o] = top;
        if (P->s0[o] < lo) lo = P->s0[o];
        if (P->s1[o] > hi) hi = P->s1[o];
    }
    P->dlo = lo;
    P->dhi = hi;
    return hatless;
}

/* Whether some unplaced buffer of section s may still start at `room` or
 * below. The answer stays yes for long (room only rises as the section's
 * buffers are placed), so the scan starts at the buffer that said yes last
 * time (P->wit[s], a hint kept across backtracking: it is checked). */
static int low_start(xp *P, uint32_t s, int64_t room)
{
    uint32_t j0 = P->secs[s], n = P->secs[s + 1] - j0, w = P->wit[s];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t o = P->sec[j0 + w];
        if (P->off[o] < 0 && P->minoff[o] <= room) {
            P->wit[s] = w;
            return 1;
        }
        if (++w == n) w = 0;
    }
    return 0;
}

/* Whether every section of [sec0, sec1) can still hold its unplaced bytes
 * (total) above `off` (offsets never decrease), above its floor and above
 * the least min offset of its unplaced buffers (each starts there or
 * higher): some must start at cap - total or below. Called after placing b
 * at off, where the sections beyond b's passed `off` already (beside). The
 * floors and the min offsets change only in the sections place_one touched,
 * [P->dlo, P->dhi): the state before it passed this check (or is the start,
 * where off alone decides). */
static int check(xp *P, uint32_t sec0, uint32_t sec1, int64_t off, uint32_t b)
{
    uint32_t lo = P->s0[b] > sec0 ? P->s0[b] : sec0, hi = P->s1[b] < sec1 ? P->s1[b] : sec1;
    for (uint32_t s = lo; s < hi; s++)
        if (off > P->cap - P->total[s]) return 0;
    lo = P->dlo > sec0 ? P->dlo : sec0;
    hi = P->dhi < sec1 ? P->dhi : sec1;
    for (uint32_t s = lo; s < hi; s++) {
        int64_t room = P->cap - P->total[s];
        if (P->floor[s] > room) return 0;
        if (P->total[s] && !low_start(P, s, room)) return 0;
    }
    return 1;
}

/* The largest section totals of [sec0, s] (P->pre_max[s]) and [s, sec1)
 * (P->suf_max[s]) now, for beside. */
static void side_maxima(xp *P, uint32_t sec0, uint32_t sec1)
{
    int64_t m = 0;
    for (uint32_t s = sec0; s < sec1; s++) P->pre_max[s] = m = P->total[s] > m ? P->total[s] : m;
    m = 0;
    for (uint32_t s = sec1; s-- > sec0;) P->suf_max[s] = m = P->total[s] > m ? P->total[s] : m;
}

/* Whether the sections of [sec0, sec1) beyond b's can hold their unplaced
 * bytes above off (placing b leaves them as they are): most candidates of
 * a tight problem fail here, before they are placed. */
static int beside(const xp *P, uint32_t sec0, uint32_t sec1, int64_t off, uint32_t b)
{
    int64_t room = P->cap - off;
    if (P->s0[b] > sec0 && P->pre_max[P->s0[b] - 1] > room) return 0;
    return !(P->s1[b] < sec1 && P->suf_max[P->s1[b]] > room);
}

/* 1 when no unplaced buffer overlaps b, as place_one says. */
static int hatless_of(const xp *P, uint32_t b)
{
    for (uint32_t k = P->ovs[b]; k < P->ovs[b + 1]; k++)
        if (P->off[P->ov[k]] < 0) return 0;
    return 1;
}

/* After placing b: where no unplaced buffer crosses between sections any
 * more, the rest splits and each part is solved on its own; else the search
 * goes on. */
static int decompose(xp *P, const uint32_t *list, uint32_t nlist, uint32_t sec0, uint32_t sec1,
                     const uint32_t *pre, const cand *ord, uint32_t nord, int64_t off,
                     uint32_t opre, uint32_t b)
{
    P->sol[b] = P->off[b];
    uint32_t ncut = 0;
    for (uint32_t s = P->s0[b]; s + 1 < P->s1[b]; s++)
        if (--P->cuts[s] == 0) ncut++;
    int r;
    if (!ncut) {
        r = search(P, list, nlist, sec0, sec1, pre, ord, nord, off, opre);
    } else {
        uint32_t *sub = xalloc(P, ((size_t)nlist + 1) * sizeof *sub);
        r = sub ? X_FOUND : X_STOP;
        uint32_t c0 = sec0;
        for (uint32_t s = sec0; sub && s < sec1 && r == X_FOUND; s++) {
            if (s + 1 < sec1 && P->cuts[s] != 0) continue;
            if (s + 1 < sec1 && !(s >= P->s0[b] && s + 1 < P->s1[b])) continue;
            uint32_t c1 = s + 1, n = 0;
            for (uint32_t i = 0; i < nlist; i++) {
                uint32_t x = list[i];
                if (P->off[x] < 0 && P->s0[x] < c1 && c0 < P->s1[x]) sub[n++] = x;
            }
            if (n) r = subsolve(P, sub, n, c0, c1);
            c0 = c1;
        }
        xfree(P, sub, ((size_t)nlist + 1) * sizeof *sub);
    }
    for (uint32_t s = P->s0[b]; s + 1 < P->s1[b]; s++) P->cuts[s]++;
    return r;
}

static int cand_less(cand x, cand y) { return x.off < y.off || (x.off == y.off && x.pre < y.pre); }

/* The unplaced candidates of the parent's order, sorted by their lowest
 * offset now, then the static order, into ord; their number. Those whose
 * offset did not move keep the parent's order; the few that moved (those
 * the last buffer placed overlaps) are sorted apart (P->cs) and merged in.
 * *min_height: the least top of a candidate at its offset. */
static uint32_t candidates(xp *P, const uint32_t *pre, const cand *parent, uint32_t nparent,
                           cand *ord, int64_t *min_height)
{
    uint32_t n = 0, r = 0;
    for (uint32_t i = 0; i < nparent; i++) {
        uint32_t b = pre[parent[i].pre];
        if (P->off[b] >= 0) continue;
        cand c = {P->minoff[b], parent[i].pre};
        if (c.off + P->size[b] < *min_height) *min_height = c.off + P->size[b];
        if (c.off == parent[i].off) {
            ord[n++] = c;
            continue;
        }
        uint32_t j = r++; /* insertion sort: few, and mostly at one offset */
        while (j > 0 && cand_less(c, P->cs[j - 1])) {
            P->cs[j] = P->cs[j - 1];
            j--;
        }
        P->cs[j] = c;
        P->work += r - j;
    }
    for (uint32_t k = n + r, i = n, j = r; j > 0;) /* merge from the back */
        ord[--k] = i > 0 && cand_less(P->cs[j - 1], ord[i - 1]) ? ord[--i] : P->cs[--j];
    P->work += nparent;
    return n + r;
}

static int search(xp *P, const uint32_t *list, uint32_t nlist, uint32_t sec0, uint32_t sec1,
                  const uint32_t *pre, const cand *parent, uint32_t nparent, int64_t min_off,
                  uint32_t min_pre)
{
    if (P->node_left == 0) return X_STOP;
    P->node_left--;
    if ((P->node_cap && P->nodes >= P->node_cap) || (P->work_cap && P->work >= P->work_cap)) {
        P->stopped = SOLVE_STATES;
        return X_STOP;
    }
    /* the clock is read every 64 nodes, or sooner where nodes are costly
     * (work: the candidates sorted, each shift of the sort) */
    if (++P->nodes - P->last_check >= 64 || P->work - P->last_work >= (1u << 16)) {
        P->last_check = P->nodes;
        P->last_work = P->work;
        if (solve_cancelled(P->ctx)) P->stopped = SOLVE_CANCELLED;
        else if (solve_now(P->ctx) > P->deadline) P->stopped = SOLVE_TIME;
        solve_progress(P->ctx, P->nodes, P->best, P->bound);
    }
    if (P->stopped) return X_STOP;
    size_t ordb = ((size_t)nparent + 1) * sizeof(cand);
    cand *ord = xalloc(P, ordb);
    if (!ord) return X_STOP;
    int64_t min_height = INT64_MAX;
    uint32_t n = candidates(P, pre, parent, nparent, ord, &min_height);
    if (n == 0) {
        for (uint32_t i = 0; i < nlist; i++) P->sol[list[i]] = P->off[list[i]];
        xfree(P, ord, ordb);
        return X_FOUND;
    }
    int r = X_NOTFOUND, sides = 0;
    size_t grpb = ((size_t)nparent + 1) * sizeof(dkey);
    dkey *grp = P->dyn ? xalloc(P, grpb) : NULL; /* the dynamic order's, group by group */
    if (P->dyn && !grp) n = 0;                   /* P->stopped says SOLVE_MEMORY */
    for (uint32_t i = 0, g1 = 0; i < n && r == X_NOTFOUND; i++) {
        if (grp && i == g1) g1 = xp_dyn_group(P, pre, ord, n, i, grp);
        cand c = grp ? grp[i].c : ord[i];
        if (c.off < min_off || (c.off == min_off && c.pre < min_pre)) continue; /* canonical */
        if (c.off >= min_height) break; /* a gap below some buffer's top: dominated */
        uint32_t b = pre[c.pre];
        if (!sides) side_maxima(P, sec0, sec1);
        sides = 1;
        int hatless;
        if (!beside(P, sec0, sec1, c.off, b)) {
            hatless = hatless_of(P, b);
        } else {
            P->off[b] = c.off;
            size_t mark = P->nu;
            hatless = place_one(P, b);
            if (hatless < 0) r = X_STOP; /* P->stopped says SOLVE_MEMORY */
            else if (check(P, sec0, sec1, c.off, b)) {
                r = decompose(P, list, nlist, sec0, sec1, pre, ord, n, c.off, c.pre, b);
                sides = 0; /* the deeper search's */
            }
            pop_undo(P, mark);
            for (uint32_t s = P->s0[b]; s < P->s1[b]; s++) P->total[s] += P->size[b];
            P->off[b] = -1;
        }
        /* Nothing above b: another buffer first cannot do better (MiniMalloc's
         * hatless pruning), where every buffer before b in the static order at
         * b's offset had its turn (the dynamic order may try one after b). */
        if (hatless == 1 && !(grp && xp_dyn_before_later(grp, i, g1, min_off, min_pre))) break;
    }
    if (grp) xfree(P, grp, grpb);
    else if (P->dyn) r = X_STOP;
    xfree(P, ord, ordb);
    return r;
}

/* Whether the problem fits in cap: MiniMalloc's round robin over its
 * static orders, each given a node budget that doubles (from 2 nb) until
 * one answers, up to max_nodes in all (then X_STOP). */
static int fits(xp *P, int64_t cap, uint64_t max_nodes)
{
    /* A problem's own times often tell which buffers live long better than
     * the order of its events does: their orders go first, then MiniMalloc's
     * three on the canonical times (all a problem without times has), then
     * three more that solve problems MiniMalloc's miss without own times
     * (its E and G as a chain of events): the largest section total, the
     * longest lifetime, then the smaller size, or the most overlaps, or the
     * most bytes overlapped; then the largest section total, the live
     * bytes the lifetime crosses, the longest lifetime (its I as a chain of
     * events, where only VBT, TBV and TVB's own times found it before);
     * last, without own times, TWs in the dynamic order (its G as a chain
     * of events: 323 nodes, where TWs takes 762035). */
    static const char *heurs[] = {"VBT", "TBV", "TVB", "WAT", "TAW", "TWA",
                                  "TWs", "TWN", "TWO", "TXW", "TWs+"};
    int h0 = P->has_time ? 0 : 3, h1 = (int)(sizeof heurs / sizeof heurs[0]) - P->has_time;
    P->cap = cap;
    uint64_t limit = P->nb ? P->nb : 1, used = 0;
    if (P->one_order) { /* one order, one run: a run again with more nodes repeats this one */
        h0 = 0;
        h1 = 1;
        limit = max_nodes / 2 ? max_nodes / 2 : 1;
    }
    for (;;) {
        limit = limit < UINT64_MAX / 2 ? limit * 2 : UINT64_MAX;
        for (int h = h0; h < h1; h++) {
            if (used >= max_nodes) return X_STOP;
            P->heur = P->one_order ? P->one_order : heurs[h];
            P->dyn = P->heur[3] == '+';
            for (uint32_t b = 0; b < P->nb; b++) {
                P->off[b] = -1;
                P->minoff[b] = 0;
            }
            memcpy(P->total, P->total0, (size_t)P->nsec * sizeof *P->total);
            memcpy(P->cuts, P->cuts0, (size_t)P->nsec * sizeof *P->cuts);
            memset(P->floor, 0, (size_t)P->nsec * sizeof *P->floor);
            P->nu = 0;
            uint64_t budget = limit < max_nodes - used ? limit : max_nodes - used;
            P->node_left = budget;
            int r = X_FOUND;
            for (uint32_t p = 0; p < P->npart && r == X_FOUND; p++)
                r = subsolve(P, P->part + P->parts[p], P->parts[p + 1] - P->parts[p], P->psec0[p],
                             P->psec1[p]);
            used += budget - P->node_left;
            if (r != X_STOP || P->stopped) return r;
        }
    }
}

/* The search recurses once per buffer placed: past a few thousand buffers a
 * probe runs on a thread of its own with a stack to match (about 0.5 KiB a
 * level under AddressSanitizer); the problem carries the context (P->ctx),
 * so the probe answers to the caller's watcher and clock. */
typedef struct probe {
    xp *P;
    int64_t cap;
    uint64_t budget;
    int result;
} probe;

static void *probe_main(void *arg)
{
    probe *j = arg;
    j->result = fits(j->P, j->cap, j->budget);
    return NULL;
}

static int fits_deep(xp *P, int64_t cap, uint64_t budget)
{
    if (P->nb <= 2000) return fits(P, cap, budget);
    size_t stack = ((size_t)P->nb + 1024) * 2048;
    probe j = {P, cap, budget, X_STOP};
    pthread_attr_t at;
    int ok = P->mem + stack <= P->mem_cap && !pthread_attr_init(&at);
    if (!ok) {
        P->stopped = SOLVE_MEMORY;
        return X_STOP;
    }
    pthread_t t = 0;
    P->mem += stack;
    ok = !pthread_attr_setstacksize(&at, stack);
    if (ok) ok = !pthread_create(&t, &at, probe_main, &j);
    pthread_attr_destroy(&at);
    if (ok) pthread_join(t, NULL);
    else P->stopped = SOLVE_MEMORY; /* no thread: no room for its stack */
    P->mem -= stack;
    return j.result;
}

/* ------------------------------------------------------------ the capacity search */

static int64_t sol_top(const xp *P)
{
    int64_t top = 0;
    for (uint32_t i = 0; i < P->nb; i++)
        if (P->sol[i] + P->size[i] > top) top = P->sol[i] + P->size[i];
    return top;
}

/* One probe of capacity cap with a node budget: a plan found lowers *hi
 * (and is kept in pl), a proof that none fits raises *lo past cap. The
 * probe's answer (X_*). */
static int probe_at(xp *P, const solve_ctx *c, int64_t cap, uint64_t budget, int64_t align,
                    int64_t *lo, int64_t *hi, placement *pl)
{
    if (solve_cancelled(c)) { /* between probes too: a probe may be short */
        P->stopped = SOLVE_CANCELLED;
        return X_STOP;
    }
    P->best = *hi;
    P->bound = *lo;
    solve_progress(c, P->nodes, *hi, *lo);
    int x = fits_deep(P, cap, budget > 2 * (uint64_t)P->nb ? budget : 2 * (uint64_t)P->nb);
    pl->search.probes++;
    if (x == X_FOUND) {
        *hi = sol_top(P);
        pl->detail = "MiniMalloc's search";
        for (uint32_t i = 0; i < P->nb; i++) pl->offset[P->bid[i]] = P->sol[i];
    } else if (x == X_NOTFOUND && cap + align > *lo) {
        *lo = cap + align;
    }
    return x;
}

/* The capacity search: lo is proven (no plan is smaller), hi is the
 * smallest plan found. Asked a capacity (c->capacity), it probes that
 * alone, with no budget but the limits. Else each round probes lo with a
 * node budget (the bound is the likely answer: real problems mostly meet
 * it), then capacities three quarters of the way from lo up to hi with half
 * of it each (a plan a little below the last is the likely find where the
 * bound is not the answer); a probe that runs out of budget neither proves
 * nor finds, and the search moves above it. A round with such a probe is run again with four times
 * the budget, until lo == hi or the limits stop it. In best's bounded run
 * (P->coarse) a round ends before a capacity within 0.1% below the plan:
 * with align 1 it took many probes that gained next to nothing (MiniMalloc's
 * J: 5 of them, a sixth of the work). */
void xp_capacity_search(xp *P, const solve_ctx *c, int64_t align, int64_t *lo, int64_t *hi,
                        placement *pl)
{
    if (c && c->capacity > 0) {
        int64_t cap = c->capacity / align * align;
        if (*hi > cap && *lo <= cap) probe_at(P, c, cap, UINT64_MAX, align, lo, hi, pl);
        return;
    }
    uint64_t budget = 4 * (uint64_t)P->nb + 1024;
    int x = X_NOTFOUND;
    while (*lo < *hi && !P->stopped) {
        int unknown = 0;
        for (int64_t plo = *lo; plo < *hi && !P->stopped;) {
            int at_lo = plo == *lo;
            int64_t mid = at_lo ? *lo : plo + (*hi - plo) / 4 * 3 / align * align;
            if (!at_lo && P->coarse && *hi - mid < *hi / 1024) { /* best: a plan 0.1% smaller */
                unknown = 1;                                     /* is not worth its nodes */
                break;
            }
            x = probe_at(P, c, mid, at_lo ? budget : budget / 2, align, lo, hi, pl);
            if (x == X_NOTFOUND) plo = *lo;
            else if (x == X_STOP && !P->stopped) {
                unknown = 1;
                plo = mid + align;
            }
        }
        if (!unknown) break;
        budget = budget > UINT64_MAX / 4 ? UINT64_MAX : budget * 4;
    }
}

/* The work (candidates sorted, P->work) place_exact_improve's search may
 * do, half of it at most in its first pass, whatever the nodes: its nodes
 * cost more as the buffers grow (under a second). */
#define EXACT_IMPROVE_WORK 24000000u

/* place_exact_improve's passes, each within n more nodes: the capacity
 * search (order NULL), or one probe of the bound in that order, one run. A
 * pass stopped by its nodes leaves the next its turn. */
static void improve_pass(xp *P, const solve_ctx *c, const char *order, uint64_t n, uint64_t w,
                         int64_t align, int64_t *lo, int64_t *hi, placement *tmp)
{
    if (n == 0 || w == 0 || *lo >= *hi || (P->stopped != SOLVE_DONE && P->stopped != SOLVE_STATES))
        return;
    P->stopped = SOLVE_DONE;
    P->one_order = order;
    P->node_cap = P->nodes + n;
    P->work_cap = P->work + w;
    if (order) probe_at(P, c, *lo, n, align, lo, hi, tmp);
    else xp_capacity_search(P, c, align, lo, hi, tmp);
}

static uint64_t work_left(uint64_t w, uint64_t used) { return used < w ? w - used : 0; }

int64_t place_exact_improve(const graph *g, const run *r, const lifetimes *lt, int64_t align,
                            const solve_ctx *c, uint64_t max_nodes, placement *pl, uint64_t *nodes)
{
    int64_t lo = place_lower_bound(g, r, align), hi = place_plan_top(g, pl->offset, align);
    if (nodes) *nodes = 0;
    if (hi <= lo || max_nodes == 0 || solve_cancelled(c) || solve_expired(c)) return hi;
    /* best's own limits: no capacity asked of the search (best's plan is
     * checked against it after), its deadline or none */
    solve_ctx sub = c ? *c : (solve_ctx){0};
    sub.capacity = 0;
    xp P;
    size_t cap = (size_t)solve_max_memory(c);
    if (xp_build(&P, g, lt, align, EXACT_MAX_BUFFERS, EXACT_MAX_OVERLAPS, cap) == XP_OK) {
        P.mem_cap = cap;
        P.ctx = c;
        P.deadline = sub.deadline > 0 ? sub.deadline : HUGE_VAL;
        P.coarse = 1;
        /* the search writes pl's offsets where it finds a plan, and its
         * counts and detail into a copy */
        placement tmp = *pl;
        int64_t hi0 = hi;
        uint64_t w0 = P.work, n1 = max_nodes / 2, w1 = EXACT_IMPROVE_WORK / 2;
        /* half the nodes for the bound in the heaviest sections' order
         * first (where the bound is the answer, as it mostly is, that order
         * finds it soonest); without own times, a third each in TWA, in
         * TXW (it fits MiniMalloc's I as a chain of events) and in TWs's
         * dynamic order (TWs+: it fits MiniMalloc's E as a chain of events,
         * where TWA does not); the rest for the capacity search's usual
         * orders and capacities */
        if (P.has_time) {
            improve_pass(&P, &sub, "TVB", n1, w1, align, &lo, &hi, &tmp);
        } else {
            improve_pass(&P, &sub, "TWA", n1 / 3, w1 / 3, align, &lo, &hi, &tmp);
            improve_pass(&P, &sub, "TXW", n1 / 3, w1 / 3, align, &lo, &hi, &tmp);
            improve_pass(&P, &sub, "TWs+", n1 - 2 * (n1 / 3), work_left(w1, P.work - w0), align,
                         &lo, &hi, &tmp);
        }
        improve_pass(&P, &sub, NULL, max_nodes - n1, work_left(EXACT_IMPROVE_WORK, P.work - w0),
                     align, &lo, &hi, &tmp);
        if (hi < hi0) pl->detail = "best's plan, improved by MiniMalloc's search (bounded)";
        if (nodes) *nodes = P.nodes;
    }
    xp_free(&P);
    return hi;
}
