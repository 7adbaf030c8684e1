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

int jw_end(jw *w)
{
    outbuf_char(w->o, '\n');
    return outbuf_flush(w->o);
}

void jw_break(jw *w, const char *ws) { w->brk = ws; }

/* What goes before an item: nothing after a key, else its comma and space. */
static void item(jw *w)
{
    if (w->after_key) {
        w->after_key = 0;
        return;
    }
    if (!w->depth) return;
    int first = w->first[w->depth - 1];
    if (!first) outbuf_char(w->o, ',');
    if (w->brk) outbuf_str(w->o, w->brk);
    else if (!first) outbuf_char(w->o, ' ');
    w->brk = NULL;
    w->first[w->depth - 1] = 0;
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

void jw_key(jw *w, const char *k)
{
    item(w);
    size_t n = strlen(k);
    for (size_t i = 0; MEMTRIS_CHECKING && i < n; i++) /* nothing to escape */
        MEMTRIS_ASSERT(k[i] != '"' && k[i] != '\\' && (unsigned char)k[i] >= 0x20);
    outbuf_char(w->o, '"');
    outbuf_bytes(w->o, k, n);
    outbuf_bytes(w->o, "\": ", 3);
    w->after_key = 1;
}

void jw_string(jw *w, const char *s)
{
    item(w);
    json_string_to(s, put, w->o);
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
    char t[NUMFMT_G_CAP];
    outbuf_bytes(w->o, t, numfmt_g(t, v, prec));
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

void jw_kstring(jw *w, const char *k, const char *s)
{
    jw_key(w, k);
    jw_string(w, s);
}

void jw_kint(jw *w, const char *k, int64_t v)
{
    jw_key(w, k);
    jw_int(w, v);
}

void jw_kuint(jw *w, const char *k, uint64_t v)
{
    jw_key(w, k);
    jw_uint(w, v);
}

void jw_kg(jw *w, const char *k, double v, int prec)
{
    jw_key(w, k);
    jw_g(w, v, prec);
}

void jw_kbool(jw *w, const char *k, int v)
{
    jw_key(w, k);
    jw_bool(w, v);
}
