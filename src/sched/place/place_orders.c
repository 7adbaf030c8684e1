/* place_orders.c: the orders in which the greedy of place_greedy.c places the
 * buffers (TFLite's, XLA's two, TVM's by conflicts, a few more) and the loop that
 * runs it in several ways and keeps the smallest plan. Exports place_greedy_order
 * and place_greedy_orders (place_internal.h). */
#include "place_internal.h"
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* How each way is named in pl->detail when its plan wins: [fit][order]. */
static const char *const way_names[PLACE_NFITS][PLACE_NORDERS] = {
    {"greedy by size (TFLite's order: size, then first use)",
     "greedy by size in XLA's temporal order (lifetime length, then size)",
     "greedy by size in XLA's spatial order (size, then lifetime length)",
     "greedy by size in order of size x lifetime", "greedy by size in order of first use",
     "greedy by size in TVM's order of conflicts (lifetimes met, then size)"},
    {"XLA's best fit in order of size, then first use",
     "XLA's best fit in its temporal order (lifetime length, then size)",
     "XLA's best fit in its spatial order (size, then lifetime length)",
     "XLA's best fit in order of size x lifetime", "XLA's best fit in order of first use",
     "XLA's best fit in TVM's order of conflicts"},
    {"the lowest fitting offset in order of size, then first use",
     "the lowest fitting offset in order of lifetime length, then size",
     "the lowest fitting offset in order of size, then lifetime length",
     "the lowest fitting offset in order of size x lifetime",
     "the lowest fitting offset in order of first use",
     "greedy by conflicts (TVM's order: lifetimes met, then size; the lowest fitting offset)"},
};

typedef struct order_key {
    int64_t k[3];
    place_job j;
} order_key;

static int key_less(const order_key *x, const order_key *y)
{
    if (x->k[0] != y->k[0]) return x->k[0] < y->k[0];
    if (x->k[1] != y->k[1]) return x->k[1] < y->k[1];
    return x->k[2] < y->k[2];
}

/* Insertion sort for short runs, else quicksort (median of three), looping
 * on the larger side. */
