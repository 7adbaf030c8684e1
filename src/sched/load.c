/* load.c: streaming JSON loader and validator. cJSON parses one node or one
 * edge at a time out of the (mmap'ed) text, so only one small tree is alive at
 * once; the graph is then checked and packed into CSR arrays. Exports load_*. */
#define _GNU_SOURCE
#include "load.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util/fileio.h"
#include "util/jscan.h"
#include "util/json.h"
#include "util/textpos.h"

/* ---------------------------------------------------------------- builder */

typedef struct builder {
    diag *d;
    const load_opts *opts;
    const char *text;
    size_t len;
    textpos tp;                   /* line/column of places in text, for messages */
    size_t next_progress;
    double parse_s;               /* time in cJSON (parse and delete), sampled */
    size_t nvalues;
    int timing;                   /* this value is timed */
    int oom;                      /* out of memory, or a limit passed (then `limit` says which): stop */
    const char *limit;            /* "nodes", "buffers", ... when the graph is larger than memtris holds */
    uint64_t limit_max;
    uint32_t max_nodes;           /* the most nodes taken (load_opts.max_nodes, else LOAD_MAX_NODES) */

    uint32_t n, cap;
    int64_t *id, *change;         /* change holds Size (ALLOC), declared Size or -1 (FREE) */
    uint8_t *kind;
    uint32_t *buf, *op, *name;
    uint32_t *src;                /* Nodes[] index of each accepted node, for messages */
    double *latency;              /* allocated when the first Latency appears */
    int64_t *stream;
    uint32_t *in_off;
    int64_t *inputs;
    size_t nin, incap;

    int64_t *ep;                  /* edges as written: u, v pairs */
    size_t ne, ecap;

    char **ops;                   /* interned Op strings and their hash table */
    uint32_t nops, opscap;
    uint32_t *opslot;
    size_t opmask;

    char *pool;
    size_t plen, pcap;

    imap ids, bufids;
    int64_t *bid, *bsize;
    uint32_t *balloc, *bfree;
    uint32_t nb, bcap;
    int seen_nodes, seen_edges;
} builder;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The graph has more of `what` than memtris's 32-bit indices (or the
 * caller's limit) hold: stop, and say so rather than "out of memory". */
static void too_large(builder *b, const char *what, uint64_t max)
{
    if (!b->limit) {
        b->limit = what;
        b->limit_max = max;
    }
    b->oom = 1;
}

/* Grows *p (of elem-size bytes each) to hold at least need elements. */
static int grow(builder *b, void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 1024;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) { b->oom = 1; return -1; }
    *p = q;
    *cap = nc;
    return 0;
}

static void where(builder *b, const char *p, unsigned long *line, unsigned long *col)
{
    textpos_at(&b->tp, p, line, col);
}

#define ERR_AT(b, p, cls, ...) do { unsigned long l_, c_; where((b), (p), &l_, &c_); \
    diag_add((b)->d, DIAG_ERROR, (cls), l_, c_, __VA_ARGS__); } while (0)
#define WARN_AT(b, p, cls, ...) do { unsigned long l_, c_; where((b), (p), &l_, &c_); \
    diag_add((b)->d, DIAG_WARNING, (cls), l_, c_, __VA_ARGS__); } while (0)
#define ERR(b, cls, ...) diag_add((b)->d, DIAG_ERROR, (cls), 0, 0, __VA_ARGS__)
#define WARN(b, cls, ...) diag_add((b)->d, DIAG_WARNING, (cls), 0, 0, __VA_ARGS__)

/* ------------------------------------------------------------ JSON bits */

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* Reports a syntax error at p (at the end of the input: a truncation). */
static void syntax_error(builder *b, const char *p, const char *what)
{
    jscan_report r;
    jscan_report_at(&b->tp, p, what, &r);
    diag_add(b->d, DIAG_ERROR, DC_SYNTAX, r.line, r.col, "invalid JSON: %s", r.msg);
}

/* Parses one JSON value at p; on failure reports where and why (cJSON only
 * says roughly where, so jscan finds the exact place) and returns NULL. */
static cJSON *parse_value(builder *b, const char *p, const char **after)
{
    const char *end = b->text + b->len;
    const char *stop = NULL;
    /* Timing every value costs more than the work measured: time them all
     * for the first 4096, then 1 in 16 and scale. */
    b->timing = b->nvalues < 4096 || (b->nvalues & 15) == 0;
    double weight = b->nvalues < 4096 ? 1 : 16;
    b->nvalues++;
    double t0 = b->timing ? now_s() : 0;
    cJSON *v = cJSON_ParseWithLengthOpts(p, (size_t)(end - p), &stop, 0);
    if (b->timing) b->parse_s += (now_s() - t0) * weight;
    if (!v) {
        const char *where, *what;
        if (jscan_value(p, end, &where, &what) == 0) {
            where = stop && stop >= p && stop <= end ? stop : p;
            what = "cJSON cannot parse this value";
        }
        syntax_error(b, where, what);
        return NULL;
    }
    *after = stop;
    return v;
}

/* Frees a value from parse_value, timing it like its parse. */
static void drop_value(builder *b, cJSON *v)
{
    if (!b->timing) { cJSON_Delete(v); return; }
    double t0 = now_s();
    cJSON_Delete(v);
    b->parse_s += (now_s() - t0) * (b->nvalues <= 4096 ? 1 : 16);
}

#define type_word json_type_word

/* Describes why v is not an integer in [0, 2^53-1]: "found -3", "found a string". */
static void describe_bad_int(const cJSON *v, char *out, size_t cap)
{
    if (!cJSON_IsNumber(v)) { snprintf(out, cap, "found %s", type_word(v)); return; }
    double x = v->valuedouble;
    if (!isfinite(x)) snprintf(out, cap, "found a number out of range");
    else if (x != floor(x)) snprintf(out, cap, "found %.17g, which is not an integer", x);
    else if (x < 0) snprintf(out, cap, "found %.17g, which is negative", x);
    else snprintf(out, cap, "found %.17g, which is above 2^53-1", x);
}

