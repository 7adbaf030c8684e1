/* layout.c: status bar on top, key hints and the "why" line at the bottom;
 * ready queue(s) on the left, memory curve over Tetris stack (or compare
 * summary) on the right; and sentences wrapped at words into the rows a
 * panel has. Exports layout_compute and layout_wrap. */
#include "layout.h"
#include <string.h>
#include <stdio.h>
#include "util/wrap.h"

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
    int ch = bh * 11 / 20; /* curve: a bit over half the height */
    if (ch < 6) ch = 6;
    if (compare) {
        /* By worth: the summary's sentences (both peaks, the saving, where
         * the orders part) get their columns and rows before the ready
         * queues grow, the curve keeping 6 rows at least. */
        int rw = w - 72 > LAYOUT_SUMMARY_W ? w - 72 : LAYOUT_SUMMARY_W;
        if (rw > w - 30) rw = w - 30;
        lw = w - rw;
        int sh = bh - ch, need = LAYOUT_SUMMARY_H < bh - 6 ? LAYOUT_SUMMARY_H : bh - 6;
        if (sh < need) ch = bh - need;
        else if (sh > need && sh > bh * 2 / 5) /* what it cannot use: to the curve */
            ch = bh - (need > bh * 2 / 5 ? need : bh * 2 / 5);
    }
    int rx = lw, rw = w - lw;
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

int layout_wrap(canvas *cv, int x, int y, int w, int rows, int style, const char *s)
{
    int used = 0;
    const char *row;
    size_t len;
    if (w <= 0) return 0;
    while (*s == ' ') s++;
    while (*s && used < rows) {
        if (used == rows - 1) { /* the last row: the rest, shortened with a mark */
            if (cv) canvas_fit(cv, x, y + used, w, style, s);
            return used + 1;
        }
        wrap_next(&s, w, &row, &len);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)len, row);
        if (cv) canvas_text(cv, x, y + used, w, style, buf);
        used++;
    }
    return used;
}
