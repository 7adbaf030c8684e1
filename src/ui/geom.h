/* geom.h: where inside its panel the curve and the arena draw, and which
 * step or buffer a cell stands for: shared by the views that draw and by
 * hit.c, which reads clicks back from the same cells. Exports geom_*. */
#ifndef MEMTRIS_GEOM_H
#define MEMTRIS_GEOM_H
#include <stdint.h>
#include "canvas.h"
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/policy/policy.h"

#define GEOM_CURVE_YLAB 10 /* width of the curve's y-axis labels */
#define GEOM_ARENA_LAB  10 /* width of the arena's address labels */

/* The memory curve inside its panel. */
typedef struct geom_curve {
    rect plot;  /* cells holding the curve */
    int axis_y; /* row of the x-axis labels */
    int dx, dy; /* dots across and down */
    int sub;    /* dot columns per cell: 2 (braille) or 1 */
} geom_curve;

/* The curve's geometry in panel r; 0 when the plot is too small to draw. */
static inline int geom_curve_of(rect r, int utf8, geom_curve *g)
{
    g->plot =
        (rect){r.x + 1 + GEOM_CURVE_YLAB + 1, r.y + 1, r.w - 3 - GEOM_CURVE_YLAB - 1, r.h - 3};
    g->axis_y = r.y + r.h - 2;
    g->sub = utf8 ? 2 : 1;
    g->dx = g->plot.w * g->sub;
    g->dy = g->plot.h * (utf8 ? 4 : 1);
    return g->plot.w >= 4 && g->plot.h >= 2;
}

/* The steps the curve shows: lo .. lo + span - 1 (all of a run of n steps:
 * lo 0, span n + 1). */
typedef struct geom_window {
    uint32_t lo, span;
} geom_window;

/* The first step drawn in dot column c of dx. */
static inline uint32_t geom_step_of_col(int c, int dx, geom_window w)
{
    return w.lo + (uint32_t)((uint64_t)c * w.span / (uint64_t)dx);
}

/* The dot column of step k on dx columns; -1 left of the window, dx or more
 * right of it. */
static inline int geom_col_of_step(uint32_t k, int dx, geom_window w)
{
    if (k < w.lo) return -1;
    uint64_t c = (uint64_t)(k - w.lo) * (uint64_t)dx / w.span;
    return c > (uint64_t)dx ? dx : (int)c;
}

/* The plot's column (a cell, not a dot) of the cursor at step k: -1 when
 * the window does not hold k (a pan moves the window, not the cursor). The
 * x axis's cursor label stands at this column too. */
static inline int geom_cursor_x(const geom_curve *g, uint32_t k, geom_window w)
{
    if (k < w.lo || k - w.lo >= w.span) return -1;
    int c = geom_col_of_step(k, g->dx, w);
    return g->plot.x + (c >= g->dx ? g->dx - 1 : c) / g->sub;
}

/* The drawing area inside the arena panel r, right of the address labels
 * (the timeline keeps its last row for the step axis). */
static inline rect geom_arena_area(rect r, int with_steps)
{
    return (rect){r.x + 1 + GEOM_ARENA_LAB + 1, r.y + 2, r.w - 3 - GEOM_ARENA_LAB - 1,
                  r.h - 3 - (with_steps ? 1 : 0)};
}

/* Row (0 = bottom) holding address addr, on ph rows spanning [0, arena):
 * floor(addr ph / arena), exactly (arena_rows.c's rows are the same). */
static inline int geom_addr_row(int64_t addr, int64_t arena, int ph)
{
    if (addr <= 0 || arena <= 0) return 0;
    __int128 j = (__int128)addr * ph / arena;
    return j >= ph ? ph - 1 : (int)j;
}

/* Rows j0..j1 (0 = bottom) that buffer b of placement pl covers. */
static inline void geom_buf_rows(const graph *g, const placement *pl, uint32_t b, int ph, int *j0,
                                 int *j1)
{
    int64_t off = pl->offset[b], span = place_span(g->buf_size[b], pl->align);
    *j0 = geom_addr_row(off, pl->arena, ph);
    *j1 = geom_addr_row(off + (span > 0 ? span - 1 : 0), pl->arena, ph);
}

/* Column of step s (0 = step 0 .. n) on pw columns of the timeline. */
static inline int geom_step_col(uint32_t s, uint32_t n, int pw)
{
    int c = (int)((uint64_t)s * (uint64_t)pw / ((uint64_t)n + 1));
    return c >= pw ? pw - 1 : c;
}

/* Columns x0..x1 of the timeline's pw that buffer b lives in under run r:
 * from its ALLOC's step to its FREE's (the last step if never freed). */
static inline void geom_buf_cols(const graph *g, const run *r, uint32_t b, int pw, int *x0, int *x1)
{
    uint32_t a0 = r->pos[g->buf_alloc[b]],
             a1 = g->buf_free[b] == GRAPH_NONE ? r->n : r->pos[g->buf_free[b]];
    *x0 = geom_step_col(a0, r->n, pw);
    *x1 = geom_step_col(a1, r->n, pw);
}

/* Whether buffer b shows over buffer c (GRAPH_NONE: nothing) where both
 * cover a cell: the smaller one, so small blocks stay visible. */
static inline int geom_buf_over(const graph *g, uint32_t b, uint32_t c)
{
    return c == GRAPH_NONE || g->buf_size[b] < g->buf_size[c] ||
           (g->buf_size[b] == g->buf_size[c] && b < c);
}

#endif
