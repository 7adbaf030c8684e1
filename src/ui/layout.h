/* layout.h: where each panel goes, as a pure function of the terminal size
 * and the mode; sentences wrapped at words. Exports layout_compute and
 * layout_wrap. */
#ifndef MEMTRIS_LAYOUT_H
#define MEMTRIS_LAYOUT_H
#include "canvas.h"

enum { LAYOUT_MIN_W = 60, LAYOUT_MIN_H = 16 };
/* What compare mode's summary is given before the ready queues grow: the
 * columns that keep its lines whole, the rows that hold them wrapped. */
enum { LAYOUT_SUMMARY_W = 64, LAYOUT_SUMMARY_H = 12 };

typedef enum panel_id {
    P_STATUS,
    P_READY,
    P_READY2,
    P_CURVE,
    P_TETRIS,
    P_SUMMARY,
    P_WHY,
    P_HINTS,
    P_COUNT
} panel_id;

typedef struct layout {
    int w, h;
    int too_small;     /* below LAYOUT_MIN_W x LAYOUT_MIN_H: draw a notice only */
    int used[P_COUNT]; /* which panels this mode shows */
    rect r[P_COUNT];
} layout;

/* compare: two ready panels and a summary instead of the Tetris stack. */
void layout_compute(int w, int h, int compare, layout *out);

/* Draws s from x,y across at most rows rows of w columns, broken at spaces
 * (never between a number and its unit); the last row shortened with a mark
 * when the words run out of rows. Returns the rows used; with cv NULL draws
 * nothing and counts them. */
int layout_wrap(canvas *cv, int x, int y, int w, int rows, int style, const char *s);

#endif