/* 0 and *out set when v is an integer in [0, 2^53-1]; -1 otherwise. */
static int get_uint53(const cJSON *v, int64_t *out)
{
    if (!cJSON_IsNumber(v)) return -1;
    double x = v->valuedouble;
    if (!isfinite(x) || x != floor(x) || x < 0 || x > (double)GRAPH_MAX_SIZE) return -1;
    *out = (int64_t)x;
    return 0;
}

/* ----------------------------------------------------------- strings */

static uint32_t pool_add(builder *b, const char *s)
{
    size_t l = strlen(s) + 1;
    if (b->plen + l > UINT32_MAX) { too_large(b, "bytes of names", UINT32_MAX); return 0; }
    if (grow(b, (void **)&b->pool, &b->pcap, b->plen + l, 1)) return 0;
    if (b->plen == 0) b->pool[b->plen++] = 0;      /* offset 0 = no name */
    if (grow(b, (void **)&b->pool, &b->pcap, b->plen + l, 1)) return 0;
    memcpy(b->pool + b->plen, s, l);
    uint32_t off = (uint32_t)b->plen;
    b->plen += l;
    return off;
}

static size_t str_hash(const char *s)
{
    size_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static uint32_t op_intern(builder *b, const char *s)
{
    if (!b->opslot || (size_t)(b->nops + 1) * 2 > b->opmask + 1) {
        size_t cap = b->opslot ? (b->opmask + 1) * 2 : 64;
        uint32_t *slot = malloc(cap * sizeof *slot);
        if (!slot) { b->oom = 1; return 0; }
        memset(slot, 0xff, cap * sizeof *slot);
        for (uint32_t i = 0; i < b->nops; i++) {
            size_t h = str_hash(b->ops[i]) & (cap - 1);
            while (slot[h] != UINT32_MAX) h = (h + 1) & (cap - 1);
            slot[h] = i;
        }
        free(b->opslot);
        b->opslot = slot;
        b->opmask = cap - 1;
    }
    size_t h = str_hash(s) & b->opmask;
    for (; b->opslot[h] != UINT32_MAX; h = (h + 1) & b->opmask)
        if (strcmp(b->ops[b->opslot[h]], s) == 0) return b->opslot[h];
    size_t cap = b->opscap;
    if (grow(b, (void **)&b->ops, &cap, (size_t)b->nops + 1, sizeof *b->ops)) return 0;
    b->opscap = (uint32_t)cap;
    char *copy = strdup(s);
    if (!copy) { b->oom = 1; return 0; }
    b->ops[b->nops] = copy;
    b->opslot[h] = b->nops;
    return b->nops++;
}

/* ----------------------------------------------------------- buffers */

static uint32_t buf_get(builder *b, int64_t bufid)
{
    uint32_t k = imap_put(&b->bufids, bufid, b->nb);
    if (k == IMAP_NONE - 1) { b->oom = 1; return GRAPH_NONE; }
    if (k == IMAP_NONE && b->nb >= LOAD_MAX_NODES) { too_large(b, "buffers", LOAD_MAX_NODES); return GRAPH_NONE; }
    if (k != IMAP_NONE) return k;
    size_t cap = b->bcap;
    if (grow(b, (void **)&b->bid, &cap, (size_t)b->nb + 1, sizeof *b->bid)) return GRAPH_NONE;
    cap = b->bcap;
    if (grow(b, (void **)&b->bsize, &cap, (size_t)b->nb + 1, sizeof *b->bsize)) return GRAPH_NONE;
    cap = b->bcap;
    if (grow(b, (void **)&b->balloc, &cap, (size_t)b->nb + 1, sizeof *b->balloc)) return GRAPH_NONE;
    cap = b->bcap;
    if (grow(b, (void **)&b->bfree, &cap, (size_t)b->nb + 1, sizeof *b->bfree)) return GRAPH_NONE;
    b->bcap = (uint32_t)cap;
    b->bid[b->nb] = bufid;
    b->bsize[b->nb] = 0;
    b->balloc[b->nb] = GRAPH_NONE;
    b->bfree[b->nb] = GRAPH_NONE;
    return b->nb++;
}

/* ----------------------------------------------------------- nodes */

static int node_reserve(builder *b)
{
    if (b->n + 1 <= b->cap) return 0;
    size_t nc = b->cap ? (size_t)b->cap * 2 : 1024;
    if (nc > LOAD_MAX_NODES) nc = LOAD_MAX_NODES;
#define RE(f) do { void *q = realloc(b->f, nc * sizeof *b->f); if (!q) { b->oom = 1; return -1; } b->f = q; } while (0)
    RE(id); RE(change); RE(kind); RE(buf); RE(op); RE(name); RE(src);
    if (b->latency) RE(latency);
    if (b->stream) RE(stream);
#undef RE
    void *q = realloc(b->in_off, (nc + 1) * sizeof *b->in_off);
    if (!q) { b->oom = 1; return -1; }
    b->in_off = q;
    b->cap = (uint32_t)nc;
    return 0;
}

/* Fills an optional per-node column lazily: earlier nodes get the default. */
static int lazy_column(builder *b, void **col, size_t elem, int is_double)
{
    if (*col) return 0;
    void *c = malloc((size_t)b->cap * elem);
    if (!c) { b->oom = 1; return -1; }
    for (uint32_t i = 0; i < b->cap; i++) {
        if (is_double) ((double *)c)[i] = (double)NAN;
        else ((int64_t *)c)[i] = -1;
    }
    *col = c;
    return 0;
}

/* Node errors start "Nodes[3] (Id 7)"; formatted only when one is reported. */
#define LAB "Nodes[%zu] (Id %lld)"
#define LABV index, (long long)id

static void add_node(builder *b, const cJSON *v, const char *at, size_t index)
{
    char why[96];
    if (!cJSON_IsObject(v)) {
        ERR_AT(b, at, DC_FIELD, "Nodes[%zu] must be an object, found %s", index, type_word(v));
        return;
    }
    /* One pass over the members; the first of a repeated key wins. */
    const cJSON *jid = NULL, *jop = NULL, *jsize = NULL, *jbuf = NULL, *jname = NULL, *jin = NULL,
                *jlat = NULL, *jstr = NULL;
    for (const cJSON *c = v->child; c; c = c->next) {
        const char *k = c->string;
        const cJSON **slot = NULL;
        switch (k[0]) {
        case 'I': slot = !strcmp(k, "Id") ? &jid : !strcmp(k, "Inputs") ? &jin : NULL; break;
        case 'O': slot = !strcmp(k, "Op") ? &jop : NULL; break;
        case 'S': slot = !strcmp(k, "Size") ? &jsize : !strcmp(k, "Stream") ? &jstr : NULL; break;
        case 'B': slot = !strcmp(k, "BufId") ? &jbuf : NULL; break;
        case 'N': slot = !strcmp(k, "Name") ? &jname : NULL; break;
        case 'L': slot = !strcmp(k, "Latency") ? &jlat : NULL; break;
        }
        if (slot && !*slot) *slot = c;
    }
    int64_t id = 0;
    if (!jid) {
        ERR_AT(b, at, DC_FIELD, "Nodes[%zu] has no \"Id\"", index);
        return;
    }
    if (get_uint53(jid, &id)) {
        describe_bad_int(jid, why, sizeof why);
        ERR_AT(b, at, DC_FIELD, "Nodes[%zu]: \"Id\" must be a non-negative integer; %s", index, why);
        return;
    }
    if (!jop) { ERR_AT(b, at, DC_FIELD, LAB " has no \"Op\"", LABV); return; }
    if (!cJSON_IsString(jop)) {
        ERR_AT(b, at, DC_FIELD, LAB ": \"Op\" must be a string, found %s", LABV, type_word(jop));
        return;
    }
    int kind = strcmp(jop->valuestring, "ALLOC") == 0 ? NODE_ALLOC
             : strcmp(jop->valuestring, "FREE") == 0 ? NODE_FREE : NODE_COMPUTE;

    int64_t size = -1, bufid = -1, stream = -1;
    int bad = 0;

    if (kind != NODE_COMPUTE) {
        if (!jbuf) { ERR_AT(b, at, DC_FIELD, LAB ": %s has no \"BufId\"", LABV, jop->valuestring); bad = 1; }
        else if (get_uint53(jbuf, &bufid)) {
            describe_bad_int(jbuf, why, sizeof why);
            ERR_AT(b, at, DC_FIELD, LAB ": \"BufId\" must be a non-negative integer; %s", LABV, why);
            bad = 1;
        }
    }
    if (kind == NODE_ALLOC && !jsize) {
        ERR_AT(b, at, DC_FIELD, LAB ": ALLOC has no \"Size\"", LABV);
        bad = 1;
    }
    if (kind != NODE_COMPUTE && jsize && get_uint53(jsize, &size)) {
        describe_bad_int(jsize, why, sizeof why);
        ERR_AT(b, at, DC_FIELD, LAB ": \"Size\" must be an integer number of bytes from 0 to 2^53-1; %s",
               LABV, why);
        bad = 1;
    }
    if (jname && !cJSON_IsString(jname)) {
        ERR_AT(b, at, DC_FIELD, LAB ": \"Name\" must be a string, found %s", LABV, type_word(jname));
        bad = 1;
    }
    if (jin && !cJSON_IsArray(jin)) {
        ERR_AT(b, at, DC_FIELD, LAB ": \"Inputs\" must be an array of buffer ids, found %s",
               LABV, type_word(jin));
        bad = 1;
    } else if (jin) {
        int64_t x;
        size_t k = 0;
        for (const cJSON *e = jin->child; e; e = e->next, k++)
            if (get_uint53(e, &x)) {
                describe_bad_int(e, why, sizeof why);
                ERR_AT(b, at, DC_FIELD, LAB ": Inputs[%zu] must be a buffer id; %s", LABV, k, why);
                bad = 1;
                break;
            }
    }
    if (jlat && (!cJSON_IsNumber(jlat) || !isfinite(jlat->valuedouble) || jlat->valuedouble < 0)) {
        ERR_AT(b, at, DC_FIELD, LAB ": \"Latency\" must be a non-negative number, found %s",
               LABV, cJSON_IsNumber(jlat) ? "a negative number" : type_word(jlat));
        bad = 1;
    }
    if (jstr && get_uint53(jstr, &stream)) {
        describe_bad_int(jstr, why, sizeof why);
        ERR_AT(b, at, DC_FIELD, LAB ": \"Stream\" must be a non-negative integer; %s", LABV, why);
        bad = 1;
    }
    if (bad) return;
    if (b->n >= b->max_nodes) { too_large(b, "nodes", b->max_nodes); return; }
    if (node_reserve(b)) return;

    uint32_t i = b->n;
    uint32_t prev = imap_put(&b->ids, id, i);
    if (prev == IMAP_NONE - 1) { b->oom = 1; return; }
    if (prev != IMAP_NONE) {
        ERR_AT(b, at, DC_DUP_ID, "duplicate Id %lld: Nodes[%u] and Nodes[%zu] both use it",
               (long long)id, b->src[prev], index);
        return;
    }
    b->id[i] = id;
    b->src[i] = (uint32_t)index;
    b->kind[i] = (uint8_t)kind;
    b->op[i] = op_intern(b, jop->valuestring);
    b->name[i] = jname ? pool_add(b, jname->valuestring) : 0;
    b->change[i] = kind == NODE_COMPUTE ? 0 : size;
    b->buf[i] = GRAPH_NONE;
    if (jlat) {
        if (lazy_column(b, (void **)&b->latency, sizeof *b->latency, 1)) return;
        b->latency[i] = jlat->valuedouble;
    } else if (b->latency) b->latency[i] = (double)NAN;
    if (jstr) {
        if (lazy_column(b, (void **)&b->stream, sizeof *b->stream, 0)) return;
        b->stream[i] = stream;
    } else if (b->stream) b->stream[i] = -1;

    b->in_off[i] = (uint32_t)b->nin;
    if (jin) {
        size_t cnt = (size_t)cJSON_GetArraySize(jin);
        if (b->nin + cnt > UINT32_MAX) { too_large(b, "\"Inputs\" entries in all", UINT32_MAX); return; }
        if (grow(b, (void **)&b->inputs, &b->incap, b->nin + cnt, sizeof *b->inputs)) return;
        for (const cJSON *e = jin->child; e; e = e->next) get_uint53(e, &b->inputs[b->nin++]);
    }
    b->n++;

    if (kind == NODE_COMPUTE) return;
    uint32_t k = buf_get(b, bufid);
    if (k == GRAPH_NONE) return;
    b->buf[i] = k;
    if (kind == NODE_ALLOC) {
        if (b->balloc[k] != GRAPH_NONE) {
            ERR_AT(b, at, DC_BUFFER, "buffer %lld is allocated twice: ALLOC nodes %lld and %lld",
                   (long long)bufid, (long long)b->id[b->balloc[k]], (long long)id);
            return;
        }
        b->balloc[k] = i;
        b->bsize[k] = size;
    } else {
        if (b->bfree[k] != GRAPH_NONE) {
            ERR_AT(b, at, DC_BUFFER, "buffer %lld is freed twice: FREE nodes %lld and %lld",
                   (long long)bufid, (long long)b->id[b->bfree[k]], (long long)id);
            return;
        }
        b->bfree[k] = i;
    }
}

static void add_edge(builder *b, const cJSON *v, const char *at, size_t index)
{
    int64_t u, w;
    char why[96];
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2) {
        ERR_AT(b, at, DC_FIELD, "Edges[%zu] must be a pair [u, v] of node ids, found %s%s", index,
               cJSON_IsArray(v) ? "an array of " : type_word(v),
               cJSON_IsArray(v) ? (cJSON_GetArraySize(v) < 2 ? "fewer than 2 items" : "more than 2 items") : "");
        return;
    }
    const cJSON *a = v->child, *c = v->child->next;
    if (get_uint53(a, &u) || get_uint53(c, &w)) {
        describe_bad_int(get_uint53(a, &u) ? a : c, why, sizeof why);
        ERR_AT(b, at, DC_FIELD, "Edges[%zu]: node ids must be non-negative integers; %s", index, why);
        return;
    }
    if (grow(b, (void **)&b->ep, &b->ecap, 2 * b->ne + 2, sizeof *b->ep)) return;
    b->ep[2 * b->ne] = u;
    b->ep[2 * b->ne + 1] = w;
    b->ne++;
}

