/* view_pool.c: the pool view (I) in the curve's panel: per iteration the need as bars and the
 * static, size-class and elastic capacities as lines, grows and shrinks under them, the totals on
 * top. Exports view_pool. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "geom.h"
#include "util/units.h"
#include "util/utf8.h"
#include "view.h"

/* How each capacity is drawn: style and glyph (UTF-8, ASCII). */
static const struct {
    int style;
    uint32_t glyph, ascii;
} look[POOL_NKINDS] = {
    [POOL_STATIC] = {ST_PEAK, 0x2501, '='},
    [POOL_SIZECLASS] = {ST_CURVE2, 0x2505, '+'},
    [POOL_ELASTIC] = {ST_MEASURED, 0x25cf, 'o'},
};

/* Iterations a .. b-1 (0-based) shown in column c of w for n iterations. */
static void col_span(int c, int w, uint32_t n, uint32_t *a, uint32_t *b)
{
    *a = (uint32_t)((uint64_t)c * n / (uint64_t)w);
    *b = (uint32_t)((uint64_t)(c + 1) * n / (uint64_t)w);
    if (*b <= *a) *b = *a + 1;
}

/* Row (0 = bottom) of ph holding value v of ymax. */
static int row_of(int64_t v, int64_t ymax, int ph)
{
    if (v <= 0) return 0;
    double f = (double)v / (double)ymax * ph;
    int r = (int)f;
    if ((double)r == f) r--; /* exactly a row's top: that row */
    return r < 0 ? 0 : r >= ph ? ph - 1 : r;
}

/* Pool k's words at level lv: peak, waste and allocations; peak and waste;
 * the peak; the name alone. */
static void words(const pool_sim *s, int k, int lv, char *out, size_t cap)
{
    char a[32], b[32];
    const pool_total *t = &s->tot[k];
    const char *name = pool_kind_at(k)->name;
    units_bytes(a, sizeof a, t->peak_cap, 0);
    units_bytes(b, sizeof b, (int64_t)(t->mean_waste + 0.5), 0);
    if (lv == 0)
        snprintf(out, cap, "%s: peak %s, waste %s, %" PRIu64 " alloc%s", name, a, b, t->reallocs,
                 t->reallocs == 1 ? "" : "s");
    else if (lv == 1) snprintf(out, cap, "%s: peak %s, waste %s", name, a, b);
    else if (lv == 2) snprintf(out, cap, "%s %s", name, a);
    else snprintf(out, cap, "%s", name);
}

/* The totals row, each pool's words after its glyph (the capacities'
 * legend): every pool at the widest level that fits, dropping a field at a
 * time (static's first, elastic's last), down to the names alone. */
static void totals(canvas *cv, const pool_sim *s, int x, int y, int w)
{
    char f[POOL_NKINDS][96];
    int lv[POOL_NKINDS] = {0};
    for (;;) {
        int need = 0;
        for (int k = 0; k < POOL_NKINDS; k++) {
            words(s, k, lv[k], f[k], sizeof f[k]);
            need += (k ? 2 : 0) + 1 + utf8_count(f[k]);
        }
        if (need <= w) break;
        int k = 0; /* the first pool still at the highest level drops a field */
        for (int j = 1; j < POOL_NKINDS; j++)
            if (lv[j] < lv[k]) k = j;
        if (lv[k] == 3) return; /* not even the names */
        lv[k]++;
    }
    for (int k = 0; k < POOL_NKINDS; k++) {
        if (k) x += 2;
        canvas_put(cv, x++, y, cv->utf8 ? look[k].glyph : look[k].ascii, look[k].style);
        x += canvas_text(cv, x, y, w, ST_NORMAL, f[k]);
    }
}

/* The other marks' legend in the bottom border, whole or none. */
static void legend(canvas *cv, rect r)
{
    int u = cv->utf8, x = r.x + 2, y = r.y + r.h - 1;
    static const char *const words[3] = {" need ", " grow ", " shrink "};
    uint32_t glyph[3] = {u ? 0x2588 : '#', u ? 0x25b2 : '^', u ? 0x25bc : 'v'};
    int style[3] = {ST_FUTURE, ST_WARN, ST_GOOD};
    if (x + 26 > r.x + r.w - 2) return;
    for (int i = 0; i < 3; i++) {
        canvas_put(cv, x++, y, ' ', ST_BORDER);
        canvas_put(cv, x++, y, glyph[i], style[i]);
        x += canvas_text(cv, x, y, 8, ST_BORDER, words[i]);
    }
}

