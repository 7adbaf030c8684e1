/* load_fields.c: decoding the node fields that need no more than the field itself ("Rerun",
 * a compute node's say on whether a memory budget's plan may run it again; integers up to
 * 2^53-1). Exports load_field_*. */
#include "load_fields.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
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

/* v as a buffer id (an integer in [0, 2^53-1]), or -1. */
static double as_bufid(const cJSON *v)
{
    if (!cJSON_IsNumber(v)) return -1;
    double x = v->valuedouble;
    return isfinite(x) && x == floor(x) && x >= 0 && x <= 9007199254740991.0 ? x : -1;
}

int load_field_inplace(const cJSON *v, int kind, const cJSON *in, char *why, size_t cap)
{
    if (kind != NODE_COMPUTE) {
        snprintf(why, cap, "\"InPlace\" belongs on a compute node, not on %s",
                 kind == NODE_FREE ? "a FREE" : "an ALLOC");
        return -1;
    }
    if (!cJSON_IsArray(v)) {
        snprintf(why, cap, "\"InPlace\" must be an array of buffer ids, found %s",
                 json_type_word(v));
        return -1;
    }
    size_t k = 0;
    for (const cJSON *e = v->child; e; e = e->next, k++) {
        double id = as_bufid(e);
        if (id < 0) {
            snprintf(why, cap, "InPlace[%zu] must be a buffer id, found %s", k,
                     cJSON_IsNumber(e) ? "a number that is not one" : json_type_word(e));
            return -1;
        }
        const cJSON *f = cJSON_IsArray(in) ? in->child : NULL;
        while (f && as_bufid(f) != id) f = f->next;
        if (!f) {
            snprintf(why, cap, "InPlace[%zu]: buffer %.0f is not one of its Inputs", k, id);
            return -1;
        }
    }
    return 0;
}

int load_field_inplace_has(const cJSON *v, int64_t id)
{
    for (const cJSON *e = v->child; e; e = e->next)
        if (as_bufid(e) == (double)id) return 1;
    return 0;
}

/* Describes why v is not an integer in [0, 2^53-1]: "found -3", "found a string". */
void load_field_bad_int(const cJSON *v, char *out, size_t cap)
{
    if (!cJSON_IsNumber(v)) {
        snprintf(out, cap, "found %s", json_type_word(v));
        return;
    }
    double x = v->valuedouble;
    if (!isfinite(x)) snprintf(out, cap, "found a number out of range");
    else if (x != floor(x)) snprintf(out, cap, "found %.17g, which is not an integer", x);
    else if (x < 0) snprintf(out, cap, "found %.17g, which is negative", x);
    else snprintf(out, cap, "found %.17g, which is above 2^53-1", x);
}

/* 0 and *out set when v is an integer in [0, 2^53-1]; -1 otherwise. */
int load_field_uint53(const cJSON *v, int64_t *out)
{
    if (!cJSON_IsNumber(v)) return -1;
    double x = v->valuedouble;
    if (!isfinite(x) || x != floor(x) || x < 0 || x > (double)GRAPH_MAX_SIZE) return -1;
    *out = (int64_t)x;
    return 0;
}

void load_field_members(const cJSON *v, node_members *m)
{
    memset(m, 0, sizeof *m);
    for (const cJSON *c = v->child; c; c = c->next) {
        const char *k = c->string;
        const cJSON **slot = NULL;
        switch (k[0]) {
        case 'I':
            slot = !strcmp(k, "Id")        ? &m->id
                   : !strcmp(k, "Inputs")  ? &m->in
                   : !strcmp(k, "InPlace") ? &m->inplace
                                           : NULL;
            break;
        case 'O': slot = !strcmp(k, "Op") ? &m->op : NULL; break;
        case 'S':
            slot = !strcmp(k, "Size") ? &m->size : !strcmp(k, "Stream") ? &m->str : NULL;
            break;
        case 'B': slot = !strcmp(k, "BufId") ? &m->buf : NULL; break;
        case 'N': slot = !strcmp(k, "Name") ? &m->name : NULL; break;
        case 'L': slot = !strcmp(k, "Latency") ? &m->lat : NULL; break;
        case 'C': slot = !strcmp(k, "Category") ? &m->cat : NULL; break;
        case 'P': slot = !strcmp(k, "Phase") ? &m->phase : NULL; break;
        case 'R': slot = !strcmp(k, "Rerun") ? &m->rerun : NULL; break;
        }
        if (slot && !*slot) *slot = c;
    }
}
