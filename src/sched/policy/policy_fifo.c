/* policy_fifo.c: policy "fifo", Kahn's algorithm with a FIFO queue: the key is
 * the order a node became ready. Exports policy_fifo. */
#include "policy_internal.h"
#include <stdio.h>

static void fifo_key(POLICY_KEY_ARGS)
{
    (void)r;
    (void)g;
    (void)i;
    k[0] = seq;
    k[1] = 0;
    k[2] = 0;
}

static void fifo_why(POLICY_WHY_ARGS)
{
    (void)v;
    uint32_t since = 0; /* the step of its last predecessor's pop */
    for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++)
        if (r->pos[g->pred[e]] + 1 > since) since = r->pos[g->pred[e]] + 1;
    if (since) snprintf(out, cap, "first in the queue of %u, waiting since step %u", nready, since);
    else snprintf(out, cap, "first in the queue of %u, ready since the start", nready);
}

const policy policy_fifo = {
    .name = "fifo",
    .desc = "first in, first out: Kahn's algorithm, ready nodes run in the order they became "
            "ready",
    .key = fifo_key,
    .kind = POLICY_HEURISTIC,
    .nkeys = 1,
    .key_names = {"queued", NULL, NULL},
    .why = fifo_why};
