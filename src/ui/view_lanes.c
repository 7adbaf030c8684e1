/* view_lanes.c: the curve panel as the run over time (T): a lane per stream with its nodes (issued
 * bright, to come dim, the cursor's highlighted) and the live memory under them, on one time axis
 * from 0 to the makespan (timeline.h). Exports view_lanes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/units.h"
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
    if (!(a->tl.makespan > 0)) {
        snprintf(out, cap,
                 utf8_count(" Streams over time ") + 4 > w ? " Streams " : " Streams over time ");
        return;
    }
    units_ms(m, sizeof m, a->tl.makespan);
    units_ms(b, sizeof b, a->tl.bound);
    snprintf(out, cap, " Streams over time: makespan %s, none under %s ", m, b);
    if (utf8_count(out) + 4 > w) snprintf(out, cap, " Streams over time: makespan %s ", m);
    if (utf8_count(out) + 4 > w) snprintf(out, cap, " Streams over time ");
    if (utf8_count(out) + 4 > w) snprintf(out, cap, " Streams ");
}

/* The lanes: rows y0 .. y0 + nl - 1, stream lane[j] on row y0 + j (row_of
 * is lane's inverse, -1 for a stream not shown). */
static void draw_lanes(canvas *cv, const app *a, int x0, int y0, int lw, int w, const int *lane,
                       const int *row_of, int nl)
{
    const graph *g = a->g;
    const stepper *st = &a->st[0];
    uint32_t cur = step_last(st);
    uint32_t full = cv->utf8 ? 0x2588 : '#';
    for (int j = 0; j < nl; j++) {
        char lab[16];
        snprintf(lab, sizeof lab, "s%d", lane[j]);
        canvas_text(cv, x0, y0 + j, lw, ST_AXIS, lab);
        for (int c = 0; c < w; c++) canvas_put(cv, x0 + lw + c, y0 + j, ' ', ST_NORMAL);
    }
    /* Future nodes first, then issued ones, then the cursor's, so that the
     * brighter wins a shared cell. */
    for (int pass = 0; pass < 3; pass++)
        for (uint32_t i = 0; i < g->n; i++) {
            int s = graph_stream(g, i);
            if (s < 0 || row_of[s] < 0 || !(a->tl.finish[i] > a->tl.start[i])) continue;
            int issued = st->r.pos[i] < st->k, mine = i == cur;
            if ((pass == 0 && issued) || (pass == 1 && (!issued || mine)) || (pass == 2 && !mine))
                continue;
            int c0 = col_of(a->tl.start[i], a->tl.makespan, w);
            int c1 = (int)ceil(a->tl.finish[i] / a->tl.makespan * w) - 1;
            if (c1 < c0) c1 = c0;
            if (c1 >= w) c1 = w - 1;
            int sty = mine ? ST_CURSOR : issued ? ST_COMPUTE : ST_FUTURE;
            for (int c = c0; c <= c1; c++) canvas_put(cv, x0 + lw + c, y0 + row_of[s], full, sty);
        }
}

/* Words over rows y0 .. y0 + rows - 1 of width w, whole; the last row that
 * fits ends with a mark when words are left. */
static void say(canvas *cv, int x0, int y0, int w, int rows, const char *text)
{
    const char *p = text;
    for (int row = 0; row < rows && *p; row++) {
        int len = 0, end = 0; /* end: the length up to the last whole word that fits */
        while (p[len]) {
            int next = len;
            while (p[next] == ' ') next++;
            int wordend = next;
            while (p[wordend] && p[wordend] != ' ') wordend++;
            if (wordend > w) break;
            len = end = wordend;
        }
        if (row == rows - 1 || !end) { /* the last row: the rest, marked if it goes on */
            canvas_fit(cv, x0, y0 + row, w, ST_DIM, p);
            return;
        }
        char line[512];
        snprintf(line, sizeof line, "%.*s", end, p);
        canvas_text(cv, x0, y0 + row, w, ST_DIM, line);
        p += end;
        while (*p == ' ') p++;
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
        if (graph_stream(g, u) >= 0) continue;
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
    if (!(a->tl.makespan > 0)) {
        say(cv, x0 + 1, y0, iw - 2, ih,
            a->g->n == 0     ? "An empty graph: nothing runs."
            : !a->tl.n       ? "Out of memory timing the run."
            : !a->g->latency ? "No node takes time: the graph has no Latency. "
                               "tools/fx2memtris.py --latency and memtris gen write them."
                             : "No node takes time: every Latency is 0.");
        return;
    }
    /* The lanes: the streams that run something, in order; then at least
     * two rows of memory, and the axis. */
    int lane[GRAPH_MAX_STREAM + 1], row_of[GRAPH_MAX_STREAM + 1], nused = 0;
    for (uint32_t st = 0; st < a->tl.nstreams && st <= GRAPH_MAX_STREAM; st++)
        if (a->tl.busy[st] > 0) lane[nused++] = (int)st;
    int nl = nused, mem_h = ih - 1 - nl;
    if (mem_h < 2) {
        nl = ih - 3 > 1 ? ih - 3 : 1;
        mem_h = ih - 1 - nl;
    }
    for (int st = 0; st <= GRAPH_MAX_STREAM; st++) row_of[st] = -1;
    for (int j = 0; j < nl; j++) row_of[lane[j]] = j;
    draw_lanes(cv, a, x0, y0, lw, w, lane, row_of, nl);
    if (mem_h > 0) {
        draw_memory(cv, a, x0, y0 + nl, lw, w, mem_h);
        canvas_text(cv, x0, y0 + nl, lw, ST_AXIS, top);
        if (mem_h > 1 && a->st[0].r.peak > 0)
            canvas_text(cv, x0, y0 + nl + mem_h - 1, lw, ST_AXIS, "0 B");
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
    if (nl < nused) {
        char more[48];
        snprintf(more, sizeof more, " %d of %d streams shown ", nl, nused);
        int len = (int)strlen(more);
        if (len + 2 <= r.w) canvas_text(cv, r.x + r.w - len - 1, r.y + r.h - 1, len, ST_DIM, more);
    }
}