void view_pool(canvas *cv, const app *a, rect r)
{
    const pool_sim *s = a->pool;
    int focused = a->focus == P_CURVE;
    char title[128];
    snprintf(title, sizeof title, " Pools: %u iterations, scale %g:%g, seed %" PRIu64 " ",
             s ? s->n : 0, a->poolp.min, a->poolp.max, a->poolp.seed);
    if (utf8_count(title) + 4 > r.w)
        snprintf(title, sizeof title, " Pools: %u iterations ", s ? s->n : 0);
    if (utf8_count(title) + 4 > r.w) snprintf(title, sizeof title, " Pools ");
    canvas_box(cv, r, title, focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    if (!s || !s->n || r.h < 6) return;
    rect plot = {r.x + 1 + GEOM_CURVE_YLAB + 1, r.y + 2, r.w - 3 - GEOM_CURVE_YLAB - 1, r.h - 4};
    int axis_y = r.y + r.h - 2, pw = plot.w, ph = plot.h;
    totals(cv, s, r.x + 2, r.y + 1, r.w - 4);
    legend(cv, r);
    if (pw < 4 || ph < 2) return;

    int64_t ymax = 1;
    for (uint32_t i = 0; i < s->n; i++)
        if (s->need[i] > ymax) ymax = s->need[i];
    for (int k = 0; k < POOL_NKINDS; k++)
        if (s->tot[k].peak_cap > ymax) ymax = s->tot[k].peak_cap;

    view_y_axis(cv, plot, ymax);
    char lab[32];

    for (int c = 0; c < pw; c++) {
        uint32_t i0, i1;
        col_span(c, pw, s->n, &i0, &i1);
        int64_t need = 0, cap[POOL_NKINDS] = {0};
        int grow = 0, shrink = 0;
        for (uint32_t i = i0; i < i1 && i < s->n; i++) {
            if (s->need[i] > need) need = s->need[i];
            for (int k = 0; k < POOL_NKINDS; k++) {
                const pool_point *p = &s->pt[k][i];
                if (p->cap > cap[k]) cap[k] = p->cap;
                if (k != POOL_SIZECLASS) { /* size-class's new blocks are not resizes */
                    grow |= p->grow > 0;
                    shrink |= p->shrink > 0;
                }
            }
        }
        /* The need: full rows, then an eighth-block top (UTF-8). */
        int64_t eighths = (int64_t)((double)need / (double)ymax * ph * 8 + 0.5);
        for (int row = 0; row < ph && eighths > 0; row++, eighths -= 8) {
            uint32_t g = eighths >= 8 ? (cv->utf8 ? 0x2588 : '#')
                         : cv->utf8   ? 0x2580 + (uint32_t)eighths
                                      : (eighths >= 4 ? '#' : ' ');
            if (g != ' ') canvas_put(cv, plot.x + c, plot.y + ph - 1 - row, g, ST_FUTURE);
        }
        for (int k = 0; k < POOL_NKINDS; k++) /* later pools over earlier ones */
            canvas_put(cv, plot.x + c, plot.y + ph - 1 - row_of(cap[k], ymax, ph),
                       cv->utf8 ? look[k].glyph : look[k].ascii, look[k].style);
        if (grow) canvas_put(cv, plot.x + c, axis_y, cv->utf8 ? 0x25b2 : '^', ST_WARN);
        else if (shrink) canvas_put(cv, plot.x + c, axis_y, cv->utf8 ? 0x25bc : 'v', ST_GOOD);
    }
    /* The first and last iterations under the axis, where no mark is. */
    for (int i = 0; i < 2; i++) {
        snprintf(lab, sizeof lab, "%u", i ? s->n : 1u);
        int len = (int)strlen(lab), x = i ? plot.x + pw - len : plot.x, free_ = 1;
        for (int j = -1; j <= len; j++) {
            const cell *ce = canvas_at(cv, x + j, axis_y);
            if (ce && ce->ch != ' ' && x + j >= plot.x && x + j < plot.x + pw) free_ = 0;
        }
        if (free_ && (i == 0 || pw > 2 * len + 2)) canvas_text(cv, x, axis_y, len, ST_AXIS, lab);
    }
}
