/* wrap.h: narration broken into rows at word boundaries, never between a
 * number and its unit ("64 KiB") nor after an operator ("= 11.0 MiB"): the
 * one wrapper of the TUI's sentences. Exports wrap_next and wrap_count. */
#ifndef MEMTRIS_WRAP_H
#define MEMTRIS_WRAP_H
#include <stddef.h>

/* The next row of *s in width columns (code points, as utf8_count counts
 * them; under 1 counts as 1): skips the spaces before it, sets *row and
 * *len (its bytes, no spaces at its ends) and moves *s past the row and the
 * spaces after it. A row ends at the last space within width where a break
 * is allowed; where none is, at the last space within width; a word longer
 * than width is cut after width characters. Returns 0 when no text is left
 * (*s at its end). */
int wrap_next(const char **s, int width, const char **row, size_t *len);
/* The rows s takes in width columns. */
int wrap_count(const char *s, int width);

#endif