/* ------------------------------------------------------ document walk */

static void progress(builder *b, const char *p)
{
    if (!b->opts || !b->opts->progress) return;
    size_t off = (size_t)(p - b->text);
    if (off < b->next_progress) return;
    b->opts->progress(b->opts->progress_ctx, off, b->len);
    b->next_progress = off + (b->len / 100 > 65536 ? b->len / 100 : 65536);
}

/* Walks the array at p ('[' expected), calling fn for each element. Returns
 * the position after ']' or NULL after reporting an error. */
static const char *walk_array(builder *b, const char *p, const char *key,
                              void (*fn)(builder *, const cJSON *, const char *, size_t))
{
    const char *end = b->text + b->len;
    if (*p != '[') {
        const char *after;
        cJSON *v = parse_value(b, p, &after);
        if (!v) return NULL;
        ERR_AT(b, p, DC_FIELD, "\"%s\" must be an array, found %s", key, type_word(v));
        cJSON_Delete(v);
        return NULL;
    }
    p = skip_ws(p + 1, end);
    if (p < end && *p == ']') return p + 1;
    for (size_t i = 0;; i++) {
        const char *after;
        cJSON *v = parse_value(b, p, &after);
        if (!v) return NULL;
        fn(b, v, p, i);
        drop_value(b, v);
        if (b->oom) return NULL;
        progress(b, after);
        p = skip_ws(after, end);
        if (p < end && *p == ',') { p = skip_ws(p + 1, end); continue; }
        if (p < end && *p == ']') return p + 1;
        syntax_error(b, p, "expected ',' or ']' after an array element");
        return NULL;
    }
}

