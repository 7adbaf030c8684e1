/* view_stack.c: the memory curve stacked by Category (C, a training graph's): each column
 * the live bytes of its highest step split into bands, weights at the bottom, each category a
 * letter of its own on a colour (told apart in ASCII and monochrome too), and the legend of the
 * categories the graph has in the panel's borders, whole entries, "+N" for those that do not
 * fit. Exports view_stack_fill, view_stack_legend, view_stack_mark. */
#include <stdio.h>
#include <string.h>
#include "geom.h"
#include "sched/policy/bycat.h"
#include "util/utf8.h"
#include "view.h"

/* Bottom up: what lives longest first. */
static const int stack_order[GRAPH_NCAT] = {
    GRAPH_CAT_WEIGHT,   GRAPH_CAT_OPTIMIZER,  GRAPH_CAT_INPUT,     GRAPH_CAT_OUTPUT,
    GRAPH_CAT_GRADIENT, GRAPH_CAT_ACTIVATION, GRAPH_CAT_WORKSPACE, GRAPH_CAT_NONE};

char view_stack_mark(int cat)
{
    static const char marks[GRAPH_NCAT] = {
        [GRAPH_CAT_NONE] = '.',      [GRAPH_CAT_INPUT] = 'i',     [GRAPH_CAT_WEIGHT] = 'W',
        [GRAPH_CAT_GRADIENT] = 'G',  [GRAPH_CAT_OPTIMIZER] = 'O', [GRAPH_CAT_ACTIVATION] = 'A',
        [GRAPH_CAT_WORKSPACE] = 'w', [GRAPH_CAT_OUTPUT] = 'o'};
    return cat >= 0 && cat < GRAPH_NCAT ? marks[cat] : '?';
}

static int cat_style(int cat) { return cat == GRAPH_CAT_NONE ? ST_DIM : style_buf(cat - 1); }

static void add_step(const graph *g, uint32_t u, int64_t live[GRAPH_NCAT])
{
    if (g->kind[u] == NODE_COMPUTE || g->buf[u] == GRAPH_NONE) return;
    live[graph_buf_category(g, g->buf[u])] += g->change[u];
}

/* Fills column cx's cells up to its bytes, band by band, from at[] (the live bytes by category
 * at the column's highest step). */
static void fill_column(canvas *cv, const geom_curve *gm, int cx, const int64_t at[GRAPH_NCAT],
                        int64_t ymax)
{
    int ph = gm->plot.h;
    for (int row = 0; row < ph; row++) {
        double mid = ((double)row + 0.5) / (double)ph * (double)ymax;
        int64_t acc = 0;
        int cat = -1;
        for (int i = 0; i < GRAPH_NCAT && cat < 0; i++) {
            acc += at[stack_order[i]] > 0 ? at[stack_order[i]] : 0;
            if (mid < (double)acc) cat = stack_order[i];
        }
        if (cat < 0) return;
        canvas_put(cv, gm->plot.x + cx, gm->plot.y + ph - 1 - row, (uint32_t)view_stack_mark(cat),
                   cat_style(cat));
    }
}

void view_stack_fill(canvas *cv, const app *a, const geom_curve *gm, uint32_t lo, uint32_t span,
                     int64_t ymax)
{
    const graph *g = a->g;
    const run *r = &a->st[0].r;
    geom_window win = {lo, span};
    int64_t cur[GRAPH_NCAT] = {0}, at[GRAPH_NCAT];
    uint32_t t = 0; /* cur: the live bytes after t steps */
    for (int cx = 0; cx < gm->plot.w; cx++) {
        uint32_t s0 = geom_step_of_col(cx * gm->sub, gm->dx, win),
                 s1 = geom_step_of_col((cx + 1) * gm->sub, gm->dx, win);
        if (s0 > r->n) break;
        if (s1 <= s0) s1 = s0 + 1;
        if (s1 > r->n + 1) s1 = r->n + 1;
        int64_t best = -1;
        for (uint32_t s = s0; s < s1; s++) {
            for (; t < s; t++) add_step(g, r->order[t], cur);
            int64_t m = s ? r->memory[s - 1] : 0;
            if (m > best) {
                best = m;
                memcpy(at, cur, sizeof at);
            }
        }
        fill_column(cv, gm, cx, at, ymax);
    }
}

