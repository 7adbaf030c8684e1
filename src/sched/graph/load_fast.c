/* load_fast.c: one pass from a graph file's bytes to the builder, no JSON tree, no strtod: the
 * common case of load.c's walk. It takes only what it is sure load.c takes the same way (plain
 * integers, strings without escapes, the fields in their right types and ranges) and gives up
 * (GIVE_UP) at anything else, bad or merely unusual (a key with an escape, an integer
 * written 1e3); load.c then loads the text again its own way and says what is wrong, as before.
 * A regular file is read in windows (refill): memory is the graph plus a constant; a file
 * that changes while it is read is given up on too (the walk reads it again and says so).
 * Never mapped: a file shrunk by another process must not kill memtris with SIGBUS.
 * Exports load_fast_*. */
#define _GNU_SOURCE
#include "load_fast.h"
#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "load_unescape.h"
#include "util/imap.h"
#include "util/jnum.h"
#include "util/jscan.h"
#include "util/utf8.h"

typedef struct fast {
    graph_builder *b;
    const load_opts *opts;
    const char *p, *end;
    size_t base, total; /* the file's offset of buf[0]; its length */
    size_t next_progress;
    /* Reading a file in windows (fd >= 0): buf[0, cap), refilled to keep `ahead` bytes. */
    int fd, eof;
    char *buf;
    const char *origin; /* buf, or the text */
    size_t cap, ahead;
    struct stat st;        /* the file when opened */
    int dense;             /* every node so far has Id = its index */
    int64_t measured_peak; /* "Measured": -1 absent */
    char *measured_how;
    char *scratch; /* Op and Name, NUL-terminated for the builder */
    size_t scap;
    char esc[4096]; /* a node's kept strings with escapes, decoded: [0, esclen) */
    size_t esclen;
    int64_t *ins, *ipl; /* a node's Inputs and InPlace as read */
    size_t inscap, iplcap;
    jmp_buf give_up;
} fast;

#define GIVE_UP(f) longjmp((f)->give_up, 1)

static void ws_run(fast *f)
{
    while (f->p < f->end && (unsigned char)*f->p <= ' ' &&
           (*f->p == ' ' || *f->p == '\t' || *f->p == '\n' || *f->p == '\r'))
        f->p++;
}

