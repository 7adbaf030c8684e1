/* hit.c: click resolution over the last frame: the step under a click on
 * the memory curve, the buffer under one on the arena panel. Exports
 * hit_test. */
#include "hit.h"
#include "arena_rows.h"
#include "geom.h"

/* The step under (x, y) on the memory curve; 0 if not on its plot. */
static int curve_step(const hit_frame *f, int x, int y, uint32_t *k)
{
    const layout *l = f->lay;
    if (l->too_small || !l->used[P_CURVE] || f->lanes) return 0;
    geom_curve gm;
    if (!geom_curve_of(l->r[P_CURVE], f->utf8, &gm)) return 0;
    if (x < gm.plot.x || x >= gm.plot.x + gm.plot.w || y < gm.plot.y || y > gm.axis_y) return 0;
    uint32_t n = f->g->n;
    /* The middle of the cell, so a click selects the step drawn there. */
    int c = (x - gm.plot.x) * gm.sub + gm.sub / 2;
    uint32_t s = geom_step_of_col(c, gm.dx, (geom_window){f->lo, f->span ? f->span : n + 1});
    *k = s > n ? n : s;
    return 1;
}

/* The buffer under (x, y) on the arena panel (the stack: the live one drawn
 * there; the timeline: any); 0 if none. */
static int arena_buffer(const hit_frame *f, int x, int y, uint32_t *out)
{
    const layout *l = f->lay;
    if (l->too_small || !l->used[P_TETRIS]) return 0;
    const graph *g = f->g;
    const stepper *s = f->st;
    rect area = geom_arena_area(l->r[P_TETRIS], f->timeline);
    if (x < area.x || x >= area.x + area.w || y < area.y || y >= area.y + area.h ||
        f->pl->arena <= 0)
        return 0;
    int ph = area.h, j = area.y + ph - 1 - y, col = x - area.x;
    uint32_t best = GRAPH_NONE;
    if (!f->timeline) { /* the stack: the part drawn in that cell (arena_rows.h) */
        arena_rows ar;
        if (area.w < 4 || arena_rows_build(&ar, g, f->pl, s, ph, area.w)) return 0;
        const arena_seg *sg = arena_rows_at(&ar, j, col);
        if (sg && sg->kind == ARENA_SEG_BUF) best = sg->buf;
        arena_rows_free(&ar);
    }
    for (uint32_t b = 0; f->timeline && b < g->nbufs; b++) {
        int j0, j1, x0, x1;
        geom_buf_rows(g, f->pl, b, ph, &j0, &j1);
        if (j < j0 || j > j1) continue;
        geom_buf_cols(g, &s->r, b, area.w, &x0, &x1);
        if (col < x0 || col > x1) continue;
        if (geom_buf_over(g, b, best)) best = b;
    }
    if (best == GRAPH_NONE) return 0;
    *out = best;
    return 1;
}

hit_action hit_test(const hit_frame *f, int x, int y)
{
    hit_action h = {HIT_NONE, 0, 0};
    if (curve_step(f, x, y, &h.step)) h.kind = HIT_STEP;
    else if (arena_buffer(f, x, y, &h.buf)) h.kind = HIT_BUFFER;
    return h;
}