/* Whether cells x .. x + len - 1 of row y, and one either side, are plain border. */
static int border_run(const canvas *cv, int x, int y, int len, int maxx)
{
    if (x - 1 < 0 || x + len > maxx) return 0;
    for (int i = x - 1; i <= x + len; i++) {
        const cell *c = &cv->c[(size_t)y * (size_t)cv->w + (size_t)i];
        if (!((c->ch == 0x2500 || c->ch == '-') && (c->style == ST_BORDER || c->style == ST_FOCUS)))
            return 0;
    }
    return 1;
}

/* The categories g has, biggest at r's peak first, then those of none there. Returns how many. */
static int legend_order(const graph *g, const run *r, int order[GRAPH_NCAT])
{
    int has[GRAPH_NCAT] = {0};
    for (uint32_t b = 0; b < g->nbufs; b++) has[graph_buf_category(g, b)] = 1;
    int64_t at[GRAPH_NCAT];
    run_peak_by_category(g, r, at);
    int n = bycat_order(at, order), in[GRAPH_NCAT] = {0};
    for (int i = 0; i < n; i++) in[order[i]] = 1;
    for (int i = 0; i < GRAPH_NCAT; i++)
        if (has[stack_order[i]] && !in[stack_order[i]]) order[n++] = stack_order[i];
    return n;
}

/* A legend entry's text: " W weight ". */
static int entry_text(int cat, char *out, size_t cap)
{
    snprintf(out, cap, " %c %s ", view_stack_mark(cat), bycat_word(cat));
    return utf8_count(out);
}

/* Where entries order[0..m) go, each on the bottom border, else the top, after the one before
 * on its row (x[i], row[i]: 0 bottom, 1 top), and then a text `tail` columns long (0: none) at
 * *tx, *trow. Whether they all fit. */
static int legend_fit(const canvas *cv, rect r, const int *order, int m, int tail, int *x, int *row,
                      int *tx, int *trow)
{
    int rows[2] = {r.y + r.h - 1, r.y}, maxx = r.x + r.w - 1, from[2] = {r.x + 2, r.x + 2};
    for (int i = 0; i <= m; i++) {
        char text[48];
        int len = i < m ? entry_text(order[i], text, sizeof text) : tail, k = 0, at = -1;
        if (!len) break;
        for (; k < 2 && at < 0; k++) { /* the bottom border, else the top */
            at = from[k];
            while (at + len < maxx && !border_run(cv, at, rows[k], len, maxx)) at++;
            if (at + len >= maxx) at = -1;
        }
        if (at < 0) return 0;
        from[k - 1] = at + len + 1;
        if (i < m) {
            x[i] = at;
            row[i] = rows[k - 1];
        } else {
            *tx = at;
            *trow = rows[k - 1];
        }
    }
    return 1;
}

/* The categories drawn, each "W weight" in a border; as many as fit and then "+N" (those left
 * out) when not all do. */
void view_stack_legend(canvas *cv, const app *a, rect r)
{
    int order[GRAPH_NCAT], n = legend_order(a->g, &a->st[0].r, order);
    int x[GRAPH_NCAT], row[GRAPH_NCAT], tx = 0, trow = 0, m = n;
    char more[16] = "";
    while (m > 0 && !legend_fit(cv, r, order, m, utf8_count(more), x, row, &tx, &trow)) {
        m--;
        snprintf(more, sizeof more, " +%d ", n - m);
    }
    if (m == 0 && more[0] && !legend_fit(cv, r, order, 0, utf8_count(more), x, row, &tx, &trow))
        return;
    for (int i = 0; i < m; i++) {
        char text[48];
        int len = entry_text(order[i], text, sizeof text);
        canvas_text(cv, x[i], row[i], len, ST_AXIS, text);
        canvas_put(cv, x[i] + 1, row[i], (uint32_t)view_stack_mark(order[i]), cat_style(order[i]));
    }
    if (more[0]) canvas_text(cv, tx, trow, utf8_count(more), ST_AXIS, more);
}
