/* place_orders.c: the orders in which the greedy of place_greedy.c places the
 * buffers (TFLite's, XLA's two, TVM's by conflicts, a few more) and the names of
 * its ways. Exports place_greedy_order and place_way_name (place_internal.h). */
#include "place_internal.h"
#include "util/sort.h"
#include <stdlib.h>
#include <string.h>

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

#define KEY_LESS(x, y) key_less(x, y)
SORT_DEFINE(sort_keys, order_key, KEY_LESS)

/* Past this many keys the sort reads the watcher and the deadline before
 * each partition: every few milliseconds at 10^6 buffers. */
#define ORDER_CHECK_KEYS 65536u

static void swap_keys(order_key *x, order_key *y)
{
    order_key t = *x;
    *x = *y;
    *y = t;
}

/* sort_keys (the same quicksort) that reads c's watcher and deadline before
 * each partition of more than ORDER_CHECK_KEYS keys: 0 sorted, or 1 stopped
 * with a[0..k) in no order. */
static int sort_keys_until(order_key *a, uint32_t k, const solve_ctx *c)
{
    while (k > ORDER_CHECK_KEYS) {
        if (solve_cancelled(c) || solve_expired(c)) return 1;
        order_key *m = a + k / 2, *z = a + k - 1;
        if (key_less(m, a)) swap_keys(m, a);
        if (key_less(z, m)) {
            swap_keys(z, m);
            if (key_less(m, a)) swap_keys(m, a);
        }
        order_key pv = *m;
        uint32_t i = 0, j = k - 1;
        for (;;) {
            while (key_less(&a[i], &pv)) i++;
            while (key_less(&pv, &a[j])) j--;
            if (i >= j) break;
            swap_keys(&a[i++], &a[j--]);
        }
        uint32_t left = j + 1, right = k - j - 1; /* a[0..j] <= pv <= a[j+1..k) */
        if (left < right) {
            if (sort_keys_until(a, left, c)) return 1;
            a += left;
            k = right;
        } else {
            if (sort_keys_until(a + left, right, c)) return 1;
            k = left;
        }
    }
    sort_keys(a, k);
    return 0;
}

int place_greedy_order(const place_greedy *G, int which, place_job *jobs)
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
    int cut = 0; /* the watcher or the deadline, read every 65536 keys: the jobs in tick order */
    for (uint32_t i = 0; i < nb && !cut; i++) {
        if (i && !(i & 65535) && (solve_cancelled(G->ctx) || solve_expired(G->ctx))) cut = 1;
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
    cut = cut || sort_keys_until(keys, nb, G->ctx);
    for (uint32_t i = 0; i < nb; i++) jobs[i] = cut ? G->tick[i] : keys[i].j;
    free(keys);
    free(ends);
    return cut;
}

const char *place_way_name(place_way w) { return way_names[w.fit][w.order]; }
