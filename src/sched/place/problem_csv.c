/* problem_csv.c: reads a placement problem from MiniMalloc's CSV, every
 * mistake reported at its line and column as the JSON loader reports its own.
 * Exports problem_read and problem_parse. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "problem.h"
#include "util/fileio.h"
#include "util/textpos.h"
#include "util/utf8.h"

/* The columns memtris knows, in the order it writes them. */
enum { COL_ID, COL_LOWER, COL_UPPER, COL_SIZE, COL_ALIGN, COL_GAPS, COL_OFFSET, NCOLS };

static const struct {
    const char *name;
    int col;
} col_names[] = {
    {"id", COL_ID},       {"buffer", COL_ID},       {"buffer_id", COL_ID}, {"lower", COL_LOWER},
    {"begin", COL_LOWER}, {"start", COL_LOWER},     {"upper", COL_UPPER},  {"end", COL_UPPER},
    {"size", COL_SIZE},   {"alignment", COL_ALIGN}, {"gaps", COL_GAPS},    {"offset", COL_OFFSET},
};
#define NNAMES (sizeof col_names / sizeof col_names[0])

/* What a header holds, for messages (the older names are in the man page). */
#define HEADER_WORDS "id,lower,upper,size (optionally alignment, gaps, offset)"

typedef struct reader {
    diag *d;
    textpos tp;
    const char *text, *end;
    problem *p;
    uint32_t cap;
    size_t plen, pcap;
    unsigned long *line; /* [cap] each row's line, for duplicate ids */
    int ncols;
    int col_of[16]; /* what each field of a row is: COL_* */
    int has[NCOLS];
    int end_inclusive; /* the upper column is MiniMalloc's older "end": upper - 1 */
} reader;

