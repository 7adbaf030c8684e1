/* view_tetris.c: the arena panel, as the "Tetris" stack (live buffers as
 * blocks at their addresses, holes where freed blocks were, the high-water
 * mark as a line) or as the timeline of the whole run (lifetime x address
 * rectangles, the current step as a cursor); and the compare summary. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/units.h"
#include "view.h"

#define TLAB 10

/* The drawing area inside the arena panel, right of the address labels. */
static rect arena_area(rect r)
{
    return (rect){r.x + 1 + TLAB + 1, r.y + 2, r.w - 3 - TLAB - 1, r.h - 3};
}

/* Row (0 = bottom) holding address addr, on ph rows spanning [0, arena). */
static int addr_row(int64_t addr, int64_t arena, int ph)
{
    double f = (double)addr / (double)arena * ph;
    int j = (int)f;
    return j < 0 ? 0 : j >= ph ? ph - 1 : j;
}

/* Rows j0..j1 (0 = bottom) that buffer b covers. */
static void buf_rows(const app *a, uint32_t b, int ph, int *j0, int *j1)
{
    int64_t off = a->pl.offset[b], span = place_span(a->g->buf_size[b], a->pl.align);
    *j0 = addr_row(off, a->pl.arena, ph);
    *j1 = addr_row(off + (span > 0 ? span - 1 : 0), a->pl.arena, ph);
}

/* Column of step s (0 = step 0 .. n) on pw columns. */
static int step_col(uint32_t s, uint32_t n, int pw)
{
    int c = (int)((uint64_t)s * (uint64_t)pw / ((uint64_t)n + 1));
    return c >= pw ? pw - 1 : c;
}

#define SMALLER(g, b, c) ((c) == GRAPH_NONE || (g)->buf_size[b] < (g)->buf_size[c] || \
                          ((g)->buf_size[b] == (g)->buf_size[c] && (b) < (c)))

