/* load.c: reads a graph (a file, "-" or a buffer): first by the single pass (load_fast.c; a
 * regular file in windows), and when that gives up: the whole text's JSON syntax checked, then
 * walked with cJSON one node or edge at a time (one small tree alive at once) decoding each into
 * the builder of graph_build.c; then has the graph validated (validate.c). Exports load_*. */
#define _GNU_SOURCE
#include "load.h"
#include "util/clock.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "graph_build.h"
#include "load_fast.h"
#include "load_fields.h"
#include "util/fileio.h"
#include "util/jscan.h"
#include "util/json.h"
#include "util/textpos.h"
#include "util/utf8.h"
#include "validate.h"

/* The walk over the text, and the builder it fills. */
typedef struct reader {
    graph_builder b;
    diag *d;
    const load_opts *opts;
    const char *text;
    size_t len;
    textpos tp; /* line/column of places in text, for messages */
    size_t next_progress;
    double parse_s; /* time in cJSON (parse and delete), sampled */
    size_t nvalues;
    int timing; /* this value is timed */
    int seen_nodes, seen_edges, seen_measured;
    int64_t measured_peak; /* "Measured": -1 absent */
    char *measured_how;
} reader;

static void where(reader *r, const char *p, unsigned long *line, unsigned long *col)
{
    textpos_at(&r->tp, p, line, col);
}

#define ERR_AT(r, p, cls, ...)                                    \
    do {                                                          \
        unsigned long l_, c_;                                     \
        where((r), (p), &l_, &c_);                                \
        diag_add((r)->d, DIAG_ERROR, (cls), l_, c_, __VA_ARGS__); \
    } while (0)
#define ERR(r, cls, ...) diag_add((r)->d, DIAG_ERROR, (cls), 0, 0, __VA_ARGS__)

/* ------------------------------------------------------------ JSON bits */

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* Reports what jscan_value refused (rc, its result) at p (at the end of the
 * input: a truncation): a syntax error, or valid JSON memtris cannot keep (a
 * \u0000 in a string, JSCAN_NUL). */
static void scan_error(reader *r, const char *p, const char *what, int rc)
{
    jscan_report rep;
    jscan_report_at(&r->tp, p, what, &rep);
    diag_add(r->d, DIAG_ERROR, rc == JSCAN_NUL ? DC_FIELD : DC_SYNTAX, rep.line, rep.col, "%s%s",
             rc == JSCAN_NUL ? "" : "invalid JSON: ", rep.msg);
}

static void syntax_error(reader *r, const char *p, const char *what) { scan_error(r, p, what, -1); }

/* Parses one JSON value at p; on failure reports where and why (cJSON only
 * says roughly where, so jscan finds the exact place) and returns NULL. */
static cJSON *parse_value(reader *r, const char *p, const char **after)
{
    const char *end = r->text + r->len;
    const char *stop = NULL;
    /* Timing every value costs more than the work measured: time them all
     * for the first 4096, then 1 in 16 and scale. */
    r->timing = r->nvalues < 4096 || (r->nvalues & 15) == 0;
    double weight = r->nvalues < 4096 ? 1 : 16;
    r->nvalues++;
    double t0 = r->timing ? clock_seconds() : 0;
    cJSON *v = cJSON_ParseWithLengthOpts(p, (size_t)(end - p), &stop, 0);
    if (r->timing) r->parse_s += (clock_seconds() - t0) * weight;
    if (!v) {
        const char *where, *what;
        int rc = jscan_value(p, end, &where, &what);
        if (rc == 0) {
            where = stop && stop >= p && stop <= end ? stop : p;
            what = "cJSON cannot parse this value";
            rc = -1;
        }
        scan_error(r, where, what, rc);
        return NULL;
    }
    *after = stop;
    return v;
}

