/* svg_sweep.c: budget --sweep's trade-off of memory against time as an SVG (svg.h): the extra
 * time of the plans found at each budget, from the lower bound to the budget-free peak (bytes
 * below, percentages of that peak above), one curve per series (recompute only, with offload),
 * a cross where no plan was found, each series' bound as a dashed line, Chen's sqrt(n)
 * checkpointing and what checkpointing is said to give as two labelled marks, and a legend.
 * Exports svg_write_sweep. */
#include "svg.h"
#include <math.h>
#include "svg_internal.h"
#include "util/units.h"

enum { PW_ = 640, PH_ = 400, L_ = 96, R_ = 320, T_ = 96, B_ = 64 }; /* T_: room for a warning */

/* The grid: bytes below, percentages of the budget-free peak above, ms on the left. */
static void axes(FILE *f, const svg_sweep *s, const svg_frame *fr, double xstep, double unit,
                 const char *uname, double ystep)
{
    svg_chart_bytes(f, fr, xstep, unit, uname);
    for (int p = 0; p <= 100; p += 25)
        fprintf(f,
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%d%%</text>\n",
                svg_fx(fr, (double)s->free_peak * p / 100), T_ - 8, p);
    svg_chart_ms(f, fr, ystep);
    svg_chart_titles(f, fr, "memory budget (above: % of the budget-free peak)", "extra time");
}

/* The colours of the two series. */
static const char *const colour[2] = {"#4e79a7", "#f28e2b"};

/* Series i's curve through the budgets with a plan, each a dot; a cross where none (the
 * second series' a row above the first's). The second is drawn first and wider, so that the
 * first shows inside it where the two meet. */
static void curve(FILE *f, const svg_sweep *s, const svg_frame *fr, int i)
{
    const svg_sweep_point *pt = i ? s->pt2 : s->pt;
    const char *sfx = i ? "-offload" : "";
    fprintf(f,
            "<polyline class=\"curve%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%d\" "
            "points=\"",
            sfx, colour[i], i ? 5 : 2);
    for (uint32_t k = 0; k < s->n; k++)
        if (pt[k].feasible)
            fprintf(f, "%.1f,%.1f ", svg_fx(fr, (double)pt[k].budget), svg_fy(fr, pt[k].extra_ms));
    fprintf(f, "\"/>\n");
    for (uint32_t k = 0; k < s->n; k++) {
        double x = svg_fx(fr, (double)pt[k].budget);
        if (pt[k].feasible)
            fprintf(f,
                    "<circle class=\"point%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" "
                    "fill=\"%s\"/>\n",
                    sfx, x, svg_fy(fr, pt[k].extra_ms), i ? "5" : "3.5", colour[i]);
        else
            fprintf(f,
                    "<path class=\"none%s\" d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"%s\" "
                    "stroke-width=\"2\"/>\n",
                    sfx, x - 4, svg_fy(fr, 0) - 4 - 12 * i, i ? colour[i] : "#e15759");
    }
}

/* Series i's bound: a dashed line up the plot, labelled along it where it is clear of the
 * other's and of the left edge. */
static void bound(FILE *f, const svg_sweep *s, const svg_frame *fr, int i)
{
    int64_t b = i ? s->bound2 : s->bound, other = i ? s->bound : s->bound2;
    if (b <= 0) return;
    double x = svg_fx(fr, (double)b);
    fprintf(f,
            "<line class=\"bound%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
            "stroke=\"%s\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n",
            i ? "-offload" : "", x, T_, x, T_ + PH_, colour[i]);
    /* room: clear of the left edge, and of the first series' label */
    if (x - L_ < 16 || (i && fabs(svg_fx(fr, (double)other) - x) < 16)) return;
    fprintf(f,
            "<text class=\"mark\" x=\"%.1f\" y=\"%d\" fill=\"%s\" "
            "transform=\"rotate(-90 %.1f %d)\">",
            x - 4, T_ + PH_ - 24, colour[i], x - 4, T_ + PH_ - 24);
    if (s->pt2) {
        svg_escape(f, i ? s->label2 : s->label);
        fprintf(f, ": ");
    }
    fprintf(f, "no plan below</text>\n");
}

/* The two marks, each labelled beside it: Chen's sqrt(n) and the claim (not with a warning:
 * at 0 ms every plan would seem to meet it). */
static void marks(FILE *f, const svg_sweep *s, const svg_frame *fr)
{
    double cx = svg_fx(fr, s->claim_budget), cy = s->warning ? -100 : svg_fy(fr, s->claim_ms);
    if (!s->warning) {
        fprintf(f,
                "<rect class=\"claim\" x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" "
                "fill=\"#59a14f\"/>\n<text class=\"mark\" x=\"%.1f\" y=\"%.1f\">",
                cx - 5, cy - 5, cx + 9, cy - 8);
        svg_escape(f, s->claim);
        fprintf(f, "</text>\n");
    }
    if (!s->chen) return;
    double x = svg_fx(fr, (double)s->chen_peak), y = svg_fy(fr, s->chen_ms);
    double ly = fabs(y - (cy - 8)) < 16 && fabs(x - cx) < 220 ? y + 20 : y - 8;
    fprintf(f,
            "<path class=\"chen\" d=\"M%.1f %.1fl7 7l-7 7l-7 -7z\" fill=\"#e15759\"/>\n"
            "<text class=\"mark\" x=\"%.1f\" y=\"%.1f\">Chen&#39;s sqrt(n) checkpointing</text>\n",
            x, y - 7, x + 9, ly);
}

