/* svg_internal.h: the frame of a chart of bytes across and ms up, which compare --pareto's
 * (svg_pareto.c) and budget --sweep's (svg_sweep.c) charts are drawn in, and the steps of
 * an ms axis (svg.c). Included by svg's files only. */
#ifndef MEMTRIS_SVG_INTERNAL_H
#define MEMTRIS_SVG_INTERNAL_H
#include <stdio.h>

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

#endif
