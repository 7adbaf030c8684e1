/* load_fields.c: decoding the node fields that need no more than the field itself ("Rerun",
 * a compute node's say on whether a memory budget's plan may run it again). Exports
 * load_field_*. */
#include "load_fields.h"
#include <stdio.h>
#include "graph.h"
#include "util/json.h"

int load_field_rerun(const cJSON *v, int kind, int *rerun, char *why, size_t cap)
{
    if (kind != NODE_COMPUTE) {
        snprintf(why, cap, "\"Rerun\" belongs on a compute node, not on %s",
                 kind == NODE_FREE ? "a FREE" : "an ALLOC");
        return -1;
    }
    if (!cJSON_IsBool(v)) {
        snprintf(why, cap, "\"Rerun\" must be true or false, found %s", json_type_word(v));
        return -1;
    }
    *rerun = cJSON_IsTrue(v) ? GRAPH_RERUN_YES : GRAPH_RERUN_NO;
    return 0;
}
