/* svg_plan.c: a plan as a standalone SVG (svg.h): fixed pixel layout, axes in
 * human units, the memory curve and the high-water mark folded to one value
 * per pixel column, buffers past SVG_MAX_RECTS counted in a note. Exports
 * svg_write_plan. */
#include "svg.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "svg_internal.h"
#include "util/optimal.h"
#include "util/units.h"

/* Layout, in pixels: the curve panel [CT, CT+CH) above the chart [AT, AT+AH),
 * both over the same step axis from ML to W-MR. */
enum {
    W = SVG_PLAN_W,
    ML = 96,
    MR = 28,
    PW = W - ML - MR,
    CT = 84,
    CH = 150,
    AT = 278,
    AH = 390,
    AB = AT + AH
};

/* Tableau's 10 plus two: distinct on white, in print and for most colour-blind readers. */
static const char *const palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#76b7b2",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
                                      "#e15759", "#8cd17d", "#86bcb6", "#d4a6c8"};
#define NPALETTE (sizeof palette / sizeof palette[0])
/* A white outline under a label, so that it reads over the rectangles. */
#define HALO \
    " stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\""

/* A step axis: 1, 2 or 5 times a power of ten, about 8 ticks. */
static uint64_t step_tick(uint32_t n)
{
    double raw = n > 8 ? n / 8.0 : 1, mag = pow(10, floor(log10(raw))), fr = raw / mag;
    double t = (fr <= 1 ? 1 : fr <= 2 ? 2 : fr <= 5 ? 5 : 10) * mag;
    return t < 1 ? 1 : (uint64_t)t;
}

typedef struct axis {
    double max;        /* bytes at the top of the panel */
    double step, unit; /* tick step and unit, in bytes */
    const char *unit_name;
} axis;

/* An axis from 0 to max * headroom, ticks at human steps below it. */
static axis byte_axis(int64_t max, double headroom)
{
    axis a;
    double m = (max > 0 ? (double)max : 1) * headroom;
    a.step = svg_byte_step(m, &a.unit, &a.unit_name);
    a.max = m; /* the top is not a tick: no band of empty space above the data */
    return a;
}

static void tick_label(char *out, size_t cap, const axis *a, int i)
{
    snprintf(out, cap, "%.4g %s", i * a->step / a->unit, i ? a->unit_name : "B");
}

/* Gridlines and labels of a byte axis over the panel [top, top+h). */
static void draw_byte_axis(FILE *f, const axis *a, int top, int h, const char *title)
{
    char lab[48];
    fprintf(f, "<g font-size=\"11\" fill=\"#555555\" text-anchor=\"end\">\n");
    for (int i = 0; i * a->step <= a->max * (1 + 1e-9); i++) {
        double y = top + h - i * a->step / a->max * h;
        tick_label(lab, sizeof lab, a, i);
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e6e6e6\"/>", ML, y,
                W - MR, y);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\">%s</text>\n", ML - 7, y + 4, lab);
    }
    fprintf(
        f,
        "</g>\n<text transform=\"translate(18,%d) rotate(-90)\" font-size=\"12\" fill=\"#333333\" "
        "text-anchor=\"middle\">%s</text>\n",
        top + h / 2, title);
}

static double xs(uint64_t s, uint32_t n) { return ML + (double)s * PW / (n ? n : 1); }

/* Folds per-step values to one per pixel column: out[c] is the largest value
 * of the steps in column c; returns the number of columns. */
static uint32_t columns(const int64_t *v, uint32_t n, int64_t *out, uint32_t *s_end)
{
    uint32_t ncol = n < PW ? n : PW;
    for (uint32_t c = 0; c < ncol; c++) {
        uint32_t s0 = (uint32_t)((uint64_t)c * n / ncol),
                 s1 = (uint32_t)((uint64_t)(c + 1) * n / ncol);
        int64_t m = v[s0];
        for (uint32_t s = s0 + 1; s < s1; s++)
            if (v[s] > m) m = v[s];
        out[c] = m > 0 ? m : 0;
        s_end[c] = s1;
    }
    return ncol;
}