/* Reads the top-level object; 0 on success. */
static int read_document(builder *b)
{
    const char *end = b->text + b->len;
    const char *p = b->text;
    if (b->len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3;     /* a UTF-8 byte order mark */
    p = skip_ws(p, end);
    if (p >= end) {
        ERR_AT(b, b->text, DC_SYNTAX, "empty input: expected a JSON object with \"Nodes\" and \"Edges\"");
        return -1;
    }
    if (*p != '{') {
        const char *after;
        cJSON *v = parse_value(b, p, &after);
        if (!v) return -1;
        ERR_AT(b, p, DC_SYNTAX, "the top level must be an object with \"Nodes\" and \"Edges\", found %s",
               type_word(v));
        cJSON_Delete(v);
        return -1;
    }
    p = skip_ws(p + 1, end);
    if (p < end && *p == '}') p++;
    else for (;;) {
        if (p >= end || *p != '"') { syntax_error(b, p, "expected a string key"); return -1; }
        const char *after;
        cJSON *k = parse_value(b, p, &after);
        if (!k) return -1;
        int which = strcmp(k->valuestring, "Nodes") == 0 ? 1 : strcmp(k->valuestring, "Edges") == 0 ? 2 : 0;
        cJSON_Delete(k);
        const char *keyat = p;
        p = skip_ws(after, end);
        if (p >= end || *p != ':') { syntax_error(b, p, "expected ':' after a key"); return -1; }
        p = skip_ws(p + 1, end);
        if (p >= end) { syntax_error(b, p, "expected a value"); return -1; }
        if (which == 1 || which == 2) {
            const char *name = which == 1 ? "Nodes" : "Edges";
            int *seen = which == 1 ? &b->seen_nodes : &b->seen_edges;
            if (*seen) { ERR_AT(b, keyat, DC_FIELD, "\"%s\" appears twice", name); return -1; }
            *seen = 1;
            p = walk_array(b, p, name, which == 1 ? add_node : add_edge);
            if (!p) return -1;
        } else {
            cJSON *v = parse_value(b, p, &after);   /* unknown field: ignored */
            if (!v) return -1;
            cJSON_Delete(v);
            p = after;
        }
        p = skip_ws(p, end);
        if (p < end && *p == ',') { p = skip_ws(p + 1, end); continue; }
        if (p < end && *p == '}') { p++; break; }
        syntax_error(b, p, "expected ',' or '}' after a member of the top-level object");
        return -1;
    }
    const char *close = p - 1;                  /* the top-level object's '}' */
    p = skip_ws(p, end);
    if (p < end) { ERR_AT(b, p, DC_SYNTAX, "unexpected data after the top-level object"); return -1; }
    if (!b->seen_nodes)
        ERR_AT(b, close, DC_FIELD, "missing \"Nodes\": the top-level object, which ends here, needs a \"Nodes\" array");
    if (!b->seen_edges)
        ERR_AT(b, close, DC_FIELD, "missing \"Edges\": the top-level object, which ends here, needs an \"Edges\" "
               "array (use [] for none)");
    return b->d->nerrors ? -1 : 0;
}

/* ------------------------------------------------------ checks and CSR */

static void check_buffers(builder *b)
{
    for (uint32_t k = 0; k < b->nb; k++) {
        uint32_t a = b->balloc[k], f = b->bfree[k];
        if (a == GRAPH_NONE) {
            ERR(b, DC_BUFFER, "FREE node %lld frees buffer %lld, which no ALLOC creates",
                (long long)b->id[f], (long long)b->bid[k]);
            continue;
        }
        if (f == GRAPH_NONE) {
            WARN(b, DC_LEAK, "buffer %lld (ALLOC node %lld, %lld bytes) is never freed; it stays live to the end",
                 (long long)b->bid[k], (long long)b->id[a], (long long)b->bsize[k]);
            continue;
        }
        if (b->change[f] >= 0 && b->change[f] != b->bsize[k])
            WARN(b, DC_SIZE_MISMATCH, "FREE node %lld gives Size %lld for buffer %lld, which ALLOC node %lld "
                 "allocates with %lld; the ALLOC's size is used", (long long)b->id[f], (long long)b->change[f],
                 (long long)b->bid[k], (long long)b->id[a], (long long)b->bsize[k]);
        b->change[f] = -b->bsize[k];
    }
}

static void check_inputs(builder *b)
{
    for (uint32_t i = 0; i < b->n; i++)
        for (uint32_t j = b->in_off[i]; j < b->in_off[i + 1]; j++)
            if (imap_get(&b->bufids, b->inputs[j]) == IMAP_NONE)
                WARN(b, DC_INPUTS, "node %lld lists buffer %lld in \"Inputs\", but no ALLOC creates it",
                     (long long)b->id[i], (long long)b->inputs[j]);
}

/* Resolves edges into CSR (input order kept, repeats dropped) in g. */
static int build_edges(builder *b, graph *g)
{
    uint32_t n = b->n;
    if (b->ne > UINT32_MAX - 1) { ERR(b, DC_LIMIT, "too many edges (%zu); the limit is %u", b->ne, UINT32_MAX - 1); return -1; }
    g->succ_off = calloc((size_t)n + 1, sizeof *g->succ_off);
    g->pred_off = calloc((size_t)n + 1, sizeof *g->pred_off);
    if (!g->succ_off || !g->pred_off) { b->oom = 1; return -1; }
    /* Resolve ids to node indices in place: pair e's two uint32s are written
     * at bytes 8e.., below the int64 pair at 16e.. still to be read. */
    uint32_t *pairs = (uint32_t *)b->ep;
    size_t m = 0;
    for (size_t e = 0; e < b->ne; e++) {
        int64_t iu = b->ep[2 * e], iv = b->ep[2 * e + 1];
        uint32_t u = imap_get(&g->ids, iu), v = imap_get(&g->ids, iv);
        if (u == IMAP_NONE || v == IMAP_NONE) {
            ERR(b, DC_EDGE, "Edges[%zu] = [%lld, %lld]: node %lld does not exist", e,
                (long long)iu, (long long)iv, (long long)(u == IMAP_NONE ? iu : iv));
            continue;
        }
        if (u == v) {
            ERR(b, DC_EDGE, "Edges[%zu] = [%lld, %lld]: self-loop; a node cannot run before itself", e,
                (long long)iu, (long long)iv);
            continue;
        }
        pairs[2 * m] = u;
        pairs[2 * m + 1] = v;
        m++;
    }
    if (b->d->nerrors) return -1;

    /* Stable counting sort by source keeps each node's edges in input order. */
    for (size_t e = 0; e < m; e++) g->succ_off[pairs[2 * e] + 1]++;
    for (uint32_t i = 0; i < n; i++) g->succ_off[i + 1] += g->succ_off[i];
    uint32_t *succ = malloc((m + 1) * sizeof *succ);
    uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
    if (!succ || !fill) { free(succ); free(fill); b->oom = 1; return -1; }
    memcpy(fill, g->succ_off, (size_t)n * sizeof *fill);
    for (size_t e = 0; e < m; e++) succ[fill[pairs[2 * e]]++] = pairs[2 * e + 1];
    free(b->ep);
    b->ep = NULL;

    /* Drop repeated edges, keeping the first; fill[] marks v's last source. */
    for (uint32_t i = 0; i < n; i++) fill[i] = UINT32_MAX;
    uint32_t w = 0;
    for (uint32_t u = 0; u < n; u++) {
        uint32_t lo = g->succ_off[u], hi = g->succ_off[u + 1];
        g->succ_off[u] = w;
        for (uint32_t e = lo; e < hi; e++) {
            uint32_t v = succ[e];
            if (fill[v] == u) {
                WARN(b, DC_DUP_EDGE, "edge [%lld, %lld] is listed more than once; it is kept once",
                     (long long)g->id[u], (long long)g->id[v]);
                continue;
            }
            fill[v] = u;
            succ[w++] = v;
        }
    }
    g->succ_off[n] = w;
    g->nedges = w;
    uint32_t *shrunk = realloc(succ, ((size_t)w + 1) * sizeof *succ);
    g->succ = shrunk ? shrunk : succ;

    /* Reverse CSR. */
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++) g->pred_off[g->succ[e] + 1]++;
    for (uint32_t i = 0; i < n; i++) g->pred_off[i + 1] += g->pred_off[i];
    g->pred = malloc(((size_t)w + 1) * sizeof *g->pred);
    if (!g->pred) { free(fill); b->oom = 1; return -1; }
    memcpy(fill, g->pred_off, (size_t)n * sizeof *fill);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++) g->pred[fill[g->succ[e]]++] = u;
    free(fill);
    return 0;
}

