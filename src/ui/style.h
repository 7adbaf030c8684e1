/* style.h: semantic styles (what a cell means, not its color) and the two
 * schemes that give them a look: color, and monochrome (bold, reverse,
 * underline and glyph patterns). Exports style_*. */
#ifndef MEMTRIS_STYLE_H
#define MEMTRIS_STYLE_H

typedef enum style_id {
    ST_NORMAL,
    ST_BORDER,
    ST_FOCUS,
    ST_TITLE,
    ST_HEADER,
    ST_DIM,
    ST_NEXT,
    ST_ALLOC,
    ST_FREE,
    ST_COMPUTE,
    ST_CURVE,
    ST_FUTURE,
    ST_CURVE2,
    ST_FUTURE2,
    ST_CURSOR,
    ST_PEAK,
    ST_AXIS,
    ST_STATUS,
    ST_STATUS_KEY,
    ST_WHY,
    ST_HINT,
    ST_HINT_KEY,
    ST_HWM,
    ST_HOLE,
    ST_WARN,
    ST_GOOD,
    ST_PROMPT,
    ST_MEASURED,
    ST_BUF0,
    ST_BUF1,
    ST_BUF2,
    ST_BUF3,
    ST_BUF4,
    ST_BUF5,
    ST_COUNT
} style_id;

#define STYLE_NBUF 6

enum { SA_BOLD = 1, SA_REVERSE = 2, SA_UNDERLINE = 4, SA_DIM = 8 };

/* Colors are curses' eight basic ones (0 black .. 7 white), -1 = default. */
typedef struct style_look {
    short fg, bg;
    int attr;
} style_look;

const style_look *style_look_of(int style, int mono);
char style_letter(int style); /* one letter per style, for golden dumps */
/* Glyph filling a buffer's block: a space on its color, or in monochrome a
 * pattern per buffer (UTF-8 shades or ASCII characters). */
unsigned style_buf_glyph(int bufno, int mono, int utf8);
int style_buf(int bufno); /* ST_BUF0 + bufno % STYLE_NBUF */
/* 1 if the TUI draws with UTF-8 (braille, box drawing, shades), 0 for ASCII
 * only: ASCII when asked (--ascii), when the locale's codeset is not UTF-8,
 * or when TERM names a terminal that cannot draw braille (style_term_ascii). */
int style_utf8(int ascii, const char *codeset, const char *term);
/* 1 if TERM names a terminal known to lack UTF-8 or braille: the DEC VT
 * family (vt52, vt100, vt102, vt220, ...: "vt" and a digit), ansi*, linux*
 * (the console's font has no braille), dumb, cons25, pcansi, sun, wsvt25;
 * each also with a suffix after '-' or '.' (vt100-am, linux-16color). An
 * unset or empty TERM counts as lacking it. */
int style_term_ascii(const char *term);

#endif
