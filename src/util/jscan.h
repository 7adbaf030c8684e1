/* jscan.h: a strict JSON syntax checker that finds the exact place and
 * reason of the first error; cJSON parses, this decides what is JSON. */
#ifndef MEMTRIS_JSCAN_H
#define MEMTRIS_JSCAN_H
#include <stddef.h>

/* Checks one JSON value starting at p (white space before it is skipped).
 * Returns 0 when it is well formed, with *where just after it; else -1 with
 * *where at the offending character (end for truncation) and *what a short
 * reason ("unexpected end of input", "expected ':' after a key", ...). */
int jscan_value(const char *p, const char *end, const char **where, const char **what);
/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF; 1 for ASCII), or 0. */
int jscan_utf8_len(const char *p, const char *end);

#endif
