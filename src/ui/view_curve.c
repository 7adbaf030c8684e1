/* view_curve.c: the live-memory curve: braille (2x4 dots a cell) or ASCII, past
 * bright and future dim, a column the min..max of its steps; cursor, peak, compare's
 * second curve and legend, a replay's measured curve on top. Exports view_curve. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "geom.h"
#include "util/units.h"
#include "util/utf8.h"
#include "view.h"

static int dot_row(int64_t v, int64_t ymax, int dy)
{
    double f = (double)v / (double)ymax * (dy - 1) + 0.5;
    /* Clamped before the conversion: a measured value far below zero (or
     * far above ymax) gives an f outside int, and converting that is
     * undefined (found by tests/fuzz with a saved replay). */
    if (!(f >= 0)) return 0;
    return f >= dy ? dy - 1 : (int)f;
}

/* A curve's values: v(t) is the memory after t steps (v(0) = 0), from a
 * run's memory[] or a replay's measured samples, drawn up to step last. */
typedef struct series {
    const int64_t *mem;      /* predicted: run.memory */
    const replay_sample *rs; /* measured: replay samples */
    uint32_t last;
} series;

static inline int64_t series_at(const series *sr, uint32_t t)
{
    if (t == 0) return 0;
    return sr->rs ? sr->rs[t - 1].measured : sr->mem[t - 1];
}

/* Plots one curve of a run of n steps at cursor k into bits[] (braille dot
 * bits or 1 = ASCII mark) and styles[] per cell; later curves are drawn over
 * earlier ones. */
static void plot(const geom_curve *gm, const series *v, geom_window win, uint32_t k, int64_t ymax,
                 uint8_t *bits, uint8_t *sty, uint8_t *own, int id, int st_past, int st_future)
{
    static const uint8_t dotbit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
    int pw = gm->plot.w, ph = gm->plot.h;
    int cells_per_row = gm->dy / ph;
    for (int c = 0; c < gm->dx; c++) {
        uint32_t a = geom_step_of_col(c, gm->dx, win), b = geom_step_of_col(c + 1, gm->dx, win);
        if (a > v->last) break;
        if (b <= a) b = a + 1;
        if (b > v->last + 1) b = v->last + 1;
        int64_t lo = series_at(v, a), hi = lo;
        if (v->rs) { /* two loops: this is the frame's hot spot on big graphs */
            for (uint32_t t = a + 1; t < b; t++) {
                int64_t m = v->rs[t - 1].measured;
                if (m < lo) lo = m;
                if (m > hi) hi = m;
            }
        } else {
            for (uint32_t t = a + 1; t < b; t++) {
                int64_t m = v->mem[t - 1];
                if (m < lo) lo = m;
                if (m > hi) hi = m;
            }
        }
        if (a > 0) { /* join to the previous step */
            int64_t m = series_at(v, a - 1);
            if (m < lo) lo = m;
            if (m > hi) hi = m;
        }
        int d0 = dot_row(lo, ymax, gm->dy), d1 = dot_row(hi, ymax, gm->dy);
        int cx = c / gm->sub, sc = c % gm->sub;
        int style = a <= k ? st_past : st_future;
        for (int d = d0; d <= d1; d++) {
            int cy = ph - 1 - d / cells_per_row, sr = cells_per_row - 1 - d % cells_per_row;
            int i = cy * pw + cx;
            if (own[i] != id) {
                own[i] = (uint8_t)id;
                bits[i] = 0;
                sty[i] = (uint8_t)style;
            } else if (sty[i] != st_past) sty[i] = (uint8_t)style; /* past wins in a shared cell */
            bits[i] |= gm->sub == 2 ? dotbit[sr][sc] : 1;
        }
    }
}

/* Marks the cells between the live bytes and the plan's high-water mark:
 * the arena the plan holds that no live buffer fills (per column, the most
 * of each over its steps). */
static void shade_holes(const geom_curve *gm, geom_window win, const stepper *s,
                        const placement *pl, int64_t ymax, uint8_t *hole)
{
    int pw = gm->plot.w, ph = gm->plot.h, per = gm->dy / ph;
    for (int cx = 0; cx < pw; cx++) {
        uint32_t a = geom_step_of_col(cx * gm->sub, gm->dx, win),
                 b = geom_step_of_col((cx + 1) * gm->sub, gm->dx, win);
        if (a > s->r.n) break;
        if (b <= a) b = a + 1;
        if (b > s->r.n + 1) b = s->r.n + 1;
        int64_t live = 0, hw = 0;
        for (uint32_t t = a; t < b; t++) {
            if (t == 0) continue;
            if (s->r.memory[t - 1] > live) live = s->r.memory[t - 1];
            if (pl->hwm[t - 1] > hw) hw = pl->hwm[t - 1];
        }
        if (hw <= live) continue;
        int r0 = dot_row(live, ymax, gm->dy) / per, r1 = dot_row(hw, ymax, gm->dy) / per;
        for (int row = r0 + 1; row <= r1; row++)
            hole[(size_t)(ph - 1 - row) * (size_t)pw + (size_t)cx] = 1;
    }
}