static void sort_keys(order_key *a, uint32_t k)
{
    order_key t;
    while (k > 16) {
        order_key *m = a + k / 2, *z = a + k - 1;
        if (key_less(m, a)) {
            t = *m;
            *m = *a;
            *a = t;
        }
        if (key_less(z, m)) {
            t = *z;
            *z = *m;
            *m = t;
            if (key_less(m, a)) {
                t = *m;
                *m = *a;
                *a = t;
            }
        }
        order_key pv = *m;
        uint32_t i = 0, j = k - 1;
        for (;;) {
            while (key_less(&a[i], &pv)) i++;
            while (key_less(&pv, &a[j])) j--;
            if (i >= j) break;
            t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
        uint32_t left = j + 1, right = k - j - 1;
        if (left < right) {
            sort_keys(a, left);
            a += left;
            k = right;
        } else {
            sort_keys(a + left, right);
            k = left;
        }
    }
    for (uint32_t i = 1; i < k; i++) {
        t = a[i];
        uint32_t j = i;
        for (; j > 0 && key_less(&t, &a[j - 1]); j--) a[j] = a[j - 1];
        a[j] = t;
    }
}

int place_greedy_order(place_greedy *G, int which, place_job *jobs)
{
    uint32_t nb = G->nb, *ends = NULL;
    order_key *keys = malloc(((size_t)nb + 1) * sizeof *keys);
    if (!keys) return -1;
    if (which == PLACE_ORDER_CONFLICTS) {
        /* ends[t]: the lifetimes that end at or before tick t. A lifetime
         * [a, f) meets those that start before f (f of them, itself
         * included) less those ended by a. */
        ends = calloc((size_t)nb + 1, sizeof *ends);
        if (!ends) {
            free(keys);
            return -1;
        }
        for (uint32_t i = 0; i < nb; i++) ends[G->tick[i].f]++;
        for (uint32_t t = 1; t <= nb; t++) ends[t] += ends[t - 1];
    }
    for (uint32_t i = 0; i < nb; i++) {
        const place_job *j = &G->tick[i];
        int64_t a = G->lt->alloc_step[j->b], len = place_width(G->g, G->lt, j->b), sz = j->span;
        order_key *k = &keys[i];
        k->j = *j;
        switch (which) {
        case PLACE_ORDER_SIZE:
            k->k[0] = -sz;
            k->k[1] = a;
            k->k[2] = 0;
            break;
        case PLACE_ORDER_LIFETIME:
            k->k[0] = -len;
            k->k[1] = -sz;
            k->k[2] = a;
            break;
        case PLACE_ORDER_SPATIAL:
            k->k[0] = -sz;
            k->k[1] = -len;
            k->k[2] = a;
            break;
        case PLACE_ORDER_AREA: {
            /* size x length, as a double: exact enough for an order */
            double ar = (double)sz * (double)len;
            k->k[0] = ar >= 9.2e18 ? INT64_MIN : -(int64_t)ar;
            k->k[1] = -sz;
            k->k[2] = a;
            break;
        }
        case PLACE_ORDER_CONFLICTS:
            k->k[0] = -((int64_t)j->f - (int64_t)ends[j->a] - 1);
            k->k[1] = -sz;
            k->k[2] = a;
            break;
        default:
            k->k[0] = a;
            k->k[1] = 0;
            k->k[2] = 0;
            break;
        }
    }
    sort_keys(keys, nb);
    for (uint32_t i = 0; i < nb; i++) jobs[i] = keys[i].j;
    free(keys);
    free(ends);
    return 0;
}

int place_greedy_orders(place_greedy *G, const place_way *ways, int nways, int64_t goal,
                        int64_t *arena, placement *pl, place_way *won, place_job *best_jobs,
                        int64_t *best_off, char *err, size_t errcap)
{
    const graph *g = G->g;
    place_job *jobs = malloc(((size_t)G->nb + 1) * sizeof *jobs);
    int64_t *off = malloc(((size_t)G->nb + 1) * sizeof *off);
    int rc = 0;
    if (!jobs || !off) {
        rc = place_oom(g, err, errcap);
        goto out;
    }
    int64_t best = *arena;
    uint32_t bad = NONE; /* the buffer that passed 2^63-1 bytes in the first way that failed */
    int gave_up = 0;
    for (int w = 0; w < nways && (best == INT64_MAX || best > goal); w++) {
        if (place_greedy_order(G, ways[w].order, jobs)) {
            rc = place_oom(g, err, errcap);
            goto out;
        }
        G->fit = ways[w].fit;
        uint32_t b = NONE;
        int64_t a = place_greedy_run(G, jobs, 0, off, best == INT64_MAX ? INT64_MAX : best - 1, &b);
        if (a == -3) {
            rc = place_oom(g, err, errcap);
            goto out;
        }
        if (a == -4) {
            gave_up = 1;
            break;
        }
        if (a == -1 && bad == NONE) bad = b;
        if (a >= 0 && a < best) {
            best = a;
            for (uint32_t i = 0; i < G->nb; i++) pl->offset[jobs[i].b] = off[i];
            if (best_jobs) {
                memcpy(best_jobs, jobs, G->nb * sizeof *jobs);
                memcpy(best_off, off, G->nb * sizeof *off);
            }
            if (won) *won = ways[w];
            pl->detail = way_names[ways[w].fit][ways[w].order];
        }
    }
    if (best == INT64_MAX && G->nb && gave_up) rc = -3;
    else if (best == INT64_MAX && G->nb) rc = place_too_big(g, bad, err, errcap) - 1;
    else *arena = best == INT64_MAX ? 0 : best;
out:
    free(jobs);
    free(off);
    return rc;
}
