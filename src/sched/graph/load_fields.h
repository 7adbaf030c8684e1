/* load_fields.h: decoding the node fields that load.c's walk hands over one at a time and
 * that need no more than the field itself: "Rerun". Internal to the loader. Exports
 * load_field_*. */
#ifndef MEMTRIS_LOAD_FIELDS_H
#define MEMTRIS_LOAD_FIELDS_H
#include <cjson/cJSON.h>
#include <stddef.h>

/* A node's "Rerun" (v), on a node of kind NODE_*: 0 with *rerun set (GRAPH_RERUN_NO for
 * false, GRAPH_RERUN_YES for true), or -1 with why (cap bytes) finishing the message
 * "Nodes[i] (Id x): " (a boolean on a compute node only). */
int load_field_rerun(const cJSON *v, int kind, int *rerun, char *why, size_t cap);

#endif
