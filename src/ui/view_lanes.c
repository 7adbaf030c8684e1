/* view_lanes.c: the curve panel as the run over time (T): a lane per stream
 * showing when its nodes run (those issued by the cursor bright, the rest
 * dim, the cursor's node highlighted), and under the lanes the live memory
 * over time, all on one time axis from 0 to the makespan (timeline.h says
 * the model). Exports view_lanes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/units.h"
#include "util/utf8.h"
#include "view.h"

/* The column of time t on a plot of w columns over [0, span]. */
static int col_of(double t, double span, int w)
{
    int c = (int)floor(t / span * w);
    return c < 0 ? 0 : c >= w ? w - 1 : c;
}

static void title_of(const app *a, int w, char *out, size_t cap)
{
    char m[24], b[24];
    units_ms(m, sizeof m, a->tl.makespan);
    units_ms(b, sizeof b, a->tl.bound);
    snprintf(out, cap, " Streams over time: makespan %s, none under %s ", m, b);
    if (utf8_count(out) + 4 > w) snprintf(out, cap, " Streams over time: makespan %s ", m);
    if (utf8_count(out) + 4 > w) snprintf(out, cap, " Streams over time ");
    if (utf8_count(out) + 4 > w) snprintf(out, cap, " Streams ");
}

/* The lanes: rows y0 .. y0 + nl - 1, stream s on row y0 + s. */
static void draw_lanes(canvas *cv, const app *a, int x0, int y0, int lw, int w, int nl)
{
    const graph *g = a->g;
    const stepper *st = &a->st[0];
    uint32_t cur = step_last(st);
    uint32_t full = cv->utf8 ? 0x2588 : '#';
    for (int s = 0; s < nl; s++) {
        char lab[16];
        snprintf(lab, sizeof lab, "s%d", s);
        canvas_text(cv, x0, y0 + s, lw, ST_AXIS, lab);
        for (int c = 0; c < w; c++) canvas_put(cv, x0 + lw + c, y0 + s, ' ', ST_NORMAL);
    }
    /* Future nodes first, then issued ones, then the cursor's, so that the
     * brighter wins a shared cell. */
    for (int pass = 0; pass < 3; pass++)
        for (uint32_t i = 0; i < g->n; i++) {
            int s = timeline_stream(g, i);
            if (s < 0 || s >= nl || !(a->tl.finish[i] > a->tl.start[i])) continue;
            int issued = st->r.pos[i] < st->k, mine = i == cur;
            if ((pass == 0 && issued) || (pass == 1 && (!issued || mine)) || (pass == 2 && !mine))
                continue;
            int c0 = col_of(a->tl.start[i], a->tl.makespan, w);
            int c1 = (int)ceil(a->tl.finish[i] / a->tl.makespan * w) - 1;
            if (c1 < c0) c1 = c0;
            if (c1 >= w) c1 = w - 1;
            int sty = mine ? ST_CURSOR : issued ? ST_COMPUTE : ST_FUTURE;
            for (int c = c0; c <= c1; c++) canvas_put(cv, x0 + lw + c, y0 + s, full, sty);
        }
}

/* Live memory over time in rows y0 .. y0 + h - 1: each column the most live
 * in its span of time (the allocator's events come in issue order, at
 * times that never go back). */