/* Header row and axis shared by both views. */
static void arena_frame(canvas *cv, const app *a, rect r, rect area, int64_t hwm)
{
    const placement *pl = &a->pl;
    int focused = a->focus == P_TETRIS;
    char title[128], b1[32], b2[32];
    snprintf(title, sizeof title, " %s: %s, %" PRId64 " B align ", a->timeline ? "Timeline" : "Arena", pl->placer,
             pl->align);
    canvas_box(cv, r, title, focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    int axis_x = area.x - 1;
    for (int y = area.y; y < area.y + area.h; y++) canvas_put(cv, axis_x, y, cv->utf8 ? 0x2502 : '|', ST_AXIS);
    units_bytes(b1, sizeof b1, 0, 0);
    canvas_text(cv, axis_x - (int)strlen(b1), area.y + area.h - 1, TLAB, ST_AXIS, b1);
    snprintf(title, sizeof title, "arena %s, %.1f%% over the peak", units_bytes(b1, sizeof b1, pl->arena, 0),
             100.0 * place_fragmentation(pl, a->st[0].r.peak));
    int tx = r.x + 1 + canvas_text(cv, r.x + 1, r.y + 1, r.w - 2, ST_AXIS, title);
    snprintf(title, sizeof title, "   high-water so far %s", units_bytes(b2, sizeof b2, hwm, 0));
    canvas_text(cv, tx, r.y + 1, r.x + r.w - 1 - tx, ST_HWM, title);
}

static void view_stack(canvas *cv, const app *a, rect r);
static void view_timeline(canvas *cv, const app *a, rect r);

void view_tetris(canvas *cv, const app *a, rect r)
{
    if (a->timeline) view_timeline(cv, a, r);
    else view_stack(cv, a, r);
}

static void view_stack(canvas *cv, const app *a, rect r)
{
    const graph *g = a->g;
    const stepper *s = &a->st[0];
    const placement *pl = &a->pl;
    char title[96], b1[32], b2[32];
    rect area = arena_area(r);
    int64_t arena = pl->arena, hwm = s->k ? pl->hwm[s->k - 1] : 0;
    arena_frame(cv, a, r, area, hwm);
    if (area.w < 4 || area.h < 1) return;
    int ph = area.h, axis_x = area.x - 1;
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
    for (uint32_t b = 0; b < g->nbufs; b++) {
        if (!step_buf_live(s, b)) continue;
        nlive++;
        live_bytes += g->buf_size[b];
        int j0, j1;
        buf_rows(a, b, ph, &j0, &j1);
        for (int j = j0; j <= j1; j++)
            if (SMALLER(g, b, rowbuf[j])) rowbuf[j] = b;
        int jm = (j0 + j1 + 1) / 2;
        if (SMALLER(g, b, rowlab[jm])) rowlab[jm] = b;
    }
    for (int j = 0; j < ph; j++) {
        uint32_t b = rowbuf[j];
        if (b == GRAPH_NONE) continue;
        int st = b == a->sel ? ST_NEXT : style_buf((int)b);
        canvas_fill(cv, (rect){area.x, area.y + ph - 1 - j, area.w, 1},
                    b == a->sel ? ' ' : style_buf_glyph((int)b, a->mono, cv->utf8), st);
        used[j] = 1;
    }
    for (int j = 0; j < ph; j++) {
        uint32_t b = rowlab[j];
        if (b == GRAPH_NONE) continue;
        char lab[64];
        snprintf(lab, sizeof lab, " b%" PRId64 " %s ", g->buf_id[b], units_bytes(b1, sizeof b1, g->buf_size[b], 0));
        canvas_text(cv, area.x + 1, area.y + ph - 1 - j, area.w - 2, b == a->sel ? ST_NEXT : style_buf((int)b), lab);
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

/* The whole run: x is the step, y the address; each buffer a rectangle from
 * its ALLOC's step to its FREE's, at its offset; largest painted first. */
static void view_timeline(canvas *cv, const app *a, rect r)
{
    const graph *g = a->g;
    const stepper *s = &a->st[0];
    const placement *pl = &a->pl;
    rect area = arena_area(r);
    area.h -= 1;                           /* a row for the step axis */
    int64_t hwm = s->k ? pl->hwm[s->k - 1] : 0;
    arena_frame(cv, a, r, area, hwm);
    if (area.w < 4 || area.h < 1) return;
    int ph = area.h, pw = area.w;
    uint32_t n = s->r.n;
    if (pl->arena <= 0 || !a->by_span) {
        canvas_text(cv, area.x + 1, area.y + ph / 2, area.w - 1, ST_DIM, "no buffer is ever allocated");
        return;
    }
    char lab[32];
    units_bytes(lab, sizeof lab, pl->arena, 0);
    canvas_text(cv, area.x - 1 - (int)strlen(lab), area.y, TLAB, ST_AXIS, lab);
    /* The raster: which buffer each cell shows, largest painted first; it
     * is kept until the placement or the size changes. */
    timeline_cache *tl = a->tl;
    if (!tl->offset || tl->offset != pl->offset || tl->w != pw || tl->h != ph) {
        size_t ncell = (size_t)pw * (size_t)ph;
        uint32_t *raster = realloc(tl->cell, ncell * sizeof *raster);
        if (!raster) return;
        tl->cell = raster;
        tl->w = pw;
        tl->h = ph;
        tl->offset = pl->offset;
        for (size_t i = 0; i < ncell; i++) raster[i] = GRAPH_NONE;
        for (uint32_t i = 0; i < g->nbufs; i++) {
            uint32_t b = a->by_span[i];
            uint32_t a0 = s->r.pos[g->buf_alloc[b]], a1 = g->buf_free[b] == GRAPH_NONE ? n : s->r.pos[g->buf_free[b]];
            int x0 = step_col(a0, n, pw), x1 = step_col(a1, n, pw), j0, j1;
            buf_rows(a, b, ph, &j0, &j1);
            for (int j = j0; j <= j1; j++)
                for (int x = x0; x <= x1; x++) raster[(size_t)(ph - 1 - j) * (size_t)pw + (size_t)x] = b;
        }
    }
    for (int y = 0; y < ph; y++)
        for (int x = 0; x < pw; x++) {
            uint32_t b = tl->cell[(size_t)y * (size_t)pw + (size_t)x];
            if (b == GRAPH_NONE) continue;
            if (b == a->sel) canvas_put(cv, area.x + x, area.y + y, ' ', ST_NEXT);
            else canvas_put(cv, area.x + x, area.y + y, style_buf_glyph((int)b, a->mono, cv->utf8), style_buf((int)b));
        }
    /* The current step as a cursor, the step axis below. */
    int cx = area.x + step_col(s->k, n, pw);
    for (int y = area.y; y < area.y + ph; y++) {
        cell *c = canvas_at(cv, cx, y);
        if (c && c->ch == ' ' && c->style == ST_NORMAL) canvas_put(cv, cx, y, cv->utf8 ? 0x2502 : '|', ST_CURSOR);
        else canvas_style(cv, cx, y, ST_CURSOR);
    }
    int ay = area.y + ph;
    canvas_text(cv, area.x, ay, 1, ST_AXIS, "0");
    snprintf(lab, sizeof lab, "%u", n);
    canvas_text(cv, area.x + pw - (int)strlen(lab), ay, (int)strlen(lab), ST_AXIS, lab);
    snprintf(lab, sizeof lab, "%s%u", cv->utf8 ? "\u2502" : "|", s->k);
    int len = (int)strlen(lab) - (cv->utf8 ? 2 : 0);
    canvas_text(cv, cx + len <= area.x + pw ? cx : area.x + pw - len, ay, len, ST_CURSOR, lab);
}

int view_arena_buffer(const app *a, int x, int y, uint32_t *out)
{
    const layout *l = &a->lay;
    if (l->too_small || !l->used[P_TETRIS]) return 0;
    const graph *g = a->g;
    const stepper *s = &a->st[0];
    rect area = arena_area(l->r[P_TETRIS]);
    if (a->timeline) area.h -= 1;
    if (x < area.x || x >= area.x + area.w || y < area.y || y >= area.y + area.h || a->pl.arena <= 0) return 0;
    int ph = area.h, j = area.y + ph - 1 - y, col = x - area.x;
    uint32_t best = GRAPH_NONE, n = s->r.n;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        int j0, j1;
        buf_rows(a, b, ph, &j0, &j1);
        if (j < j0 || j > j1) continue;
        if (a->timeline) {
            uint32_t a0 = s->r.pos[g->buf_alloc[b]], a1 = g->buf_free[b] == GRAPH_NONE ? n : s->r.pos[g->buf_free[b]];
            if (col < step_col(a0, n, area.w) || col > step_col(a1, n, area.w)) continue;
        } else if (!step_buf_live(s, b)) {
            continue;
        }
        if (SMALLER(g, b, best)) best = b;
    }
    if (best == GRAPH_NONE) return 0;
    *out = best;
    return 1;
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
