/* svg_pareto.c: compare --pareto's memory/time front as an SVG (svg.h): each policy's (peak,
 * makespan) a point, the front joined by the staircase no order crosses, axes in bytes and ms from
 * zero. Exports svg_write_pareto. */
#include "svg.h"
#include <math.h>
#include <stdlib.h>
#include "util/units.h"

enum { PW_ = 720, PH_ = 480, L_ = 96, R_ = 200, T_ = 64, B_ = 64 };

static double ms_step(double max)
{
    double raw = (max > 0 ? max : 1) / 5, mag = pow(10, floor(log10(raw))), fr = raw / mag;
    return (fr <= 1 ? 1 : fr <= 2 ? 2 : fr <= 2.5 ? 2.5 : fr <= 5 ? 5 : 10) * mag;
}

int svg_write_pareto(FILE *f, const svg_pareto *p)
{
    double pmax = 1, tmax = 0;
    for (uint32_t k = 0; k < p->n; k++) {
        if ((double)p->pt[k].peak > pmax) pmax = (double)p->pt[k].peak;
        if (p->pt[k].makespan > tmax) tmax = p->pt[k].makespan;
    }
    const char *uname;
    double unit, xstep = svg_byte_step(pmax, &unit, &uname), ystep = ms_step(tmax);
    double xtop = ceil(pmax / xstep) * xstep, ytop = ceil((tmax > 0 ? tmax : 1) / ystep) * ystep;
    int w = L_ + PW_ + R_, h = T_ + PH_ + B_;
#define X(v) (L_ + (double)(v) / xtop * PW_)
#define Y(v) (T_ + PH_ - (v) / ytop * PH_)
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
            w, h, w, h, w, h);
    fprintf(f, "<text x=\"%d\" y=\"28\" font-size=\"16\">Memory against time: ", L_);
    svg_escape(f, p->source);
    fprintf(f,
            "</text>\n<text x=\"%d\" y=\"48\" fill=\"#555555\">peak live bytes against "
            "makespan; filled points are the Pareto front</text>\n",
            L_);
    for (double v = 0; v <= xtop + xstep / 2; v += xstep)
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e0e0e0\"/>"
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.4g %s</text>\n",
                X(v), T_, X(v), T_ + PH_, X(v), T_ + PH_ + 18, v / unit, v > 0 ? uname : "B");
    for (double v = 0; v <= ytop + ystep / 2; v += ystep)
        fprintf(f,
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.4g ms</text>\n",
                L_, Y(v), L_ + PW_, Y(v), L_ - 6, Y(v) + 4, v);
    fprintf(f,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">peak live memory</text>\n"
            "<text x=\"20\" y=\"%d\" transform=\"rotate(-90 20 %d)\" "
            "text-anchor=\"middle\">makespan</text>\n",
            L_ + PW_ / 2, T_ + PH_ + 44, T_ + PH_ / 2, T_ + PH_ / 2);
    /* The front's staircase, from the least peak to the least makespan. */
    uint32_t *idx = malloc((p->n + 1) * sizeof *idx), m = 0;
    if (!idx) return -1;
    for (uint32_t k = 0; k < p->n; k++)
        if (p->pt[k].pareto) idx[m++] = k;
    for (uint32_t a = 1; a < m; a++)
        for (uint32_t b = a; b > 0 && p->pt[idx[b - 1]].peak > p->pt[idx[b]].peak; b--) {
            uint32_t t = idx[b];
            idx[b] = idx[b - 1];
            idx[b - 1] = t;
        }
    if (m) {
        fprintf(f, "<polyline fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"2\" points=\"");
        for (uint32_t a = 0; a < m; a++) {
            const svg_pareto_point *q = &p->pt[idx[a]];
            if (a) fprintf(f, " %.1f,%.1f", X(q->peak), Y(p->pt[idx[a - 1]].makespan));
            fprintf(f, "%s%.1f,%.1f", a ? " " : "", X(q->peak), Y(q->makespan));
        }
        fprintf(f, "\"/>\n");
    }
    free(idx);
    for (uint32_t k = 0; k < p->n; k++) {
        const svg_pareto_point *q = &p->pt[k];
        fprintf(f,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" stroke=\"#4e79a7\" stroke-width=\"2\" "
                "fill=\"%s\"><title>",
                X(q->peak), Y(q->makespan), q->pareto ? "#4e79a7" : "#ffffff");
        char a[32], b[32];
        svg_escape(f, q->name);
        if (q->alpha >= 0) fprintf(f, " alpha %.1f", q->alpha);
        fprintf(f, ": %s, %s%s</title></circle>\n", units_bytes(a, sizeof a, q->peak, 0),
                units_ms(b, sizeof b, q->makespan), q->pareto ? " (on the front)" : "");
    }
    /* A legend in the right margin, one line per point in the command's order. */
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">points</text>\n", L_ + PW_ + 16, T_);
    for (uint32_t k = 0; k < p->n; k++) {
        const svg_pareto_point *q = &p->pt[k];
        double y = T_ + 18 + k * 17.0;
        fprintf(f,
                "<circle cx=\"%d\" cy=\"%.1f\" r=\"4\" stroke=\"#4e79a7\" fill=\"%s\"/>"
                "<text x=\"%d\" y=\"%.1f\">",
                L_ + PW_ + 20, y - 4, q->pareto ? "#4e79a7" : "#ffffff", L_ + PW_ + 30, y);
        svg_escape(f, q->name);
        if (q->alpha >= 0) fprintf(f, " %.1f", q->alpha);
        fprintf(f, "</text>\n");
    }
#undef X
#undef Y
    fprintf(f, "</svg>\n");
    return 0;
}
