/* svg_label.c: a plan's labels (svg_plan.c), each where no other label, no line and no
 * curve's outline crosses it: the labels move, the lines stay whole. Exports svg_labels_* and
 * svg_label, and the curve panel's svg_strip_x and svg_strip_y. */
#include <math.h>
#include <stdlib.h>
#include "svg.h"
#include "svg_internal.h"
#include "util/utf8.h"

/* A white outline under a label, so that it reads over the rectangles. */
#define HALO \
    " stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\""

double svg_strip_x(const svg_strip *s, uint64_t step)
{
    return s->l + (double)step * s->w / (s->n ? s->n : 1);
}

double svg_strip_y(const svg_strip *s, double bytes)
{
    return s->t + s->h - bytes / s->ymax * s->h;
}

int svg_labels_init(svg_labels *L, int ml, int w)
{
    *L = (svg_labels){.ml = ml, .w = w};
    if (w <= 0) return 0;
    L->lo = malloc((size_t)w * sizeof *L->lo);
    L->hi = malloc((size_t)w * sizeof *L->hi);
    if (!L->lo || !L->hi) {
        svg_labels_free(L);
        return -1;
    }
    for (int i = 0; i < w; i++) {
        L->lo[i] = HUGE_VAL;
        L->hi[i] = -HUGE_VAL;
    }
    return 0;
}

void svg_labels_free(svg_labels *L)
{
    free(L->lo);
    free(L->hi);
    L->lo = L->hi = NULL;
    L->w = 0;
}

void svg_labels_line(svg_labels *L, int vertical, double at, double from, double to)
{
    int *n = vertical ? &L->nv : &L->nh;
    if (*n == SVG_MAX_LINES) return;
    double *l = vertical ? L->vline[(*n)++] : L->hline[(*n)++];
    l[0] = at;
    l[1] = from;
    l[2] = to;
}

/* The outline passes through y0..y1 over pixel columns x0..x1 (drawing's x). */
static void outline(svg_labels *L, double x0, double x1, double y0, double y1)
{
    int a = (int)floor(x0) - L->ml, b = (int)ceil(x1) - L->ml;
    if (a < 0) a = 0;
    if (b > L->w) b = L->w;
    if (b <= a) b = a + 1;
    for (int i = a; i < b && i < L->w; i++) {
        if (y0 < L->lo[i]) L->lo[i] = y0;
        if (y1 > L->hi[i]) L->hi[i] = y1;
    }
}

void svg_labels_curve(svg_labels *L, const svg_strip *s, const run *r)
{
    if (!L->lo || !r->n) return;
    uint32_t n = r->n, ncol = n < (uint32_t)s->w ? n : (uint32_t)s->w;
    double prev = svg_strip_y(s, 0);
    for (uint32_t c = 0; c < ncol; c++) { /* as svg_plan.c folds it: the most of each column */
        uint32_t s0 = (uint32_t)((uint64_t)c * n / ncol),
                 s1 = (uint32_t)((uint64_t)(c + 1) * n / ncol);
        int64_t m = r->memory[s0];
        for (uint32_t t = s0 + 1; t < s1; t++)
            if (r->memory[t] > m) m = r->memory[t];
        double y = svg_strip_y(s, (double)(m > 0 ? m : 0)), xa = svg_strip_x(s, s0),
               xb = svg_strip_x(s, s1);
        outline(L, xa, xa, fmin(prev, y), fmax(prev, y)); /* the riser */
        outline(L, xa, xb, y, y);
        prev = y;
    }
}

/* Whether box b (x0, y0, x1, y1) is clear of the labels, the lines and the outline. */
static int clear(const svg_labels *L, const double b[4])
{
    for (int j = 0; j < L->n; j++)
        if (!(b[2] <= L->box[j][0] || b[0] >= L->box[j][2] || b[3] <= L->box[j][1] ||
              b[1] >= L->box[j][3]))
            return 0;
    for (int j = 0; j < L->nv; j++) {
        const double *v = L->vline[j];
        if (v[0] > b[0] - 1 && v[0] < b[2] + 1 && v[2] > b[1] && v[1] < b[3]) return 0;
    }
    for (int j = 0; j < L->nh; j++) {
        const double *h = L->hline[j];
        if (h[0] > b[1] - 1 && h[0] < b[3] + 1 && h[2] > b[0] && h[1] < b[2]) return 0;
    }
    if (L->lo) {
        int a = (int)floor(b[0]) - L->ml, e = (int)ceil(b[2]) - L->ml; /* its pixel columns */
        for (int i = a < 0 ? 0 : a; i < e && i < L->w; i++)
            if (L->lo[i] <= b[3] + 1 && L->hi[i] >= b[1] - 1) return 0;
    }
    return 1;
}

int svg_label(FILE *f, svg_labels *L, double ax, double gap, double y, int end, int tries,
              const char *col, const char *cls, const char *text, double lo, double hi)
{
    if (L->n == SVG_MAX_LABELS) return 0;
    double w = 7.0 * (double)utf8_count(text);
    for (int side = 0; side < 2; side++) {
        int e = side ? !end : end;
        double x0 = e ? ax - gap - w : ax + gap;
        if (x0 < 2 || x0 + w > SVG_PLAN_W - 2) continue;
        for (int i = 0; i < tries; i++) {
            double yy = y + (i + 1) / 2 * 16 * (i % 2 ? 1 : -1);
            double b[4] = {x0, yy - 11, x0 + w, yy + 3};
            if (b[1] < lo || b[3] > hi || !clear(L, b)) continue;
            fprintf(f,
                    "<text class=\"%s\" data-box=\"%.1f %.1f %.1f %.1f\" x=\"%.1f\" y=\"%.1f\" "
                    "font-size=\"12\" fill=\"%s\"" HALO ">",
                    cls, b[0], b[1], b[2], b[3], x0, yy, col);
            svg_escape(f, text);
            fprintf(f, "</text>\n");
            for (int k = 0; k < 4; k++) L->box[L->n][k] = b[k];
            L->n++;
            return 1;
        }
    }
    return 0;
}
