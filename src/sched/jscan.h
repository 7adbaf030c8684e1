/* jscan.h: a JSON syntax checker that finds the exact place and reason of
 * the first error, for messages; cJSON parses, this only explains. */
#ifndef MEMTRIS_JSCAN_H
#define MEMTRIS_JSCAN_H
#include <stddef.h>

/* Checks one JSON value starting at p. Returns 0 when it is well formed,
 * else -1 with *where at the offending character (end for truncation) and
 * *what a short reason ("unexpected end of input", "expected ':' ..."). */
int jscan_value(const char *p, const char *end, const char **where, const char **what);

#endif