/* Frees a value from parse_value, timing it like its parse. */
static void drop_value(reader *r, cJSON *v)
{
    if (!r->timing) {
        cJSON_Delete(v);
        return;
    }
    double t0 = clock_seconds();
    cJSON_Delete(v);
    r->parse_s += (clock_seconds() - t0) * (r->nvalues <= 4096 ? 1 : 16);
}

#define type_word json_type_word

#define describe_bad_int load_field_bad_int
#define get_uint53       load_field_uint53

/* ----------------------------------------------------------- nodes */

#define find_members load_field_members

/* Node errors start "Nodes[3] (Id 7)"; formatted only when one is reported. */
#define LAB  "Nodes[%zu] (Id %lld)"
#define LABV index, (long long)s->id

/* "Id" and "Op", which every later message names: 0, or -1 after an error. */
static int decode_id_op(reader *r, const node_members *m, const char *at, size_t index,
                        graph_node_spec *s)
{
    char why[96];
    if (!m->id) {
        ERR_AT(r, at, DC_FIELD, "Nodes[%zu] has no \"Id\"", index);
        return -1;
    }
    if (get_uint53(m->id, &s->id)) {
        describe_bad_int(m->id, why, sizeof why);
        ERR_AT(r, at, DC_FIELD, "Nodes[%zu]: \"Id\" must be a non-negative integer; %s", index,
               why);
        return -1;
    }
    if (!m->op) {
        ERR_AT(r, at, DC_FIELD, LAB " has no \"Op\"", LABV);
        return -1;
    }
    if (!cJSON_IsString(m->op)) {
        ERR_AT(r, at, DC_FIELD, LAB ": \"Op\" must be a string, found %s", LABV, type_word(m->op));
        return -1;
    }
    s->op = m->op->valuestring;
    s->kind = strcmp(s->op, "ALLOC") == 0  ? NODE_ALLOC
              : strcmp(s->op, "FREE") == 0 ? NODE_FREE
                                           : NODE_COMPUTE;
    return 0;
}

/* "BufId" and "Size" of an ALLOC or a FREE: 0, or -1 after reporting each
 * field that is wrong. */
static int decode_buffer(reader *r, const node_members *m, const char *at, size_t index,
                         graph_node_spec *s)
{
    char why[96];
    int bad = 0;
    s->size = s->bufid = -1;
    if (s->kind == NODE_COMPUTE) return 0;
    if (!m->buf) {
        char op[64]; /* the node's Op, made printable */
        ERR_AT(r, at, DC_FIELD, LAB ": %s has no \"BufId\"", LABV,
               utf8_printable(s->op, op, sizeof op));
        bad = -1;
    } else if (get_uint53(m->buf, &s->bufid)) {
        describe_bad_int(m->buf, why, sizeof why);
        ERR_AT(r, at, DC_FIELD, LAB ": \"BufId\" must be a non-negative integer; %s", LABV, why);
        bad = -1;
    }
    if (s->kind == NODE_ALLOC && !m->size) {
        ERR_AT(r, at, DC_FIELD, LAB ": ALLOC has no \"Size\"", LABV);
        bad = -1;
    }
    if (m->size && get_uint53(m->size, &s->size)) {
        describe_bad_int(m->size, why, sizeof why);
        ERR_AT(r, at, DC_FIELD,
               LAB ": \"Size\" must be an integer number of bytes from 0 to 2^53-1; %s", LABV, why);
        bad = -1;
    }
    return bad;
}

/* The optional "Name", "Inputs", "Latency" and "Stream": 0, or -1 after
 * reporting each one that is wrong. */