static void plot_run(const geom_curve *gm, geom_window win, const stepper *s, int64_t ymax,
                     uint8_t *bits, uint8_t *sty, uint8_t *own, int id, int st_past, int st_future)
{
    series sr = {s->r.memory, NULL, s->r.n};
    plot(gm, &sr, win, s->k, ymax, bits, sty, own, id, st_past, st_future);
}

/* unproven: the peak of exact's search stopped short, never called the optimum's */
static void legend(canvas *cv, int *x, int y, int maxx, int style, const char *name, int64_t peak,
                   int unproven, int utf8)
{
    char buf[96], pk[32];
    if (peak >= 0)
        snprintf(buf, sizeof buf, " %s peak %s%s ", name, units_bytes(pk, sizeof pk, peak, 0),
                 unproven ? ", not proven" : "");
    else snprintf(buf, sizeof buf, " %s ", name); /* peak < 0: the name only */
    if (*x + 1 + utf8_count(buf) > maxx) return;  /* whole (its last space aside), or none */
    canvas_put(cv, (*x)++, y, ' ', ST_BORDER);
    canvas_put(cv, (*x)++, y, utf8 ? 0x2501 : '=', style);
    *x += canvas_text(cv, *x, y, maxx - *x, style, buf);
}

/* The columns legend() takes. */
static int legend_w(const char *name, int64_t peak)
{
    char pk[32];
    return peak >= 0 ? (int)(strlen(name) + strlen(units_bytes(pk, sizeof pk, peak, 0))) + 10
                     : (int)strlen(name) + 4;
}

/* The legend: the policies' curves in the top border, then the replay's
 * ("measured (host) peak X") or why it is hidden ("replay: fifo only"):
 * in the top border when it fits there in full, else in the bottom one
 * (shortened to "measured" when even that is too narrow). */
static void legends(canvas *cv, rect r, int x0, const app *a, const stepper *s, const stepper *o,
                    const replay_result *rp)
{
    int lx = x0, maxx = r.x + r.w - 2;
    if (o)
        legend(cv, &lx, r.y, maxx, ST_CURVE2, o->pol->name, o->r.peak,
               o->pol->kind == POLICY_EXACT && !o->r.optimal, cv->utf8);
    legend(cv, &lx, r.y, maxx, ST_CURVE, s->pol->name, s->r.peak,
           s->pol->kind == POLICY_EXACT && !s->r.optimal, cv->utf8);
    char name[64];
    int64_t peak = -1;
    if (rp) {
        if (replay_mode_find(rp->mode) == REPLAY_RAW)
            snprintf(name, sizeof name, "measured (%s)", rp->backend);
        else snprintf(name, sizeof name, "measured (%s, %s)", rp->backend, rp->mode);
        peak = rp->measured_peak;
    } else if (a->have_replay) {
        snprintf(name, sizeof name, "replay: %s only", a->replay.policy);
    } else {
        return;
    }
    int w = peak >= 0 ? legend_w(name, peak) : (int)strlen(name) + 2, y = r.y;
    if (lx + w > maxx) { /* the bottom border */
        y = r.y + r.h - 1;
        lx = r.x + 10;
        if (lx + w > maxx) lx = r.x + 1;
        if (rp && lx + w > maxx) {
            snprintf(name, sizeof name, "measured");
            peak = -1;
        }
    }
    if (rp) {
        legend(cv, &lx, y, maxx, ST_MEASURED, name, peak, 0, cv->utf8);
    } else if (lx + (int)strlen(name) + 2 <= maxx) {
        canvas_put(cv, lx++, y, ' ', ST_BORDER);
        lx += canvas_text(cv, lx, y, maxx - lx, ST_MEASURED, name);
        if (lx < maxx) canvas_put(cv, lx, y, ' ', ST_BORDER);
    }
}

