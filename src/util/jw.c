/* jw.c: the JSON writer (jw.h). */
#include "jw.h"
#include <string.h>
#include "check.h"
#include "json.h"
#include "numfmt.h"

void jw_init(jw *w, outbuf *o)
{
    w->o = o;
    w->depth = 0;
    w->after_key = 0;
    w->brk = NULL;
}

void jw_file(jw *w, FILE *f)
{
    outbuf_init(&w->file, w->mem, sizeof w->mem, outbuf_file, f);
    jw_init(w, &w->file);
}

void jw_file_big(jw *w, FILE *f)
{
    if (outbuf_open(&w->file, JW_BIG, outbuf_file, f))
        outbuf_init(&w->file, w->mem, sizeof w->mem, outbuf_file, f);
    jw_init(w, &w->file);
}

int jw_end(jw *w)
{
    outbuf_char(w->o, '\n');
    return w->o == &w->file ? outbuf_close(w->o) : outbuf_flush(w->o);
}

void jw_break(jw *w, const char *ws) { w->brk = ws; }

/* What goes before an item: nothing after a key, else its comma and space. */
static inline void item(jw *w)
{
    if (w->after_key) {
        w->after_key = 0;
        return;
    }
    if (!w->depth) return;
    uint8_t *first = &w->first[w->depth - 1];
    if (!w->brk) {
        if (!*first) outbuf_bytes(w->o, ", ", 2);
    } else {
        if (!*first) outbuf_char(w->o, ',');
        outbuf_str(w->o, w->brk);
        w->brk = NULL;
    }
    *first = 0;
}

static void push(jw *w, char c)
{
    item(w);
    outbuf_char(w->o, c);
    if (w->depth < JW_MAX_DEPTH) w->first[w->depth] = 1;
    w->depth++;
}

static void pop(jw *w, char c)
{
    if (w->brk) outbuf_str(w->o, w->brk);
    w->brk = NULL;
    outbuf_char(w->o, c);
    if (w->depth) w->depth--;
}

void jw_object(jw *w) { push(w, '{'); }
void jw_object_end(jw *w) { pop(w, '}'); }
void jw_array(jw *w) { push(w, '['); }
void jw_array_end(jw *w) { pop(w, ']'); }

static void put(void *ctx, const char *p, size_t n) { outbuf_bytes(ctx, p, n); }

void jw_keyn(jw *w, const char *k, size_t n)
{
    item(w);
    for (size_t i = 0; MEMTRIS_CHECKING && i < n; i++) /* nothing to escape */
        MEMTRIS_ASSERT(k[i] != '"' && k[i] != '\\' && (unsigned char)k[i] >= 0x20);
    outbuf *o = w->o;
    if (o->cap - o->len >= n + 4) { /* room: "k": in one piece */
        char *p = o->p + o->len;
        p[0] = '"';
        memcpy(p + 1, k, n);
        memcpy(p + 1 + n, "\": ", 3);
        o->len += n + 4;
    } else {
        outbuf_char(o, '"');
        outbuf_bytes(o, k, n);
        outbuf_bytes(o, "\": ", 3);
    }
    w->after_key = 1;
}

/* The bytes json_string_to writes as they are: printable ASCII but " and backslash. */
static const uint8_t plain[256] = {
    [0x20] = 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x22 is " */
    [0x30] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    [0x40] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    [0x50] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, /* 0x5C is backslash */
    [0x60] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    [0x70] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, /* 0x7F is DEL */
};

void jw_string(jw *w, const char *s)
{
    item(w);
    size_t n = 0; /* the common case: printable ASCII, nothing to escape, in one piece */
    while (plain[(unsigned char)s[n]]) n++;
    outbuf *o = w->o;
    if (s[n] || o->cap - o->len < n + 2) {
        json_string_to(s, put, o);
        return;
    }
    char *p = o->p + o->len;
    p[0] = '"';
    memcpy(p + 1, s, n);
    p[n + 1] = '"';
    o->len += n + 2;
}

void jw_int(jw *w, int64_t v)
{
    item(w);
    outbuf_i64(w->o, v);
}

void jw_uint(jw *w, uint64_t v)
{
    item(w);
    outbuf_u64(w->o, v);
}

void jw_g(jw *w, double v, int prec)
{
    item(w);
    if (prec < 1 || prec > 17) {
        outbuf_printf(w->o, "%.*g", prec, v);
        return;
    }
    outbuf *o = w->o;
    if (o->cap - o->len >= NUMFMT_G_CAP) { /* room: straight in */
        o->len += numfmt_g(o->p + o->len, v, prec);
        return;
    }
    char t[NUMFMT_G_CAP];
    outbuf_bytes(o, t, numfmt_g(t, v, prec));
}

void jw_f(jw *w, double v, int prec)
{
    item(w);
    outbuf_printf(w->o, "%.*f", prec, v);
}

void jw_bool(jw *w, int v) { jw_raw(w, v ? "true" : "false"); }
void jw_null(jw *w) { jw_raw(w, "null"); }

void jw_raw(jw *w, const char *text)
{
    item(w);
    outbuf_str(w->o, text);
}

void jw_pair(jw *w, int64_t a, int64_t b)
{
    item(w);
    outbuf *o = w->o;
    if (o->cap - o->len < 48) outbuf_flush(o);
    char t[48], *p = o->cap - o->len >= 48 ? o->p + o->len : t, *start = p;
    *p++ = '[';
    if (a < 0) *p++ = '-';
    p = outbuf_digits(p, a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a);
    *p++ = ',';
    *p++ = ' ';
    if (b < 0) *p++ = '-';
    p = outbuf_digits(p, b < 0 ? (uint64_t)0 - (uint64_t)b : (uint64_t)b);
    *p++ = ']';
    if (start == t) outbuf_bytes(o, t, (size_t)(p - t)); /* a buffer under 48 bytes */
    else o->len += (size_t)(p - start);
}
