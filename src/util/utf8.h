/* utf8.h: UTF-8 as RFC 3629 defines it, decoded in one place for every
 * layer (the JSON check, error snippets, the canvas, SVG text, widths), and
 * the one way user text is made printable for a terminal. Exports utf8_*. */
#ifndef MEMTRIS_UTF8_H
#define MEMTRIS_UTF8_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Decodes the sequence at p (not reading at or past end; end NULL: p is
 * NUL-terminated): returns its length, 1 to 4, with the code point in *cp;
 * 0 when it is not well formed (overlong, a surrogate, past U+10FFFF, cut
 * short, a stray continuation byte, or the end). */
int utf8_decode(const char *p, const char *end, uint32_t *cp);
/* Encodes code point cp (not a surrogate, at most U+10FFFF) into out (at
 * least 5 bytes), NUL-terminated; returns its length, 1 to 4, or 0 (out "")
 * for a value that is not a character. */
int utf8_encode(uint32_t cp, char *out);
/* Code points in a NUL-terminated string (each byte of an ill-formed
 * sequence counts as one): the columns it takes on the canvas. */
int utf8_count(const char *s);
/* s in at most width columns (as utf8_count counts them), shortened from the
 * left where it is longer: "\u2026" (one column) and the last width-1
 * characters, as "…layer4.0.conv2.weight" for a long name whose end tells
 * it apart. Written into out (cap bytes, cut at a character); returns out.
 * A width under 1 gives "". */
const char *utf8_fit_left(const char *s, int width, char *out, size_t cap);

/* User text (a name, an op, a CSV field, a file name, an option's value)
 * as memtris shows it in a message or a text or CSV output: valid UTF-8 as
 * it is, but each byte of a control character (C0 with tab and line
 * breaks, DEL, C1: U+0080..U+009F) and of an ill-formed sequence as \xNN,
 * so that no byte of it can drive a terminal. */
/* The len bytes at s (NUL included) made printable into out (cap >= 8):
 * cut at a character and ended with "..." when they do not fit; returns out. */
const char *utf8_printable_n(const char *s, size_t len, char *out, size_t cap);
/* The same for a NUL-terminated string. */
const char *utf8_printable(const char *s, char *out, size_t cap);
/* Writes s to f made printable, without a limit; keeps '\n' when lines is
 * set (a message of several lines). Returns 0, or EOF on a write error. */
int utf8_fputs_printable(const char *s, FILE *f, int lines);
/* The same for the len bytes at s. */
int utf8_fwrite_printable(const char *s, size_t len, FILE *f, int lines);

#endif
