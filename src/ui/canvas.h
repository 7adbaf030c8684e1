/* canvas.h: an off-screen grid of cells (code point + semantic style) that
 * every panel draws into; ui_curses.c copies it to the terminal and tests
 * compare its dumps with golden screens. Exports canvas_*. */
#ifndef MEMTRIS_CANVAS_H
#define MEMTRIS_CANVAS_H
#include <stdint.h>
#include <stdio.h>
#include "style.h"

typedef struct cell {
    uint32_t ch;   /* Unicode code point, one column wide */
    uint8_t style; /* a style_id */
} cell;

typedef struct rect {
    int x, y, w, h;
} rect;

#define CANVAS_CUTS 64

typedef struct canvas {
    int w, h;
    int utf8; /* 0: only ASCII glyphs are drawn */
    cell *c;
    /* Text clipped inside a word (a number, a unit, a name: the last cell
     * drawn and the first left out both not spaces) since canvas_clear:
     * how often, and where the first was. The views never do it; tests
     * check. */
    int cuts;
    struct {
        int x, y;
    } cut[CANVAS_CUTS]; /* the first CANVAS_CUTS of them */
} canvas;

int canvas_init(canvas *cv, int w, int h, int utf8);
void canvas_free(canvas *cv);
void canvas_clear(canvas *cv);
static inline cell *canvas_at(canvas *cv, int x, int y)
{
    return (x >= 0 && y >= 0 && x < cv->w && y < cv->h) ? &cv->c[y * cv->w + x] : NULL;
}
void canvas_put(canvas *cv, int x, int y, uint32_t ch, int style);
void canvas_style(canvas *cv, int x, int y, int style); /* restyle one cell */
void canvas_fill(canvas *cv, rect r, uint32_t ch, int style);
/* Draws UTF-8 text from (x, y), clipped to maxw columns; characters that are
 * not one column wide (or not ASCII on an ASCII canvas) become '?'. Returns
 * the columns written. */
int canvas_text(canvas *cv, int x, int y, int maxw, int style, const char *s);
/* Draws s whole when it has at most maxw characters, else as much as fits
 * before a mark that it goes on (U+2026, '~' in ASCII), ending at a space
 * so that no word or number is cut (a first word longer than the line, a
 * name, is shortened where the line ends). Returns the columns written. */
int canvas_fit(canvas *cv, int x, int y, int maxw, int style, const char *s);
int canvas_printf(canvas *cv, int x, int y, int maxw, int style, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* A frame around r with a title in its top border (whole, or none when it
 * does not fit). */
void canvas_box(canvas *cv, rect r, const char *title, int style, int title_style);
/* Writes the characters (UTF-8), then with styles set a line of style
 * letters per row, for golden files. */
void canvas_dump(const canvas *cv, FILE *f, int styles);

#endif
