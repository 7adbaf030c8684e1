/* view_timeline.c: the arena panel as the whole run's timeline (t): lifetime x
 * address rectangles, named where a row of one holds its name, and the step as a cursor; the
 * raster is kept in the caller's view_cache, keyed on app.place_gen and the size. Exports
 * view_timeline. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "geom.h"
#include "util/units.h"
#include "util/utf8.h"
#include "view.h"

/* Paints the raster of pw x ph cells into c (which buffer each cell shows,
 * largest first so small blocks stay on top); -1 when out of memory, c as
 * it was. */
static int paint(const app *a, int pw, int ph, view_cache *c)
{
    const graph *g = a->g;
    size_t ncell = (size_t)pw * (size_t)ph;
    uint32_t *raster = realloc(c->timeline.cell, ncell * sizeof *raster);
    if (!raster) return -1;
    c->timeline.cell = raster;
    c->timeline.w = pw;
    c->timeline.h = ph;
    c->timeline.gen = a->place_gen;
    for (size_t i = 0; i < ncell; i++) raster[i] = GRAPH_NONE;
    for (uint32_t i = 0; i < g->nbufs; i++) {
        uint32_t b = a->by_span[i];
        int x0, x1, j0, j1;
        geom_buf_cols(g, &a->st[0].r, b, pw, &x0, &x1);
        geom_buf_rows(g, &a->pl, b, ph, &j0, &j1);
        for (int j = j0; j <= j1; j++)
            for (int x = x0; x <= x1; x++)
                raster[(size_t)(ph - 1 - j) * (size_t)pw + (size_t)x] = b;
    }
    return 0;
}

typedef struct run_at {
    uint32_t buf;
    int x, y, len;
} run_at;

static int longer_first(const void *p, const void *q)
{
    const run_at *u = p, *v = q;
    if (u->len != v->len) return u->len < v->len ? 1 : -1;
    return u->y != v->y ? u->y - v->y : u->x - v->x;
}

/* Names the buffers on the raster (pw x ph cells at area's corner) where a row of one holds its
 * name whole, or shortened from the left to no fewer than 8 columns, with a cell either side:
 * each buffer once, on its longest run of cells, the longest runs first. */
static void label_buffers(canvas *cv, const app *a, rect area, const uint32_t *raster, int pw,
                          int ph)
{
    enum { MIN_RUN = 10 };
    size_t cap = (size_t)pw * (size_t)ph / MIN_RUN + 1, n = 0;
    run_at *rs = malloc(cap * sizeof *rs);
    if (!rs) return;
    for (int y = 0; y < ph; y++)
        for (int x = 0; x < pw;) {
            uint32_t b = raster[(size_t)y * (size_t)pw + (size_t)x];
            int len = 1;
            while (x + len < pw && raster[(size_t)y * (size_t)pw + (size_t)(x + len)] == b) len++;
            if (b != GRAPH_NONE && len >= MIN_RUN && n < cap) rs[n++] = (run_at){b, x, y, len};
            x += len;
        }
    qsort(rs, n, sizeof *rs, longer_first);
    uint8_t *done = calloc(a->g->nbufs ? a->g->nbufs : 1, 1);
    for (size_t i = 0; done && i < n; i++) {
        uint32_t b = rs[i].buf;
        if (done[b]) continue;
        done[b] = 1;
        char name[256], fit[256];
        graph_buf_display(a->g, b, name, sizeof name);
        const char *t = name;
        if (utf8_count(name) > rs[i].len - 2)
            t = view_fit_left(cv, name, rs[i].len - 2, fit, sizeof fit);
        canvas_text(cv, area.x + rs[i].x + 1, area.y + rs[i].y, rs[i].len - 2,
                    b == a->sel ? ST_NEXT : style_buf((int)b), t);
    }
    free(done);
    free(rs);
}

/* The whole run: x is the step, y the address; each buffer a rectangle from
 * its ALLOC's step to its FREE's, at its offset. */
void view_timeline(canvas *cv, const app *a, rect r, view_cache *vc)
{
    const stepper *s = &a->st[0];
    const placement *pl = &a->pl;
    rect area = geom_arena_area(r, 1); /* a row for the step axis */
    int64_t hwm = s->k ? pl->hwm[s->k - 1] : 0;
    view_arena_frame(cv, a, r, area, hwm);
    if (area.w < 4 || area.h < 1) return;
    int ph = area.h, pw = area.w;
    uint32_t n = s->r.n;
    if (pl->arena <= 0 || !a->by_span) {
        canvas_fit(cv, area.x + 1, area.y + ph / 2, area.w - 1, ST_DIM,
                   "no buffer is ever allocated");
        return;
    }
    char lab[32];
    units_bytes(lab, sizeof lab, pl->arena, 0);
    canvas_text(cv, area.x - 1 - (int)strlen(lab), area.y, GEOM_ARENA_LAB, ST_AXIS, lab);
    /* The raster, painted again only when the placement or the size changed. */
    view_cache once = {0}, *c = vc ? vc : &once;
    if (!c->timeline.cell || c->timeline.gen != a->place_gen || c->timeline.w != pw ||
        c->timeline.h != ph)
        if (paint(a, pw, ph, c)) return;
    const uint32_t *raster = c->timeline.cell;
    for (int y = 0; y < ph; y++)
        for (int x = 0; x < pw; x++) {
            uint32_t b = raster[(size_t)y * (size_t)pw + (size_t)x];
            if (b == GRAPH_NONE) continue;
            if (b == a->sel) canvas_put(cv, area.x + x, area.y + y, ' ', ST_NEXT);
            else
                canvas_put(cv, area.x + x, area.y + y, style_buf_glyph((int)b, a->mono, cv->utf8),
                           style_buf((int)b));
        }
    label_buffers(cv, a, area, raster, pw, ph);
    free(once.timeline.cell); /* a cache of one frame */
    /* The current step as a cursor, the step axis below. */
    int cx = area.x + geom_step_col(s->k, n, pw);
    for (int y = area.y; y < area.y + ph; y++) {
        cell *cc = canvas_at(cv, cx, y);
        if (cc && cc->ch == ' ' && cc->style == ST_NORMAL)
            canvas_put(cv, cx, y, cv->utf8 ? 0x2502 : '|', ST_CURSOR);
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