static int decode_optional(reader *r, const node_members *m, const char *at, size_t index,
                           graph_node_spec *s)
{
    char why[96];
    int bad = 0;
    if (m->name && !cJSON_IsString(m->name)) {
        ERR_AT(r, at, DC_FIELD, LAB ": \"Name\" must be a string, found %s", LABV,
               type_word(m->name));
        bad = -1;
    }
    s->name = m->name ? m->name->valuestring : NULL;
    if (m->in && !cJSON_IsArray(m->in)) {
        ERR_AT(r, at, DC_FIELD, LAB ": \"Inputs\" must be an array of buffer ids, found %s", LABV,
               type_word(m->in));
        bad = -1;
    } else if (m->in) {
        int64_t x;
        size_t k = 0;
        for (const cJSON *e = m->in->child; e; e = e->next, k++)
            if (get_uint53(e, &x)) {
                describe_bad_int(e, why, sizeof why);
                ERR_AT(r, at, DC_FIELD, LAB ": Inputs[%zu] must be a buffer id; %s", LABV, k, why);
                bad = -1;
                break;
            }
        s->ninputs = k;
    }
    const cJSON *lat = m->lat;
    if (lat && (!cJSON_IsNumber(lat) || !(lat->valuedouble >= 0) ||
                lat->valuedouble > GRAPH_MAX_LATENCY)) {
        ERR_AT(r, at, DC_FIELD,
               LAB ": \"Latency\" must be a non-negative number of ms up to 1e9, found %s", LABV,
               !cJSON_IsNumber(lat)      ? type_word(lat)
               : lat->valuedouble < 0    ? "a negative number"
               : isnan(lat->valuedouble) ? "not a number"
                                         : "a larger number");
        bad = -1;
    }
    s->has_latency = lat != NULL;
    s->latency = lat ? lat->valuedouble : 0;
    s->stream = -1;
    if (m->str && get_uint53(m->str, &s->stream)) {
        describe_bad_int(m->str, why, sizeof why);
        ERR_AT(r, at, DC_FIELD, LAB ": \"Stream\" must be a non-negative integer; %s", LABV, why);
        bad = -1;
    } else if (s->stream > GRAPH_MAX_STREAM) {
        ERR_AT(r, at, DC_FIELD, LAB ": \"Stream\" must be 0..%d, found %lld", LABV,
               GRAPH_MAX_STREAM, (long long)s->stream);
        bad = -1;
    }
    return bad;
}

/* The optional "Category" (ALLOC) and "Phase" (compute): 0, or -1 after reporting what
 * is wrong. */
static int decode_tag(reader *r, const node_members *m, const char *at, size_t index,
                      graph_node_spec *s)
{
    int bad = 0;
    char word[64];
    const cJSON *f[2] = {m->cat, m->phase};
    static const char *const key[2] = {"Category", "Phase"};
    static const char *const list[2] = {
        "input, weight, gradient, optimizer, activation, workspace or output",
        "forward, backward or optimizer"};
    static const char *const owner[2] = {"an ALLOC", "a compute node"};
    for (int k = 0; k < 2; k++) {
        if (!f[k]) continue;
        int owns = k == 0 ? s->kind == NODE_ALLOC : s->kind == NODE_COMPUTE;
        if (!owns) {
            ERR_AT(r, at, DC_FIELD, LAB ": \"%s\" belongs on %s, not on %s", LABV, key[k], owner[k],
                   s->kind == NODE_FREE    ? "a FREE"
                   : s->kind == NODE_ALLOC ? "an ALLOC"
                                           : "a compute node");
            bad = -1;
            continue;
        }
        int v = !cJSON_IsString(f[k]) ? -2
                : k == 0              ? graph_category_parse(f[k]->valuestring)
                                      : graph_phase_parse(f[k]->valuestring);
        if (v == -2)
            ERR_AT(r, at, DC_FIELD, LAB ": \"%s\" must be a string (%s), found %s", LABV, key[k],
                   list[k], type_word(f[k]));
        else if (v < 0)
            ERR_AT(r, at, DC_FIELD, LAB ": unknown %s \"%s\"; it must be %s", LABV, key[k],
                   utf8_printable(f[k]->valuestring, word, sizeof word), list[k]);
        if (v < 0) bad = -1;
        else s->tag = v;
    }
    return bad;
}

