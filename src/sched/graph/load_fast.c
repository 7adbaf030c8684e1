/* load_fast.c: one pass from a graph file's bytes to the builder, no JSON tree, no strtod: the
 * common case of load.c's walk. It takes only what it is sure load.c takes the same way (plain
 * integers, strings without escapes, the fields in their right types and ranges) and gives up
 * (GIVE_UP) at anything else, bad or merely unusual (a key with an escape, an integer
 * written 1e3); load.c then loads the text again its own way and says what is wrong, as before.
 * Exports load_fast_*. */
#define _GNU_SOURCE
#include "load_fast.h"
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/jnum.h"
#include "util/jscan.h"
#include "util/utf8.h"

typedef struct fast {
    graph_builder *b;
    const load_opts *opts;
    const char *text, *p, *end;
    size_t next_progress;
    int64_t measured_peak; /* "Measured": -1 absent */
    char *measured_how;
    char *scratch; /* Op and Name, NUL-terminated for the builder */
    size_t scap;
    jmp_buf give_up;
} fast;

#define GIVE_UP(f) longjmp((f)->give_up, 1)

static void ws(fast *f)
{
    while (f->p < f->end && (*f->p == ' ' || *f->p == '\t' || *f->p == '\n' || *f->p == '\r'))
        f->p++;
}

/* The character c next (after white space), taken. */
static void expect(fast *f, char c)
{
    ws(f);
    if (f->p >= f->end || *f->p != c) GIVE_UP(f);
    f->p++;
    ws(f);
}

/* The next character, after white space, is c: taken, 1; else 0. */
static int next_is(fast *f, char c)
{
    ws(f);
    if (f->p < f->end && *f->p == c) {
        f->p++;
        ws(f);
        return 1;
    }
    return 0;
}

/* A string without escapes, its bytes valid inside a JSON string: *s, *n. */
static void string(fast *f, const char **s, size_t *n)
{
    if (f->p >= f->end || *f->p != '"') GIVE_UP(f);
    const char *q = ++f->p;
    while (q < f->end && *q != '"') {
        unsigned char c = (unsigned char)*q;
        if (c < 0x20 || c == '\\') GIVE_UP(f);
        if (c < 0x80) {
            q++;
            continue;
        }
        uint32_t cp;
        int k = utf8_decode(q, f->end, &cp);
        if (!k) GIVE_UP(f);
        q += k;
    }
    if (q >= f->end) GIVE_UP(f);
    *s = f->p;
    *n = (size_t)(q - f->p);
    f->p = q + 1;
}

/* A string value copied NUL-terminated into the scratch at offset at: its offset. */
static size_t keep_string(fast *f, size_t at)
{
    const char *s;
    size_t n;
    string(f, &s, &n);
    if (at + n + 1 > f->scap) {
        size_t cap = (at + n + 1) * 2;
        char *q = realloc(f->scratch, cap);
        if (!q) GIVE_UP(f);
        f->scratch = q;
        f->scap = cap;
    }
    memcpy(f->scratch + at, s, n);
    f->scratch[at + n] = '\0';
    return at;
}

static int64_t uint_value(fast *f)
{
    uint64_t v;
    const char *after;
    if (jnum_uint(f->p, f->end, &v, &after)) GIVE_UP(f);
    f->p = after;
    return (int64_t)v;
}

/* Any value, nested depth levels deep in the document, checked as jscan checks it. */
static void skip_value(fast *f, int depth)
{
    const char *where, *what;
    if (jscan_value_at(f->p, f->end, depth, &where, &what)) GIVE_UP(f);
    f->p = where;
}

static int word(fast *f, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(f->end - f->p) < n || memcmp(f->p, w, n)) return 0;
    f->p += n;
    return 1;
}

/* An object's members: if (open_object(f)) do { key(f, &k, &n); VALUE } while (more(f)). */
static int open_object(fast *f)
{
    expect(f, '{');
    return !next_is(f, '}');
}

static void key(fast *f, const char **k, size_t *n)
{
    string(f, k, n);
    expect(f, ':');
}

static int more(fast *f)
{
    if (next_is(f, ',')) return 1;
    expect(f, '}');
    return 0;
}

/* The members of a node load.c reads; the first of a repeated key wins. */
enum {
    M_ID,
    M_OP,
    M_SIZE,
    M_BUF,
    M_NAME,
    M_IN,
    M_LAT,
    M_STR,
    M_CAT,
    M_PHASE,
    M_RERUN,
    M_INPLACE,
    M_NUM
};
static const char *const member_key[M_NUM] = {"Id",       "Op",     "Size",    "BufId",
                                              "Name",     "Inputs", "Latency", "Stream",
                                              "Category", "Phase",  "Rerun",   "InPlace"};

static int member_of(const char *k, size_t n)
{
    for (int m = 0; m < M_NUM; m++)
        if (strlen(member_key[m]) == n && !memcmp(member_key[m], k, n)) return m;
    return -1;
}

