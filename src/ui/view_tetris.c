/* view_tetris.c: the "Tetris" stack (live buffers as blocks at their arena
 * addresses, holes where freed blocks were, the high-water mark as a line)
 * and the compare-mode summary panel. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/units.h"
#include "view.h"

#define TLAB 10



/* Row (0 = bottom) holding address addr, on ph rows spanning [0, arena). */
static int addr_row(int64_t addr, int64_t arena, int ph)
{
    double f = (double)addr / (double)arena * ph;
    int j = (int)f;
    return j < 0 ? 0 : j;
}

void view_tetris(canvas *cv, const app *a, rect r)
{
    const graph *g = a->g;
    const stepper *s = &a->st[0];
    const placement *pl = &a->pl;
    int focused = a->focus == P_TETRIS;
    char title[96], b1[32], b2[32];
    snprintf(title, sizeof title, " Arena: first-fit, %" PRId64 " B align ", pl->align);
    canvas_box(cv, r, title, focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    rect area = {r.x + 1 + TLAB + 1, r.y + 2, r.w - 3 - TLAB - 1, r.h - 3};
    if (area.w < 4 || area.h < 1) return;
    int ph = area.h;
    int64_t arena = pl->arena, hwm = s->k ? pl->hwm[s->k - 1] : 0;

    /* Axis and labels: the arena's size on the top row, 0 at the bottom. */
    int axis_x = area.x - 1;
    for (int y = area.y; y < area.y + ph; y++) canvas_put(cv, axis_x, y, cv->utf8 ? 0x2502 : '|', ST_AXIS);
    units_bytes(b1, sizeof b1, 0, 0);
    canvas_text(cv, axis_x - (int)strlen(b1), area.y + ph - 1, TLAB, ST_AXIS, b1);
    snprintf(title, sizeof title, "arena %s", units_bytes(b1, sizeof b1, arena, 0));
    int tx = r.x + 1 + canvas_text(cv, r.x + 1, r.y + 1, r.w - 2, ST_AXIS, title);
    snprintf(title, sizeof title, "   high-water so far %s", units_bytes(b1, sizeof b1, hwm, 0));
    canvas_text(cv, tx, r.y + 1, r.x + r.w - 1 - tx, ST_HWM, title);
    if (arena <= 0) {
        canvas_text(cv, area.x + 1, area.y + ph / 2, area.w - 1, ST_DIM, "no buffer is ever allocated");
        return;
    }

    /* Each row shows the smallest live block covering it (so small blocks
     * stay visible), and each block is labelled on its middle row (edge rows
     * can be shared with a neighbour). One pass over the buffers, no sort. */
    uint32_t *rowbuf = malloc((size_t)ph * 2 * sizeof *rowbuf);
    uint8_t *used = calloc((size_t)ph, 1);
    if (!rowbuf || !used) { free(rowbuf); free(used); return; }
    uint32_t *rowlab = rowbuf + ph;
    for (int j = 0; j < 2 * ph; j++) rowbuf[j] = GRAPH_NONE;
    int64_t live_bytes = 0;
    uint32_t nlive = 0;
#define SMALLER(b, c) ((c) == GRAPH_NONE || g->buf_size[b] < g->buf_size[c] || \
                       (g->buf_size[b] == g->buf_size[c] && (b) < (c)))
    for (uint32_t b = 0; b < g->nbufs; b++) {
        if (!step_buf_live(s, b)) continue;
        nlive++;
        live_bytes += g->buf_size[b];
        int64_t off = pl->offset[b], span = place_span(g->buf_size[b], pl->align);
        int j0 = addr_row(off, arena, ph);
        int j1 = addr_row(off + (span > 0 ? span - 1 : 0), arena, ph);
        if (j1 >= ph) j1 = ph - 1;
        if (j0 > j1) j0 = j1;
        for (int j = j0; j <= j1; j++)
            if (SMALLER(b, rowbuf[j])) rowbuf[j] = b;
        int jm = (j0 + j1 + 1) / 2;
        if (SMALLER(b, rowlab[jm])) rowlab[jm] = b;
    }
#undef SMALLER
    for (int j = 0; j < ph; j++) {
        uint32_t b = rowbuf[j];
        if (b == GRAPH_NONE) continue;
        canvas_fill(cv, (rect){area.x, area.y + ph - 1 - j, area.w, 1},
                    style_buf_glyph((int)b, a->mono, cv->utf8), style_buf((int)b));
        used[j] = 1;
    }
    for (int j = 0; j < ph; j++) {
        uint32_t b = rowlab[j];
        if (b == GRAPH_NONE) continue;
        char lab[64];
        snprintf(lab, sizeof lab, " b%" PRId64 " %s ", g->buf_id[b], units_bytes(b1, sizeof b1, g->buf_size[b], 0));
        canvas_text(cv, area.x + 1, area.y + ph - 1 - j, area.w - 2, style_buf((int)b), lab);
    }

    /* Holes below the high-water mark, then the mark itself. */
    int jh = hwm > 0 ? addr_row(hwm - 1, arena, ph) : -1;
    for (int j = 0; j <= jh && j < ph; j++)
        if (!used[j]) canvas_fill(cv, (rect){area.x, area.y + ph - 1 - j, area.w, 1},
                                  cv->utf8 ? 0x00B7 : '.', ST_HOLE);
    if (jh >= 0) {                       /* value on the axis, a line across holes */
        int y = area.y + ph - 1 - jh;
        units_bytes(b1, sizeof b1, hwm, 0);
        int len = (int)strlen(b1);
        canvas_text(cv, axis_x - len, y, TLAB, ST_HWM, b1);
        canvas_put(cv, axis_x, y, cv->utf8 ? 0x2524 : '+', ST_HWM);
        if (!used[jh]) canvas_fill(cv, (rect){area.x, y, area.w, 1}, cv->utf8 ? 0x2504 : '-', ST_HWM);
    }
    /* Totals in the bottom border. */
    snprintf(title, sizeof title, " live %u buffer%s, %s ", nlive, nlive == 1 ? "" : "s",
             units_bytes(b2, sizeof b2, live_bytes, 0));
    canvas_text(cv, r.x + 2, r.y + r.h - 1, r.w - 4, ST_TITLE, title);
    free(rowbuf);
    free(used);
}