/* The buffers without a rectangle of their own, merged: the chart cut into
 * cells of CELL x CELL pixels, each cell grey by the share of it they cover
 * (three shades), one path per shade with a subpath per run of cells in a row. */
enum { CELL = 3, NCX = PW / CELL, NCY = AH / CELL };

static int draw_merged(FILE *f, const graph *g, const placement *pl, const lifetimes *lt,
                       const uint8_t *drawn, uint32_t n, double amax)
{
    static const char *const shade[] = {"#dddddd", "#bbbbbb", "#999999"};
    float *cov = calloc((size_t)NCX * NCY, sizeof *cov);
    if (!cov) return -1;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        if (drawn[b] || g->buf_size[b] <= 0) continue;
        double x0 = xs(lt->alloc_step[b], n) - ML, x1 = xs(lt->free_step[b], n) - ML;
        double y0 = (double)pl->offset[b] / amax * AH,
               y1 = ((double)pl->offset[b] + (double)g->buf_size[b]) / amax * AH;
        for (int cy = (int)(y0 / CELL); cy < NCY && cy * CELL < y1; cy++) {
            double hy = fmin(y1, (cy + 1) * CELL) - fmax(y0, cy * CELL);
            for (int cx = (int)(x0 / CELL); cx < NCX && cx * CELL < x1; cx++) {
                double wx = fmin(x1, (cx + 1) * CELL) - fmax(x0, cx * CELL);
                if (hy > 0 && wx > 0) cov[cy * NCX + cx] += (float)(hy * wx / (CELL * CELL));
            }
        }
    }
    for (int lev = 1; lev <= 3; lev++) {
        int open = 0;
        for (int cy = 0; cy < NCY; cy++) {
            for (int cx = 0; cx < NCX;) {
                float c = cov[cy * NCX + cx];
                int l = c >= 0.66f ? 3 : c >= 0.33f ? 2 : c >= 0.02f ? 1 : 0;
                if (l != lev) {
                    cx++;
                    continue;
                }
                int end = cx + 1;
                while (end < NCX) {
                    float d = cov[cy * NCX + end];
                    if ((d >= 0.66f ? 3 : d >= 0.33f ? 2 : d >= 0.02f ? 1 : 0) != lev) break;
                    end++;
                }
                if (!open) fprintf(f, "<path class=\"merged\" fill=\"%s\" d=\"", shade[lev - 1]);
                open = 1;
                fprintf(f, "M%d,%dh%dv%dh%dz", ML + cx * CELL, AB - (cy + 1) * CELL,
                        (end - cx) * CELL, CELL, -(end - cx) * CELL);
                cx = end;
            }
        }
        if (open) fprintf(f, "\"/>\n");
    }
    free(cov);
    return 0;
}

typedef struct pick {
    double area;
    uint32_t b;
} pick;

static int by_area_desc(const void *x, const void *y)
{
    const pick *a = x, *b = y;
    if (a->area != b->area) return a->area > b->area ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

/* What svg_write_plan's parts share: the plan, the buffers' lifetimes, the
 * pixel columns' scratch, and which buffers get a rectangle of their own. */
typedef struct plan_draw {
    const graph *g;
    const run *r;
    const placement *pl;
    uint32_t n;
    lifetimes lt;
    int64_t *col;
    uint32_t *col_end;
    pick *picks;
    uint8_t *drawn;
    uint32_t nvis, ndraw;        /* buffers with bytes; those drawn one by one */
    double area_all, area_drawn; /* their bytes x steps */
    int64_t lb, arena;
} plan_draw;

/* Which buffers get a rectangle: all with bytes, or the cap largest. */
static void pick_drawn(plan_draw *d, uint32_t cap)
{
    const graph *g = d->g;
    d->nvis = 0;
    d->area_all = d->area_drawn = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        if (g->buf_size[b] <= 0) continue;
        d->picks[d->nvis].area =
            (double)g->buf_size[b] * (double)(d->lt.free_step[b] - d->lt.alloc_step[b]);
        d->picks[d->nvis++].b = b;
        d->area_all += d->picks[d->nvis - 1].area;
    }
    d->ndraw = d->nvis;
    if (d->nvis > cap) {
        qsort(d->picks, d->nvis, sizeof *d->picks, by_area_desc);
        d->ndraw = cap;
    }
    for (uint32_t i = 0; i < d->ndraw; i++) {
        d->drawn[d->picks[i].b] = 1;
        d->area_drawn += d->picks[i].area;
    }
}