/* Kahn's algorithm; fills topo position pos[] and returns 0, or reports one
 * cycle and returns -1. */
static int check_cycles(builder *b, const graph *g, uint32_t *pos, uint32_t *q)
{
    uint32_t n = g->n, head = 0, tail = 0;
    uint32_t *rem = malloc(((size_t)n + 1) * sizeof *rem);
    if (!rem) { b->oom = 1; return -1; }
    for (uint32_t i = 0; i < n; i++) {
        rem[i] = g->pred_off[i + 1] - g->pred_off[i];
        if (!rem[i]) q[tail++] = i;
    }
    while (head < tail) {
        uint32_t u = q[head];
        pos[u] = head++;
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
            if (--rem[g->succ[e]] == 0) q[tail++] = g->succ[e];
    }
    if (tail == n) { free(rem); return 0; }

    /* Every node left has a predecessor that is left too: walk back until a
     * node repeats; the walk from there is a cycle (in reverse). */
    uint32_t start = 0;
    while (rem[start] == 0) start++;
    for (uint32_t i = 0; i < n; i++) pos[i] = UINT32_MAX;   /* reuse as "step seen" */
    uint32_t len = 0, u = start;
    while (pos[u] == UINT32_MAX) {
        pos[u] = len;
        q[len++] = u;
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++)
            if (rem[g->pred[e]]) { u = g->pred[e]; break; }
    }
    /* q[i+1] -> q[i] are edges, so the cycle runs q[len-1] -> ... -> q[first]
     * -> q[len-1]; print it starting from its smallest id. */
    uint32_t first = pos[u], total = len - first, j0 = 0;