void view_summary(canvas *cv, const app *a, rect r)
{
    const graph *g = a->g;
    const stepper *m = &a->st[0], *o = &a->st[1];
    int focused = a->focus == P_SUMMARY;
    canvas_box(cv, r, " Compare ", focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    int x = r.x + 2, w = r.w - 4, y = r.y + 1, ymax = r.y + r.h - 1;
    char line[320], p1[32], p2[32];
    const stepper *side[2] = {o, m};
    int sty[2] = {ST_CURVE2, ST_CURVE};
    for (int i = 0; i < 2 && y < ymax; i++, y++) {
        snprintf(line, sizeof line, "%-9s peak %10s at step %-7u now %s", side[i]->pol->name,
                 units_bytes(p1, sizeof p1, side[i]->r.peak, 0), side[i]->r.peak_step,
                 units_bytes(p2, sizeof p2, step_memory(side[i]), 0));
        canvas_text(cv, x, y, w, sty[i], line);
    }
    if (y < ymax) {
        int64_t save = o->r.peak - m->r.peak;
        if (save > 0)
            snprintf(line, sizeof line, "saving    %s (%.1f%%) with %s", units_bytes(p1, sizeof p1, save, 0),
                     100.0 * (double)save / (double)o->r.peak, m->pol->name);
        else if (save < 0)
            snprintf(line, sizeof line, "%s needs %s (%.1f%%) more than %s", m->pol->name,
                     units_bytes(p1, sizeof p1, -save, 0),
                     o->r.peak ? 100.0 * (double)-save / (double)o->r.peak : 0.0, o->pol->name);
        else
            snprintf(line, sizeof line, "same peak: no saving");
        canvas_text(cv, x, y++, w, save > 0 ? ST_GOOD : save < 0 ? ST_WARN : ST_NORMAL, line);
    }
    if (y < ymax) {
        uint32_t d = a->diverge;
        if (d >= g->n) snprintf(line, sizeof line, "the two orders are identical");
        else
            snprintf(line, sizeof line, "orders diverge first at step %u: %s pops %" PRId64 ", %s pops %" PRId64,
                     d + 1, o->pol->name, g->id[o->r.order[d]], m->pol->name, g->id[m->r.order[d]]);
        canvas_text(cv, x, y++, w, ST_NORMAL, line);
    }
    if (y < ymax) canvas_text(cv, x, y++, w, ST_WHY, a->why[1]);
}
