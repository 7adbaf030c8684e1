/* policy_priority.c: policy "priority", the seed's memory-aware order: a
 * min-heap of (change, type, id), FREE < compute < ALLOC. Exports
 * policy_priority. */
#include "policy_internal.h"
#include <inttypes.h>
#include <stdio.h>
#include "util/units.h"

static void priority_key(POLICY_KEY_ARGS)
{
    (void)r;
    (void)seq;
    k[0] = g->change[i];
    k[1] = g->kind[i];
    k[2] = g->id[i];
}

static void priority_why(POLICY_WHY_ARGS)
{
    (void)r;
    char ch[32], lb[GRAPH_LABEL_MAX];
    if (g->change[u] < g->change[v])
        snprintf(out, cap, "the smallest change of %u ready; next best node %" PRId64 " (%s, %s)",
                 nready, g->id[v], graph_label(g, v, lb, sizeof lb),
                 units_bytes(ch, sizeof ch, g->change[v], 1));
    else if (g->kind[u] < g->kind[v])
        snprintf(out, cap,
                 "ties on change with node %" PRId64
                 " (%s); FREE < compute < ALLOC when changes tie",
                 g->id[v], graph_label(g, v, lb, sizeof lb));
    else
        snprintf(out, cap, "ties on change and type with %" PRId64 "; the smaller id wins",
                 g->id[v]);
}

const policy policy_priority = {
    .name = "priority",
    .desc = "memory-aware priority order: the ready node whose change to live memory is least "
            "runs first, a min-heap of (change, type, id), FREE < compute < ALLOC",
    .key = priority_key,
    .kind = POLICY_HEURISTIC,
    .nkeys = 3,
    .key_names = {"change", "type", "id"},
    .why = priority_why};
