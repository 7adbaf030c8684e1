/* cli_budget_sweep.c: what "memtris budget" writes beside the plan: the plan as a graph file
 * (-o, through the atomic writer) and the trade-off of memory against time (--sweep): the
 * extra time of the solver's plan at budgets from the lower bound to the budget-free peak,
 * each point the least extra time of the plans found at or under its budget, beside Chen's
 * sqrt(n) checkpointing and the usual claim of checkpointing (65% less memory for 15% more
 * time), as a table, JSON or an SVG curve. Exports cli_budget_*. */
#include "cli_budget.h"
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "sched/graph/graph_write.h"
#include "svg/svg.h"
#include "util/units.h"

/* The claim's point: 35% of the budget-free peak for 15% more time than the step's. */
#define CLAIM_MEMORY 0.35
#define CLAIM_TIME   0.15

int cli_budget_write_graph(const budget_model *bm, const budget_plan *p, double bandwidth,
                           const char *path)
{
    graph *pg;
    char err[512];
    if (budget_plan_graph(bm, p, bandwidth, &pg, NULL, err, sizeof err)) {
        cli_eprintf("memtris budget: %s: the plan as a graph: %s\n", bm->g->source, err);
        return EXIT_BAD;
    }
    cli_out o;
    if (cli_out_open(&o, "budget", path)) {
        graph_free(pg);
        return EXIT_BAD;
    }
    int failed = graph_write(pg, cli_write_file, o.f, err, sizeof err);
    graph_free(pg);
    if (failed && !ferror(o.f)) {
        cli_eprintf("memtris budget: %s\n", err);
        cli_out_abandon(&o);
        return EXIT_BAD;
    }
    return cli_out_close(&o, failed ? (errno ? errno : EIO) : 0);
}

/* ------------------------------------------------------------ the sweep */

/* The budgets, solved in ascending order, each point's best plan so far. */
static int solve_points(const cli_budget_sweep *s, cli_budget_point *pt, uint32_t *n)
{
    int64_t lo = s->bound < s->free_peak ? s->bound : s->free_peak, span = s->free_peak - lo;
    const cli_budget_point *best = NULL;
    *n = 0;
    for (uint32_t k = 0; k < s->points; k++) {
        int64_t b = lo + (int64_t)((double)span * k / (s->points - 1) + 0.5);
        if (k == s->points - 1) b = s->free_peak;
        if (*n && b <= pt[*n - 1].budget) continue;
        cli_budget_point *q = &pt[(*n)++];
        memset(q, 0, sizeof *q);
        q->budget = b;
        if (s->solve(s->ctx, q)) return EXIT_BAD;
        if (q->stopped == SOLVE_CANCELLED) {
            cli_eprintf("memtris budget: %s: the sweep was interrupted at a budget of %" PRId64
                        " bytes; nothing is written\n",
                        s->bm->g->source, b);
            return EXIT_BAD;
        }
        if (q->found && (!best || q->st.extra_ms <= best->best.extra_ms)) best = q;
        if (best) {
            q->feasible = 1;
            q->from = best->budget;
            q->best = best == q ? q->st : best->best;
        }
    }
    return EXIT_OK;
}

static void json_stats(jw *w, int has, const budget_stats *st)
{
    if (!has) {
        jw_null(w);
        return;
    }
    jw_object(w);
    jw_kint(w, "peak", st->peak);
    jw_key(w, "extra_ms");
    cli_jw_ms(w, st->extra_ms);
    jw_kuint(w, "reruns", st->reruns);
    jw_object_end(w);
}