/* White space skipped; most often there is none, or one space (gen writes ", " and ": "). */
static inline __attribute__((always_inline)) void ws(fast *f)
{
    if (f->p < f->end && (unsigned char)*f->p > ' ') return;
    if (f->end - f->p >= 2 && f->p[0] == ' ' && (unsigned char)f->p[1] > ' ') {
        f->p++;
        return;
    }
    ws_run(f);
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

/* Whether one of the 8 bytes at q needs a look of its own in a string: '"', '\\', a control
 * character or a byte of a multi-byte character (a set bit for each, and maybe above it). */
static uint64_t special8(const char *q)
{
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    uint64_t w, quote, backslash;
    memcpy(&w, q, 8);
    quote = w ^ (ones * '"');
    backslash = w ^ (ones * '\\');
    return (((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | (w - ones * 0x20) | w) &
           high;
}

/* The rest of a string from q (its first byte at start), escapes decoded as cJSON decodes
 * them, into f->esc: *s, *n (load_unescape gives up where cJSON or jscan would refuse, and past
 * f->esc's room: the walk then takes it). */
static void decode_string(fast *f, const char *start, const char *q, const char **s, size_t *n)
{
    const char *close;
    if (load_unescape(start, q, f->end, f->esc + f->esclen, sizeof f->esc - f->esclen, n, &close))
        GIVE_UP(f);
    *s = f->esc + f->esclen;
    f->esclen += *n;
    f->p = close + 1;
}

/* A string, its bytes valid inside a JSON string: *s, *n; escapes only when decode (into
 * f->esc), else the single pass gives up at one. */
static void string_of(fast *f, const char **s, size_t *n, int decode)
{
    if (f->p >= f->end || *f->p != '"') GIVE_UP(f);
    const char *q = ++f->p;
    for (;;) {
        while (f->end - q >= 8) {
            uint64_t m = special8(q);
            if (!m) {
                q += 8;
                continue;
            }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            q += __builtin_ctzll(m) / 8; /* the first flagged byte is a true one */
#endif
            break;
        }
        if (q >= f->end) GIVE_UP(f);
        unsigned char c = (unsigned char)*q;
        if (c == '"') break;
        if (c == '\\' && decode) {
            decode_string(f, f->p, q, s, n);
            return;
        }
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
    *s = f->p;
    *n = (size_t)(q - f->p);
    f->p = q + 1;
}

/* A string without escapes (a key): *s, *n. */
static void string(fast *f, const char **s, size_t *n) { string_of(f, s, n, 0); }

/* s[0, n) copied NUL-terminated into the scratch at offset at: at. */
static size_t copy_span(fast *f, size_t at, const char *s, size_t n)
{
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

/* A string value copied NUL-terminated into the scratch at offset at: its offset. */
static size_t keep_string(fast *f, size_t at)
{
    const char *s;
    size_t n;
    f->esclen = 0;
    string_of(f, &s, &n, 1);
    return copy_span(f, at, s, n);
}

static int64_t uint_value(fast *f)
{
    uint64_t v;
    const char *after;
    if (jnum_uint(f->p, f->end, &v, &after)) GIVE_UP(f);
    f->p = after;
    return (int64_t)v;
}

static int64_t uint_at(fast *f, const char *at)
{
    f->p = at;
    return uint_value(f);
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
static const unsigned char member_len[M_NUM] = {2, 2, 4, 5, 4, 6, 7, 6, 8, 5, 5, 7};

static int member_of(const char *k, size_t n)
{
    for (int m = 0; m < M_NUM; m++)
        if (member_len[m] == n && member_key[m][0] == k[0] && !memcmp(member_key[m], k, n))
            return m;
    return -1;
}

/* A node's members, each read where it stands in the one form the single pass takes (any
 * other gives up), but Size and BufId, which a compute node does not read: those may have
 * another form (then skipped as jscan checks it, and marked in other). */
typedef struct members {
    const char *at[M_NUM]; /* where each value starts; NULL: absent */
    const char *str[M_NUM];
    size_t len[M_NUM]; /* the strings: Op, Name, Category, Phase */
    int64_t id, size, bufid, stream;
    double latency;
    int rerun, other;
    size_t nin, ninplace; /* in f->ins, f->ipl */
} members;

/* The key at p when it is member_key[m] as gen writes it (no escape), then ':': taken, 1; else
 * 0 and nothing taken. The words of the key and its quotes compared at once. */
static int key_is(fast *f, int m)
{
    size_t n = member_len[m] + 2u; /* with its quotes: at most 10 */
    char want[16] = {'"'};
    uint64_t w[2], k[2];
    if (f->end - f->p < 16) return 0;
    memcpy(want + 1, member_key[m], member_len[m]);
    want[n - 1] = '"';
    memcpy(w, f->p, 16);
    memcpy(k, want, 16);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t lo = n >= 8 ? ~0ULL : (1ULL << (8 * n)) - 1,
             hi = n > 8 ? (1ULL << (8 * (n - 8))) - 1 : 0;
    if (((w[0] ^ k[0]) & lo) | ((w[1] ^ k[1]) & hi)) return 0;
#else
    if (memcmp(w, k, n)) return 0;
#endif
    f->p += n;
    expect(f, ':');
    return 1;
}

/* The member gen writes after member m (ALLOC: Id Op Size BufId Name; FREE: Id Op BufId
 * Name; else Id Op Name Inputs Latency), a guess: -1 for none. */
static int member_after(const members *m, int which)
{
    static const signed char after[M_NUM] = {M_OP, -1, M_BUF, M_NAME, M_IN, M_LAT,
                                             -1,   -1, -1,    -1,     -1,   -1};
    if (which != M_OP) return after[which];
    if (m->len[M_OP] == 5 && m->str[M_OP][0] == 'A') return M_SIZE;
    return m->len[M_OP] == 4 && m->str[M_OP][0] == 'F' ? M_BUF : M_NAME;
}

/* An array of plain integers into *a (grown to *cap): how many. */
static size_t uint_list(fast *f, int64_t **a, size_t *cap)
{
    size_t n = 0;
    expect(f, '[');
    if (next_is(f, ']')) return 0;
    do {
        if (n == *cap) {
            size_t c = *cap ? 2 * *cap : 16;
            int64_t *q = realloc(*a, c * sizeof *q);
            if (!q) GIVE_UP(f);
            *a = q;
            *cap = c;
        }
        (*a)[n++] = uint_value(f);
    } while (next_is(f, ','));
    expect(f, ']');
    return n;
}

/* Size or BufId: a plain integer, or else any value (m->other). */
static int64_t soft_uint(fast *f, members *m)
{
    uint64_t v;
    const char *after;
    if (!jnum_uint(f->p, f->end, &v, &after)) {
        f->p = after;
        return (int64_t)v;
    }
    m->other = 1;
    skip_value(f, 3);
    return -1;
}

/* The value of member which, read. */
static void member(fast *f, members *m, int which)
{
    const char *after;
    m->at[which] = f->p;
    switch (which) {
    case M_ID: m->id = uint_value(f); break;
    case M_SIZE: m->size = soft_uint(f, m); break;
    case M_BUF: m->bufid = soft_uint(f, m); break;
    case M_IN: m->nin = uint_list(f, &f->ins, &f->inscap); break;
    case M_INPLACE: m->ninplace = uint_list(f, &f->ipl, &f->iplcap); break;
    case M_STR:
        m->stream = uint_value(f);
        if (m->stream > GRAPH_MAX_STREAM) GIVE_UP(f);
        break;
    case M_LAT:
        if (jnum_double(f->p, f->end, &m->latency, &after) || !(m->latency >= 0) ||
            m->latency > GRAPH_MAX_LATENCY)
            GIVE_UP(f);
        f->p = after;
        break;
    case M_RERUN:
        m->rerun = word(f, "true") ? GRAPH_RERUN_YES : word(f, "false") ? GRAPH_RERUN_NO : -1;
        if (m->rerun < 0) GIVE_UP(f);
        break;
    default: string_of(f, &m->str[which], &m->len[which], 1); /* Op, Name, Category, Phase */
    }
}

static int span_is(const members *m, int which, const char *w)
{
    return m->len[which] == strlen(w) && !memcmp(m->str[which], w, m->len[which]);
}

/* The optional members into s: Name (into the scratch at name_at), Latency, Stream, Category,
 * Phase, Rerun. */
static void optional(fast *f, const members *m, graph_node_spec *s, size_t name_at)
{
    if (m->at[M_NAME]) {
        copy_span(f, name_at, m->str[M_NAME], m->len[M_NAME]);
        s->name = f->scratch + name_at;
    }
    s->has_latency = m->at[M_LAT] != NULL;
    s->latency = m->latency;
    s->stream = m->at[M_STR] ? m->stream : -1;
    /* Category belongs on an ALLOC, Phase on a compute node. */
    if ((s->kind != NODE_ALLOC && m->at[M_CAT]) || (s->kind != NODE_COMPUTE && m->at[M_PHASE]))
        GIVE_UP(f);
    int k = s->kind == NODE_ALLOC ? M_CAT : M_PHASE;
    if (m->at[k]) {
        char word[32];
        if (m->len[k] >= sizeof word) GIVE_UP(f);
        memcpy(word, m->str[k], m->len[k]);
        word[m->len[k]] = '\0';
        s->tag = k == M_CAT ? graph_category_parse(word) : graph_phase_parse(word);
        if (s->tag < 0) GIVE_UP(f);
    }
    if (m->at[M_RERUN]) {
        if (s->kind != NODE_COMPUTE) GIVE_UP(f);
        s->rerun = m->rerun;
    }
}

/* "InPlace" (f->ipl, n of them) of a compute node, its Inputs in (from the builder's entry
 * base): each one of the Inputs; marks them as store_node (load.c) does. */
static void inplace(fast *f, size_t n, const int64_t *in, size_t nin, size_t base)
{
    for (size_t j = 0; j < n; j++) {
        int64_t v = f->ipl[j];
        size_t k = 0;
        while (k < nin && in[k] != v) k++;
        if (k == nin) GIVE_UP(f);
        for (; k < nin; k++)
            if (in[k] == v && graph_build_inplace(f->b, base + k)) GIVE_UP(f);
    }
}

/* Nodes[index]. */
static void node(fast *f, size_t index)
{
    members m;
    const char *k;
    size_t n;
    memset(m.at, 0, sizeof m.at);
    m.other = 0;
    f->esclen = 0;
    if (open_object(f)) {
        int guess = M_ID, which;
        do {
            if (guess < 0 || !key_is(f, guess)) {
                key(f, &k, &n);
                which = member_of(k, n);
            } else which = guess;
            guess = -1;
            if (which >= 0 && !m.at[which]) {
                member(f, &m, which);
                guess = member_after(&m, which);
            } else skip_value(f, 3);
        } while (more(f));
    }
    if (!m.at[M_ID] || !m.at[M_OP]) GIVE_UP(f);
    graph_node_spec s;
    memset(&s, 0, sizeof s);
    s.id = m.id;
    s.kind = span_is(&m, M_OP, "ALLOC")  ? NODE_ALLOC
             : span_is(&m, M_OP, "FREE") ? NODE_FREE
                                         : NODE_COMPUTE;
    s.size = s.bufid = -1;
    if (s.kind != NODE_COMPUTE) {
        if (!m.at[M_BUF] || (s.kind == NODE_ALLOC && !m.at[M_SIZE]) || m.other) GIVE_UP(f);
        s.bufid = m.bufid;
        if (m.at[M_SIZE]) s.size = m.size;
    }
    copy_span(f, 0, m.str[M_OP], m.len[M_OP]);
    optional(f, &m, &s, m.len[M_OP] + 1);
    s.op = f->scratch; /* after optional: the scratch may have moved */
    if (s.name) s.name = f->scratch + m.len[M_OP] + 1;
    s.ninputs = m.at[M_IN] ? m.nin : 0;
    uint32_t dup, other;
    int64_t *in;
    uint32_t i = graph_build_node(f->b, &s, (uint32_t)index, &dup, &in);
    if (i == GRAPH_NONE) GIVE_UP(f);
    f->dense &= s.id == i;
    if (s.ninputs) memcpy(in, f->ins, s.ninputs * sizeof *in);
    if (m.at[M_INPLACE]) {
        if (s.kind != NODE_COMPUTE) GIVE_UP(f);
        inplace(f, m.ninplace, in, s.ninputs, f->b->in_off[i]);
    }
    if (s.kind != NODE_COMPUTE &&
        graph_build_buffer(f->b, i, s.bufid, s.size, &other) != GRAPH_BUILD_OK)
        GIVE_UP(f);
}

/* The index of the node with Id id, added before (an edge to a node not yet read, or to none,
 * gives up: the walk resolves or reports it). */
static uint32_t node_index(fast *f, int64_t id)
{
    uint32_t i = f->dense && id < f->b->n ? (uint32_t)id : imap_get(&f->b->ids, id);
    if (i == IMAP_NONE) GIVE_UP(f);
    return i;
}

/* Edges[index]: [u, v]. */
static void edge(fast *f, size_t index)
{
    (void)index;
    expect(f, '[');
    uint32_t u = node_index(f, uint_value(f));
    expect(f, ',');
    uint32_t v = node_index(f, uint_value(f));
    expect(f, ']');
    if (u == v || graph_build_edge_nodes(f->b, u, v)) GIVE_UP(f);
}

static void progress(fast *f)
{
    if (!f->opts || !f->opts->progress) return;
    size_t off = f->base + (size_t)(f->p - f->origin), len = f->total;
    if (off < f->next_progress) return;
    f->opts->progress(f->opts->progress_ctx, off, len);
    f->next_progress = off + (len / 100 > 65536 ? len / 100 : 65536);
}

/* A file read in windows: once fewer than f->ahead bytes are left past p (or always, when
 * force), moves them to the buffer's start and reads on until it is full or the file ends.
 * Every element of Nodes and Edges (and every top-level member) shorter than f->ahead is
 * then whole in the buffer; one that is not is cut, and the single pass gives up there. */
static void refill(fast *f, int force)
{
    if (f->fd < 0 || f->eof || (!force && (size_t)(f->end - f->p) >= f->ahead)) return;
    size_t keep = (size_t)(f->end - f->p);
    memmove(f->buf, f->p, keep);
    f->base += (size_t)(f->p - f->buf);
    f->p = f->buf;
    while (!f->eof && keep < f->cap) {
        ssize_t r = read(f->fd, f->buf + keep, f->cap - keep);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) GIVE_UP(f);
        f->eof = r == 0;
        keep += (size_t)r;
    }
    f->end = f->buf + keep;
    if (f->eof) {
        /* The file as it was when opened, or the walk reads it again (and says what changed). */
        struct stat now;
        if (fstat(f->fd, &now) || f->base + keep != f->total || now.st_size != f->st.st_size ||
            now.st_mtim.tv_sec != f->st.st_mtim.tv_sec ||
            now.st_mtim.tv_nsec != f->st.st_mtim.tv_nsec)
            GIVE_UP(f);
    }
}

static void array(fast *f, void (*fn)(fast *, size_t))
{
    expect(f, '[');
    if (next_is(f, ']')) return;
    size_t i = 0;
    do {
        fn(f, i++);
        progress(f);
        refill(f, 0);
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
            refill(f, 0);
            key(f, &k, &n);
            int nodes = n == 5 && !memcmp(k, "Nodes", 5), edges = n == 5 && !memcmp(k, "Edges", 5);
            if (n == 8 && !memcmp(k, "Measured", 8)) measured(f);
            else if ((nodes && seen_nodes++) || (edges && seen_edges++)) GIVE_UP(f);
            else if (nodes || edges) array(f, nodes ? node : edge);
            else skip_value(f, 1);
        } while (more(f));
    }
    while (f->p == f->end && !f->eof && f->fd >= 0) {
        refill(f, 1);
        ws(f);
    }
    if (f->p != f->end || !seen_nodes || !seen_edges) GIVE_UP(f);
}

/* The walk; 1 when it gave up. Its own function, so that nothing setjmp's caller changes is
 * read after the longjmp. */
static int walk(fast *f)
{
    if (setjmp(f->give_up)) return 1;
    refill(f, 1);
    document(f);
    if (f->b->oom) GIVE_UP(f);
    return 0;
}

static size_t window = LOAD_FAST_WINDOW;

void load_fast_set_window(size_t bytes) { window = bytes >= 64 ? bytes : LOAD_FAST_WINDOW; }

int load_fast_document(graph_builder *b, const char *text, size_t *len, int fd,
                       const load_opts *opts, int64_t *measured_peak, char **measured_how)
{
    fast f;
    memset(&f, 0, sizeof f);
    f.measured_peak = -1;
    f.dense = 1;
    f.b = b;
    f.opts = opts;
    f.fd = text ? -1 : fd;
    f.total = *len;
    int gave_up = 1;
    if (text) {
        f.origin = f.p = text;
        f.end = text + *len;
        gave_up = walk(&f);
    } else if (!fstat(fd, &f.st) && (uint64_t)f.st.st_size == *len) {
        f.cap = window;
        f.ahead = f.cap / 8;
        if ((f.buf = malloc(f.cap))) {
            f.origin = f.p = f.end = f.buf;
            gave_up = walk(&f);
        }
        free(f.buf);
    }
    free(f.scratch);
    free(f.ins);
    free(f.ipl);
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