/* The document's head, the title and the figures; h: the picture's height. */
static void write_head(FILE *f, const svg_plan *p, const plan_draw *d, int h)
{
    const graph *g = d->g;
    const placement *pl = d->pl;
    uint32_t n = d->n;
    char a1[32], a2[32], a3[32], pct[64];
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d "
            "%d\" "
            "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
            W, h, W, h);
    fprintf(f, "<title>memtris plan: ");
    svg_escape(f, g->source);
    fprintf(f, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, h);

    /* Title and the figures. */
    fprintf(f, "<text x=\"%d\" y=\"28\" font-size=\"18\" font-weight=\"bold\" fill=\"#222222\">",
            ML);
    svg_escape(f, base_name(g->source));
    fprintf(f, ": policy ");
    svg_escape(f, p->policy);
    if (p->r2) {
        fprintf(f, " vs ");
        svg_escape(f, p->policy2);
    }
    fprintf(f, ", placer ");
    svg_escape(f, pl->placer);
    if (p->has_cursor) fprintf(f, ", at step %u of %u", p->cursor, n);
    fprintf(f,
            "</text>\n<text x=\"%d\" y=\"50\" font-size=\"13\" fill=\"#444444\">arena %s, "
            "peak of live bytes %s, fragmentation %s; %u steps, %u buffers, align %s</text>\n",
            ML, units_bytes(a1, sizeof a1, d->arena, 0), units_bytes(a2, sizeof a2, d->lb, 0),
            optimal_frag(pct, sizeof pct, d->arena, d->lb, OPTIMAL_SHORT), n, g->nbufs,
            units_bytes(a3, sizeof a3, pl->align, 0));
}

/* One run's curve, folded per pixel column: filled (mode 0: the first), dashed (1: compare
 * mode's other) or its outline alone (2: over the bands of a stacked curve). */
static void curve_path(FILE *f, const run *r, plan_draw *d, const axis *ac, int mode)
{
    uint32_t ncol = columns(r->memory, d->n, d->col, d->col_end);
    if (!ncol) return;
    fprintf(f, "<path class=\"%s\" d=\"M%d,%d", mode == 1 ? "curve2" : "curve", ML, CT + CH);
    for (uint32_t c = 0; c < ncol; c++)
        fprintf(f, "V%.1fH%.1f", CT + CH - (double)d->col[c] / ac->max * CH,
                xs(d->col_end[c], d->n));
    if (mode == 1)
        fprintf(f, "\" fill=\"none\" stroke=\"#e15759\" stroke-width=\"1.6\" "
                   "stroke-dasharray=\"5,3\"/>\n");
    else if (mode == 2)
        fprintf(f,
                "V%dZ\" fill=\"none\" stroke=\"#2f5f8f\" stroke-width=\"1.2\" "
                "stroke-linejoin=\"round\"/>\n",
                CT + CH);
    else
        fprintf(f,
                "V%dZ\" fill=\"#4e79a7\" fill-opacity=\"0.25\" stroke=\"#2f5f8f\" "
                "stroke-width=\"1.2\" stroke-linejoin=\"round\"/>\n",
                CT + CH);
}

