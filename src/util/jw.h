/* jw.h: a small JSON writer over an outbuf or a FILE: objects and arrays,
 * keys, the commas between items, strings escaped as json_string does,
 * integers, doubles as %.*g (numfmt.h: printf's bytes, no printf) or %.*f; the layout is
 * memtris's (", " and ": "), with line breaks where the caller asks. Exports jw_*. */
#ifndef MEMTRIS_JW_H
#define MEMTRIS_JW_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "outbuf.h"

#define JW_MAX_DEPTH 32

typedef struct jw {
    outbuf *o;
    outbuf file; /* jw_file's, on mem */
    char mem[1024];
    int depth;
    uint8_t first[JW_MAX_DEPTH]; /* no item yet in the container at this depth */
    int after_key;               /* the next value is a key's */
    const char *brk;             /* what goes before the next item or bracket instead of " " */
} jw;

/* Starts a writer on f (buffered; jw_end flushes it). */
void jw_file(jw *w, FILE *f);
/* The same with a buffer of JW_BIG bytes from the heap (jw_file's when out
 * of memory), for documents of megabytes; jw_end frees it. */
#define JW_BIG ((size_t)1 << 16)
void jw_file_big(jw *w, FILE *f);
/* Starts a writer on o (the caller flushes or closes o). */
void jw_init(jw *w, outbuf *o);
/* Ends the document: a newline after the top-level value, then the output
 * flushed (and a jw_file or jw_file_big buffer freed). 0, or -1 when a write
 * failed. */
int jw_end(jw *w);

/* Containers: "{" ... "}" and "[" ... "]". */
void jw_object(jw *w);
void jw_object_end(jw *w);
void jw_array(jw *w);
void jw_array_end(jw *w);
/* Layout: ws (such as "\n  ") goes before the next item, after its comma,
 * or before the next closing bracket, instead of the usual " " (none before
 * a container's first item or its bracket). */
void jw_break(jw *w, const char *ws);

/* An object's key: its value comes next. Keys are the program's own words
 * (field, policy and placer names), written as they are: nothing in them
 * needs escaping (MEMTRIS_ASSERT checks it). jw_keyn takes the key's length;
 * jw_key and the jw_k* below are inline, so a literal key's strlen is folded. */
void jw_keyn(jw *w, const char *k, size_t n);
static inline void jw_key(jw *w, const char *k) { jw_keyn(w, k, strlen(k)); }
/* Values. jw_g writes %.*g with prec digits, jw_f %.*f with prec decimals;
 * jw_raw writes text that is JSON already (a number formatted elsewhere). */
void jw_string(jw *w, const char *s);
void jw_int(jw *w, int64_t v);
void jw_uint(jw *w, uint64_t v);
void jw_g(jw *w, double v, int prec);
void jw_f(jw *w, double v, int prec);
void jw_bool(jw *w, int v);
void jw_null(jw *w);
void jw_raw(jw *w, const char *text);

/* [a, b]: an array of two integers as one item (an edge). */
void jw_pair(jw *w, int64_t a, int64_t b);

/* A key and its value in one call. */
static inline void jw_kstring(jw *w, const char *k, const char *s)
{
    jw_key(w, k);
    jw_string(w, s);
}
static inline void jw_kint(jw *w, const char *k, int64_t v)
{
    jw_key(w, k);
    jw_int(w, v);
}
static inline void jw_kuint(jw *w, const char *k, uint64_t v)
{
    jw_key(w, k);
    jw_uint(w, v);
}
static inline void jw_kg(jw *w, const char *k, double v, int prec)
{
    jw_key(w, k);
    jw_g(w, v, prec);
}
static inline void jw_kbool(jw *w, const char *k, int v)
{
    jw_key(w, k);
    jw_bool(w, v);
}

#endif
