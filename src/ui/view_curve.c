/* view_curve.c: the live-memory curve: braille (2x4 dots a cell) or ASCII, past
 * bright and future dim, a column the min..max of its steps; cursor, peak, compare's
 * second curve and legend, a replay's measured curve on top, the budget view's marks
 * (view_budget.c). Exports view_curve. */
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
 * earlier ones. id 2 (compare's other policy) is dotted in braille: every
 * other dot, so that the two curves part without colour. */
static void plot(const geom_curve *gm, const series *v, geom_window win, uint32_t k, int64_t ymax,
                 uint8_t *bits, uint8_t *sty, uint8_t *own, int id, int st_past, int st_future)
{
    int sparse = id == 2 && gm->sub == 2;
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
            if (sparse && ((c + d) & 1)) continue;
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

/* A legend's words: " NAME peak X " (unproven: exact's search stopped
 * short, never called the optimum's), or " NAME " for peak < 0; returns the
 * columns it takes with its space and mark. */
static int legend_text(char *buf, size_t cap, const char *name, int64_t peak, int unproven)
{
    char pk[32];
    if (peak >= 0)
        snprintf(buf, cap, " %s peak %s%s ", name, units_bytes(pk, sizeof pk, peak, 0),
                 unproven ? ", not proven" : "");
    else snprintf(buf, cap, " %s ", name);
    return 2 + utf8_count(buf);
}

/* One legend at *x on row y: a space, the curve's mark, the words; whole
 * (its last space aside) or none. */
static void legend(canvas *cv, int *x, int y, int maxx, int style, uint32_t mark, const char *name,
                   int64_t peak, int unproven)
{
    char buf[96];
    if (*x + legend_text(buf, sizeof buf, name, peak, unproven) - 1 > maxx) return;
    canvas_put(cv, (*x)++, y, ' ', ST_BORDER);
    canvas_put(cv, (*x)++, y, mark, style);
    *x += canvas_text(cv, *x, y, maxx - *x, style, buf);
}

/* The marks the legends show: the stepped policy's solid curve, compare's
 * other one dotted (a second glyph in ASCII), the replay's. */
static uint32_t mark_of(int id, int utf8)
{
    if (id == 1) return utf8 ? 0x28ff : '#';
    if (id == 2) return utf8 ? 0x2895 : '+';
    return utf8 ? 0x2501 : '*';
}

/* The policies' legends, both or none: with their peaks in the top border
 * when they fit there, else their names only (top, else bottom). Returns the bottom border's first
 * free column, or -1 when it is untouched. */
static int policy_legends(canvas *cv, rect r, int *lx, const stepper *s, const stepper *o)
{
    const stepper *side[2] = {o, s};
    int ids[2] = {2, 1}, sty[2] = {ST_CURVE2, ST_CURVE}, maxx = r.x + r.w - 2, unp[2];
    for (int i = 0; i < 2; i++)
        unp[i] = side[i] && side[i]->pol->kind == POLICY_EXACT && !side[i]->r.optimal;
    for (int pass = 0; pass < 3; pass++) { /* full top, names top, names bottom */
        int top = pass < 2, full = pass == 0;
        int x = top ? *lx : r.x + 2, y = top ? r.y : r.y + r.h - 1, w = 0;
        char buf[96];
        for (int i = 0; i < 2; i++)
            if (side[i])
                w += legend_text(buf, sizeof buf, side[i]->pol->name, full ? side[i]->r.peak : -1,
                                 unp[i]);
        if (x + w - 1 > maxx) continue;
        for (int i = 0; i < 2; i++)
            if (side[i])
                legend(cv, &x, y, maxx, sty[i], mark_of(ids[i], cv->utf8), side[i]->pol->name,
                       full ? side[i]->r.peak : -1, unp[i]);
        if (top) *lx = x;
        return top ? -1 : x;
    }
    return -1;
}

/* The legend: the policies' curves (policy_legends), then the replay's
 * ("measured (host) peak X") or why it is hidden ("replay: fifo only"):
 * in the top border when it fits there in full, else in the bottom one
 * (shortened to "measured" when even that is too narrow). Returns whether
 * the bottom border holds a legend. */
static int legends(canvas *cv, rect r, int x0, const app *a, const stepper *s, const stepper *o,
                   const replay_result *rp)
{
    int lx = x0, maxx = r.x + r.w - 2;
    int bx = policy_legends(cv, r, &lx, s, o);
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
        return bx >= 0;
    }
    char buf[96];
    int w = peak >= 0 ? legend_text(buf, sizeof buf, name, peak, 0) : (int)strlen(name) + 2,
        y = r.y;
    if (bx >= 0 || lx + w > maxx) { /* the bottom border */
        y = r.y + r.h - 1;
        lx = bx >= 0 ? bx : r.x + 10;
        if (bx < 0 && lx + w > maxx) lx = r.x + 1;
        if (rp && lx + w > maxx) {
            snprintf(name, sizeof name, "measured");
            peak = -1;
        }
    }
    if (rp) {
        legend(cv, &lx, y, maxx, ST_MEASURED, mark_of(3, cv->utf8), name, peak, 0);
    } else if (lx + (int)strlen(name) + 2 <= maxx) {
        canvas_put(cv, lx++, y, ' ', ST_BORDER);
        lx += canvas_text(cv, lx, y, maxx - lx, ST_MEASURED, name);
        if (lx < maxx) canvas_put(cv, lx, y, ' ', ST_BORDER);
    }
    return 1;
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

/* A step's label on the x axis, its mark standing at column px: "MARKtext"
 * from px when it fits before right, else "textMARK" ending at px; a step
 * outside the window (off < 0: left of it, > 0: right) points at the edge
 * it lies beyond. Sets *len; returns the label's first column, or -1 when it
 * fits neither way. */
static int step_label(char *out, size_t cap, const char *mark, const char *left_mark,
                      const char *right_mark, const char *text, int off, int px,
                      const geom_curve *gm, int *len)
{
    int right = gm->plot.x + gm->plot.w;
    if (off) {
        snprintf(out, cap, "%s%s", off < 0 ? left_mark : text, off < 0 ? text : right_mark);
        *len = utf8_count(out);
        int x = off < 0 ? gm->plot.x : right - *len;
        return x >= gm->plot.x && x + *len <= right ? x : -1;
    }
    snprintf(out, cap, "%s%s", mark, text);
    *len = utf8_count(out);
    if (px + *len <= right) return px;
    snprintf(out, cap, "%s%s", text, mark);
    return px - *len + 1 >= gm->plot.x ? px - *len + 1 : -1;
}

/* Whether the axis row holds a rerun's tick (view_budget's) in columns x .. x + len - 1. */
static int axis_has_tick(const canvas *cv, int x, int y, int len)
{
    for (int i = x; i < x + len; i++)
        if (cv->c[(size_t)y * (size_t)cv->w + (size_t)i].style == ST_CURVE2) return 1;
    return 0;
}

/* X axis: the cursor's step (at the cursor's column, or pointing off the
 * edge when a pan left it outside), the peak mark (beside the cursor's, or
 * hidden), then the window's first and last steps where they do not touch
 * those nor a rerun's tick: every label whole or none. curx: the cursor's
 * column (-1: not in the window). */
static void x_axis(canvas *cv, const geom_curve *gm_, geom_window win, const stepper *s, int curx)
{
    geom_curve gm = *gm_;
    char lab[48], txt[32];
    uint32_t last = win.lo + win.span - 1;
    int right = gm.plot.x + gm.plot.w, u = cv->utf8;
    const char *lm = u ? "\u25c0" : "<", *rm = u ? "\u25b6" : ">";
    snprintf(txt, sizeof txt, "%u", s->k);
    int clen, coff = s->k < win.lo ? -1 : s->k > last ? 1 : 0;
    int cx0 = step_label(lab, sizeof lab, u ? "\u2502" : "|", lm, rm, txt, coff, curx, &gm, &clen);
    if (cx0 >= 0) canvas_text(cv, cx0, gm.axis_y, clen, ST_CURSOR, lab);
    else clen = 0;
    int px0 = -1, plen = 0;
    if (s->r.peak_step) { /* pointing out at the edge when the window does not hold it */
        uint32_t pk = s->r.peak_step;
        int off = pk < win.lo ? -1 : pk > last ? 1 : 0;
        int px = off ? 0 : gm.plot.x + geom_col_of_step(pk, gm.dx, win) / gm.sub;
        char pl[48];
        snprintf(txt, sizeof txt, "peak %u", pk);
        int x = step_label(pl, sizeof pl, u ? "\u25b2" : "^", lm, rm, txt, off, px, &gm, &plen);
        if (x >= 0 && cx0 >= 0 && !(x + plen < cx0 || x > cx0 + clen)) {
            /* on the cursor's: hidden, unless it points off the edge: then beside it */
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
        int free_ = cx0 < 0 || x + len < cx0 || x > cx0 + clen; /* a column apart from the others */
        if (px0 >= 0) free_ = free_ && (x + len < px0 || x > px0 + plen);
        if (free_ && !axis_has_tick(cv, x, gm.axis_y, len))
            canvas_text(cv, x, gm.axis_y, len, ST_AXIS, lab);
    }
}

/* Whether plot cell (x, y) is free for a label: empty, or a dashed row's dash (the labels of the
 * rows go over their own dashes, never over a curve, the cursor, a hole or another label). */
static int label_free(const canvas *cv, int x, int y)
{
    const cell *c = &cv->c[(size_t)y * (size_t)cv->w + (size_t)x];
    if (c->style == ST_PEAK || c->style == ST_MEASURED)
        return c->ch == 0x2504 || c->ch == '-' || c->ch == 0x2550 || c->ch == '=';
    return c->ch == ' ' && c->style != ST_DIM && c->style != ST_CURSOR;
}

/* Puts text in row y's rightmost gap of the plot that holds it whole; returns its first
 * column, or -1 (nothing drawn). */
static int gap_label(canvas *cv, const geom_curve *gm, int y, int style, const char *text)
{
    int len = utf8_count(text), gap = 0;
    for (int x = gm->plot.x + gm->plot.w - 1; x >= gm->plot.x; x--) {
        gap = label_free(cv, x, y) ? gap + 1 : 0;
        if (gap >= len) {
            canvas_text(cv, x, y, len, style, text);
            return x;
        }
    }
    return -1;
}

/* The graph's Measured peak (a framework's own, from its exporter): a dashed row of its own
 * glyph, labelled "measured 12.3 MiB" in the row's rightmost gap, else in the bottom border
 * left of *bx (the bottom border's first column taken from the right; updated), else
 * "measured" alone there: whole or none. */
static void measured_row(canvas *cv, const geom_curve *gm, rect r, int64_t mp, int64_t ymax,
                         int bottom, int *bx)
{
    int d = dot_row(mp, ymax, gm->dy), per = gm->dy / gm->plot.h;
    int y = gm->plot.y + gm->plot.h - 1 - d / per;
    for (int x = gm->plot.x + 1; x < gm->plot.x + gm->plot.w; x += 2)
        if (label_free(cv, x, y)) canvas_put(cv, x, y, cv->utf8 ? 0x2550 : '=', ST_MEASURED);
    char lab[48], b[32];
    snprintf(lab, sizeof lab, " measured %s ", units_bytes(b, sizeof b, mp, 0));
    for (int pass = 0; pass < 2; pass++) { /* with its number, else the word alone */
        if (pass) snprintf(lab, sizeof lab, " measured ");
        if (gap_label(cv, gm, y, ST_MEASURED, lab) >= 0) return;
        int len = (int)strlen(lab), x = *bx - len;
        if (!bottom && x >= r.x + 12) {
            canvas_text(cv, x, r.y + r.h - 1, len, ST_MEASURED, lab);
            *bx = x;
            return;
        }
    }
}

/* The measured peak's legend in the top border, after what is there (one border cell apart):
 * " = measured peak 10.5 MiB", else " = measured", else none. */
static void measured_legend(canvas *cv, rect r, int64_t mp)
{
    int maxx = r.x + r.w - 2, x = maxx;
    for (; x > r.x; x--) {
        const cell *c = &cv->c[(size_t)r.y * (size_t)cv->w + (size_t)x];
        if (!((c->ch == 0x2500 || c->ch == '-') && (c->style == ST_BORDER || c->style == ST_FOCUS)))
            break;
    }
    x += 2;
    char buf[96];
    for (int pass = 0; pass < 2; pass++) {
        int64_t pk = pass ? -1 : mp;
        if (x + legend_text(buf, sizeof buf, "measured", pk, 0) - 1 <= maxx) {
            legend(cv, &x, r.y, maxx, ST_MEASURED, cv->utf8 ? 0x2550 : '=', "measured", pk, 0);
            return;
        }
    }
}

/* The first step of the order that pops a backward node (0: none), for the forward/backward
 * boundary's mark. */
static uint32_t backward_step(const graph *g, const stepper *s)
{
    if (!g->tag) return 0;
    for (uint32_t t = 0; t < s->r.n; t++)
        if (graph_phase(g, s->r.order[t]) == GRAPH_PHASE_BACKWARD) return t + 1;
    return 0;
}

/* The forward/backward boundary: a dotted column at the first backward step (where the curve
 * leaves it room), "backward" right of it in the plot's highest row that holds it whole. */
static void boundary_mark(canvas *cv, const geom_curve *gm, geom_window win, uint32_t step)
{
    int bx = step ? geom_cursor_x(gm, step, win) : -1;
    if (bx < 0) return;
    for (int y = gm->plot.y; y < gm->plot.y + gm->plot.h; y++)
        if (label_free(cv, bx, y)) canvas_put(cv, bx, y, cv->utf8 ? 0x250a : '!', ST_DIM);
    const char *lab = cv->utf8 ? "\u25b8backward" : ">backward";
    int len = utf8_count(lab);
    if (bx + len >= gm->plot.x + gm->plot.w) return;
    for (int y = gm->plot.y; y < gm->plot.y + gm->plot.h; y++) {
        int x = bx + 1;
        while (x <= bx + len && label_free(cv, x, y)) x++;
        if (x > bx + len) {
            canvas_text(cv, bx + 1, y, len, ST_DIM, lab);
            return;
        }
    }
}

void view_curve(canvas *cv, const app *a, rect r)
{
    int focused = a->focus == P_CURVE;
    geom_window win;
    app_curve_window(a, &win.lo, &win.span);
    char title[96];
    int stacked = a->stacked && a->g->tag;
    const char *holes = stacked ? " by category" : a->holes && a->pl.hwm ? ", holes shaded" : "";
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
    if (*holes && !stacked && a->pl.arena > ymax) ymax = a->pl.arena;
    int64_t mp = a->g->measured_peak;
    if (mp > ymax) ymax = mp;
    if (a->bud.on && a->bud.budget > ymax) ymax = a->bud.budget; /* its row in sight */
    if (ymax <= 0) ymax = 1;

    /* Legend (and peaks) in the top border. */
    int bottom = legends(cv, r, r.x + 2 + utf8_count(title), a, s, o, rp);

    view_y_axis(cv, gm.plot, ymax);

    /* The reference: the optimum, or the proven bound below every order, a
     * dashed row the curves draw over, labelled at its right end. */
    int opt = 0;
    int64_t lb = a->bud.on ? 0 : app_bound(a, &opt); /* the budget's row instead */
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
    uint8_t *hole = *holes && !stacked ? calloc(ncell, 1) : NULL;
    if (hole) shade_holes(&gm, win, s, &a->pl, ymax, hole);
    if (o) plot_run(&gm, win, o, ymax, bits, sty, own, 2, ST_CURVE2, ST_FUTURE2);
    if (stacked) view_stack_fill(cv, a, &gm, win.lo, win.span, ymax);
    else plot_run(&gm, win, s, ymax, bits, sty, own, 1, ST_CURVE, ST_FUTURE);
    if (rp) { /* on top: the steps the replay reached */
        series m = {NULL, rp->s, rp->n};
        plot(&gm, &m, win, s->k, ymax, bits, sty, own, 3, ST_MEASURED, ST_MEASURED);
    }
    int curx = geom_cursor_x(&gm, s->k, win);
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
    int bx = r.x + r.w - 2;  /* the bottom border's right end still free */
    if (stacked) bottom = 1; /* the bottom border is the categories' legend's */
    if (refy >= 0) {         /* the label: in the row's rightmost gap it fits whole, else
                              * right-aligned in the bottom border (unless a replay's
                              * legend may be there) */
        char rl[48], b[32];
        snprintf(rl, sizeof rl, " %s %s ", opt ? "optimum" : "bound",
                 units_bytes(b, sizeof b, lb, 0));
        int len = (int)strlen(rl), row = refy - gm.plot.y, at = -1, gap = 0;
        for (int cx = gm.plot.w - 1; cx >= 0 && at < 0; cx--) {
            int empty = !bits[(size_t)row * (size_t)gm.plot.w + (size_t)cx] &&
                        gm.plot.x + cx != curx && label_free(cv, gm.plot.x + cx, refy);
            gap = empty ? gap + 1 : 0;
            if (gap >= len) at = cx;
        }
        if (at >= 0) canvas_text(cv, gm.plot.x + at, refy, len, ST_PEAK, rl);
        else if (!bottom && r.w - 4 - len >= 12) {
            bx = r.x + r.w - 2 - len;
            canvas_text(cv, bx, r.y + r.h - 1, len, ST_PEAK, rl);
        }
    }
    free(bits);
    if (mp > 0) {
        measured_row(cv, &gm, r, mp, ymax, bottom, &bx);
        measured_legend(cv, r, mp);
    }
    boundary_mark(cv, &gm, win, backward_step(a->g, s));
    if (stacked) view_stack_legend(cv, a, r);
    view_budget_marks(cv, a, r, &gm, &win, ymax);

    x_axis(cv, &gm, win, s, curx);
    (void)n;
}
