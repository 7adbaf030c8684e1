/* load_unescape.h: a JSON string's escapes decoded as cJSON decodes them, for the single pass
 * (load_fast.c). Internal to the loader. Exports load_unescape. */
#ifndef MEMTRIS_LOAD_UNESCAPE_H
#define MEMTRIS_LOAD_UNESCAPE_H
#include <stddef.h>

/* The string whose first byte is at start, read on from q (start <= q, the bytes between
 * plain) up to its closing quote, not at or past end: decoded into out (room bytes), *n of
 * them, and *close the closing quote. 0, or -1 where cJSON or jscan would refuse (\u0000, a
 * surrogate not in a pair, bad hex, a control character, ill-formed UTF-8, the end) or the
 * room is too small. */
int load_unescape(const char *start, const char *q, const char *end, char *out, size_t room,
                  size_t *n, const char **close);

#endif
