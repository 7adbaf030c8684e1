/* cmd_pareto.c: "memtris compare --pareto": fifo, priority, multiqueue, best
 * and weighted at alpha 0, 0.1, ..., 1 on one graph, each as a (peak,
 * makespan) point, the Pareto front marked (a pareto_result), written as
 * text, JSON or CSV, and the plane as SVG. */
#include <inttypes.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "util/units.h"
#include "ui/svg.h"

#define NALPHA  11 /* 0, 0.1, ..., 1 */
#define NPOINTS (4 + NALPHA)

static int write_svg(const char *path, const graph *g, const svg_pareto_point *pt)
{
    cli_out out;
    if (cli_out_open(&out, "compare", path)) return EXIT_BAD;
    svg_pareto sp = {.source = g->source, .n = NPOINTS, .pt = pt};
    if (svg_write_pareto(out.f, &sp)) {
        cli_eprintf("memtris compare: out of memory writing the SVG\n");
        cli_out_abandon(&out);
        return EXIT_BAD;
    }
    return cli_out_close(&out, ferror(out.f) ? errno : 0);
}

/* --pareto's result: the points, their front marked, and the graph's bounds. */
typedef struct pareto_result {
    const graph *g;
    svg_pareto_point pt[NPOINTS];
    double bound, critical; /* ms: no order finishes sooner; the critical path */
} pareto_result;

/* Runs and times every point's policy and marks the front. */
static int pareto_run(pareto_result *pr, const solve_ctx *c)
{
    static const char *const fixed[] = {"fifo", "priority", "multiqueue", "best"};
    const graph *g = pr->g;
    int64_t peak[NPOINTS];
    double span[NPOINTS];
    uint8_t front[NPOINTS];
    for (int k = 0; k < NPOINTS; k++) {
        const policy *p = policy_find(k < 4 ? fixed[k] : "weighted");
        solve_ctx pp = c ? *c : (solve_ctx){0};
        pp.alpha = k < 4 ? solve_alpha(c) : (k - 4) / 10.0;
        pp.has_alpha = 1;
        cli_progress("compare --pareto: point %d of %d (%s)", k + 1, NPOINTS, p->name);
        run r;
        timeline t;
        char err[256];
        if (policy_run(g, p, &pp, &r, err, sizeof err)) {
            cli_eprintf("%s: error: %s\n", g->source, err);
            return EXIT_BAD;
        }
        if (cli_timeline(g, &r, &t)) {
            policy_run_free(&r);
            return EXIT_BAD;
        }
        pr->pt[k] = (svg_pareto_point){.name = p->name, .alpha = k < 4 ? -1 : pp.alpha};
        pr->pt[k].peak = peak[k] = r.peak;
        pr->pt[k].makespan = span[k] = t.makespan;
        pr->bound = t.bound;
        pr->critical = t.critical;
        timeline_free(&t);
        policy_run_free(&r);
    }
    timeline_pareto(NPOINTS, peak, span, front);
    for (int k = 0; k < NPOINTS; k++) pr->pt[k].pareto = front[k];
    return EXIT_OK;
}

static void pareto_json(const pareto_result *pr)
{
    jw w;
    jw_file(&w, stdout);
    jw_object(&w);
    jw_kstring(&w, "graph", pr->g->source);
    jw_key(&w, "critical_path");
    cli_jw_ms(&w, pr->critical);
    jw_key(&w, "makespan_bound");
    cli_jw_ms(&w, pr->bound);
    jw_key(&w, "points");
    jw_array(&w);
    for (int k = 0; k < NPOINTS; k++) {
        const svg_pareto_point *p = &pr->pt[k];
        jw_object(&w);
        jw_kstring(&w, "policy", p->name);
        jw_key(&w, "alpha");
        if (p->alpha >= 0) jw_f(&w, p->alpha, 1);
        else jw_null(&w);
        jw_kint(&w, "peak", p->peak);
        jw_key(&w, "makespan");
        cli_jw_ms(&w, p->makespan);
        jw_kbool(&w, "pareto", p->pareto);
        jw_object_end(&w);
    }
    jw_array_end(&w);
    jw_object_end(&w);
    jw_end(&w);
}

static void pareto_csv(const pareto_result *pr)
{
    printf("policy,alpha,peak,makespan_ms,pareto\n");
    for (int k = 0; k < NPOINTS; k++) {
        const svg_pareto_point *p = &pr->pt[k];
        printf("%s,", p->name);
        if (p->alpha >= 0) printf("%.1f", p->alpha);
        printf(",%" PRId64 ",", p->peak);
        cli_csv_ms(stdout, p->makespan);
        printf(",%s\n", p->pareto ? "true" : "false");
    }
}

static void pareto_text(const pareto_result *pr)
{
    char a[32], b[32], src[1024];
    printf("%s: %u nodes; no order finishes before %s (critical path %s)\n",
           utf8_printable(pr->g->source, src, sizeof src), pr->g->n,
           units_ms(a, sizeof a, pr->bound), units_ms(b, sizeof b, pr->critical));
    printf("%-10s  %5s  %12s  %12s  %s\n", "policy", "alpha", "peak", "makespan", "front");
    for (int k = 0; k < NPOINTS; k++) {
        const svg_pareto_point *p = &pr->pt[k];
        char al[8] = "-";
        if (p->alpha >= 0) snprintf(al, sizeof al, "%.1f", p->alpha);
        printf("%-10s  %5s  %12s  %12s  %s\n", p->name, al, units_bytes(a, sizeof a, p->peak, 0),
               units_ms(b, sizeof b, p->makespan), p->pareto ? "*" : "");
    }
    printf("*: on the Pareto front (no other point has a lower peak and a makespan as "
           "short, or a shorter makespan and a peak as low)\n");
    if (!pr->g->latency) printf("no node has a Latency: every makespan is 0\n");
}

int cli_pareto(const graph *g, const solve_ctx *c, int format, const char *svg)
{
    pareto_result pr = {.g = g};
    int rc = pareto_run(&pr, c);
    cli_progress_clear();
    if (rc) return EXIT_BAD;
    /* The SVG first: one that cannot be written leaves standard output empty. */
    int status = svg ? write_svg(svg, g, pr.pt) : EXIT_OK;
    if (status || (svg && !strcmp(svg, "-")))
        return status; /* "-": the SVG instead of the points */
    if (format == CLI_JSON) pareto_json(&pr);
    else if (format == CLI_CSV) pareto_csv(&pr);
    else pareto_text(&pr);
    return EXIT_OK;
}
