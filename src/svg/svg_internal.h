/* svg_internal.h: the frame of a chart of bytes across and ms up, which compare --pareto's
 * (svg_pareto.c) and budget --sweep's (svg_sweep.c) charts are drawn in, and the steps of
 * an ms axis (svg.c); a plan's labels kept off one another and off its lines (svg_label.c) and
 * its curve stacked by Category (svg_train.c). Included by svg's files only. */
#ifndef MEMTRIS_SVG_INTERNAL_H
#define MEMTRIS_SVG_INTERNAL_H
#include <stdint.h>
#include <stdio.h>
#include "sched/graph/graph.h"
#include "sched/policy/policy.h"

/* A chart's plot: [l, l + pw) x [t, t + ph) in pixels, with 0 bytes at its left and 0 ms at
 * its bottom, xtop bytes at its right and ytop ms at its top. */
typedef struct svg_frame {
    int l, t, pw, ph;
    double xtop, ytop;
} svg_frame;

/* An ms axis's step for the range 0..max: 1, 2, 2.5 or 5 times a power of ten, about five
 * steps to max. */
double svg_ms_step(double max);

/* The x of a number of bytes, the y of a number of ms. */
double svg_fx(const svg_frame *fr, double bytes);
double svg_fy(const svg_frame *fr, double ms);

/* The document's head (w x h pixels, white) and its title "title: source" at x. */
void svg_chart_head(FILE *f, int w, int h, int x, const char *title, const char *source);
/* Gridlines across the plot, labelled under it, at every step bytes (in unit, named
 * unit_name) from 0 to xtop. */
void svg_chart_bytes(FILE *f, const svg_frame *fr, double step, double unit, const char *unit_name);
/* Gridlines up the plot, labelled left of it, at every step ms from 0 to ytop. */
void svg_chart_ms(FILE *f, const svg_frame *fr, double step);
/* The axes' titles: across under the plot, up along its left. */
void svg_chart_titles(FILE *f, const svg_frame *fr, const char *across, const char *up);

/* A plan's picture's width in pixels. */
#define SVG_PLAN_W 960

/* A plan's curve panel: steps 0..n across [l, l + w), bytes 0..ymax up from t + h to t. */
typedef struct svg_strip {
    int l, w, t, h;
    uint32_t n;
    double ymax;
} svg_strip;
double svg_strip_x(const svg_strip *s, uint64_t step);
double svg_strip_y(const svg_strip *s, double bytes);

/* The labels placed on a plan's picture, and what none may touch: another label's box, a
 * vertical line (at x, from y vt to vb), a horizontal one (at y, from x hl to hr), a curve's
 * outline (its lowest and highest y at each pixel column from ml). */
enum { SVG_MAX_LABELS = 16, SVG_MAX_LINES = 8 };
typedef struct svg_labels {
    double box[SVG_MAX_LABELS][4]; /* x0, y0, x1, y1 */
    int n;
    double vline[SVG_MAX_LINES][3]; /* x, vt, vb */
    int nv;
    double hline[SVG_MAX_LINES][3]; /* y, hl, hr */
    int nh;
    double *lo, *hi; /* [w] the outline's y range at each pixel column (lo > hi: none) */
    int ml, w;
} svg_labels;
/* L with no labels and no lines; an outline of w pixel columns from x ml (0: none). 0, or -1 out
 * of memory. */
int svg_labels_init(svg_labels *L, int ml, int w);
void svg_labels_free(svg_labels *L);
/* A line for the labels to keep off: vertical at x = at from y from to y to, or horizontal at
 * y = at from x from to x to. */
void svg_labels_line(svg_labels *L, int vertical, double at, double from, double to);
/* Adds r's curve over s to the outline: each pixel column's step from one value to the next. */
void svg_labels_curve(svg_labels *L, const svg_strip *s, const run *r);
/* Writes text of class cls in colour col beside (ax, y): starting at ax + gap, or ending at
 * ax - gap (end: that side first), at the first of y, y + 16, y - 16, y + 32 ... (tries rows
 * in all, kept in [lo, hi]) where its box (12-pixel text, 7 pixels a character at most,
 * written in data-box) meets no label, no line and no outline; none: it is left out (0). */
int svg_label(FILE *f, svg_labels *L, double ax, double gap, double y, int end, int tries,
              const char *col, const char *cls, const char *text, double lo, double hi);

/* The curve of run r of g stacked by Category over s: at each pixel column the live bytes of
 * its highest step by Category, weights at the bottom, one path a category (class "cat
 * cat-WORD") in its colour; 0, or -1 out of memory. The legend: the categories g has, biggest
 * at r's peak first, a swatch and the word each (class "legend-cat"), from x at y. */
int svg_stack(FILE *f, const svg_strip *s, const graph *g, const run *r);
void svg_stack_legend(FILE *f, const graph *g, const run *r, int x, int y);

#endif
