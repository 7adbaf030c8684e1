/* svg_pareto.c: compare --pareto's memory/time front as an SVG (svg.h): each policy's (peak,
 * makespan) points in a colour and a mark of their own (points at one place drawn as rings
 * around each other, so that none hides another), the front's points filled and joined by the
 * staircase no order crosses, axes in bytes and ms from zero, and a legend naming every point
 * with its policy, alpha and values, one line each. Exports svg_write_pareto. */
#include "svg.h"
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "svg_internal.h"
#include "util/units.h"

enum { PW_ = 720, PH_ = 480, L_ = 96, R_ = 300, T_ = 64, B_ = 64, LEGEND_DY = 17 };

/* The policies' colours (Tableau 10) and marks, by the order the policies
 * first appear in the points. */
static const char *const colors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                     "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#6b6b6b"};
#define NCOLORS (sizeof colors / sizeof colors[0])
enum { MARK_CIRCLE, MARK_SQUARE, MARK_DIAMOND, MARK_TRIANGLE, NMARKS };

/* Point k's policy: how many policies (names) appear first before its
 * name does. Colour and mark follow it: 20 policies apart before a pair
 * repeats. */
static uint32_t policy_of(const svg_pareto *p, uint32_t k)
{
    uint32_t idx = 0;
    for (uint32_t j = 0; j < p->n; j++) {
        uint32_t i = 0;
        while (i < j && strcmp(p->pt[i].name, p->pt[j].name)) i++;
        if (i < j) continue; /* not its name's first point */
        if (!strcmp(p->pt[j].name, p->pt[k].name)) return idx;
        idx++;
    }
    return idx;
}

/* A mark of radius r at (x, y), left open (mark_end closes it): the
 * policy's shape in its colour, filled (on the front) or not. */
static void mark(FILE *f, uint32_t pol, double x, double y, double r, int filled, int width)
{
    const char *c = colors[pol % NCOLORS], *fill = filled ? c : "none";
    switch (pol % NMARKS) {
    case MARK_SQUARE:
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x - r * 0.9,
                y - r * 0.9, r * 1.8, r * 1.8);
        break;
    case MARK_DIAMOND:
        fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y - r * 1.2,
                x + r * 1.2, y, x, y + r * 1.2, x - r * 1.2, y);
        break;
    case MARK_TRIANGLE:
        fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y - r * 1.2, x + r * 1.1,
                y + r * 0.7, x - r * 1.1, y + r * 0.7);
        break;
    default: fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", x, y, r); break;
    }
    fprintf(f, " stroke=\"%s\" stroke-width=\"%d\" fill=\"%s\" data-policy=\"%u\">", c, width, fill,
            pol);
}

static const char *mark_end(uint32_t pol)
{
    switch (pol % NMARKS) {
    case MARK_SQUARE: return "</rect>";
    case MARK_DIAMOND:
    case MARK_TRIANGLE: return "</polygon>";
    default: return "</circle>";
    }
}

/* How the legend writes the values: as people read them ("6.1 MiB",
 * "55.4 ms") when that tells every two different ones apart, else the
 * bytes and the digits of ms that do. */
typedef struct words_fmt {
    int bytes;  /* the peaks in bytes */
    int digits; /* the makespans with %.*g digits; 0: units_ms */
} words_fmt;

static void peak_words(char *out, size_t cap, int64_t v, const words_fmt *w)
{
    if (w->bytes) snprintf(out, cap, "%" PRId64 " B", v);
    else units_bytes(out, cap, v, 0);
}

static void ms_words(char *out, size_t cap, double v, const words_fmt *w)
{
    if (w->digits) snprintf(out, cap, "%.*g ms", w->digits, v);
    else units_ms(out, cap, v);
}

static int words_part(const svg_pareto *p, const words_fmt *w, int of_peak)
{
    for (uint32_t i = 0; i < p->n; i++)
        for (uint32_t j = i + 1; j < p->n; j++) {
            char a[32], b[32];
            const svg_pareto_point *x = &p->pt[i], *y = &p->pt[j];
            if (of_peak ? x->peak == y->peak : x->makespan == y->makespan) continue;
            if (of_peak) {
                peak_words(a, sizeof a, x->peak, w);
                peak_words(b, sizeof b, y->peak, w);
            } else {
                ms_words(a, sizeof a, x->makespan, w);
                ms_words(b, sizeof b, y->makespan, w);
            }
            if (!strcmp(a, b)) return 0;
        }
    return 1;
}

static words_fmt words_choose(const svg_pareto *p)
{
    words_fmt w = {0, 0};
    if (!words_part(p, &w, 1)) w.bytes = 1;
    if (!words_part(p, &w, 0))
        for (w.digits = 4; w.digits < 12 && !words_part(p, &w, 0); w.digits++) continue;
    return w;
}

/* "weighted 0.3: 6.1 MiB, 55.4 ms" into f (its name escaped). */
static void point_words(FILE *f, const svg_pareto_point *q, const words_fmt *w)
{
    char a[32], b[32];
    peak_words(a, sizeof a, q->peak, w);
    ms_words(b, sizeof b, q->makespan, w);
    svg_escape(f, q->name);
    if (q->alpha >= 0) fprintf(f, " %.1f", q->alpha);
    fprintf(f, ": %s, %s", a, b);
}