void view_y_axis(canvas *cv, rect plot, int64_t ymax)
{
    char lab[32];
    int axis_x = plot.x - 1;
    for (int y = plot.y; y < plot.y + plot.h; y++)
        canvas_put(cv, axis_x, y, cv->utf8 ? 0x2502 : '|', ST_AXIS);
    int rows[3] = {plot.y, plot.y + plot.h / 2, plot.y + plot.h - 1};
    int64_t vals[3] = {ymax, ymax / 2, 0};
    for (int i = 0; i < 3; i++) {
        if (i == 1 && (rows[1] == rows[0] || rows[1] == rows[2])) continue;
        units_bytes(lab, sizeof lab, vals[i], 0);
        int len = (int)strlen(lab);
        canvas_text(cv, axis_x - len, rows[i], len, ST_AXIS, lab);
        canvas_put(cv, axis_x, rows[i], cv->utf8 ? 0x2524 : '+', ST_AXIS);
    }
}

/* X axis: the cursor's step, the peak mark (beside the cursor's, or
 * hidden), then the window's first and last steps where they do not
 * touch those: every label whole or none. curx: the cursor's column. */
static void x_axis(canvas *cv, const geom_curve *gm_, geom_window win, const stepper *s, int curx)
{
    geom_curve gm = *gm_;
    char lab[32];
    uint32_t last = win.lo + win.span - 1;
    int right = gm.plot.x + gm.plot.w;
    snprintf(lab, sizeof lab, "%s%u", cv->utf8 ? "\u2502" : "|", s->k);
    int clen = (int)strlen(lab) - (cv->utf8 ? 2 : 0);
    int cx0 = curx + clen <= right ? curx : right - clen;
    canvas_text(cv, cx0, gm.axis_y, clen, ST_CURSOR, lab);
    int px0 = -1, plen = 0;
    if (s->r.peak_step) { /* pointing out at the edge when the window does not hold it */
        uint32_t pk = s->r.peak_step;
        int px;
        char pl[48];
        if (pk < win.lo) {
            snprintf(pl, sizeof pl, "%speak %u", cv->utf8 ? "\u25c0" : "<", pk);
            px = gm.plot.x;
        } else if (pk > last) {
            snprintf(pl, sizeof pl, "peak %u%s", pk, cv->utf8 ? "\u25b6" : ">");
            px = right;
        } else {
            snprintf(pl, sizeof pl, "%speak %u", cv->utf8 ? "\u25b2" : "^", pk);
            px = gm.plot.x + geom_col_of_step(pk, gm.dx, win) / gm.sub;
        }
        plen = (int)strlen(pl) - (cv->utf8 ? 2 : 0);
        int x = px + plen <= right ? px : right - plen;
        int off = pk < win.lo || pk > last;
        if (!(x + plen < cx0 || x > cx0 + clen)) { /* on the cursor's: hidden, unless it points
                                                    * off the edge: then beside it */
            if (!off) x = -1;
            else if (cx0 + clen + 1 + plen <= right) x = cx0 + clen + 1;
            else if (cx0 - 1 - plen >= gm.plot.x) x = cx0 - 1 - plen;
            else x = -1; /* no room for both */
        }
        if (x >= 0) canvas_text(cv, x, gm.axis_y, plen, ST_PEAK, pl);
        px0 = x;
    }
    uint32_t ends[2] = {win.lo, last};
    for (int i = 0; i < 2; i++) {
        snprintf(lab, sizeof lab, "%u", ends[i]);
        int len = (int)strlen(lab), x = i ? right - len : gm.plot.x;
        int free_ = x + len < cx0 || x > cx0 + clen; /* a column apart from the others */
        if (px0 >= 0) free_ = free_ && (x + len < px0 || x > px0 + plen);
        if (free_) canvas_text(cv, x, gm.axis_y, len, ST_AXIS, lab);
    }
}

