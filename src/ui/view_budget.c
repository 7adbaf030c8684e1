/* view_budget.c: the budget view's marks (m): on the memory curve the budget as a dashed row
 * labelled "budget 8.0 MiB" and each rerun as a tick under the plot with the curve's cell there
 * in the reruns' colour; the host lane under the curve: the bytes offloaded to the host over the
 * same steps. Exports view_budget_marks, view_host_rows and view_host. */
#include <stdio.h>
#include <string.h>
#include "geom.h"
#include "util/units.h"
#include "util/utf8.h"
#include "view.h"

/* The plot row (from the top) of bytes v on a plot of dy dots over [0, ymax]. */
static int row_of(const geom_curve *gm, int64_t v, int64_t ymax)
{
    int per = gm->dy / gm->plot.h;
    double f = (double)v / (double)ymax * (gm->dy - 1) + 0.5;
    int d = !(f >= 0) ? 0 : f >= gm->dy ? gm->dy - 1 : (int)f;
    return gm->plot.y + gm->plot.h - 1 - d / per;
}

static cell *cell_at(canvas *cv, int x, int y)
{
    return &cv->c[(size_t)y * (size_t)cv->w + (size_t)x];
}

/* Whether a cell of the budget's row takes a dash or its label: empty, or a dash of its own. */
static int row_free(canvas *cv, int x, int y)
{
    const cell *c = cell_at(cv, x, y);
    if (c->style == ST_WARN) return 1;
    return c->ch == ' ' && c->style != ST_DIM && c->style != ST_CURSOR;
}

/* Whether the border cells x .. x + len - 1 of row y are a bare line (nothing written there). */
static int border_free(canvas *cv, int x, int y, int len)
{
    for (int i = x; i < x + len; i++) {
        const cell *c = cell_at(cv, i, y);
        if (!((c->ch == 0x2500 || c->ch == '-') && (c->style == ST_BORDER || c->style == ST_FOCUS)))
            return 0;
    }
    return 1;
}

/* The budget's dashed row and its label " budget 8.0 MiB ": in the row's rightmost gap that
 * holds it whole, else the gap of the row under it, else at the right of the panel's top
 * border, else of its bottom border: whole or none. */
static void budget_row(canvas *cv, const app *a, const geom_curve *gm, rect r, int64_t ymax)
{
    int y = row_of(gm, a->bud.budget, ymax);
    for (int x = gm->plot.x; x < gm->plot.x + gm->plot.w; x++)
        if (row_free(cv, x, y)) canvas_put(cv, x, y, cv->utf8 ? 0x254c : '-', ST_WARN);
    char lab[48], b[32];
    snprintf(lab, sizeof lab, " budget %s ", units_bytes(b, sizeof b, a->bud.budget, 0));
    int len = utf8_count(lab);
    for (int row = y; row <= y + 1 && row < gm->plot.y + gm->plot.h; row++) {
        int gap = 0;
        for (int x = gm->plot.x + gm->plot.w - 1; x >= gm->plot.x; x--) {
            gap = row_free(cv, x, row) ? gap + 1 : 0;
            if (gap >= len) {
                canvas_text(cv, x, row, len, ST_WARN, lab);
                return;
            }
        }
    }
    int x = r.x + r.w - 2 - len; /* a border cell either side of it */
    for (int by = r.y; by <= r.y + r.h - 1; by += r.h - 1) {
        if (x - 1 > r.x && border_free(cv, x - 1, by, len + 1)) {
            canvas_text(cv, x, by, len, ST_WARN, lab);
            return;
        }
        if (r.h < 2) return;
    }
}

/* Each rerun's step in the window: a tick on the axis row under it (the axis's labels go over
 * it) and the curve's cell at the bytes there in the reruns' colour. */
static void rerun_ticks(canvas *cv, const app *a, const geom_curve *gm, geom_window win,
                        int64_t ymax)
{
    const run *r = &a->st[0].r;
    for (uint32_t t = win.lo > 0 ? win.lo : 1; t < win.lo + win.span && t <= r->n; t++) {
        if (!app_budget_is_rerun(&a->bud, r->order[t - 1])) continue;
        int x = geom_cursor_x(gm, t, win);
        if (x < 0) continue;
        canvas_put(cv, x, gm->axis_y, cv->utf8 ? 0x25b4 : '^', ST_CURVE2);
        cell *c = cell_at(cv, x, row_of(gm, r->memory[t - 1], ymax));
        if (c->style == ST_CURVE || c->style == ST_FUTURE) c->style = ST_CURVE2;
    }
}

void view_budget_marks(canvas *cv, const app *a, rect r, const struct geom_curve *gm,
                       const struct geom_window *win, int64_t ymax)
{
    if (!a->bud.on) return;
    rerun_ticks(cv, a, gm, *win, ymax);
    budget_row(cv, a, gm, r, ymax);
}

int view_host_rows(const app *a, rect curve)
{
    if (!a->bud.on || a->bud.host_peak <= 0 || !a->bud.host || a->curve != CURVE_MEMORY) return 0;
    return curve.h >= 16 ? 4 : 0; /* else the curve keeps its rows and the lane goes whole */
}

void view_host(canvas *cv, const app *a, rect r)
{
    char title[96], b[32];
    units_bytes(b, sizeof b, a->bud.host_peak, 0);
    snprintf(title, sizeof title, " Host: bytes offloaded, at most %s ", b);
    if (utf8_count(title) + 4 > r.w) snprintf(title, sizeof title, " Host ");
    canvas_box(cv, r, title, ST_BORDER, ST_TITLE);
    geom_curve gm; /* the curve's columns, so that a step stands where it does on the curve */
    if (!geom_curve_of((rect){r.x, r.y, r.w, 6}, cv->utf8, &gm)) return;
    int h = r.h - 2, y0 = r.y + 1;
    if (h < 1) return;
    canvas_text(cv, gm.plot.x - 1 - (int)strlen(b), y0, (int)strlen(b), ST_AXIS, b);
    geom_window win;
    app_curve_window(a, &win.lo, &win.span);
    const int64_t *host = a->bud.host;
    uint32_t n = a->st[0].r.n;
    for (int cx = 0; cx < gm.plot.w; cx++) {
        uint32_t s0 = geom_step_of_col(cx * gm.sub, gm.dx, win),
                 s1 = geom_step_of_col((cx + 1) * gm.sub, gm.dx, win);
        if (s0 > n) break;
        if (s1 <= s0) s1 = s0 + 1;
        int64_t most = 0;
        for (uint32_t t = s0; t < s1 && t <= n; t++)
            if (host[t] > most) most = host[t];
        if (!most) continue;
        int fill = (int)((most * h + a->bud.host_peak - 1) / a->bud.host_peak); /* at least 1 */
        int st = s0 <= a->st[0].k ? ST_MEASURED : ST_DIM;
        for (int j = 0; j < fill && j < h; j++)
            canvas_put(cv, gm.plot.x + cx, y0 + h - 1 - j, cv->utf8 ? 0x2588 : '#', st);
    }
}