/* A run's peak: a dot and its label (named by policy in compare mode). */
static void peak_mark(FILE *f, svg_labels *L, const run *r, uint32_t n, const axis *ac,
                      const char *name, const char *col)
{
    if (!r->peak_step) return;
    char a1[32], t[128];
    uint32_t ps = r->peak_step - 1;
    double px = (xs(ps, n) + xs(ps + 1, n)) / 2, py = CT + CH - (double)r->peak / ac->max * CH;
    int right = px > ML + PW * 0.7;
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", px, py, col);
    snprintf(t, sizeof t, "%s%speak %s at step %u", name ? name : "", name ? " " : "",
             units_bytes(a1, sizeof a1, r->peak, 0), r->peak_step);
    svg_label(f, L, px, 8, py - 4, right, 9, col, "label", t, CT - 24, CT + CH);
}

/* The lines through the picture (the peak's and the cursor's down both panels, the
 * backward's down the curve's): where they are, for the labels to keep off. */
static void vertical_lines(const svg_plan *p, const plan_draw *d, svg_labels *L)
{
    uint32_t n = d->n;
    if (d->r->peak_step) {
        uint32_t ps = d->r->peak_step - 1;
        svg_labels_line(L, 1, (xs(ps, n) + xs(ps + 1, n)) / 2, CT, AB);
    }
    if (p->has_cursor && p->cursor <= n) svg_labels_line(L, 1, xs(p->cursor, n), CT, AB);
    if (p->backward && p->backward <= n) svg_labels_line(L, 1, xs(p->backward - 1, n), CT, CT + CH);
}

/* A line across the curve at bytes v (class cls, colour col, dashes dash), labelled
 * "word X" above its right end, else its left end. */
static void across(FILE *f, svg_labels *L, const svg_strip *st, int64_t v, const char *cls,
                   const char *col, const char *dash, const char *word)
{
    char a1[32], t[96], lc[48];
    double y = svg_strip_y(st, (double)v);
    fprintf(f,
            "<line class=\"%s\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
            "stroke-width=\"1.6\" stroke-dasharray=\"%s\"/>\n",
            cls, ML, y, W - MR, y, col, dash);
    snprintf(t, sizeof t, "%s %s", word, units_bytes(a1, sizeof a1, v, 0));
    snprintf(lc, sizeof lc, "label %s-label", cls);
    if (svg_label(f, L, W - MR, 4, y - 4, 1, 2, col, lc, t, CT - 24, CT + CH) ||
        svg_label(f, L, ML, 4, y - 4, 0, 2, col, lc, t, CT - 24, CT + CH))
        return;
    for (int i = 1; i < 8; i++) /* along the line, where no other line crosses the label */
        if (svg_label(f, L, ML + (W - MR - ML) * i / 8, 0, y - 4, 0, 4, col, lc, t, CT - 24,
                      CT + CH))
            return;
}

/* The memory curve: live bytes after each step, folded per pixel column (stacked by Category
 * with p->stacked), its peak, the TUI's cursor; in compare mode the other policy's dashed, a
 * legend naming both; the measured peak, the budget and the backward's first step as lines.
 * Labels go where no line crosses them. 0, or -1 out of memory. */