static void print_json(const cli_budget_sweep *s, const cli_budget_point *pt, uint32_t n)
{
    jw w;
    jw_file(&w, stdout);
    jw_object(&w);
    jw_kstring(&w, "source", s->bm->g->source);
    jw_kint(&w, "budget_free_peak", s->free_peak);
    jw_key(&w, "step_ms");
    cli_jw_ms(&w, s->step_ms);
    jw_kstring(&w, "solver", s->solver);
    jw_kstring(&w, "allow", s->allow);
    jw_kint(&w, "least_budget_bound", s->bound);
    jw_key(&w, "points");
    jw_array(&w);
    for (uint32_t k = 0; k < n; k++) {
        const cli_budget_point *q = &pt[k];
        jw_break(&w, "\n  ");
        jw_object(&w);
        jw_kint(&w, "budget", q->budget);
        jw_kbool(&w, "feasible", q->feasible);
        jw_kbool(&w, "solver_found", q->found);
        jw_key(&w, "plan_budget");
        if (q->feasible) jw_int(&w, q->from);
        else jw_null(&w);
        jw_key(&w, "peak");
        if (q->feasible) jw_int(&w, q->best.peak);
        else jw_null(&w);
        jw_key(&w, "extra_ms");
        if (q->feasible) cli_jw_ms(&w, q->best.extra_ms);
        else jw_null(&w);
        jw_key(&w, "reruns");
        if (q->feasible) jw_uint(&w, q->best.reruns);
        else jw_null(&w);
        jw_key(&w, "offloaded_bytes");
        if (q->feasible) jw_int(&w, q->best.offloaded_bytes);
        else jw_null(&w);
        jw_object_end(&w);
    }
    jw_break(&w, "\n");
    jw_array_end(&w);
    jw_key(&w, "chen_sqrt_n");
    json_stats(&w, s->chen, &s->chen_st);
    jw_key(&w, "seed_claim");
    jw_object(&w);
    jw_kint(&w, "budget", (int64_t)floor((double)s->free_peak * CLAIM_MEMORY));
    jw_key(&w, "extra_ms");
    cli_jw_ms(&w, s->step_ms * CLAIM_TIME);
    jw_kstring(&w, "says", "65% less memory for 15% more time");
    jw_object_end(&w);
    jw_object_end(&w);
    jw_end(&w);
}

/* "12.5%" of whole, or "-" when whole is 0. */
static const char *pct(char *out, size_t cap, double part, double whole)
{
    if (whole > 0) snprintf(out, cap, "%.1f%%", 100 * part / whole);
    else snprintf(out, cap, "-");
    return out;
}

static void print_text(const cli_budget_sweep *s, const cli_budget_point *pt, uint32_t n)
{
    char src[1024], a[32], b[32], c[32], d[32];
    int starred = 0;
    printf("%s: extra time against the memory budget, solver %s, allow %s\n",
           utf8_printable(s->bm->g->source, src, sizeof src), s->solver, s->allow);
    printf("budget-free peak %s, step %s; no plan fits under %s (a bound)\n",
           units_bytes(a, sizeof a, s->free_peak, 0), units_ms(b, sizeof b, s->step_ms),
           units_bytes(c, sizeof c, s->bound, 0));
    printf("  %-12s %7s  %-12s %-12s %8s %7s  %s\n", "budget", "of peak", "peak", "extra time",
           "of step", "reruns", "offloaded");
    for (uint32_t k = 0; k < n; k++) {
        const cli_budget_point *q = &pt[k];
        printf("  %-12s %7s  ", units_bytes(a, sizeof a, q->budget, 0),
               pct(b, sizeof b, (double)q->budget, (double)s->free_peak));
        if (!q->feasible) {
            printf("no plan found%s\n", q->stopped == SOLVE_DONE ? "" : " (stopped at a limit)");
            continue;
        }
        starred |= q->from != q->budget;
        printf("%-12s %-12s %8s %7" PRIu64 "  %s%s\n", units_bytes(a, sizeof a, q->best.peak, 0),
               units_ms(b, sizeof b, q->best.extra_ms),
               pct(c, sizeof c, q->best.extra_ms, s->step_ms), q->best.reruns,
               units_bytes(d, sizeof d, q->best.offloaded_bytes, 0),
               q->from != q->budget ? "  *" : "");
    }
    if (starred)
        printf("* the plan of a smaller budget: the solver's own plan here costs more time, or "
               "it found none\n");
    if (s->chen)
        printf("Chen's sqrt(n) checkpointing: peak %s (%s of the budget-free peak), %s extra "
               "(%s of the step)\n",
               units_bytes(a, sizeof a, s->chen_st.peak, 0),
               pct(b, sizeof b, (double)s->chen_st.peak, (double)s->free_peak),
               units_ms(c, sizeof c, s->chen_st.extra_ms),
               pct(d, sizeof d, s->chen_st.extra_ms, s->step_ms));
    else printf("Chen's sqrt(n) checkpointing: no plan (the graph has no forward Phase)\n");
    printf("65%% less memory for 15%% more time, as checkpointing is said to give: a budget of "
           "%s for %s extra\n",
           units_bytes(a, sizeof a, (int64_t)floor((double)s->free_peak * CLAIM_MEMORY), 0),
           units_ms(b, sizeof b, s->step_ms * CLAIM_TIME));
}