#define CYC(j) q[len - 1 - (j) % total]
    for (uint32_t j = 1; j < total; j++)
        if (g->id[CYC(j)] < g->id[CYC(j0)]) j0 = j;
    char msg[900];
    size_t k = 0;
    uint32_t j = 0;
    for (; j < total && k < sizeof msg - 64; j++)
        k += (size_t)snprintf(msg + k, sizeof msg - k, "%lld -> ", (long long)g->id[CYC(j0 + j)]);
    if (j < total) k += (size_t)snprintf(msg + k, sizeof msg - k, "... -> ");
    snprintf(msg + k, sizeof msg - k, "%lld", (long long)g->id[CYC(j0)]);
#undef CYC
    ERR(b, DC_CYCLE, "the graph has a cycle, so no schedule exists: cycle: %s (%u nodes cannot run)",
        msg, n - tail);
    free(rem);
    return -1;
}

/* Every FREE must depend by some path on its buffer's ALLOC. First a small
 * search from both ends: forward from the ALLOC marking what it reaches, then
 * backward from the FREE until it meets a mark, both pruned to the nodes
 * between them in a topological order and both on a budget of edges. The
 * buffers it cannot settle are then done 64 at a time, by pushing a bit per
 * ALLOC forward along the edges over the window of the order they span. */
#define FREE_SEARCH_BUDGET 256

static void order_error(builder *b, const graph *g, uint32_t k)
{
    ERR(b, DC_ORDER, "FREE node %lld of buffer %lld does not depend on ALLOC node %lld by any path "
        "of Edges, so a schedule could free the buffer before allocating it",
        (long long)g->id[g->buf_free[k]], (long long)g->buf_id[k], (long long)g->id[g->buf_alloc[k]]);
}

static int cmp_by_alloc_pos(const void *x, const void *y, void *ctx)
{
    const graph *g = ((const void **)ctx)[0];
    const uint32_t *pos = ((const void **)ctx)[1];
    uint32_t a = pos[g->buf_alloc[*(const uint32_t *)x]], c = pos[g->buf_alloc[*(const uint32_t *)y]];
    return (a > c) - (a < c);
}

