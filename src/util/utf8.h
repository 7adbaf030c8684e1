/* utf8.h: UTF-8 as RFC 3629 defines it, decoded in one place for every
 * layer (the JSON check, error snippets, the canvas, SVG text, widths).
 * Exports utf8_*. */
#ifndef MEMTRIS_UTF8_H
#define MEMTRIS_UTF8_H
#include <stdint.h>

/* Decodes the sequence at p (not reading at or past end; end NULL: p is
 * NUL-terminated): returns its length, 1 to 4, with the code point in *cp;
 * 0 when it is not well formed (overlong, a surrogate, past U+10FFFF, cut
 * short, a stray continuation byte, or the end). */
int utf8_decode(const char *p, const char *end, uint32_t *cp);
/* Code points in a NUL-terminated string (each byte of an ill-formed
 * sequence counts as one): the columns it takes on the canvas. */
int utf8_count(const char *s);

#endif