/* ------------------------------------------------------------ the SVG */

enum { PW_ = 640, PH_ = 400, L_ = 96, R_ = 300, T_ = 80, B_ = 64 };

static double ms_step(double max)
{
    double raw = (max > 0 ? max : 1) / 5, mag = pow(10, floor(log10(raw))), fr = raw / mag;
    return (fr <= 1 ? 1 : fr <= 2 ? 2 : fr <= 2.5 ? 2.5 : fr <= 5 ? 5 : 10) * mag;
}

typedef struct frame {
    double xtop, ytop; /* bytes, ms at the plot's right and top edges */
} frame;

static double fx(const frame *fr, double v) { return L_ + v / fr->xtop * PW_; }
static double fy(const frame *fr, double v) { return T_ + PH_ - v / fr->ytop * PH_; }

/* The grid: bytes below, percentages of the budget-free peak above, ms on the left. */
static void svg_axes(FILE *f, const cli_budget_sweep *s, const frame *fr, double xstep, double unit,
                     const char *uname, double ystep)
{
    for (double v = 0; v <= fr->xtop + xstep / 2; v += xstep)
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e0e0e0\"/>"
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.4g %s</text>\n",
                fx(fr, v), T_, fx(fr, v), T_ + PH_, fx(fr, v), T_ + PH_ + 18, v / unit,
                v > 0 ? uname : "B");
    for (int p = 0; p <= 100; p += 25)
        fprintf(f,
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%d%%</text>\n",
                fx(fr, (double)s->free_peak * p / 100), T_ - 8, p);
    for (double v = 0; v <= fr->ytop + ystep / 2; v += ystep)
        fprintf(f,
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.4g ms</text>\n",
                L_, fy(fr, v), L_ + PW_, fy(fr, v), L_ - 6, fy(fr, v) + 4, v);
    fprintf(f,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">memory budget (above: %% of the "
            "budget-free peak)</text>\n"
            "<text x=\"20\" y=\"%d\" transform=\"rotate(-90 20 %d)\" "
            "text-anchor=\"middle\">extra time</text>\n",
            L_ + PW_ / 2, T_ + PH_ + 44, T_ + PH_ / 2, T_ + PH_ / 2);
}

/* The curve through the budgets with a plan, each a dot; a cross on the axis where none. */
static void svg_curve(FILE *f, const cli_budget_point *pt, uint32_t n, const frame *fr)
{
    fprintf(f, "<polyline class=\"curve\" fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"2\" "
               "points=\"");
    for (uint32_t k = 0; k < n; k++)
        if (pt[k].feasible)
            fprintf(f, "%.1f,%.1f ", fx(fr, (double)pt[k].budget), fy(fr, pt[k].best.extra_ms));
    fprintf(f, "\"/>\n");
    for (uint32_t k = 0; k < n; k++) {
        double x = fx(fr, (double)pt[k].budget);
        if (pt[k].feasible)
            fprintf(
                f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#4e79a7\"/>\n",
                x, fy(fr, pt[k].best.extra_ms));
        else
            fprintf(f,
                    "<path class=\"none\" d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"#e15759\" "
                    "stroke-width=\"2\"/>\n",
                    x - 4, fy(fr, 0) - 4);
    }
}

/* The two marks, each labelled beside it: Chen's sqrt(n) and the claim. */
static void svg_marks(FILE *f, const cli_budget_sweep *s, const frame *fr)
{
    double cx = fx(fr, floor((double)s->free_peak * CLAIM_MEMORY)),
           cy = fy(fr, s->step_ms * CLAIM_TIME);
    fprintf(f,
            "<rect class=\"claim\" x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" "
            "fill=\"#59a14f\"/>\n<text class=\"mark\" x=\"%.1f\" y=\"%.1f\">65%% less memory, "
            "15%% more time</text>\n",
            cx - 5, cy - 5, cx + 9, cy - 8);
    if (!s->chen) return;
    double x = fx(fr, (double)s->chen_st.peak), y = fy(fr, s->chen_st.extra_ms);
    double ly = fabs(y - (cy - 8)) < 16 && fabs(x - cx) < 220 ? y + 20 : y - 8;
    fprintf(f,
            "<path class=\"chen\" d=\"M%.1f %.1fl7 7l-7 7l-7 -7z\" fill=\"#e15759\"/>\n"
            "<text class=\"mark\" x=\"%.1f\" y=\"%.1f\">Chen&#39;s sqrt(n) checkpointing</text>\n",
            x, y - 7, x + 9, ly);
}