enum { SEARCH_FOUND, SEARCH_NONE, SEARCH_BUDGET };

/* Backward from f over predecessors placed after a, for a itself or (with
 * fwd) for any node that fwd marks with k; seen[] is stamped with stamp. */
static int search_back(const graph *g, const uint32_t *pos, uint32_t a, uint32_t f, uint64_t stamp,
                       uint64_t *seen, uint32_t *stack, const uint32_t *fwd, uint32_t k)
{
    uint32_t sp = 0, work = 0;
    stack[sp++] = f;
    seen[f] = stamp;
    while (sp) {
        uint32_t u = stack[--sp];
        for (uint32_t e = g->pred_off[u]; e < g->pred_off[u + 1]; e++) {
            if (++work > FREE_SEARCH_BUDGET) return SEARCH_BUDGET;
            uint32_t p = g->pred[e];
            if (p == a || (fwd && fwd[p] == k)) return SEARCH_FOUND;
            if (seen[p] == stamp || pos[p] < pos[a]) continue;
            seen[p] = stamp;
            stack[sp++] = p;
        }
    }
    return SEARCH_NONE;
}

/* Forward from a over successors placed before f, marking them with k. */
static int search_forward(const graph *g, const uint32_t *pos, uint32_t a, uint32_t f, uint32_t k,
                          uint32_t *fwd, uint32_t *stack)
{
    uint32_t sp = 0, work = 0;
    stack[sp++] = a;
    fwd[a] = k;
    while (sp) {
        uint32_t u = stack[--sp];
        for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++) {
            if (++work > FREE_SEARCH_BUDGET) return SEARCH_BUDGET;
            uint32_t v = g->succ[e];
            if (v == f) return SEARCH_FOUND;
            if (fwd[v] == k || pos[v] > pos[f]) continue;
            fwd[v] = k;
            stack[sp++] = v;
        }
    }
    return SEARCH_NONE;
}

static void check_free_order(builder *b, const graph *g, const uint32_t *pos, const uint32_t *order)
{
    uint32_t n = g->n, ndefer = 0;
    uint32_t *fwd = malloc(((size_t)n + 1) * sizeof *fwd);     /* = k: reached from buffer k's ALLOC */
    uint64_t *seen = malloc(((size_t)n + 1) * sizeof *seen);   /* stamps of the backward searches */
    uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack);
    uint32_t *defer = malloc(((size_t)g->nbufs + 1) * sizeof *defer);
    if (!fwd || !seen || !stack || !defer) {
        free(fwd); free(seen); free(stack); free(defer);
        b->oom = 1;
        return;
    }
    memset(fwd, 0xff, (size_t)n * sizeof *fwd);
    memset(seen, 0xff, (size_t)n * sizeof *seen);
    for (uint32_t k = 0; k < g->nbufs; k++) {
        uint32_t a = g->buf_alloc[k], f = g->buf_free[k];
        if (f == GRAPH_NONE) continue;
        if (pos[f] < pos[a]) { order_error(b, g, k); continue; }
        /* Backward from f for a itself (enough for most graphs), then forward
         * from a marking, then backward again for any mark. */
        int r = search_back(g, pos, a, f, 2 * (uint64_t)k, seen, stack, NULL, k);
        if (r == SEARCH_BUDGET) r = search_forward(g, pos, a, f, k, fwd, stack);
        if (r == SEARCH_BUDGET) r = search_back(g, pos, a, f, 2 * (uint64_t)k + 1, seen, stack, fwd, k);
        if (r == SEARCH_NONE) order_error(b, g, k);
        else if (r == SEARCH_BUDGET) defer[ndefer++] = k;
    }
    free(fwd);
    free(seen);
    free(stack);

    uint64_t *mask = ndefer ? calloc((size_t)n + 1, sizeof *mask) : NULL;
    if (ndefer && !mask) { free(defer); b->oom = 1; return; }
    const void *ctx[2] = {g, pos};
    qsort_r(defer, ndefer, sizeof *defer, cmp_by_alloc_pos, ctx);
    for (uint32_t c0 = 0; c0 < ndefer; c0 += 64) {
        uint32_t cnt = ndefer - c0 < 64 ? ndefer - c0 : 64;
        uint32_t lo = pos[g->buf_alloc[defer[c0]]], hi = 0;
        for (uint32_t i = 0; i < cnt; i++) {
            uint32_t k = defer[c0 + i];
            mask[g->buf_alloc[k]] |= (uint64_t)1 << i;
            if (pos[g->buf_free[k]] > hi) hi = pos[g->buf_free[k]];
        }
        for (uint32_t t = lo; t <= hi; t++) {
            uint32_t u = order[t];
            if (!mask[u]) continue;
            for (uint32_t e = g->succ_off[u]; e < g->succ_off[u + 1]; e++)
                if (pos[g->succ[e]] <= hi) mask[g->succ[e]] |= mask[u];
        }
        for (uint32_t i = 0; i < cnt; i++) {
            uint32_t k = defer[c0 + i];
            if (!(mask[g->buf_free[k]] >> i & 1)) order_error(b, g, k);
        }
        for (uint32_t t = lo; t <= hi; t++) mask[order[t]] = 0;
    }
    free(mask);
    free(defer);
}

/* -------------------------------------------------------------- driver */

static void builder_free(builder *b)
{
    free(b->id); free(b->change); free(b->kind); free(b->buf); free(b->op); free(b->name);
    free(b->src); free(b->latency); free(b->stream); free(b->in_off); free(b->inputs);
    free(b->ep);
    if (b->ops) for (uint32_t i = 0; i < b->nops; i++) free(b->ops[i]);
    free(b->ops); free(b->opslot); free(b->pool);
    imap_free(&b->ids); imap_free(&b->bufids);
    free(b->bid); free(b->bsize); free(b->balloc); free(b->bfree);
}