/* Where each member's value starts (NULL: absent). */
typedef struct members {
    const char *at[M_NUM];
} members;

static void scan_members(fast *f, members *m)
{
    const char *k;
    size_t n;
    memset(m, 0, sizeof *m);
    if (open_object(f)) {
        do {
            key(f, &k, &n);
            int which = member_of(k, n);
            if (which >= 0 && !m->at[which]) m->at[which] = f->p;
            skip_value(f, 3);
        } while (more(f));
    }
}

static int64_t uint_at(fast *f, const char *at)
{
    f->p = at;
    return uint_value(f);
}

/* Inputs at `at` into in (n of them); counts them when in is NULL. */
static size_t inputs(fast *f, const char *at, int64_t *in)
{
    size_t n = 0;
    f->p = at;
    expect(f, '[');
    if (next_is(f, ']')) return 0;
    do {
        int64_t v = uint_value(f);
        if (in) in[n] = v;
        n++;
    } while (next_is(f, ','));
    expect(f, ']');
    return n;
}

/* The optional members: Name (into the scratch after the Op), Latency, Stream, Category,
 * Phase, Rerun. */
static void optional(fast *f, const members *m, graph_node_spec *s, size_t name_at)
{
    if (m->at[M_NAME]) {
        f->p = m->at[M_NAME];
        keep_string(f, name_at);
    }
    if (m->at[M_LAT]) {
        const char *after;
        if (jnum_double(m->at[M_LAT], f->end, &s->latency, &after) || !(s->latency >= 0) ||
            s->latency > GRAPH_MAX_LATENCY)
            GIVE_UP(f);
        s->has_latency = 1;
    }
    s->stream = m->at[M_STR] ? uint_at(f, m->at[M_STR]) : -1;
    if (s->stream > GRAPH_MAX_STREAM) GIVE_UP(f);
    /* Category belongs on an ALLOC, Phase on a compute node. */
    if ((s->kind != NODE_ALLOC && m->at[M_CAT]) || (s->kind != NODE_COMPUTE && m->at[M_PHASE]))
        GIVE_UP(f);
    int k = s->kind == NODE_ALLOC ? M_CAT : M_PHASE;
    if (m->at[k]) {
        f->p = m->at[k];
        size_t at =
            keep_string(f, name_at + (m->at[M_NAME] ? strlen(f->scratch + name_at) + 1 : 0));
        s->tag =
            k == M_CAT ? graph_category_parse(f->scratch + at) : graph_phase_parse(f->scratch + at);
        if (s->tag < 0) GIVE_UP(f);
    }
    if (m->at[M_RERUN]) {
        f->p = m->at[M_RERUN];
        if (s->kind != NODE_COMPUTE) GIVE_UP(f);
        s->rerun = word(f, "true") ? GRAPH_RERUN_YES : word(f, "false") ? GRAPH_RERUN_NO : -1;
        if (s->rerun < 0) GIVE_UP(f);
    }
}

/* "InPlace" at `at` of a node of kind kind, its n Inputs in (from the builder's entry base):
 * each a plain integer that is one of the Inputs; marks them as store_node (load.c) does. */
static void inplace(fast *f, const char *at, int kind, const int64_t *in, size_t n, size_t base)
{
    if (kind != NODE_COMPUTE) GIVE_UP(f);
    f->p = at;
    expect(f, '[');
    if (next_is(f, ']')) return;
    do {
        int64_t v = uint_value(f);
        size_t k = 0;
        while (k < n && in[k] != v) k++;
        if (k == n) GIVE_UP(f);
        for (; k < n; k++)
            if (in[k] == v && graph_build_inplace(f->b, base + k)) GIVE_UP(f);
    } while (next_is(f, ','));
    expect(f, ']');
}

/* Nodes[index]. */
static void node(fast *f, size_t index)
{
    members m;
    graph_node_spec s;
    memset(&s, 0, sizeof s);
    scan_members(f, &m);
    const char *after = f->p;
    if (!m.at[M_ID] || !m.at[M_OP]) GIVE_UP(f);
    s.id = uint_at(f, m.at[M_ID]);
    f->p = m.at[M_OP];
    size_t name_at = keep_string(f, 0) + strlen(f->scratch) + 1;
    s.kind = !strcmp(f->scratch, "ALLOC")  ? NODE_ALLOC
             : !strcmp(f->scratch, "FREE") ? NODE_FREE
                                           : NODE_COMPUTE;
    s.size = s.bufid = -1;
    if (s.kind != NODE_COMPUTE) {
        if (!m.at[M_BUF] || (s.kind == NODE_ALLOC && !m.at[M_SIZE])) GIVE_UP(f);
        s.bufid = uint_at(f, m.at[M_BUF]);
        if (m.at[M_SIZE]) s.size = uint_at(f, m.at[M_SIZE]);
    }
    optional(f, &m, &s, name_at);
    s.ninputs = m.at[M_IN] ? inputs(f, m.at[M_IN], NULL) : 0;
    s.op = f->scratch;
    s.name = m.at[M_NAME] ? f->scratch + name_at : NULL;
    uint32_t dup, other;
    int64_t *in;
    uint32_t i = graph_build_node(f->b, &s, (uint32_t)index, &dup, &in);
    if (i == GRAPH_NONE) GIVE_UP(f);
    if (s.ninputs) inputs(f, m.at[M_IN], in);
    if (m.at[M_INPLACE]) inplace(f, m.at[M_INPLACE], s.kind, in, s.ninputs, f->b->in_off[i]);
    if (s.kind != NODE_COMPUTE &&
        graph_build_buffer(f->b, i, s.bufid, s.size, &other) != GRAPH_BUILD_OK)
        GIVE_UP(f);
    f->p = after;
}

