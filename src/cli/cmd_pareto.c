/* cmd_pareto.c: "memtris compare --pareto": every policy of the table but
 * exact (with --exact, exact too), weighted at alpha 0, 0.1, ..., 1, on one
 * graph, each as a (peak, makespan) point, the Pareto front over all of them
 * marked (a pareto_result), written as text, JSON or CSV, and the plane as
 * SVG. */
#include <inttypes.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_cmds.h"
#include "cli_compare.h"
#include "cli_opts.h"
#include "cli_progress.h"
#include "cli_sigint.h"
#include "cli_time.h"
#include "util/units.h"
#include "svg/svg.h"
#include "util/utf8.h"

#define NALPHA     11 /* 0, 0.1, ..., 1 */
#define MAX_POINTS (CLI_MAX_POLICIES + NALPHA)

static int write_svg(const char *path, const graph *g, const svg_pareto_point *pt, uint32_t n)
{
    cli_out out;
    if (cli_out_open(&out, "compare", path)) return EXIT_BAD;
    svg_pareto sp = {.source = g->source, .n = n, .pt = pt};
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
    uint32_t n;
    svg_pareto_point pt[MAX_POINTS];
    const policy *pol[MAX_POINTS];
    double bound, critical; /* ms: no order finishes sooner; the critical path */
} pareto_result;

/* The points, in the table's order: every policy but exact (exact too when
 * asked), weighted once per alpha. */
static void pareto_points(pareto_result *pr, int with_exact)
{
    for (size_t i = 0; policy_at(i); i++) {
        const policy *p = policy_at(i);
        if ((p->kind == POLICY_EXACT && !with_exact) || p->kind == POLICY_BASELINE) continue;
        int sweep = !strcmp(p->name, "weighted");
        for (int a = 0; a < (sweep ? NALPHA : 1) && pr->n < MAX_POINTS; a++) {
            pr->pol[pr->n] = p;
            pr->pt[pr->n++] = (svg_pareto_point){.name = p->name, .alpha = sweep ? a / 10.0 : -1};
        }
    }
}

/* A makespan as the points are written (12 significant digits): the front is
 * marked on what is shown, not on the last bits of sums taken in another
 * order (fifo's 60.3034616 ms a hair below priority's on one stream). */
static double ms_shown(double ms)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.12g", ms);
    return strtod(buf, NULL);
}

/* Runs and times every point's policy and marks the front. */
static int pareto_run(pareto_result *pr, const solve_ctx *c)
{
    const graph *g = pr->g;
    int64_t peak[MAX_POINTS];
    double span[MAX_POINTS];
    uint8_t front[MAX_POINTS];
    for (uint32_t k = 0; k < pr->n; k++) {
        const policy *p = pr->pol[k];
        solve_ctx pp = c ? *c : (solve_ctx){0};
        pp.alpha = pr->pt[k].alpha >= 0 ? pr->pt[k].alpha : solve_alpha(c);
        pp.has_alpha = 1;
        cli_progress("compare --pareto: point %u of %u (%s)", k + 1, pr->n, p->name);
        run r;
        timeline t;
        char err[256];
        solve_ctx s = cli_search_begin(&pp);
        int rc = policy_run(g, p, &s, &r, err, sizeof err);
        cli_search_end(rc);
        if (rc) {
            cli_eprintf("%s: error: %s\n", g->source, err);
            return EXIT_BAD;
        }
        if (cli_timeline(g, &r, &t)) {
            policy_run_free(&r);
            return EXIT_BAD;
        }
        pr->pt[k].peak = peak[k] = r.peak;
        pr->pt[k].makespan = span[k] = ms_shown(t.makespan);
        pr->bound = t.bound;
        pr->critical = t.critical;
        timeline_free(&t);
        policy_run_free(&r);
    }
    timeline_pareto(pr->n, peak, span, front);
    for (uint32_t k = 0; k < pr->n; k++) pr->pt[k].pareto = front[k];
    return EXIT_OK;
}

