/* place_climb.c: best's climb for graphs of modest size: a late-acceptance search over the
 * order of a first-fit greedy, under a capacity it lowers each time it fits. Exports
 * place_climb (place_internal.h). */
#include "place_internal.h"
#include <stdlib.h>
#include <string.h>

/* The climb keeps, for each buffer, the buffers whose lifetimes meet its own;
 * past this many pairs (or buffers) it declines and best climbs with the
 * greedy engine instead. */
#define CLIMB_MAX_PAIRS 20000000u
#define CLIMB_MAX_NB    20000u
/* Late acceptance (Burke and Bykov): a candidate is taken when it is no
 * worse than the current state or than the state this many steps ago. */
#define CLIMB_LAHC_LEN 50u

typedef struct range {
    int64_t off, end;
} range;

typedef struct climb {
    uint32_t nb;
    const place_job *tick;   /* [nb] the buffers, by tick (index = tick) */
    uint32_t *cstart, *conf; /* [nb + 1], [pairs]: each buffer's meetings, by tick */
    uint32_t *perm, *pos;    /* [nb] the order (ticks) and each tick's place in it */
    int64_t *off;            /* [nb] by tick */
    uint8_t *over;           /* [nb] by tick: above the capacity, left out */
    double *pen;             /* [nb + 1] pen[i]: the penalty of the first i of the order */
    int64_t *top;            /* [nb + 1] top[i]: the largest end among the first i */
    range *tmp;              /* [nb] */
    uint64_t work;
} climb;

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static uint32_t below(uint64_t *seed, uint32_t n) { return (uint32_t)(xorshift(seed) % n); }

static int range_cmp(const void *x, const void *y)
{
    const range *a = x, *b = y;
    return (a->off > b->off) - (a->off < b->off);
}

/* The penalty of leaving buffer u (a tick) out: its area, span x ticks. */
static double area(const climb *C, uint32_t u)
{
    return C->over[u] ? (double)C->tick[u].span * (double)(C->tick[u].f - C->tick[u].a) : 0.0;
}

/* Places perm[from..nb) in turn at the lowest offset where it meets none of
 * the placed buffers (those before it in the order, not left out) that live
 * with it; a buffer whose end would pass cap is left out, adding its area
 * (span x ticks) to the penalty. Returns the penalty of the whole order. */
static double decode(climb *C, uint32_t from, int64_t cap)
{
    for (uint32_t i = from; i < C->nb; i++) {
        uint32_t u = C->perm[i], k = 0;
        for (uint32_t e = C->cstart[u]; e < C->cstart[u + 1]; e++) {
            uint32_t c = C->conf[e];
            if (C->pos[c] < i && !C->over[c])
                C->tmp[k++] = (range){C->off[c], C->off[c] + C->tick[c].span};
        }
        C->work += C->cstart[u + 1] - C->cstart[u] + k + 4;
        if (k > 1) {
            if (k <= 12) {
                for (uint32_t x = 1; x < k; x++) {
                    range t = C->tmp[x];
                    uint32_t y = x;
                    for (; y > 0 && C->tmp[y - 1].off > t.off; y--) C->tmp[y] = C->tmp[y - 1];
                    C->tmp[y] = t;
                }
            } else {
                qsort(C->tmp, k, sizeof *C->tmp, range_cmp);
                C->work += 2 * (uint64_t)k;
            }
        }
        int64_t need = C->tick[u].span, at = 0;
        for (uint32_t x = 0; x < k && C->tmp[x].off - at < need; x++)
            if (C->tmp[x].end > at) at = C->tmp[x].end;
        int64_t end = at + need; /* at most 2^63-1: the greedy's plan passed its capacity */
        C->off[u] = at;
        C->over[u] = end > cap;
        C->pen[i + 1] = C->pen[i] + area(C, u);
        C->top[i + 1] = C->over[u] || end < C->top[i] ? C->top[i] : end;
    }
    return C->pen[C->nb];
}

/* The real arena of the current order: the buffers left out placed after
 * the others, each at the lowest offset that fits (offsets into off). */
