/* outbuf.c: buffered output through a write callback (outbuf.h). */
#include "outbuf.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int outbuf_open(outbuf *o, size_t cap, outbuf_write_fn write, void *ctx)
{
    char *p = malloc(cap);
    if (!p) return -1;
    outbuf_init(o, p, cap, write, ctx);
    o->owned = 1;
    return 0;
}

void outbuf_init(outbuf *o, char *mem, size_t cap, outbuf_write_fn write, void *ctx)
{
    *o = (outbuf){.p = mem, .cap = cap, .write = write, .ctx = ctx};
}

int outbuf_file(void *ctx, const char *data, size_t len)
{
    return fwrite(data, 1, len, ctx) == len ? 0 : -1;
}

int outbuf_flush(outbuf *o)
{
    if (o->len && !o->failed && o->write(o->ctx, o->p, o->len)) o->failed = 1;
    o->len = 0;
    return o->failed ? -1 : 0;
}

int outbuf_close(outbuf *o)
{
    int rc = outbuf_flush(o);
    if (o->owned) free(o->p);
    o->p = NULL;
    o->cap = 0;
    o->owned = 0;
    return rc;
}

void outbuf_bytes_slow(outbuf *o, const char *s, size_t n)
{
    if (o->len + n > o->cap) outbuf_flush(o);
    if (n > o->cap) {
        if (!o->failed && o->write(o->ctx, s, n)) o->failed = 1;
        return;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
}

void outbuf_u64(outbuf *o, uint64_t v)
{
    if (o->cap - o->len >= 20) { /* room: the digits go straight in */
        o->len = (size_t)(outbuf_digits(o->p + o->len, v) - o->p);
        return;
    }
    char t[20];
    outbuf_bytes(o, t, (size_t)(outbuf_digits(t, v) - t));
}

void outbuf_i64(outbuf *o, int64_t v)
{
    if (v < 0) {
        outbuf_char(o, '-');
        outbuf_u64(o, (uint64_t)0 - (uint64_t)v);
    } else outbuf_u64(o, (uint64_t)v);
}

void outbuf_printf(outbuf *o, const char *fmt, ...)
{
    char t[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    outbuf_bytes(o, t, (size_t)k < sizeof t ? (size_t)k : sizeof t - 1);
}