/* Adds a decoded node to the builder: its Inputs, and its buffer. */
static void store_node(reader *r, const graph_node_spec *s, const node_members *m, const char *at,
                       size_t index)
{
    uint32_t dup, other;
    int64_t *in;
    uint32_t i = graph_build_node(&r->b, s, (uint32_t)index, &dup, &in);
    if (i == GRAPH_NONE) {
        if (dup != GRAPH_NONE)
            ERR_AT(r, at, DC_DUP_ID, "duplicate Id %lld: Nodes[%u] and Nodes[%zu] both use it",
                   (long long)s->id, dup, index);
        return;
    }
    if (s->ninputs) {
        size_t base = r->b.in_off[i], k = 0;
        for (const cJSON *e = m->in->child; e; e = e->next, k++) {
            get_uint53(e, in + k);
            if (m->inplace && load_field_inplace_has(m->inplace, in[k]) &&
                graph_build_inplace(&r->b, base + k))
                return;
        }
    }
    if (s->kind == NODE_COMPUTE) return;
    switch (graph_build_buffer(&r->b, i, s->bufid, s->size, &other)) {
    case GRAPH_BUILD_ALLOC_TWICE:
        ERR_AT(r, at, DC_BUFFER, "buffer %lld is allocated twice: ALLOC nodes %lld and %lld",
               (long long)s->bufid, (long long)r->b.id[other], (long long)s->id);
        break;
    case GRAPH_BUILD_FREE_TWICE:
        ERR_AT(r, at, DC_BUFFER, "buffer %lld is freed twice: FREE nodes %lld and %lld",
               (long long)s->bufid, (long long)r->b.id[other], (long long)s->id);
        break;
    default: break;
    }
}

/* Nodes[index], the value v at `at` in the text. */
static void add_node(reader *r, const cJSON *v, const char *at, size_t index)
{
    if (!cJSON_IsObject(v)) {
        ERR_AT(r, at, DC_FIELD, "Nodes[%zu] must be an object, found %s", index, type_word(v));
        return;
    }
    node_members m;
    graph_node_spec s;
    memset(&s, 0, sizeof s);
    find_members(v, &m);
    if (decode_id_op(r, &m, at, index, &s)) return;
    int bad = decode_buffer(r, &m, at, index, &s);
    bad |= decode_optional(r, &m, at, index, &s);
    bad |= decode_tag(r, &m, at, index, &s);
    char why[96];
    if (m.rerun && load_field_rerun(m.rerun, s.kind, &s.rerun, why, sizeof why)) {
        ERR_AT(r, at, DC_FIELD, LAB ": %s", index, (long long)s.id, why);
        bad = -1;
    }
    if (m.inplace && load_field_inplace(m.inplace, s.kind, m.in, why, sizeof why)) {
        ERR_AT(r, at, DC_FIELD, LAB ": %s", index, (long long)s.id, why);
        bad = -1;
    }
    if (!bad) store_node(r, &s, &m, at, index);
}

/* Edges[index], the value v at `at` in the text. */
static void add_edge(reader *r, const cJSON *v, const char *at, size_t index)
{
    int64_t u, w;
    char why[96];
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2) {
        ERR_AT(r, at, DC_FIELD, "Edges[%zu] must be a pair [u, v] of node ids, found %s%s", index,
               cJSON_IsArray(v) ? "an array of " : type_word(v),
               cJSON_IsArray(v)
                   ? (cJSON_GetArraySize(v) < 2 ? "fewer than 2 items" : "more than 2 items")
                   : "");
        return;
    }
    const cJSON *a = v->child, *c = v->child->next;
    if (get_uint53(a, &u) || get_uint53(c, &w)) {
        describe_bad_int(get_uint53(a, &u) ? a : c, why, sizeof why);
        ERR_AT(r, at, DC_FIELD, "Edges[%zu]: node ids must be non-negative integers; %s", index,
               why);
        return;
    }
    graph_build_edge(&r->b, u, w);
}

/* ------------------------------------------------------ document walk */