static int write_curve(FILE *f, const svg_plan *p, plan_draw *d, svg_labels *L)
{
    const run *r = d->r, *r2 = p->r2;
    uint32_t n = d->n;
    char a1[32], t[160];
    int64_t top = r2 && r2->peak > d->lb ? r2->peak : d->lb;
    if (p->measured > top) top = p->measured;
    if (p->budget > top) top = p->budget;
    axis ac = byte_axis(top, 1.15);
    svg_strip st = {ML, PW, CT, CH, n, ac.max};
    svg_labels_curve(L, &st, r);
    if (r2) svg_labels_curve(L, &st, r2);
    vertical_lines(p, d, L);
    if (p->measured > 0) svg_labels_line(L, 0, svg_strip_y(&st, (double)p->measured), ML, W - MR);
    if (p->budget > 0) svg_labels_line(L, 0, svg_strip_y(&st, (double)p->budget), ML, W - MR);
    const char *head =
        p->stacked ? "live memory after each step, by category" : "live memory after each step";
    fprintf(f,
            "<text x=\"%d\" y=\"%d\" font-size=\"12\" font-weight=\"bold\" "
            "fill=\"#333333\">%s</text>\n",
            ML, CT - 10, head);
    L->box[L->n][0] = ML; /* the labels may go over the panel, beside its head */
    L->box[L->n][1] = CT - 24;
    L->box[L->n][2] = ML + 7.5 * (double)strlen(head);
    L->box[L->n++][3] = CT - 4;
    draw_byte_axis(f, &ac, CT, CH, "live bytes");
    if (p->stacked) {
        if (svg_stack(f, &st, d->g, r)) return -1;
        curve_path(f, r, d, &ac, 2);
        svg_stack_legend(f, d->g, r, ML, CT + CH + 17);
    } else curve_path(f, r, d, &ac, 0);
    if (r2) { /* the legend, right-aligned over the panel: "— priority  - - fifo" */
        int x = W - MR - 7 * (int)(strlen(p->policy) + strlen(p->policy2)) - 90;
        fprintf(f,
                "<g class=\"legend\" font-size=\"12\" fill=\"#333333\"><line x1=\"%d\" y1=\"%d\" "
                "x2=\"%d\" y2=\"%d\" stroke=\"#2f5f8f\" stroke-width=\"3\"/><text x=\"%d\" "
                "y=\"%d\">",
                x, CT - 14, x + 22, CT - 14, x + 27, CT - 10);
        svg_escape(f, p->policy);
        x += 27 + 7 * (int)strlen(p->policy) + 12;
        fprintf(f,
                "</text><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#e15759\" "
                "stroke-width=\"1.6\" stroke-dasharray=\"5,3\"/><text x=\"%d\" y=\"%d\">",
                x, CT - 14, x + 22, CT - 14, x + 27, CT - 10);
        svg_escape(f, p->policy2);
        fprintf(f, "</text></g>\n");
        L->box[L->n][0] = ML + 180; /* the title and legend's row */
        L->box[L->n][1] = CT - 24;
        L->box[L->n][2] = W - MR;
        L->box[L->n++][3] = CT - 4;
        curve_path(f, r2, d, &ac, 1);
    }
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888888\"/>\n", ML, CT + CH,
            W - MR, CT + CH);
    if (r->peak_step) {
        uint32_t ps = r->peak_step - 1;
        double px = (xs(ps, n) + xs(ps + 1, n)) / 2;
        fprintf(f,
                "<line class=\"peak\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                "stroke=\"#b2182b\" stroke-width=\"0.8\" stroke-dasharray=\"3,3\"/>\n",
                px, CT, px, AB);
    }
    double bx = p->backward && p->backward <= n ? xs(p->backward - 1, n) : -1;
    if (bx >= 0)
        fprintf(f,
                "<line class=\"backward\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                "stroke=\"#666666\" stroke-width=\"1\" stroke-dasharray=\"1,3\"/>\n",
                bx, CT, bx, CT + CH);
    if (p->has_cursor && p->cursor <= n)
        fprintf(f,
                "<line class=\"cursor\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                "stroke=\"#1a9850\" stroke-width=\"1.4\"/>\n",
                xs(p->cursor, n), CT, xs(p->cursor, n), AB);
    peak_mark(f, L, r, n, &ac, r2 ? p->policy : NULL, "#b2182b");
    if (r2) peak_mark(f, L, r2, n, &ac, p->policy2, "#e15759");
    if (p->has_cursor && p->cursor <= n) {
        /* The TUI's cursor: step k's state ends at x(k); its live bytes. */
        uint32_t k = p->cursor;
        double x = xs(k, n);
        int64_t live = k ? r->memory[k - 1] : 0;
        snprintf(t, sizeof t, "step %u: %s live", k,
                 units_bytes(a1, sizeof a1, live > 0 ? live : 0, 0));
        if (r2 && r2->n == n) { /* both sides' live bytes, named */
            char a2[32];
            int64_t l2 = k ? r2->memory[k - 1] : 0;
            snprintf(t, sizeof t, "step %u: %s %s, %s %s live", k, p->policy, a1, p->policy2,
                     units_bytes(a2, sizeof a2, l2 > 0 ? l2 : 0, 0));
        }
        svg_label(f, L, x, 6, CT + 12, x > ML + PW * 0.7, 9, "#1a9850", "label", t, CT - 24,
                  CT + CH);
    }
    if (p->measured > 0) across(f, L, &st, p->measured, "measured", "#8c2d04", "8,3", "measured");
    if (p->budget > 0) across(f, L, &st, p->budget, "budget", "#e08214", "4,3", "budget");
    if (bx >= 0)
        svg_label(f, L, bx, 4, CT + 12, 0, 9, "#555555", "label backward-label", "\u25b8backward",
                  CT - 24, CT + CH);
    return 0;
}

