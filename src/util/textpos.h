/* textpos.h: the one definition of a place in a text for every error
 * message: line and column, both from 1, the column counting code points
 * (a tab is one). A cursor makes forward lookups over a large file linear.
 * Exports textpos_*. */
#ifndef MEMTRIS_TEXTPOS_H
#define MEMTRIS_TEXTPOS_H
#include <stddef.h>

typedef struct textpos {
    const char *text;
    size_t len;
    size_t off; /* the place last asked for */
    unsigned long line, col;
} textpos;

void textpos_init(textpos *t, const char *text, size_t len);
/* The line and column of p (clamped to the text); cheap when p does not
 * go back from the place asked for before. */
void textpos_at(textpos *t, const char *p, unsigned long *line, unsigned long *col);

#endif