/* Moves the builder's arrays into a new graph (shrunk to fit). */
static graph *take_graph(builder *b, const char *source)
{
    graph *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    uint32_t n = b->n;
#define TAKE(dst, f, cnt) do { g->dst = b->f; b->f = NULL; \
        void *q_ = realloc(g->dst, ((size_t)(cnt) + 1) * sizeof *g->dst); if (q_) g->dst = q_; } while (0)
    TAKE(id, id, n); TAKE(change, change, n); TAKE(kind, kind, n); TAKE(buf, buf, n);
    TAKE(op, op, n); TAKE(name, name, n); TAKE(in_off, in_off, n + 1);
    TAKE(inputs, inputs, b->nin);
    if (b->latency) TAKE(latency, latency, n);
    if (b->stream) TAKE(stream, stream, n);
    TAKE(buf_id, bid, b->nb); TAKE(buf_size, bsize, b->nb);
    TAKE(buf_alloc, balloc, b->nb); TAKE(buf_free, bfree, b->nb);
#undef TAKE
    g->n = n;
    g->nbufs = b->nb;
    g->ops = b->ops; b->ops = NULL;
    g->nops = b->nops;
    if (!b->pool) pool_add(b, "");
    g->strpool = b->pool; b->pool = NULL;
    g->strpool_len = b->plen;
    g->ids = b->ids; memset(&b->ids, 0, sizeof b->ids);
    g->bufids = b->bufids; memset(&b->bufids, 0, sizeof b->bufids);
    g->source = strdup(source);
    if (g->inputs == NULL) g->inputs = calloc(1, sizeof *g->inputs);
    return g;
}

/* Loads text; release (if not NULL) is called once the text is no longer
 * needed, so a mapped file can go before the graph is packed. */
static graph *load_text(const char *text, size_t len, const char *source, diag *d, const load_opts *opts,
                        load_stats *stats, void (*release)(void *ctx), void *ctx)
{
    builder b;
    memset(&b, 0, sizeof b);
    b.d = d;
    b.opts = opts;
    b.text = text;
    b.len = len;
    textpos_init(&b.tp, text, len);
    b.max_nodes = opts && opts->max_nodes && opts->max_nodes < LOAD_MAX_NODES ? opts->max_nodes : LOAD_MAX_NODES;
    double t0 = now_s();
    graph *g = NULL;
    uint32_t *pos = NULL, *order = NULL;

    /* cJSON accepts some text that is not JSON: check the syntax first. */
    const char *bad_at, *bad_why, *start = text, *end = text + len;
    if (len >= 3 && !memcmp(start, "\xEF\xBB\xBF", 3)) start += 3;     /* a UTF-8 byte order mark */
    double ts = now_s();
    int bad = skip_ws(start, end) < end && jscan_value(start, end, &bad_at, &bad_why);
    double syntax_s = now_s() - ts;
    if (bad) syntax_error(&b, bad_at, bad_why);
    else bad = read_document(&b) || b.oom || node_reserve(&b);
    if (release) release(ctx);
    release = NULL;
    b.text = NULL;
    if (bad) goto done;
    if (opts && opts->progress) opts->progress(opts->progress_ctx, len, len);
    b.in_off[b.n] = (uint32_t)b.nin;
    check_buffers(&b);
    if (d->nerrors || b.oom) goto done;
    check_inputs(&b);
    g = take_graph(&b, source);
    if (!g || !g->id || !g->source) { b.oom = 1; goto done; }
    if (build_edges(&b, g) || b.oom) goto done;
    pos = malloc(((size_t)g->n + 1) * sizeof *pos);
    order = malloc(((size_t)g->n + 1) * sizeof *order);
    if (!pos || !order) { b.oom = 1; goto done; }
    if (check_cycles(&b, g, pos, order) || b.oom) goto done;
    check_free_order(&b, g, pos, order);

done:
    if (release) release(ctx);
    if (b.limit)
        ERR(&b, DC_LIMIT, "too large: more than %llu %s (the most memtris holds)", (unsigned long long)b.limit_max,
            b.limit);
    else if (b.oom)
        ERR(&b, DC_LIMIT, "out of memory after %u nodes (the input is %zu bytes)", b.n, len);
    free(pos);
    free(order);
    builder_free(&b);
    diag_finish(d);
    if (d->nerrors) { graph_free(g); g = NULL; }
    if (stats) {
        stats->syntax_s = syntax_s;
        stats->parse_s = b.parse_s;
        stats->build_s = now_s() - t0 - b.parse_s - syntax_s;
        stats->bytes = len;
    }
    return g;
}

graph *load_buffer(const char *text, size_t len, const char *source, diag *d,
                   const load_opts *opts, load_stats *stats)
{
    return load_text(text, len, source, d, opts, stats, NULL, NULL);
}

static void release_file(void *ctx)
{
    fileio_release(ctx);
}

graph *load_file(const char *path, diag *d, const load_opts *opts, load_stats *stats)
{
    /* A pipe or a device is read no further than a first character that
     * cannot start a graph (load_text then says what it found there). */
    fileio_text f;
    char why[160];
    fileio_status st = fileio_read(path, '{', &f, why, sizeof why);
    if (st != FILEIO_OK) {
        diag_add(d, DIAG_ERROR, st == FILEIO_OUT_OF_MEMORY || st == FILEIO_TOO_LARGE ? DC_LIMIT : DC_OTHER, 0, 0,
                 "%s", why);
        return NULL;
    }
    return load_text(f.text, f.len, d->source, d, opts, stats, release_file, &f);
}
