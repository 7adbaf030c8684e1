/* svg_sweep.c: budget --sweep's trade-off of memory against time as an SVG (svg.h): the extra
 * time of the plans found at each budget, from the lower bound to the budget-free peak (bytes
 * below, percentages of that peak above), a cross where no plan was found, Chen's sqrt(n)
 * checkpointing and what checkpointing is said to give as two labelled marks, and a legend.
 * Exports svg_write_sweep. */
#include "svg.h"
#include <math.h>
#include "svg_internal.h"
#include "util/units.h"

enum { PW_ = 640, PH_ = 400, L_ = 96, R_ = 300, T_ = 80, B_ = 64 };

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

/* The curve through the budgets with a plan, each a dot; a cross on the axis where none. */
static void curve(FILE *f, const svg_sweep *s, const svg_frame *fr)
{
    const svg_sweep_point *pt = s->pt;
    fprintf(f, "<polyline class=\"curve\" fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"2\" "
               "points=\"");
    for (uint32_t k = 0; k < s->n; k++)
        if (pt[k].feasible)
            fprintf(f, "%.1f,%.1f ", svg_fx(fr, (double)pt[k].budget), svg_fy(fr, pt[k].extra_ms));
    fprintf(f, "\"/>\n");
    for (uint32_t k = 0; k < s->n; k++) {
        double x = svg_fx(fr, (double)pt[k].budget);
        if (pt[k].feasible)
            fprintf(
                f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#4e79a7\"/>\n",
                x, svg_fy(fr, pt[k].extra_ms));
        else
            fprintf(f,
                    "<path class=\"none\" d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"#e15759\" "
                    "stroke-width=\"2\"/>\n",
                    x - 4, svg_fy(fr, 0) - 4);
    }
}

/* The two marks, each labelled beside it: Chen's sqrt(n) and the claim. */
static void marks(FILE *f, const svg_sweep *s, const svg_frame *fr)
{
    double cx = svg_fx(fr, s->claim_budget), cy = svg_fy(fr, s->claim_ms);
    fprintf(f,
            "<rect class=\"claim\" x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" "
            "fill=\"#59a14f\"/>\n<text class=\"mark\" x=\"%.1f\" y=\"%.1f\">",
            cx - 5, cy - 5, cx + 9, cy - 8);
    svg_escape(f, s->claim);
    fprintf(f, "</text>\n");
    if (!s->chen) return;
    double x = svg_fx(fr, (double)s->chen_peak), y = svg_fy(fr, s->chen_ms);
    double ly = fabs(y - (cy - 8)) < 16 && fabs(x - cx) < 220 ? y + 20 : y - 8;
    fprintf(f,
            "<path class=\"chen\" d=\"M%.1f %.1fl7 7l-7 7l-7 -7z\" fill=\"#e15759\"/>\n"
            "<text class=\"mark\" x=\"%.1f\" y=\"%.1f\">Chen&#39;s sqrt(n) checkpointing</text>\n",
            x, y - 7, x + 9, ly);
}

static void legend(FILE *f, const svg_sweep *s)
{
    int x = L_ + PW_ + 24, y = T_ + 12;
    fprintf(f,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#4e79a7\" "
            "stroke-width=\"2\"/><text class=\"legend\" x=\"%d\" y=\"%d\">",
            x, y - 4, x + 16, y - 4, x + 22, y);
    svg_escape(f, s->solver);
    fprintf(f,
            ": the least extra time found</text>\n"
            "<text class=\"legend\" x=\"%d\" y=\"%d\">at or under the budget</text>\n"
            "<path d=\"M%d %dl8 8m0 -8l-8 8\" stroke=\"#e15759\" stroke-width=\"2\"/>"
            "<text class=\"legend\" x=\"%d\" y=\"%d\">no plan found</text>\n"
            "<path d=\"M%d %dl7 7l-7 7l-7 -7z\" fill=\"#e15759\"/>"
            "<text class=\"legend\" x=\"%d\" y=\"%d\">Chen&#39;s sqrt(n)%s</text>\n"
            "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#59a14f\"/>"
            "<text class=\"legend\" x=\"%d\" y=\"%d\">claim: ",
            x + 22, y + 16, x + 4, y + 30, x + 22, y + 38, x + 8, y + 50, x + 22, y + 62,
            s->chen ? "" : ": no plan", x + 3, y + 76, x + 22, y + 86);
    svg_escape(f, s->claim);
    fprintf(f, "</text>\n");
}

void svg_write_sweep(FILE *f, const svg_sweep *s)
{
    double xmax = (double)s->free_peak, ymax = s->claim_ms;
    if (s->chen && (double)s->chen_peak > xmax) xmax = (double)s->chen_peak;
    if (s->chen && s->chen_ms > ymax) ymax = s->chen_ms;
    for (uint32_t k = 0; k < s->n; k++)
        if (s->pt[k].feasible && s->pt[k].extra_ms > ymax) ymax = s->pt[k].extra_ms;
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
    fprintf(f, ", allow ");
    svg_escape(f, s->allow);
    fprintf(f, "; the budget-free step takes ");
    char a[32];
    svg_escape(f, units_ms(a, sizeof a, s->step_ms));
    fprintf(f, "</text>\n");
    axes(f, s, &fr, xstep, unit, uname, ystep);
    curve(f, s, &fr);
    marks(f, s, &fr);
    legend(f, s);
    fprintf(f, "</svg>\n");
}