static void svg_legend(FILE *f, const cli_budget_sweep *s)
{
    int x = L_ + PW_ + 24, y = T_ + 12;
    fprintf(f,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#4e79a7\" "
            "stroke-width=\"2\"/><text class=\"legend\" x=\"%d\" y=\"%d\">%s: the least extra "
            "time found</text>\n",
            x, y - 4, x + 16, y - 4, x + 22, y, s->solver);
    fprintf(f,
            "<text class=\"legend\" x=\"%d\" y=\"%d\">at or under the budget</text>\n"
            "<path d=\"M%d %dl8 8m0 -8l-8 8\" stroke=\"#e15759\" stroke-width=\"2\"/>"
            "<text class=\"legend\" x=\"%d\" y=\"%d\">no plan found</text>\n"
            "<path d=\"M%d %dl7 7l-7 7l-7 -7z\" fill=\"#e15759\"/>"
            "<text class=\"legend\" x=\"%d\" y=\"%d\">Chen&#39;s sqrt(n)%s</text>\n"
            "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#59a14f\"/>"
            "<text class=\"legend\" x=\"%d\" y=\"%d\">claim: 65%% less memory, 15%% more "
            "time</text>\n",
            x + 22, y + 16, x + 4, y + 30, x + 22, y + 38, x + 8, y + 50, x + 22, y + 62,
            s->chen ? "" : ": no plan", x + 3, y + 76, x + 22, y + 86);
}

static void svg_write(FILE *f, const cli_budget_sweep *s, const cli_budget_point *pt, uint32_t n)
{
    double xmax = (double)s->free_peak, ymax = s->step_ms * CLAIM_TIME;
    if (s->chen && (double)s->chen_st.peak > xmax) xmax = (double)s->chen_st.peak;
    if (s->chen && s->chen_st.extra_ms > ymax) ymax = s->chen_st.extra_ms;
    for (uint32_t k = 0; k < n; k++)
        if (pt[k].feasible && pt[k].best.extra_ms > ymax) ymax = pt[k].best.extra_ms;
    const char *uname;
    double unit, xstep = svg_byte_step(xmax > 1 ? xmax * 1.05 : 1, &unit, &uname);
    double ystep = ms_step(ymax);
    frame fr = {ceil((xmax > 1 ? xmax * 1.05 : 1) / xstep) * xstep,
                ceil((ymax > 0 ? ymax * 1.1 : 1) / ystep) * ystep};
    int w = L_ + PW_ + R_, h = T_ + PH_ + B_;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
            w, h, w, h, w, h);
    fprintf(f, "<text x=\"%d\" y=\"28\" font-size=\"16\">Memory budget against extra time: ", L_);
    svg_escape(f, s->bm->g->source);
    fprintf(f,
            "</text>\n<text x=\"%d\" y=\"48\" fill=\"#555555\">solver %s, allow %s; the "
            "budget-free step takes ",
            L_, s->solver, s->allow);
    char a[32];
    svg_escape(f, units_ms(a, sizeof a, s->step_ms));
    fprintf(f, "</text>\n");
    svg_axes(f, s, &fr, xstep, unit, uname, ystep);
    svg_curve(f, pt, n, &fr);
    svg_marks(f, s, &fr);
    svg_legend(f, s);
    fprintf(f, "</svg>\n");
}

int cli_budget_sweep_run(const cli_budget_sweep *s)
{
    cli_budget_point *pt = calloc(s->points + 1, sizeof *pt);
    if (!pt) {
        cli_eprintf("memtris budget: out of memory\n");
        return EXIT_BAD;
    }
    uint32_t n = 0;
    int status = solve_points(s, pt, &n);
    if (!status && s->svg) {
        cli_out o;
        status = cli_out_open(&o, "budget", s->svg);
        if (!status) {
            svg_write(o.f, s, pt, n);
            status = cli_out_close(&o, ferror(o.f) ? (errno ? errno : EIO) : 0);
        }
    }
    if (!status && !(s->svg && !strcmp(s->svg, "-"))) {
        if (s->format == CLI_JSON) print_json(s, pt, n);
        else print_text(s, pt, n);
    }
    free(pt);
    return status;
}
