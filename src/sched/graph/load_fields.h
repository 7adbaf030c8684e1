/* load_fields.h: decoding the node fields that load.c's walk hands over one at a time and
 * that need no more than the field itself: "Rerun", "InPlace", integers; a node's members
 * found. Internal to the loader. Exports load_field_*, node_members. */
#ifndef MEMTRIS_LOAD_FIELDS_H
#define MEMTRIS_LOAD_FIELDS_H
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* A node's "Rerun" (v), on a node of kind NODE_*: 0 with *rerun set (GRAPH_RERUN_NO for
 * false, GRAPH_RERUN_YES for true), or -1 with why (cap bytes) finishing the message
 * "Nodes[i] (Id x): " (a boolean on a compute node only). */
int load_field_rerun(const cJSON *v, int kind, int *rerun, char *why, size_t cap);

/* A node's "InPlace" (v): the buffer ids, each one of its Inputs (in), that a compute node
 * changes in place. 0, or -1 with why as load_field_rerun's. */
int load_field_inplace(const cJSON *v, int kind, const cJSON *in, char *why, size_t cap);
/* Whether a valid "InPlace" (v) names buffer id. */
int load_field_inplace_has(const cJSON *v, int64_t id);

/* A node's members that memtris reads, found in one pass over the object;
 * the first of a repeated key wins. */
typedef struct node_members {
    const cJSON *id, *op, *size, *buf, *name, *in, *lat, *str, *cat, *phase, *rerun, *inplace;
} node_members;
void load_field_members(const cJSON *v, node_members *m);

/* 0 and *out set when v is an integer in [0, 2^53-1]; -1 otherwise. */
int load_field_uint53(const cJSON *v, int64_t *out);
/* Describes why v is not an integer in [0, 2^53-1]: "found -3", "found a string". */
void load_field_bad_int(const cJSON *v, char *out, size_t cap);

#endif