static void draw_memory(canvas *cv, const app *a, int x0, int y0, int lw, int w, int h)
{
    const graph *g = a->g;
    const run *r = &a->st[0].r;
    int64_t *top = calloc((size_t)w, sizeof *top);
    if (!top) return;
    int64_t carry = 0; /* live bytes before the event at hand */
    int last = 0;      /* the column of the last event */
    for (uint32_t s = 0; s < r->n; s++) {
        uint32_t u = r->order[s];
        if (timeline_stream(g, u) >= 0) continue;
        int c = col_of(a->tl.start[u], a->tl.makespan, w);
        for (; last <= c; last++) /* the columns up to this one hold what was live */
            if (carry > top[last]) top[last] = carry;
        last = c;
        carry = r->memory[s];
        if (carry > top[c]) top[c] = carry;
    }
    for (; last < w; last++)
        if (carry > top[last]) top[last] = carry;
    double now = a->st[0].k ? a->tl.start[r->order[a->st[0].k - 1]] : 0;
    int now_col = col_of(now, a->tl.makespan, w);
    int64_t ymax = r->peak > 0 ? r->peak : 1;
    static const uint32_t eighths[] = {' ',    0x2581, 0x2582, 0x2583, 0x2584,
                                       0x2585, 0x2586, 0x2587, 0x2588};
    for (int c = 0; c < w; c++) {
        int eighth = (int)((double)top[c] / (double)ymax * h * 8 + 0.5); /* in eighths of a row */
        int sty = c <= now_col ? ST_CURVE : ST_FUTURE;
        for (int j = 0; j < h; j++) {
            int fill = eighth - j * 8;
            uint32_t ch = fill >= 8  ? (cv->utf8 ? 0x2588 : '#')
                          : fill > 0 ? (cv->utf8 ? eighths[fill] : (fill >= 4 ? '#' : '.'))
                                     : ' ';
            canvas_put(cv, x0 + lw + c, y0 + h - 1 - j, ch, sty);
        }
    }
    free(top);
}

void view_lanes(canvas *cv, const app *a, rect r)
{
    int focused = a->focus == P_CURVE;
    char title[128];
    title_of(a, r.w, title, sizeof title);
    canvas_box(cv, r, title, focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    /* The labels' column: the streams' names, memory's peak and zero. */
    char top[32];
    units_bytes(top, sizeof top, a->st[0].r.peak, 0);
    int x0 = r.x + 1, y0 = r.y + 1, iw = r.w - 2, ih = r.h - 2, lw = (int)strlen(top) + 1;
    if (lw < 5) lw = 5;
    int w = iw - lw;
    if (w < 16 || ih < 3) return;
    if (!a->tl.n || !(a->tl.makespan > 0)) {
        canvas_fit(cv, x0 + 1, y0, iw - 2, ST_DIM,
                   a->tl.n ? "No node takes time: the graph has no Latency. The exporter's "
                             "--latency writes them; gen writes them too."
                           : "Out of memory timing the run.");
        return;
    }
    /* Rows: the lanes, at least two rows of memory, and the axis. */
    int nl = (int)a->tl.nstreams, mem_h = ih - 1 - nl;
    if (mem_h < 2) {
        nl = ih - 3 > 1 ? ih - 3 : 1;
        mem_h = ih - 1 - nl;
    }
    draw_lanes(cv, a, x0, y0, lw, w, nl);
    if (mem_h > 0) {
        draw_memory(cv, a, x0, y0 + nl, lw, w, mem_h);
        canvas_text(cv, x0, y0 + nl, lw, ST_AXIS, top);
        if (mem_h > 1) canvas_text(cv, x0, y0 + nl + mem_h - 1, lw, ST_AXIS, "0 B");
    }
    /* The axis: 0, the cursor's time when it fits, the makespan. */
    int ay = y0 + ih - 1;
    char m[24], now[24];
    units_ms(m, sizeof m, a->tl.makespan);
    canvas_text(cv, x0 + lw, ay, w, ST_AXIS, "0");
    int mw = (int)strlen(m);
    if (mw + 2 <= w) canvas_text(cv, x0 + lw + w - mw, ay, mw, ST_AXIS, m);
    if (a->st[0].k) {
        uint32_t u = a->st[0].r.order[a->st[0].k - 1];
        int c = col_of(a->tl.start[u], a->tl.makespan, w);
        snprintf(now, sizeof now, "^%s", units_ms(m, sizeof m, a->tl.start[u]));
        int nw = (int)strlen(now), x = x0 + lw + c;
        if (c >= 2 && c + nw <= w - mw - 1) canvas_text(cv, x, ay, nw, ST_CURSOR, now);
        else canvas_put(cv, x, ay, '^', ST_CURSOR);
    }
    if (nl < (int)a->tl.nstreams && nl > 0) {
        char more[48];
        snprintf(more, sizeof more, " %u of %u streams shown ", (unsigned)nl, a->tl.nstreams);
        int len = (int)strlen(more);
        if (len + 2 <= r.w) canvas_text(cv, r.x + r.w - len - 1, r.y + r.h - 1, len, ST_DIM, more);
    }
}