/* The lifetime x address chart's rectangles, one per buffer drawn. */
static void write_buffers(FILE *f, const plan_draw *d, const axis *aa)
{
    const graph *g = d->g;
    const placement *pl = d->pl;
    uint32_t n = d->n;
    char a1[32], a2[32];
    fprintf(f, "<g>\n");
    for (uint32_t b = 0; b < g->nbufs; b++) {
        if (!d->drawn[b]) continue;
        int64_t off = pl->offset[b], size = g->buf_size[b];
        double x0 = xs(d->lt.alloc_step[b], n), x1 = xs(d->lt.free_step[b], n);
        double y1 = AB - (double)off / aa->max * AH,
               y0 = AB - ((double)off + (double)size) / aa->max * AH;
        double w = x1 - x0 < 0.6 ? 0.6 : x1 - x0, hh = y1 - y0 < 0.6 ? 0.6 : y1 - y0;
        const char *color = palette[b % NPALETTE];
        /* A thin white edge parts neighbours of one colour; it would wash out small rectangles. */
        fprintf(f,
                "<rect class=\"buf\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                "fill=\"%s\"%s>"
                "<title>buffer %lld",
                x0, y1 - hh, w, hh, color,
                w >= 4 && hh >= 4 ? " stroke=\"#ffffff\" stroke-width=\"0.4\"" : "",
                (long long)g->buf_id[b]);
        uint32_t u = g->buf_alloc[b];
        if (g->name[u]) {
            fputc(' ', f);
            svg_escape(f, graph_name(g, u));
        }
        fprintf(f, ": %s at offset %s, allocated at step %u, ", units_bytes(a1, sizeof a1, size, 0),
                units_bytes(a2, sizeof a2, off, 0), d->lt.alloc_step[b] + 1);
        if (g->buf_free[b] == GRAPH_NONE) fprintf(f, "never freed</title></rect>\n");
        else fprintf(f, "freed at step %u</title></rect>\n", d->lt.free_step[b] + 1);
        /* Bytes a placer holds beyond the buffer (a pool's size class, a color's block). */
        int64_t held = pl->block ? pl->block[b] : 0;
        if (held > size) {
            double yt = AB - ((double)off + (double)held) / aa->max * AH;
            if (y0 - yt >= 0.3)
                fprintf(f,
                        "<rect class=\"pad\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                        "fill=\"%s\" "
                        "fill-opacity=\"0.3\"/>\n",
                        x0, yt, w, y0 - yt, color);
        }
    }
    fprintf(f, "</g>\n");
}

/* The arena's high-water mark over the steps, and the lower bound, each labelled where no
 * line crosses it (L: the lines down the chart). */