/* The front's staircase, from the least peak to the least makespan. */
static int staircase(FILE *f, const svg_pareto *p, const svg_frame *fr)
{
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
        fprintf(f, "<polyline class=\"front\" fill=\"none\" stroke=\"#222222\" stroke-width=\"2\" "
                   "stroke-dasharray=\"6 3\" points=\"");
        for (uint32_t a = 0; a < m; a++) {
            const svg_pareto_point *q = &p->pt[idx[a]];
            if (a)
                fprintf(f, " %.1f,%.1f", svg_fx(fr, (double)q->peak),
                        svg_fy(fr, p->pt[idx[a - 1]].makespan));
            fprintf(f, "%s%.1f,%.1f", a ? " " : "", svg_fx(fr, (double)q->peak),
                    svg_fy(fr, q->makespan));
        }
        fprintf(f, "\"/>\n");
    }
    free(idx);
    return 0;
}

/* Every point: the policies at one place as rings around each other, the
 * first innermost, drawn outermost first so that every one shows. */
static int points(FILE *f, const svg_pareto *p, const words_fmt *w, const svg_frame *fr)
{
    uint32_t *ring = calloc(p->n + 1, sizeof *ring), most = 0;
    if (!ring) return -1;
    for (uint32_t k = 0; k < p->n; k++) {
        /* the policies before k's at its place (its own policy's ring when
         * it is there already: weighted's alphas at one place are one mark) */
        uint32_t pol = policy_of(p, k);
        for (uint32_t j = 0; j < k; j++) {
            if (p->pt[j].peak != p->pt[k].peak || p->pt[j].makespan != p->pt[k].makespan) continue;
            if (policy_of(p, j) == pol) {
                ring[k] = ring[j];
                break;
            }
            if (ring[j] + 1 > ring[k]) ring[k] = ring[j] + 1;
        }
        if (ring[k] > most) most = ring[k];
    }
    for (uint32_t r = most + 1; r-- > 0;)
        for (uint32_t k = 0; k < p->n; k++) {
            if (ring[k] != r) continue;
            const svg_pareto_point *q = &p->pt[k];
            uint32_t pol = policy_of(p, k);
            mark(f, pol, svg_fx(fr, (double)q->peak), svg_fy(fr, q->makespan), 5 + 3.0 * r,
                 q->pareto, 2);
            fprintf(f, "<title>");
            point_words(f, q, w);
            fprintf(f, "%s</title>%s\n", q->pareto ? " (on the front)" : "", mark_end(pol));
        }
    free(ring);
    return 0;
}

/* The legend in the right margin: one line a point, in the command's order,
 * its mark, policy, alpha and values; lines LEGEND_DY apart never meet. */
static void legend(FILE *f, const svg_pareto *p, const words_fmt *w)
{
    int x = L_ + PW_ + 16;
    fprintf(f,
            "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">points (filled: on the front)</text>\n",
            x, T_);
    for (uint32_t k = 0; k < p->n; k++) {
        const svg_pareto_point *q = &p->pt[k];
        double y = T_ + 18 + k * (double)LEGEND_DY;
        uint32_t pol = policy_of(p, k);
        mark(f, pol, x + 5, y - 4, 4, q->pareto, 1);
        fprintf(f, "%s<text class=\"legend\" x=\"%d\" y=\"%.1f\">", mark_end(pol), x + 16, y);
        point_words(f, q, w);
        fprintf(f, "</text>\n");
    }
}

int svg_write_pareto(FILE *f, const svg_pareto *p)
{
    double pmax = 1, tmax = 0;
    for (uint32_t k = 0; k < p->n; k++) {
        if ((double)p->pt[k].peak > pmax) pmax = (double)p->pt[k].peak;
        if (p->pt[k].makespan > tmax) tmax = p->pt[k].makespan;
    }
    const char *uname;
    double unit, xstep = svg_byte_step(pmax, &unit, &uname), ystep = svg_ms_step(tmax);
    /* a tenth of room past the largest point, for its rings */
    double xtop = ceil(pmax * 1.1 / xstep) * xstep;
    double ytop = ceil((tmax > 0 ? tmax * 1.1 : 1) / ystep) * ystep;
    /* room for the legend's lines below the plot when there are many */
    int lh = T_ + 18 + (int)p->n * LEGEND_DY;
    int w = L_ + PW_ + R_, h = T_ + PH_ + B_ > lh + 8 ? T_ + PH_ + B_ : lh + 8;
    svg_frame fr = {L_, T_, PW_, PH_, xtop, ytop};
    svg_chart_head(f, w, h, L_, "Memory against time", p->source);
    fprintf(f,
            "<text x=\"%d\" y=\"48\" fill=\"#555555\">peak live bytes against "
            "makespan, a colour and a mark per policy; filled points are the Pareto front, "
            "joined by the dashed line</text>\n",
            L_);
    svg_chart_bytes(f, &fr, xstep, unit, uname);
    svg_chart_ms(f, &fr, ystep);
    svg_chart_titles(f, &fr, "peak live memory", "makespan");
    words_fmt wf = words_choose(p);
    if (staircase(f, p, &fr) || points(f, p, &wf, &fr)) return -1;
    legend(f, p, &wf);
    fprintf(f, "</svg>\n");
    return 0;
}