static void progress(reader *r, const char *p)
{
    if (!r->opts || !r->opts->progress) return;
    size_t off = (size_t)(p - r->text);
    if (off < r->next_progress) return;
    r->opts->progress(r->opts->progress_ctx, off, r->len);
    r->next_progress = off + (r->len / 100 > 65536 ? r->len / 100 : 65536);
}

/* Walks the array at p ('[' expected), calling fn for each element. Returns
 * the position after ']' or NULL after reporting an error. */
static const char *walk_array(reader *r, const char *p, const char *key,
                              void (*fn)(reader *, const cJSON *, const char *, size_t))
{
    const char *end = r->text + r->len;
    if (*p != '[') {
        const char *after;
        cJSON *v = parse_value(r, p, &after);
        if (!v) return NULL;
        ERR_AT(r, p, DC_FIELD, "\"%s\" must be an array, found %s", key, type_word(v));
        cJSON_Delete(v);
        return NULL;
    }
    p = skip_ws(p + 1, end);
    if (p < end && *p == ']') return p + 1;
    for (size_t i = 0;; i++) {
        const char *after;
        cJSON *v = parse_value(r, p, &after);
        if (!v) return NULL;
        fn(r, v, p, i);
        drop_value(r, v);
        if (r->b.oom) return NULL;
        progress(r, after);
        p = skip_ws(after, end);
        if (p < end && *p == ',') {
            p = skip_ws(p + 1, end);
            continue;
        }
        if (p < end && *p == ']') return p + 1;
        syntax_error(r, p, "expected ',' or ']' after an array element");
        return NULL;
    }
}

/* The top-level "Measured": {"peak": bytes, "how": "..."}, the peak a real run measured. */
static void read_measured(reader *r, const cJSON *v, const char *at)
{
    char why[96];
    const cJSON *peak = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "peak") : NULL;
    const cJSON *how = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "how") : NULL;
    if (r->seen_measured++) {
        ERR_AT(r, at, DC_FIELD, "\"Measured\" appears twice");
        return;
    }
    if (!cJSON_IsObject(v)) {
        ERR_AT(r, at, DC_FIELD,
               "\"Measured\" must be an object {\"peak\": bytes, \"how\": \"...\"}, found %s",
               type_word(v));
        return;
    }
    if (!peak) {
        ERR_AT(r, at, DC_FIELD, "\"Measured\" has no \"peak\"");
        return;
    }
    if (get_uint53(peak, &r->measured_peak)) {
        describe_bad_int(peak, why, sizeof why);
        ERR_AT(r, at, DC_FIELD,
               "\"Measured\": \"peak\" must be an integer number of bytes from 0 to 2^53-1; %s",
               why);
        r->measured_peak = -1;
        return;
    }
    if (how && !cJSON_IsString(how)) {
        ERR_AT(r, at, DC_FIELD, "\"Measured\": \"how\" must be a string, found %s", type_word(how));
        return;
    }
    if (how && !(r->measured_how = strdup(how->valuestring))) r->b.oom = 1;
}