static int64_t finish(climb *C)
{
    int64_t arena = C->top[C->nb];
    for (uint32_t i = 0; i < C->nb; i++) {
        uint32_t u = C->perm[i], k = 0;
        if (!C->over[u]) continue;
        for (uint32_t e = C->cstart[u]; e < C->cstart[u + 1]; e++) {
            uint32_t c = C->conf[e];
            if (!C->over[c] || C->pos[c] < i)
                C->tmp[k++] = (range){C->off[c], C->off[c] + C->tick[c].span};
        }
        C->work += C->cstart[u + 1] - C->cstart[u] + 2 * k + 4;
        qsort(C->tmp, k, sizeof *C->tmp, range_cmp);
        int64_t need = C->tick[u].span, at = 0;
        for (uint32_t x = 0; x < k && C->tmp[x].off - at < need; x++)
            if (C->tmp[x].end > at) at = C->tmp[x].end;
        C->off[u] = at;
        if (at + need > arena) arena = at + need;
    }
    return arena;
}

static void climb_free(climb *C)
{
    free(C->cstart);
    free(C->conf);
    free(C->perm);
    free(C->pos);
    free(C->off);
    free(C->over);
    free(C->pen);
    free(C->top);
    free(C->tmp);
}

/* The meetings: b (tick i) meets the buffers allocated in (i, f) and those
 * allocated before i that live past it. 0, 1 too many, -1 out of memory. */
static int climb_init(climb *C, const place_greedy *G)
{
    memset(C, 0, sizeof *C);
    uint32_t nb = C->nb = G->nb;
    C->tick = G->tick;
    uint64_t pairs = 0;
    for (uint32_t i = 0; i < nb; i++) pairs += G->tick[i].f - i - 1;
    if (nb > CLIMB_MAX_NB || pairs > CLIMB_MAX_PAIRS / 2) return 1;
    size_t n1 = (size_t)nb + 1;
    C->cstart = calloc(n1 + 1, sizeof *C->cstart);
    C->conf = malloc((2 * pairs + 1) * sizeof *C->conf);
    C->perm = malloc(n1 * sizeof *C->perm);
    C->pos = malloc(n1 * sizeof *C->pos);
    C->off = malloc(n1 * sizeof *C->off);
    C->over = calloc(n1, sizeof *C->over);
    C->pen = calloc(n1, sizeof *C->pen);
    C->top = calloc(n1, sizeof *C->top);
    C->tmp = malloc(n1 * sizeof *C->tmp);
    if (!C->cstart || !C->conf || !C->perm || !C->pos || !C->off || !C->over || !C->pen ||
        !C->top || !C->tmp) {
        climb_free(C);
        return -1;
    }
    for (uint32_t i = 0; i < nb; i++)
        for (uint32_t j = i + 1; j < G->tick[i].f; j++) {
            C->cstart[i + 2]++;
            C->cstart[j + 2]++;
        }
    for (uint32_t i = 0; i < nb; i++) C->cstart[i + 2] += C->cstart[i + 1];
    for (uint32_t i = 0; i < nb; i++)
        for (uint32_t j = i + 1; j < G->tick[i].f; j++) {
            C->conf[C->cstart[i + 1]++] = j;
            C->conf[C->cstart[j + 1]++] = i;
        }
    C->work += nb + 2 * pairs;
    return 0;
}