/* A legend line: a line of colour c (NULL: none), width wd, dashed or not, and the words a b. */
static void legend_line(FILE *f, int x, int y, const char *c, int wd, int dashed, const char *a,
                        const char *b)
{
    if (c)
        fprintf(f,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                "stroke-width=\"%d\"%s/>",
                x, y - 4, x + 16, y - 4, c, wd, dashed ? " stroke-dasharray=\"4 3\"" : "");
    fprintf(f, "<text class=\"legend\" x=\"%d\" y=\"%d\">", x + 22, y);
    svg_escape(f, a);
    svg_escape(f, b);
    fprintf(f, "</text>\n");
}

static void legend(FILE *f, const svg_sweep *s)
{
    int x = L_ + PW_ + 24, y = T_ + 12;
    if (s->pt2) {
        legend_line(f, x, y, colour[0], 2, 0, s->label, "");
        legend_line(f, x, y + 16, colour[1], 5, 0, s->label2, "");
        legend_line(f, x, y + 32, NULL, 0, 0, s->solver, ": the least extra time found");
        y += 32;
    } else {
        legend_line(f, x, y, colour[0], 2, 0, s->solver, ": the least extra time found");
    }
    legend_line(f, x, y + 16, NULL, 0, 0, "at or under the budget", "");
    y += 16;
    if (s->bound > 0 || (s->pt2 && s->bound2 > 0)) {
        legend_line(f, x, y + 16, "#555555", 1, 1, "the bound: no plan ", "below it");
        y += 16;
    }
    fprintf(f,
            "<path d=\"M%d %dl8 8m0 -8l-8 8\" stroke=\"#e15759\" stroke-width=\"2\"/>"
            "<text class=\"legend\" x=\"%d\" y=\"%d\">no plan found</text>\n"
            "<path d=\"M%d %dl7 7l-7 7l-7 -7z\" fill=\"#e15759\"/>"
            "<text class=\"legend\" x=\"%d\" y=\"%d\">Chen&#39;s sqrt(n)%s</text>\n"
            "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
            "<text class=\"legend\" x=\"%d\" y=\"%d\">claim: ",
            x + 4, y + 14, x + 22, y + 22, x + 8, y + 34, x + 22, y + 46,
            s->chen ? "" : ": no plan", x + 3, y + 60, s->warning ? "#bbbbbb" : "#59a14f", x + 22,
            y + 70);
    svg_escape(f, s->claim);
    fprintf(f, "</text>\n");
    if (s->warning) /* the claim's time is 15% of 0 ms: every plan would meet it */
        fprintf(f, "<text class=\"legend\" x=\"%d\" y=\"%d\">not judged: no Latency</text>\n",
                x + 22, y + 86);
}

void svg_write_sweep(FILE *f, const svg_sweep *s)
{
    double xmax = (double)s->free_peak, ymax = s->claim_ms;
    if (s->chen && (double)s->chen_peak > xmax) xmax = (double)s->chen_peak;
    if (s->chen && s->chen_ms > ymax) ymax = s->chen_ms;
    for (uint32_t k = 0; k < s->n; k++) {
        if (s->pt[k].feasible && s->pt[k].extra_ms > ymax) ymax = s->pt[k].extra_ms;
        if (s->pt2 && s->pt2[k].feasible && s->pt2[k].extra_ms > ymax) ymax = s->pt2[k].extra_ms;
    }
    const char *uname;
    double unit, xstep = svg_byte_step(xmax > 1 ? xmax * 1.05 : 1, &unit, &uname);
    double ystep = svg_ms_step(ymax);
    svg_frame fr = {L_,
                    T_,
                    PW_,
                    PH_,
                    ceil((xmax > 1 ? xmax * 1.05 : 1) / xstep) * xstep,
                    ceil((ymax > 0 ? ymax * 1.1 : 1) / ystep) * ystep};
    svg_chart_head(f, L_ + PW_ + R_, T_ + PH_ + B_, L_, "Memory budget against extra time",
                   s->source);
    fprintf(f, "<text x=\"%d\" y=\"48\" fill=\"#555555\">solver ", L_);
    svg_escape(f, s->solver);
    char what[256];
    if (s->pt2)
        snprintf(what, sizeof what, ", %s and %s (allow %s)", s->label, s->label2, s->allow2);
    else snprintf(what, sizeof what, ", allow %s", s->allow);
    svg_escape(f, what);
    fprintf(f, "; the budget-free step takes ");
    char a[32];
    svg_escape(f, units_ms(a, sizeof a, s->step_ms));
    fprintf(f, "</text>\n");
    if (s->warning) {
        fprintf(f, "<text class=\"warning\" x=\"%d\" y=\"70\" fill=\"#e15759\">", L_);
        svg_escape(f, s->warning);
        fprintf(f, "</text>\n");
    }
    axes(f, s, &fr, xstep, unit, uname, ystep);
    for (int i = 0; i < (s->pt2 ? 2 : 1); i++) bound(f, s, &fr, i);
    for (int i = s->pt2 ? 1 : 0; i >= 0; i--) curve(f, s, &fr, i);
    marks(f, s, &fr);
    legend(f, s);
    fprintf(f, "</svg>\n");
}