/* Reads the top-level object; 0 on success. */
static int read_document(reader *r)
{
    const char *end = r->text + r->len;
    const char *p = r->text;
    if (r->len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3; /* a UTF-8 byte order mark */
    p = skip_ws(p, end);
    if (p >= end) {
        ERR_AT(r, r->text, DC_SYNTAX,
               "empty input: expected a JSON object with \"Nodes\" and \"Edges\"");
        return -1;
    }
    if (*p != '{') {
        const char *after;
        cJSON *v = parse_value(r, p, &after);
        if (!v) return -1;
        ERR_AT(r, p, DC_SYNTAX,
               "the top level must be an object with \"Nodes\" and \"Edges\", found %s",
               type_word(v));
        cJSON_Delete(v);
        return -1;
    }
    p = skip_ws(p + 1, end);
    if (p < end && *p == '}') p++;
    else
        for (;;) {
            if (p >= end || *p != '"') {
                syntax_error(r, p, "expected a string key");
                return -1;
            }
            const char *after;
            cJSON *k = parse_value(r, p, &after);
            if (!k) return -1;
            int which = strcmp(k->valuestring, "Nodes") == 0      ? 1
                        : strcmp(k->valuestring, "Edges") == 0    ? 2
                        : strcmp(k->valuestring, "Measured") == 0 ? 3
                                                                  : 0;
            cJSON_Delete(k);
            const char *keyat = p;
            p = skip_ws(after, end);
            if (p >= end || *p != ':') {
                syntax_error(r, p, "expected ':' after a key");
                return -1;
            }
            p = skip_ws(p + 1, end);
            if (p >= end) {
                syntax_error(r, p, "expected a value");
                return -1;
            }
            if (which == 1 || which == 2) {
                const char *name = which == 1 ? "Nodes" : "Edges";
                int *seen = which == 1 ? &r->seen_nodes : &r->seen_edges;
                if (*seen) {
                    ERR_AT(r, keyat, DC_FIELD, "\"%s\" appears twice", name);
                    return -1;
                }
                *seen = 1;
                p = walk_array(r, p, name, which == 1 ? add_node : add_edge);
                if (!p) return -1;
            } else {
                cJSON *v = parse_value(r, p, &after); /* unknown field: ignored */
                if (!v) return -1;
                if (which == 3) read_measured(r, v, p);
                cJSON_Delete(v);
                p = after;
            }
            p = skip_ws(p, end);
            if (p < end && *p == ',') {
                p = skip_ws(p + 1, end);
                continue;
            }
            if (p < end && *p == '}') {
                p++;
                break;
            }
            syntax_error(r, p, "expected ',' or '}' after a member of the top-level object");
            return -1;
        }
    const char *close = p - 1; /* the top-level object's '}' */
    p = skip_ws(p, end);
    if (p < end) {
        ERR_AT(r, p, DC_SYNTAX, "unexpected data after the top-level object");
        return -1;
    }
    if (!r->seen_nodes)
        ERR_AT(r, close, DC_FIELD,
               "missing \"Nodes\": the top-level object, which ends here, needs a \"Nodes\" array");
    if (!r->seen_edges)
        ERR_AT(r, close, DC_FIELD,
               "missing \"Edges\": the top-level object, which ends here, needs an \"Edges\" "
               "array (use [] for none)");
    return r->d->nerrors ? -1 : 0;
}

/* -------------------------------------------------------------- driver */

/* Packs the builder into a graph and validates it, in the order the messages
 * are read: buffers (and the rest only when they are right), Inputs, edges,
 * cycles, FREE order. The caller reports a limit or out of memory. */
static graph *build_graph(reader *r, const char *source)
{
    graph *g = graph_build_take(&r->b, source);
    if (!g) return NULL;
    g->measured_peak = r->measured_peak;
    g->measured_how = r->measured_how;
    r->measured_how = NULL;
    validate_buffers(g, r->d);
    if (r->d->nerrors) return g;
    graph_build_free_changes(g);
    validate_inputs(g, r->d);
    if (graph_build_edges(&r->b, g) || r->b.oom) return g;
    if (validate_order(g, r->d) == VALIDATE_OOM) r->b.oom = 1;
    return g;
}

/* A graph file: read in windows by the single pass (fd), and whole (f) only for the walk. */
typedef struct file_src {
    const char *path;
    int fd;
    fileio_text f;
} file_src;

/* Reads src whole into src->f: 0, or -1 with the reason in d. A pipe or a device is read no
 * further than a first character that cannot start a graph (load_text says what it is). */
static int read_whole(file_src *src, diag *d)
{
    char why[160];
    fileio_status st = fileio_read(src->path, '{', &src->f, why, sizeof why);
    if (st == FILEIO_OK) return 0;
    diag_add(d, DIAG_ERROR,
             st == FILEIO_OUT_OF_MEMORY || st == FILEIO_TOO_LARGE ? DC_LIMIT : DC_OTHER, 0, 0, "%s",
             why);
    return -1;
}

/* Loads text, or (text NULL) the regular file src of len bytes; the text read is let go
 * before the graph is packed. */
static graph *load_text(const char *text, size_t len, const char *source, diag *d,
                        const load_opts *opts, load_stats *stats, file_src *src)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.d = d;
    r.opts = opts;
    r.measured_peak = -1;
    graph_build_init(&r.b, d,
                     opts && opts->max_nodes && opts->max_nodes < LOAD_MAX_NODES ? opts->max_nodes
                                                                                 : LOAD_MAX_NODES);
    double t0 = clock_seconds();
    graph *g = NULL;

    double ts = clock_seconds();
    int fast =
        !(opts && opts->walk_only) && !load_fast_document(&r.b, text, &len, src ? src->fd : -1,
                                                          opts, &r.measured_peak, &r.measured_how);
    if (!fast && !text) {
        if (read_whole(src, d)) {
            graph_build_free(&r.b);
            return NULL;
        }
        text = src->f.text;
        len = src->f.len;
    }
    r.parse_s = fast ? clock_seconds() - ts : 0;
    r.text = text ? text : "";
    r.len = text ? len : 0;
    textpos_init(&r.tp, r.text, r.len);
    /* cJSON accepts some text that is not JSON: check the syntax first. */
    const char *bad_at, *bad_why, *start = r.text, *end = r.text + r.len;
    if (r.len >= 3 && !memcmp(start, "\xEF\xBB\xBF", 3)) start += 3; /* a UTF-8 byte order mark */
    int bad = !fast && skip_ws(start, end) < end ? jscan_value(start, end, &bad_at, &bad_why) : 0;
    double syntax_s = fast ? 0 : clock_seconds() - ts;
    if (bad) scan_error(&r, bad_at, bad_why, bad);
    else if (!fast) bad = read_document(&r) || r.b.oom;
    if (src) fileio_release(&src->f);
    r.text = NULL;
    if (!bad) {
        if (opts && opts->progress) opts->progress(opts->progress_ctx, len, len);
        g = build_graph(&r, source);
    }

    if (r.b.limit)
        ERR(&r, DC_LIMIT, "too large: more than %llu %s (the most memtris holds)",
            (unsigned long long)r.b.limit_max, r.b.limit);
    else if (r.b.oom)
        ERR(&r, DC_LIMIT, "out of memory after %u nodes (the input is %zu bytes)", r.b.n, len);
    graph_build_free(&r.b);
    free(r.measured_how);
    diag_finish(d);
    if (d->nerrors) {
        graph_free(g);
        g = NULL;
    }
    if (stats) {
        stats->syntax_s = syntax_s;
        stats->parse_s = r.parse_s;
        stats->build_s = clock_seconds() - t0 - r.parse_s - syntax_s;
        stats->bytes = len;
    }
    return g;
}

graph *load_buffer(const char *text, size_t len, const char *source, diag *d, const load_opts *opts,
                   load_stats *stats)
{
    return load_text(text, len, source, d, opts, stats, NULL);
}

graph *load_file(const char *path, diag *d, const load_opts *opts, load_stats *stats)
{
    file_src src = {path, -1, {"", 0, NULL}};
    struct stat st;
    /* A regular file goes to the single pass in windows; anything else is read whole. */
    if (strcmp(path, "-") && !(opts && opts->walk_only) && !stat(path, &st) && S_ISREG(st.st_mode))
        src.fd = open(path, O_RDONLY | O_CLOEXEC);
    if (src.fd < 0 && read_whole(&src, d)) return NULL;
    graph *g =
        load_text(src.fd < 0 ? src.f.text : NULL, src.fd < 0 ? src.f.len : (size_t)st.st_size,
                  d->source, d, opts, stats, &src);
    if (src.fd >= 0) close(src.fd);
    return g;
}
