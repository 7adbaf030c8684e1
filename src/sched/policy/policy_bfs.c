/* policy_bfs.c: policy "bfs", PyTorch Inductor's topological_sort_bfs: the
 * ready node whose predecessors ran earliest pops first (their steps, sorted,
 * compared as a list; here the first two, then the Id: the key holds the
 * users' step numbers, 0 for none, which sorts first). Exports
 * policy_bfs. */
#include "policy_internal.h"
#include <inttypes.h>
#include <stdio.h>

static void bfs_key(POLICY_KEY_ARGS)
{
    (void)seq;
    int64_t a = 0, b = 0; /* the two earliest predecessor steps (1-based); 0: none */
    for (uint32_t e = g->pred_off[i]; e < g->pred_off[i + 1]; e++) {
        int64_t s = (int64_t)r->pos[g->pred[e]] + 1;
        if (!a || s < a) {
            b = a;
            a = s;
        } else if (!b || s < b) b = s;
    }
    k[0] = a;
    k[1] = b;
    k[2] = g->id[i];
}

static void bfs_why(POLICY_WHY_ARGS)
{
    int64_t ku[3], kv[3] = {0, 0, 0};
    bfs_key(g, r, u, 0, ku);
    if (v != GRAPH_NONE) bfs_key(g, r, v, 0, kv);
    char lb[GRAPH_LABEL_MAX];
    if (!ku[0]) snprintf(out, cap, "no predecessor: it was ready from the start; %u ready", nready);
    else if (v != GRAPH_NONE && (kv[0] != ku[0] || kv[1] != ku[1]))
        snprintf(out, cap,
                 "its predecessors ran earliest (step %" PRId64 "%s); node %" PRId64
                 " (%s) waited on step %" PRId64,
                 ku[0], ku[1] ? " first" : "", g->id[v], graph_label(g, v, lb, sizeof lb),
                 kv[0] == ku[0] ? kv[1] : kv[0]);
    else
        snprintf(out, cap, "its predecessors ran earliest (step %" PRId64 "), the smaller id of %u",
                 ku[0], nready);
}

const policy policy_bfs = {.name = "bfs",
                           .desc = "Inductor's BFS: the ready node whose predecessors ran earliest",
                           .key = bfs_key,
                           .kind = POLICY_HEURISTIC,
                           .nkeys = 3,
                           .key_names = {"first", "second", "id"},
                           .why = bfs_why};