static void write_hwm(FILE *f, plan_draw *d, const axis *aa, svg_labels *L)
{
    const placement *pl = d->pl;
    uint32_t n = d->n;
    char a1[32], t[96];
    uint32_t ncol = columns(pl->hwm, n, d->col, d->col_end);
    if (ncol) {
        fprintf(f, "<path d=\"M%d,%.1f", ML, AB - (double)d->col[0] / aa->max * AH);
        for (uint32_t c = 0; c < ncol; c++)
            fprintf(f, "V%.1fH%.1f", AB - (double)d->col[c] / aa->max * AH, xs(d->col_end[c], n));
        fprintf(f, "\" fill=\"none\" stroke=\"#222222\" stroke-width=\"1.6\"/>\n");
    }
    double ya = AB - (double)d->arena / aa->max * AH, yl = AB - (double)d->lb / aa->max * AH;
    fprintf(
        f,
        "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#b2182b\" stroke-width=\"1\" "
        "stroke-dasharray=\"6,4\"/>\n",
        ML, yl, W - MR, yl);
    svg_labels_line(L, 0, yl, ML, W - MR);
    snprintf(t, sizeof t, "arena %s (high-water mark)", units_bytes(a1, sizeof a1, d->arena, 0));
    if (!svg_label(f, L, W - MR, 4, ya - 5, 1, 1, "#222222", "label", t, AT - 24, AB))
        svg_label(f, L, ML, 4, ya - 5, 0, 1, "#222222", "label", t, AT - 24, AB);
    snprintf(t, sizeof t, "lower bound %s", units_bytes(a1, sizeof a1, d->lb, 0));
    if (!svg_label(f, L, ML, 4, yl - 5, 0, 2, "#b2182b", "label", t, AT - 24, AB))
        svg_label(f, L, W - MR, 4, yl - 5, 1, 2, "#b2182b", "label", t, AT - 24, AB);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888888\"/>\n", ML, AB,
            W - MR, AB);
}

/* The step axis under the chart (tick marks under the curve too). */
static void write_step_axis(FILE *f, uint32_t n)
{
    uint64_t t = step_tick(n);
    fprintf(f, "<g font-size=\"11\" fill=\"#555555\" text-anchor=\"middle\" stroke-width=\"1\">\n");
    for (uint64_t s = 0; s <= n; s += t) {
        double x = xs(s, n);
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888888\"/>"
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888888\"/>"
                "<text x=\"%.1f\" y=\"%d\">%llu</text>\n",
                x, CT + CH, x, CT + CH + 4, x, AB, x, AB + 4, x, AB + 17, (unsigned long long)s);
    }
    fprintf(f,
            "</g>\n<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"#333333\" "
            "text-anchor=\"middle\">step "
            "(position in the schedule; step k's state is drawn from k-1 to k)</text>\n",
            ML + PW / 2, AB + 36);
}

/* Legend, and the note on buffers left out. */
static void write_legend(FILE *f, const plan_draw *d)
{
    const placement *pl = d->pl;
    int ly = AB + 60;
    fprintf(
        f,
        "<g font-size=\"11\" fill=\"#333333\">\n"
        "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"%s\"/>"
        "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"%s\"/>"
        "<text x=\"%d\" y=\"%d\">a buffer, from its ALLOC to its FREE</text>\n"
        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#222222\" stroke-width=\"1.6\"/>"
        "<text x=\"%d\" y=\"%d\">arena high-water mark</text>\n"
        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#b2182b\" "
        "stroke-dasharray=\"6,4\"/>"
        "<text x=\"%d\" y=\"%d\">lower bound (peak live bytes)</text>\n",
        ML, ly - 9, palette[0], ML + 16, ly - 9, palette[1], ML + 36, ly, ML + 290, ly - 4,
        ML + 314, ly - 4, ML + 320, ly, ML + 480, ly - 4, ML + 504, ly - 4, ML + 510, ly);
    if (pl->block)
        fprintf(
            f,
            "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"%s\" fill-opacity=\"0.3\"/>"
            "<text x=\"%d\" y=\"%d\">held, unused</text>\n",
            ML + 700, ly - 9, palette[0], ML + 718, ly);
    fprintf(f, "</g>\n");
    if (d->ndraw < d->nvis)
        fprintf(f,
                "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555555\"><tspan fill=\"#999999\">"
                "&#9632;</tspan> %u smaller buffers (%.1f%% of the area) merged into grey "
                "%dx%d-pixel cells, darker where "
                "they fill more;</text>\n<text x=\"%d\" y=\"%d\" font-size=\"11\" "
                "fill=\"#555555\">the %u "
                "largest of the %u buffers (by bytes x steps) are d->drawn one by one</text>\n",
                ML, ly + 18, d->nvis - d->ndraw,
                d->area_all > 0 ? 100 * (d->area_all - d->area_drawn) / d->area_all : 0.0, CELL,
                CELL, ML + 12, ly + 33, d->ndraw, d->nvis);
}

