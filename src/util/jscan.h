/* jscan.h: a strict JSON syntax checker that finds the exact place and
 * reason of the first error; cJSON parses, this decides what is JSON. */
#ifndef MEMTRIS_JSCAN_H
#define MEMTRIS_JSCAN_H
#include <stddef.h>
#include "textpos.h"

/* Checks one JSON value starting at p (white space before it is skipped).
 * Returns 0 when it is well formed, with *where just after it; else -1 with
 * *where at the offending character (end for truncation) and *what a short
 * reason ("unexpected end of input", "expected ':' after a key", ...), or
 * JSCAN_NUL with *where at a "\u0000" in a string (a key's or a value's):
 * valid JSON, but every string memtris reads (cJSON's too) ends at a NUL, so
 * "weight\u0000x" would be read as "weight". */
#define JSCAN_NUL (-2)
int jscan_value(const char *p, const char *end, const char **where, const char **what);
/* The same for a value nested depth levels deep in a document (the top
 * level's value is at 0, its members' at 1), so the nesting limit counts
 * from the document's top as a whole-document check does. */
int jscan_value_at(const char *p, const char *end, int depth, const char **where,
                   const char **what);

/* A syntax error as messages give it: its line and column (a truncation is
 * placed just after the last character that is not white space) and
 * "REASON, at 'CONTEXT'" with up to 16 characters of context, bytes that
 * are not text shown as \xHH. tp is the text's position cursor. */
typedef struct jscan_report {
    unsigned long line, col;
    char msg[200];
} jscan_report;
void jscan_report_at(textpos *tp, const char *at, const char *what, jscan_report *r);

#endif