int64_t place_climb(const place_greedy *G, const solve_ctx *ctx, place_job *jobs, int64_t *off,
                    int64_t arena, int64_t goal, uint64_t runs, uint64_t max_work)
{
    climb C;
    int rc = climb_init(&C, G);
    if (rc) return rc > 0 ? CLIMB_DECLINED : CLIMB_OOM;
    uint64_t budget = runs * C.nb * (C.nb + C.cstart[C.nb]);
    if (budget > max_work) budget = max_work;
    uint32_t nb = C.nb;
    uint32_t *best = malloc((size_t)nb * sizeof *best), *outs = malloc((size_t)nb * sizeof *outs),
             *save = malloc((size_t)nb * sizeof *save);
    int64_t *best_off = malloc((size_t)nb * sizeof *best_off),
            *save_off = malloc((size_t)nb * sizeof *save_off);
    uint8_t *save_over = malloc((size_t)nb);
    double hist[CLIMB_LAHC_LEN];
    if (!best || !outs || !save || !best_off || !save_off || !save_over) {
        arena = CLIMB_OOM;
        goto out;
    }
    for (uint32_t i = 0; i < nb; i++) {
        C.perm[i] = jobs[i].a;
        C.pos[jobs[i].a] = i;
        best_off[jobs[i].a] = off[i];
    }
    memcpy(best, C.perm, (size_t)nb * sizeof *best);
    int64_t best_arena = arena, cap = arena - 1;
    double cur = decode(&C, 0, cap), best_pen = cur;
    for (uint32_t i = 0; i < CLIMB_LAHC_LEN; i++) hist[i] = cur;
    uint64_t seed = 0x9E3779B97F4A7C15ULL, step = 0;
    while (C.work < budget && best_arena > goal && !solve_cancelled(ctx) && !solve_expired(ctx)) {
        double *h = &hist[step++ % CLIMB_LAHC_LEN];
        /* The buffers left out: above the capacity, the top of the plan. */
        uint32_t nout = 0;
        for (uint32_t i = 0; i < nb; i++)
            if (C.over[C.perm[i]]) outs[nout++] = i;
        C.work += nb / 16 + 1;
        uint32_t p, q;
        if (nout && xorshift(&seed) % 8) {
            q = outs[below(&seed, nout)];
            if (q == 0) continue;
            p = below(&seed, q);
        } else {
            p = below(&seed, nb - 1);
            q = p + 1 + below(&seed, nb - 1 - p);
        }
        /* move q to p, or swap them */
        memcpy(save + p, C.perm + p, (size_t)(q - p + 1) * sizeof *save);
        for (uint32_t i = p; i < nb; i++) {
            save_off[i] = C.off[C.perm[i]];
            save_over[i] = C.over[C.perm[i]];
        }
        uint32_t t = C.perm[q];
        if (xorshift(&seed) & 1) {
            memmove(C.perm + p + 1, C.perm + p, (size_t)(q - p) * sizeof *C.perm);
        } else {
            C.perm[q] = C.perm[p];
        }
        C.perm[p] = t;
        for (uint32_t i = p; i <= q; i++) C.pos[C.perm[i]] = i;
        double c = decode(&C, p, cap);
        C.work += (nb - p) / 4;
        if (c <= cur || c <= *h) {
            cur = c;
            if (c < best_pen || c == 0) {
                best_pen = c;
                int64_t a = finish(&C);
                if (a < best_arena) {
                    best_arena = a;
                    memcpy(best, C.perm, (size_t)nb * sizeof *best);
                    memcpy(best_off, C.off, (size_t)nb * sizeof *best_off);
                    C.work += nb;
                }
            }
            if (c == 0 && best_arena > goal) { /* a plan within the capacity: ask for less */
                cap = best_arena - 1;
                cur = decode(&C, 0, cap);
                best_pen = cur;
                for (uint32_t i = 0; i < CLIMB_LAHC_LEN; i++) hist[i] = cur;
            }
        } else { /* undo */
            memcpy(C.perm + p, save + p, (size_t)(q - p + 1) * sizeof *save);
            for (uint32_t i = p; i < nb; i++) {
                C.pos[C.perm[i]] = i;
                C.off[C.perm[i]] = save_off[i];
                C.over[C.perm[i]] = save_over[i];
            }
            for (uint32_t i = p; i < nb; i++) {
                uint32_t u = C.perm[i];
                int64_t end = C.off[u] + C.tick[u].span;
                C.pen[i + 1] = C.pen[i] + area(&C, u);
                C.top[i + 1] = C.over[u] || end < C.top[i] ? C.top[i] : end;
            }
        }
        *h = cur;
    }
    if (best_arena < arena) {
        for (uint32_t i = 0; i < nb; i++) {
            jobs[i] = G->tick[best[i]];
            off[i] = best_off[best[i]];
        }
        arena = best_arena;
    }
out:
    climb_free(&C);
    free(best);
    free(outs);
    free(save);
    free(best_off);
    free(save_off);
    free(save_over);
    return arena;
}
