/* view_tetris.c: the "Tetris" stack (live buffers as blocks at their arena
 * addresses, holes where freed blocks were, the high-water mark as a line)
 * and the compare-mode summary panel. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/units.h"
#include "view.h"

#define TLAB 10



static int by_span_desc(const void *x, const void *y, void *ctx)
{
    const graph *g = ctx;
    int64_t a = g->buf_size[*(const uint32_t *)x], b = g->buf_size[*(const uint32_t *)y];
    if (a != b) return a < b ? 1 : -1;
    uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
    return (i > j) - (i < j);
}

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

    uint32_t cap = g->nbufs ? g->nbufs : 1;
    uint32_t *live = malloc((size_t)cap * sizeof *live);
    uint8_t *used = calloc((size_t)ph, 1);
    if (!live || !used) { free(live); free(used); return; }
    uint32_t nlive = step_live(s, live, cap);
    qsort_r(live, nlive < cap ? nlive : cap, sizeof *live, by_span_desc, (void *)g);

    int64_t live_bytes = 0;
    for (uint32_t i = 0; i < nlive; i++) {
        uint32_t b = live[i];
        int64_t off = pl->offset[b], span = place_span(g->buf_size[b], pl->align);
        live_bytes += g->buf_size[b];
        int j0 = addr_row(off, arena, ph);
        int j1 = addr_row(off + span - 1, arena, ph);
        if (j1 >= ph) j1 = ph - 1;
        if (j0 > j1) j0 = j1;
        int st = style_buf((int)b);
        uint32_t glyph = style_buf_glyph((int)b, a->mono, cv->utf8);
        for (int j = j0; j <= j1; j++) {
            canvas_fill(cv, (rect){area.x, area.y + ph - 1 - j, area.w, 1}, glyph, st);
            used[j] = 1;
        }
        char lab[64];
        snprintf(lab, sizeof lab, " b%" PRId64 " %s ", g->buf_id[b], units_bytes(b1, sizeof b1, g->buf_size[b], 0));
        canvas_text(cv, area.x + 1, area.y + ph - 1 - j1, area.w - 2, st, lab);
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
    free(live);
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