static void error_at(reader *r, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void error_at(reader *r, const char *at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    unsigned long line, col;
    textpos_at(&r->tp, at, &line, &col);
    diag_add(r->d, DIAG_ERROR, DC_SYNTAX, line, col, "%s", msg);
}

/* A field's text, for messages: made printable, cut to cap with "...". */
static void field_text(char *out, size_t cap, const char *s, const char *e)
{
    utf8_printable_n(s, (size_t)(e - s), out, cap);
}

static const char *const col_words[NCOLS] = {"id",        "lower", "upper", "size",
                                             "alignment", "gaps",  "offset"};

/* The largest value of column c, and how messages say it: 2^53-1 (a
 * graph's Size, and the times with it), or 2^63-1 for the offset column,
 * which holds any offset of a plan memtris writes. */
static int64_t col_max(int c) { return c == COL_OFFSET ? INT64_MAX : GRAPH_MAX_SIZE; }
static const char *col_max_words(int c)
{
    return c == COL_OFFSET ? "2^63-1 (9223372036854775807)" : "2^53-1 (9007199254740991)";
}

/* Parses field [s, e) of column c as an integer from 0 to col_max(c); 0, or
 * -1 after the error. */
static int parse_int(reader *r, int c, const char *s, const char *e, int64_t *out)
{
    char t[48];
    field_text(t, sizeof t, s, e);
    const char *q = s;
    if (q < e && *q == '-') q++;
    if (q == e) {
        error_at(r, s, "expected an integer for %s, found '%s'", col_words[c], t);
        return -1;
    }
    int64_t v = 0, max = col_max(c);
    int big = 0;
    for (; q < e; q++) {
        if (*q < '0' || *q > '9') {
            error_at(r, s, "expected an integer for %s, found '%s'", col_words[c], t);
            return -1;
        }
        if (v > (max - (*q - '0')) / 10) big = 1;
        else v = v * 10 + (*q - '0');
    }
    if (*s == '-' && (v || big)) {
        error_at(r, s, "%s must not be negative, found '%s'", col_words[c], t);
        return -1;
    }
    if (big) {
        error_at(r, s, "%s '%s' is too large: at most %s", col_words[c], t, col_max_words(c));
        return -1;
    }
    *out = v;
    return 0;
}

static int grow(reader *r)
{
    problem *p = r->p;
    uint32_t cap = r->cap ? r->cap * 2 : 64;
    if (r->cap >= PROBLEM_MAX_ROWS / 2) cap = PROBLEM_MAX_ROWS;
    void *a;
#define GROW(f)                                                        \
    if (!(a = realloc((f), (size_t)cap * sizeof *(f)))) { return -1; } \
    (f) = a;
    GROW(p->id) GROW(p->lower) GROW(p->upper) GROW(p->size) GROW(r->line);
    if (r->has[COL_ALIGN]) { GROW(p->align) }
    if (r->has[COL_OFFSET]) { GROW(p->offset) }
#undef GROW
    r->cap = cap;
    return 0;
}

static int add_id(reader *r, const char *s, const char *e)
{
    size_t n = (size_t)(e - s);
    if (r->plen + n + 1 > r->pcap) {
        size_t cap = r->pcap ? r->pcap * 2 : 4096;
        while (cap < r->plen + n + 1) cap *= 2;
        char *a = realloc(r->p->pool, cap);
        if (!a) return -1;
        r->p->pool = a;
        r->pcap = cap;
    }
    r->p->id[r->p->n] = r->plen;
    memcpy(r->p->pool + r->plen, s, n);
    r->p->pool[r->plen + n] = 0;
    r->plen += n + 1;
    return 0;
}

/* The end of the line at s, before its '\r' if any. */
static const char *line_end(const char *s, const char *end, const char **next)
{
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *e = nl ? nl : end;
    *next = nl ? nl + 1 : end;
    if (e > s && e[-1] == '\r') e--;
    return e;
}

/* Reads the header line [s, e); 0 or -1 after an error. */
static int read_header(reader *r, const char *s, const char *e)
{
    for (const char *f = s;; f++) {
        const char *fe = memchr(f, ',', (size_t)(e - f));
        if (!fe) fe = e;
        char t[48];
        field_text(t, sizeof t, f, fe);
        int c = -1;
        for (size_t i = 0; i < NNAMES && c < 0; i++)
            if (strlen(col_names[i].name) == (size_t)(fe - f) &&
                !memcmp(col_names[i].name, f, (size_t)(fe - f)))
                c = col_names[i].col;
        if (c < 0) {
            error_at(r, f, "unknown column '%s': expected %s", t, HEADER_WORDS);
            return -1;
        }
        if (r->has[c]) {
            error_at(r, f, "column '%s' repeats the %s column", t, col_words[c]);
            return -1;
        }
        if (r->ncols == (int)(sizeof r->col_of / sizeof r->col_of[0])) {
            error_at(r, f, "too many columns: expected %s", HEADER_WORDS);
            return -1;
        }
        r->has[c] = 1;
        r->col_of[r->ncols++] = c;
        if (c == COL_UPPER && fe - f == 3) r->end_inclusive = 1; /* "end" */
        if (fe == e) break;
        f = fe;
    }
    for (int c = COL_ID; c <= COL_SIZE; c++)
        if (!r->has[c]) {
            error_at(r, e, "the header lacks the %s column: expected %s", col_words[c],
                     HEADER_WORDS);
            return -1;
        }
    return 0;
}

/* Reads one row [s, e); 0 or -1 after an error (or out of memory: r->d says). */
static int read_row(reader *r, const char *s, const char *e, unsigned long line)
{
    problem *p = r->p;
    if (p->n == PROBLEM_MAX_ROWS) {
        error_at(r, s, "too many rows: at most %u", (unsigned)PROBLEM_MAX_ROWS);
        return -1;
    }
    if (p->n == r->cap && grow(r)) {
        error_at(r, s, "out of memory after %u rows", p->n);
        return -1;
    }
    uint32_t i = p->n;
    const char *f = s, *lower_at = s;
    int more = 1; /* a field starts at f */
    for (int k = 0; k < r->ncols; k++) {
        if (!more) {
            error_at(r, e, "expected %d fields, found %d", r->ncols, k);
            return -1;
        }
        const char *fe = memchr(f, ',', (size_t)(e - f));
        if (!fe) fe = e;
        if (k == r->ncols - 1 && fe != e) {
            error_at(r, fe, "expected %d fields, found more", r->ncols);
            return -1;
        }
        int c = r->col_of[k];
        int64_t v = 0;
        char t[48];
        field_text(t, sizeof t, f, fe);
        switch (c) {
        case COL_ID:
            if (f == fe) {
                error_at(r, f, "expected an id, found an empty field");
                return -1;
            }
            for (const char *q = f; q < fe; q++)
                if (*q < ' ' || *q > '~' || *q == '"' || *q == '\\') {
                    error_at(r, f,
                             "id '%s' has a character other than printable ASCII, or a quote "
                             "or backslash",
                             t);
                    return -1;
                }
            if (add_id(r, f, fe)) {
                error_at(r, f, "out of memory after %u rows", p->n);
                return -1;
            }
            break;
        case COL_GAPS:
            if (f != fe) {
                error_at(r, f,
                         "gaps '%s': memtris places a buffer live on one interval, so the gaps "
                         "column must be empty",
                         t);
                return -1;
            }
            break;
        case COL_ALIGN:
            if (parse_int(r, c, f, fe, &v)) return -1;
            if (v < 1 || v > ((int64_t)1 << 30) || (v & (v - 1))) {
                error_at(r, f, "expected a power of two from 1 to 2^30 for alignment, found '%s'",
                         t);
                return -1;
            }
            p->align[i] = v;
            if (v > p->max_align) p->max_align = v;
            break;
        default:
            if (parse_int(r, c, f, fe, &v)) return -1;
            if (c == COL_LOWER) {
                p->lower[i] = v;
                lower_at = f;
            } else if (c == COL_UPPER) {
                /* An inclusive end is upper - 1: upper, at most 2^53-1 as
                 * every time, is what memtris writes back. */
                if (r->end_inclusive && v == GRAPH_MAX_SIZE) {
                    error_at(r, f,
                             "end '%s' is too large: at most 2^53-2 (9007199254740990), its "
                             "upper (end + 1) at most 2^53-1",
                             t);
                    return -1;
                }
                p->upper[i] = v + r->end_inclusive;
            } else if (c == COL_SIZE) p->size[i] = v;
            else p->offset[i] = v;
        }
        more = fe < e;
        f = fe + more;
    }
    r->line[i] = line;
    p->n++;
    if (p->upper[i] <= p->lower[i]) {
        error_at(r, lower_at, "an empty lifetime: lower %lld is not below upper %lld",
                 (long long)p->lower[i], (long long)p->upper[i]);
        return -1;
    }
    return 0;
}

static const problem *cmp_p;
static int by_id(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    int c = strcmp(problem_id(cmp_p, a), problem_id(cmp_p, b));
    return c ? c : (a > b) - (a < b);
}

/* Reports the second row of each id seen twice (the first of them, in line order). */
static int check_ids(reader *r)
{
    problem *p = r->p;
    uint32_t *ix = malloc(((size_t)p->n + 1) * sizeof *ix);
    if (!ix) {
        diag_add(r->d, DIAG_ERROR, DC_LIMIT, 0, 0, "out of memory checking %u ids", p->n);
        return -1;
    }
    for (uint32_t i = 0; i < p->n; i++) ix[i] = i;
    cmp_p = p;
    qsort(ix, p->n, sizeof *ix, by_id);
    uint32_t dup = UINT32_MAX, first = 0;
    for (uint32_t k = 1; k < p->n; k++)
        if (!strcmp(problem_id(p, ix[k]), problem_id(p, ix[k - 1])) && ix[k] < dup) {
            dup = ix[k];
            first = ix[k - 1];
        }
    free(ix);
    if (dup == UINT32_MAX) return 0;
    diag_add(r->d, DIAG_ERROR, DC_DUP_ID, r->line[dup], 1, "duplicate id '%s' (first on line %lu)",
             problem_id(p, dup), r->line[first]);
    return -1;
}

problem *problem_parse(const char *text, size_t len, diag *d)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.d = d;
    r.text = text;
    r.end = text + len;
    textpos_init(&r.tp, text, len);
    r.p = calloc(1, sizeof *r.p);
    if (!r.p) {
        diag_add(d, DIAG_ERROR, DC_LIMIT, 0, 0, "out of memory");
        return NULL;
    }
    r.p->max_align = 1;
    const char *s = text, *next;
    if (len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) s += 3; /* a UTF-8 byte order mark */
    const char *e = line_end(s, r.end, &next);
    int bad = 0;
    if (e == s) {
        error_at(&r, s, "expected a header line %s, found %s", HEADER_WORDS,
                 s == r.end ? "an empty file" : "an empty line");
        bad = 1;
    } else bad = read_header(&r, s, e);
    unsigned long line = 1;
    const char *blank = NULL; /* the first blank line, while only blank lines follow it */
    for (s = next; !bad && s < r.end; s = next) {
        e = line_end(s, r.end, &next);
        line++;
        if (e == s) {
            if (!blank) blank = s;
            continue;
        }
        if (blank) {
            error_at(&r, blank,
                     "a blank line among the rows: expected a row (MiniMalloc stops reading "
                     "at a blank line)");
            bad = 1;
            break;
        }
        bad = read_row(&r, s, e, line);
    }
    if (!bad) bad = check_ids(&r);
    free(r.line);
    if (bad) {
        problem_free(r.p);
        return NULL;
    }
    return r.p;
}

problem *problem_read(const char *path, diag *d)
{
    fileio_text f;
    char why[160];
    fileio_status st = fileio_read(path, 0, &f, why, sizeof why);
    if (st != FILEIO_OK) {
        diag_add(d, DIAG_ERROR,
                 st == FILEIO_OUT_OF_MEMORY || st == FILEIO_TOO_LARGE ? DC_LIMIT : DC_OTHER, 0, 0,
                 "%s", why);
        return NULL;
    }
    problem *p = problem_parse(f.text, f.len, d);
    fileio_release(&f);
    return p;
}