static void pareto_json(const pareto_result *pr)
{
    jw w;
    jw_file(&w, stdout);
    jw_object(&w);
    jw_kstring(&w, "graph", pr->g->source);
    /* without latencies there is no time: null, as compare's makespan */
    int timed = pr->g->latency != NULL;
    jw_key(&w, "critical_path");
    if (timed) cli_jw_ms(&w, pr->critical);
    else jw_null(&w);
    jw_key(&w, "makespan_bound");
    if (timed) cli_jw_ms(&w, pr->bound);
    else jw_null(&w);
    jw_key(&w, "points");
    jw_array(&w);
    for (uint32_t k = 0; k < pr->n; k++) {
        const svg_pareto_point *p = &pr->pt[k];
        jw_object(&w);
        jw_kstring(&w, "policy", p->name);
        jw_key(&w, "alpha");
        if (p->alpha >= 0) jw_f(&w, p->alpha, 1);
        else jw_null(&w);
        jw_kint(&w, "peak", p->peak);
        jw_key(&w, "makespan");
        if (timed) cli_jw_ms(&w, p->makespan);
        else jw_null(&w);
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
    for (uint32_t k = 0; k < pr->n; k++) {
        const svg_pareto_point *p = &pr->pt[k];
        printf("%s,", p->name);
        if (p->alpha >= 0) printf("%.1f", p->alpha);
        printf(",%" PRId64 ",", p->peak);
        if (pr->g->latency) cli_csv_ms(stdout, p->makespan);
        printf(",%s\n", p->pareto ? "true" : "false");
    }
}

/* The text's columns: each point's peak and makespan as people read them
 * ("6.1 MiB", "55.4 ms") when that tells every two different values apart,
 * else in bytes and with the digits that do ("55.42 ms", "55.43 ms"), so
 * that no point looks dominated by one it is not. */
typedef char cell[32];
static int cells_tell_apart(const pareto_result *pr, const cell *c, int of_peak)
{
    for (uint32_t i = 0; i < pr->n; i++)
        for (uint32_t j = i + 1; j < pr->n; j++) {
            int same = of_peak ? pr->pt[i].peak == pr->pt[j].peak
                               : pr->pt[i].makespan == pr->pt[j].makespan;
            if (!same && !strcmp(c[i], c[j])) return 0;
        }
    return 1;
}

static void text_cells(const pareto_result *pr, cell *peak, cell *span)
{
    for (uint32_t k = 0; k < pr->n; k++) units_bytes(peak[k], sizeof peak[k], pr->pt[k].peak, 0);
    if (!cells_tell_apart(pr, peak, 1))
        for (uint32_t k = 0; k < pr->n; k++)
            snprintf(peak[k], sizeof peak[k], "%" PRId64 " B", pr->pt[k].peak);
    for (uint32_t k = 0; k < pr->n; k++) units_ms(span[k], sizeof span[k], pr->pt[k].makespan);
    for (int digits = 4; digits <= 12 && !cells_tell_apart(pr, span, 0); digits++)
        for (uint32_t k = 0; k < pr->n; k++)
            snprintf(span[k], sizeof span[k], "%.*g ms", digits, pr->pt[k].makespan);
}

static void pareto_text(const pareto_result *pr)
{
    char a[32], b[32], src[1024];
    cell peak[MAX_POINTS], span[MAX_POINTS];
    int timed = pr->g->latency != NULL;
    text_cells(pr, peak, span);
    printf("%s: %u nodes", utf8_printable(pr->g->source, src, sizeof src), pr->g->n);
    if (timed)
        printf("; no order finishes before %s (critical path %s)", units_ms(a, sizeof a, pr->bound),
               units_ms(b, sizeof b, pr->critical));
    printf("\n%-10s  %5s  %12s  %s%s\n", "policy", "alpha", "peak", timed ? "    makespan  " : "",
           "front");
    for (uint32_t k = 0; k < pr->n; k++) {
        const svg_pareto_point *p = &pr->pt[k];
        char al[8] = "-";
        if (p->alpha >= 0) snprintf(al, sizeof al, "%.1f", p->alpha);
        printf("%-10s  %5s  %12s  ", p->name, al, peak[k]);
        if (timed) printf("%12s  ", span[k]);
        printf("%s\n", p->pareto ? "*" : "");
    }
    printf("*: on the Pareto front (no other point has a lower peak and a makespan as "
           "short, or a shorter makespan and a peak as low)\n");
    if (!timed)
        printf("no latencies: no node has a Latency, so there is no makespan and the front "
               "is the least peak\n");
}

int cli_pareto(const graph *g, const solve_ctx *c, int with_exact, int format, const char *svg)
{
    pareto_result pr = {.g = g};
    pareto_points(&pr, with_exact);
    cli_search_sticky(); /* with exact: a second Ctrl-C ends it */
    int rc = pareto_run(&pr, c);
    cli_progress_clear();
    if (rc) return EXIT_BAD;
    /* The SVG first: one that cannot be written leaves standard output empty. */
    int status = svg ? write_svg(svg, g, pr.pt, pr.n) : EXIT_OK;
    if (status || (svg && !strcmp(svg, "-")))
        return status; /* "-": the SVG instead of the points */
    if (format == CLI_JSON) pareto_json(&pr);
    else if (format == CLI_CSV) pareto_csv(&pr);
    else pareto_text(&pr);
    return EXIT_OK;
}