void view_curve(canvas *cv, const app *a, rect r)
{
    int focused = a->focus == P_CURVE;
    geom_window win;
    app_curve_window(a, &win.lo, &win.span);
    char title[96];
    const char *holes = a->holes && a->pl.hwm ? ", holes shaded" : "";
    if (win.span < a->g->n + 1) /* zoomed: which steps */
        snprintf(title, sizeof title, " Memory, steps %u-%u%s ", win.lo, win.lo + win.span - 1,
                 holes);
    else snprintf(title, sizeof title, " Memory%s ", holes);
    if (utf8_count(title) + 4 > r.w && win.span < a->g->n + 1)
        snprintf(title, sizeof title, " Memory, steps %u-%u ", win.lo, win.lo + win.span - 1);
    if (utf8_count(title) + 4 > r.w) snprintf(title, sizeof title, " Memory ");
    canvas_box(cv, r, title, focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    geom_curve gm;
    if (!geom_curve_of(r, cv->utf8, &gm)) return;
    const stepper *s = &a->st[0];
    const stepper *o = a->cmp.shown ? &a->st[1] : NULL;
    const replay_result *rp = app_overlay(a);
    uint32_t n = s->r.n;
    int64_t ymax = s->r.peak;
    if (o && o->r.peak > ymax) ymax = o->r.peak;
    if (rp && rp->measured_peak > ymax) ymax = rp->measured_peak;
    if (*holes && a->pl.arena > ymax) ymax = a->pl.arena;
    if (ymax <= 0) ymax = 1;

    /* Legend (and peaks) in the top border. */
    legends(cv, r, r.x + 2 + utf8_count(title), a, s, o, rp);

    view_y_axis(cv, gm.plot, ymax);

    /* The reference: the optimum, or the proven bound below every order, a
     * dashed row the curves draw over, labelled at its right end. */
    int opt;
    int64_t lb = app_bound(a, &opt);
    int refy = -1;
    if (lb > 0 && lb <= ymax) {
        int d = dot_row(lb, ymax, gm.dy), per = gm.dy / gm.plot.h;
        refy = gm.plot.y + gm.plot.h - 1 - d / per;
        for (int x = gm.plot.x; x < gm.plot.x + gm.plot.w; x += 2)
            canvas_put(cv, x, refy, cv->utf8 ? 0x2504 : '-', ST_PEAK);
    }

    /* Curves. */
    size_t ncell = (size_t)gm.plot.w * (size_t)gm.plot.h;
    uint8_t *bits = calloc(ncell, 3);
    if (!bits) return;
    uint8_t *sty = bits + ncell, *own = bits + 2 * ncell;
    uint8_t *hole = *holes ? calloc(ncell, 1) : NULL;
    if (hole) shade_holes(&gm, win, s, &a->pl, ymax, hole);
    if (o) plot_run(&gm, win, o, ymax, bits, sty, own, 2, ST_CURVE2, ST_FUTURE2);
    plot_run(&gm, win, s, ymax, bits, sty, own, 1, ST_CURVE, ST_FUTURE);
    if (rp) { /* on top: the steps the replay reached */
        series m = {NULL, rp->s, rp->n};
        plot(&gm, &m, win, s->k, ymax, bits, sty, own, 3, ST_MEASURED, ST_MEASURED);
    }
    int curx = gm.plot.x + geom_col_of_step(s->k, gm.dx, win) / gm.sub;
    for (int cy = 0; cy < gm.plot.h; cy++)
        for (int cx = 0; cx < gm.plot.w; cx++) {
            size_t i = (size_t)cy * (size_t)gm.plot.w + (size_t)cx;
            int x = gm.plot.x + cx, y = gm.plot.y + cy;
            if (bits[i]) {
                uint32_t ch;
                if (cv->utf8) ch = 0x2800 + bits[i];
                else
                    ch = sty[i] == ST_CURVE      ? '#'
                         : sty[i] == ST_FUTURE   ? ':'
                         : sty[i] == ST_CURVE2   ? '+'
                         : sty[i] == ST_MEASURED ? '*'
                                                 : '.';
                canvas_put(cv, x, y, ch, sty[i]);
            } else if (x == curx) {
                canvas_put(cv, x, y, cv->utf8 ? 0x2502 : '|', ST_CURSOR);
            } else if (hole && hole[i] && y != refy) {
                canvas_put(cv, x, y, cv->utf8 ? 0xb7 : '.', ST_HOLE);
            }
        }
    free(hole);
    if (refy >= 0) { /* the label: in the row's rightmost gap it fits whole, else
                      * right-aligned in the bottom border (unless a replay's
                      * legend may be there) */
        char rl[48], b[32];
        snprintf(rl, sizeof rl, " %s %s ", opt ? "optimum" : "bound",
                 units_bytes(b, sizeof b, lb, 0));
        int len = (int)strlen(rl), row = refy - gm.plot.y, at = -1, gap = 0;
        for (int cx = gm.plot.w - 1; cx >= 0 && at < 0; cx--) {
            int empty =
                !bits[(size_t)row * (size_t)gm.plot.w + (size_t)cx] && gm.plot.x + cx != curx;
            gap = empty ? gap + 1 : 0;
            if (gap >= len) at = cx;
        }
        if (at >= 0) canvas_text(cv, gm.plot.x + at, refy, len, ST_PEAK, rl);
        else if (!rp && !a->have_replay && r.w - 4 - len >= 12)
            canvas_text(cv, r.x + r.w - 2 - len, r.y + r.h - 1, len, ST_PEAK, rl);
    }
    free(bits);

    x_axis(cv, &gm, win, s, curx);
    (void)n;
}
