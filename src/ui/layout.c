/* layout.c: status bar on top, key hints and the "why" line at the bottom;
 * ready queue(s) on the left, memory curve over Tetris stack (or compare
 * summary) on the right. Exports layout_compute. */
#include "layout.h"
#include <string.h>

static void use(layout *l, panel_id p, int x, int y, int w, int h)
{
    l->used[p] = 1;
    l->r[p] = (rect){x, y, w, h};
}

void layout_compute(int w, int h, int compare, layout *l)
{
    memset(l, 0, sizeof *l);
    l->w = w;
    l->h = h;
    if (w < LAYOUT_MIN_W || h < LAYOUT_MIN_H) {
        l->too_small = 1;
        return;
    }

    use(l, P_STATUS, 0, 0, w, 1);
    use(l, P_WHY, 0, h - 2, w, 1);
    use(l, P_HINTS, 0, h - 1, w, 1);
    int top = 1, bh = h - 3;
    int lw = w * 11 / 20;
    if (lw < 30) lw = 30;
    if (lw > 72) lw = 72;
    int rx = lw, rw = w - lw;
    int ch = bh * 11 / 20; /* curve: a bit over half the height */
    if (ch < 6) ch = 6;
    if (compare) {
        int a = bh / 2;
        use(l, P_READY, 0, top, lw, a);
        use(l, P_READY2, 0, top + a, lw, bh - a);
        use(l, P_CURVE, rx, top, rw, ch);
        use(l, P_SUMMARY, rx, top + ch, rw, bh - ch);
    } else {
        use(l, P_READY, 0, top, lw, bh);
        use(l, P_CURVE, rx, top, rw, ch);
        use(l, P_TETRIS, rx, top + ch, rw, bh - ch);
    }
}