static void plan_draw_free(plan_draw *d)
{
    free(d->col);
    free(d->col_end);
    free(d->picks);
    free(d->drawn);
    place_lifetimes_free(&d->lt);
}

int svg_write_plan(FILE *f, const svg_plan *p, char *err, size_t errcap)
{
    const graph *g = p->g;
    uint32_t n = p->r->n;
    plan_draw d = {.g = g, .r = p->r, .pl = p->pl, .n = n};
    d.col = malloc(((size_t)(n < PW ? n : PW) + 1) * sizeof *d.col);
    d.col_end = malloc(((size_t)(n < PW ? n : PW) + 1) * sizeof *d.col_end);
    d.picks = malloc(((size_t)g->nbufs + 1) * sizeof *d.picks);
    d.drawn = calloc((size_t)g->nbufs + 1, 1);
    if (!d.col || !d.col_end || !d.picks || !d.drawn || place_lifetimes(g, d.r, &d.lt)) {
        plan_draw_free(&d);
        snprintf(err, errcap, "out of memory drawing %u buffers", g->nbufs);
        return -1;
    }
    pick_drawn(&d, p->max_rects ? p->max_rects : SVG_MAX_RECTS);
    d.lb = d.r->peak;
    d.arena = d.pl->arena;
    int foot = AB + 76 + (d.ndraw < d.nvis ? 32 : 0);
    write_head(f, p, &d, foot + (p->nnotes ? 8 + 16 * (int)p->nnotes : 0));
    svg_labels L, LC; /* the curve's labels, the chart's */
    if (svg_labels_init(&L, ML, PW) || svg_labels_init(&LC, 0, 0) || write_curve(f, p, &d, &L)) {
        svg_labels_free(&L);
        snprintf(err, errcap, "out of memory drawing %u buffers", g->nbufs);
        plan_draw_free(&d);
        return -1;
    }
    vertical_lines(p, &d, &LC);

    /* The lifetime x address chart. */
    axis aa = byte_axis(d.arena, 1.08);
    fprintf(f,
            "<text x=\"%d\" y=\"%d\" font-size=\"12\" font-weight=\"bold\" fill=\"#333333\">where "
            "each buffer "
            "lives: address over its lifetime, one rectangle per buffer</text>\n",
            ML, AT - 10);
    draw_byte_axis(f, &aa, AT, AH, "address in the arena");
    if (d.ndraw < d.nvis && draw_merged(f, g, d.pl, &d.lt, d.drawn, n, aa.max)) {
        snprintf(err, errcap, "out of memory drawing %u buffers", g->nbufs);
        svg_labels_free(&L);
        plan_draw_free(&d);
        return -1;
    }
    write_buffers(f, &d, &aa);
    write_hwm(f, &d, &aa, &LC);
    write_step_axis(f, n);
    write_legend(f, &d);
    for (uint32_t i = 0; i < p->nnotes; i++) { /* the TUI's why list */
        fprintf(f, "<text class=\"note\" x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"#333333\">", ML,
                foot + 4 + 16 * (int)i);
        svg_escape(f, p->notes[i]);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "</svg>\n");
    svg_labels_free(&L);
    plan_draw_free(&d);
    return 0;
}
