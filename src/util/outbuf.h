/* outbuf.h: buffered output through a caller's write callback (or a FILE),
 * for writers that make many small pieces: numbers, strings, bytes. After a
 * failed write the rest is dropped and the end says so. Exports outbuf_*. */
#ifndef MEMTRIS_OUTBUF_H
#define MEMTRIS_OUTBUF_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "numfmt.h"

/* Receives the output in chunks; returns 0, or nonzero to stop writing. */
typedef int (*outbuf_write_fn)(void *ctx, const char *data, size_t len);

typedef struct outbuf {
    char *p;
    size_t len, cap;
    outbuf_write_fn write;
    void *ctx;
    int failed; /* a write returned nonzero: what follows is dropped */
    int owned;  /* p is outbuf_open's, freed by outbuf_close */
} outbuf;

/* Starts o with a buffer of cap bytes of its own: 0, or -1 out of memory. */
int outbuf_open(outbuf *o, size_t cap, outbuf_write_fn write, void *ctx);
/* Starts o on the caller's memory mem[cap] (cap >= 1). */
void outbuf_init(outbuf *o, char *mem, size_t cap, outbuf_write_fn write, void *ctx);
/* An outbuf_write_fn writing to the FILE ctx (fwrite): 0, or -1. */
int outbuf_file(void *ctx, const char *data, size_t len);

/* Appends n bytes (a piece longer than the buffer goes straight through). */
void outbuf_bytes_slow(outbuf *o, const char *s, size_t n);
static inline void outbuf_bytes(outbuf *o, const char *s, size_t n)
{
    if (o->len + n > o->cap) {
        outbuf_bytes_slow(o, s, n);
        return;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
}
static inline void outbuf_str(outbuf *o, const char *s) { outbuf_bytes(o, s, strlen(s)); }
static inline void outbuf_char(outbuf *o, char c) { outbuf_bytes(o, &c, 1); }
/* Writes v's decimal digits at out (room for 20) and returns their end. */
static inline char *outbuf_digits(char *out, uint64_t v) { return numfmt_u64(out, v); }
/* Decimal integers, as printf's PRIu64 and PRId64 write them. */
void outbuf_u64(outbuf *o, uint64_t v);
void outbuf_i64(outbuf *o, int64_t v);
/* printf-style, for pieces under 512 bytes (longer ones are cut). */
void outbuf_printf(outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes what is buffered: 0, or -1 when a write failed (now or before). */
int outbuf_flush(outbuf *o);
/* outbuf_flush, then frees an outbuf_open buffer: 0, or -1 when any write failed. */
int outbuf_close(outbuf *o);

#endif
