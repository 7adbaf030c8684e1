/* layout.h: where each panel goes, as a pure function of the terminal size
 * and the mode. Exports layout_compute. */
#ifndef MEMTRIS_LAYOUT_H
#define MEMTRIS_LAYOUT_H
#include "canvas.h"

enum { LAYOUT_MIN_W = 60, LAYOUT_MIN_H = 16 };

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

#endif