/* Edges[index]: [u, v]. */
static void edge(fast *f, size_t index)
{
    (void)index;
    expect(f, '[');
    int64_t u = uint_value(f);
    expect(f, ',');
    int64_t v = uint_value(f);
    expect(f, ']');
    if (graph_build_edge(f->b, u, v)) GIVE_UP(f);
}

static void progress(fast *f)
{
    if (!f->opts || !f->opts->progress) return;
    size_t off = (size_t)(f->p - f->text), len = (size_t)(f->end - f->text);
    if (off < f->next_progress) return;
    f->opts->progress(f->opts->progress_ctx, off, len);
    f->next_progress = off + (len / 100 > 65536 ? len / 100 : 65536);
}

static void array(fast *f, void (*fn)(fast *, size_t))
{
    expect(f, '[');
    if (next_is(f, ']')) return;
    size_t i = 0;
    do {
        fn(f, i++);
        progress(f);
    } while (next_is(f, ','));
    expect(f, ']');
}

/* The top-level "Measured": {"peak": bytes, "how": "..."}, its other members ignored and
 * the first of a repeated one taken (as cJSON_GetObjectItemCaseSensitive). */
static void measured(fast *f)
{
    const char *peak = NULL, *how = NULL, *k;
    size_t n;
    if (f->measured_peak >= 0) GIVE_UP(f); /* twice */
    if (open_object(f)) {
        do {
            key(f, &k, &n);
            if (n == 4 && !memcmp(k, "peak", 4) && !peak) peak = f->p;
            if (n == 3 && !memcmp(k, "how", 3) && !how) how = f->p;
            skip_value(f, 2);
        } while (more(f));
    }
    const char *after = f->p;
    if (!peak) GIVE_UP(f);
    if (how) {
        f->p = how;
        keep_string(f, 0);
        if (!(f->measured_how = strdup(f->scratch))) GIVE_UP(f);
    }
    f->measured_peak = uint_at(f, peak);
    f->p = after;
}

static void document(fast *f)
{
    int seen_nodes = 0, seen_edges = 0;
    const char *k;
    size_t n;
    if (f->end - f->p >= 3 && !memcmp(f->p, "\xEF\xBB\xBF", 3)) f->p += 3;
    if (open_object(f)) {
        do {
            key(f, &k, &n);
            int nodes = n == 5 && !memcmp(k, "Nodes", 5), edges = n == 5 && !memcmp(k, "Edges", 5);
            if (n == 8 && !memcmp(k, "Measured", 8)) measured(f);
            else if ((nodes && seen_nodes++) || (edges && seen_edges++)) GIVE_UP(f);
            else if (nodes || edges) array(f, nodes ? node : edge);
            else skip_value(f, 1);
        } while (more(f));
    }
    if (f->p != f->end || !seen_nodes || !seen_edges) GIVE_UP(f);
}

/* The walk; 1 when it gave up. Its own function, so that nothing setjmp's caller changes is
 * read after the longjmp. */
static int walk(fast *f)
{
    if (setjmp(f->give_up)) return 1;
    document(f);
    if (f->b->oom) GIVE_UP(f);
    return 0;
}

int load_fast_document(graph_builder *b, const char *text, size_t len, const load_opts *opts,
                       int64_t *measured_peak, char **measured_how)
{
    fast f;
    memset(&f, 0, sizeof f);
    f.measured_peak = -1;
    f.b = b;
    f.opts = opts;
    f.text = f.p = text;
    f.end = text + len;
    int gave_up = walk(&f);
    free(f.scratch);
    if (!gave_up) {
        *measured_peak = f.measured_peak;
        *measured_how = f.measured_how;
    } else {
        free(f.measured_how);
        diag *d = b->d;
        uint32_t max = b->max_nodes;
        graph_build_free(b);
        graph_build_init(b, d, max);
    }
    return gave_up;
}
