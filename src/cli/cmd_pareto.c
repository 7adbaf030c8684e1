/* cmd_pareto.c: "memtris compare --pareto": fifo, priority, multiqueue, best
 * and weighted at alpha 0, 0.1, ..., 1 on one graph, each as a (peak,
 * makespan) point, the Pareto front marked; as text, JSON or CSV, and the
 * plane as SVG. */
#include <inttypes.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "util/json.h"
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
        fprintf(stderr, "memtris compare: out of memory writing the SVG\n");
        cli_out_abandon(&out);
        return EXIT_BAD;
    }
    return cli_out_close(&out, ferror(out.f) ? errno : 0);
}

int cli_pareto(const graph *g, const solve_ctx *c, int format, const char *svg)
{
    static const char *const fixed[] = {"fifo", "priority", "multiqueue", "best"};
    svg_pareto_point pt[NPOINTS];
    int64_t peak[NPOINTS];
    double span[NPOINTS], bound = 0, critical = 0;
    uint8_t front[NPOINTS];
    for (int k = 0; k < NPOINTS; k++) {
        const policy *p = policy_find(k < 4 ? fixed[k] : "weighted");
        solve_ctx pp = c ? *c : (solve_ctx){0};
        pp.alpha = k < 4 ? solve_alpha(c) : (k - 4) / 10.0;
        pp.has_alpha = 1;
        run r;
        timeline t;
        char err[256];
        int bad = policy_run(g, p, &pp, &r, err, sizeof err);
        if (bad) {
            fprintf(stderr, "%s: error: %s\n", g->source, err);
            return EXIT_BAD;
        }
        if (cli_timeline(g, &r, &t)) {
            policy_run_free(&r);
            return EXIT_BAD;
        }
        pt[k] = (svg_pareto_point){.name = p->name, .alpha = k < 4 ? -1 : pp.alpha};
        pt[k].peak = peak[k] = r.peak;
        pt[k].makespan = span[k] = t.makespan;
        bound = t.bound;
        critical = t.critical;
        timeline_free(&t);
        policy_run_free(&r);
    }
    timeline_pareto(NPOINTS, peak, span, front);
    for (int k = 0; k < NPOINTS; k++) pt[k].pareto = front[k];

    char a[32], b[32];
    int svg_only = svg && !strcmp(svg, "-");
    if (svg_only) {
    } else if (format == CLI_JSON) {
        printf("{\"graph\": ");
        json_string(stdout, g->source);
        printf(", \"critical_path\": ");
        cli_json_ms(stdout, critical);
        printf(", \"makespan_bound\": ");
        cli_json_ms(stdout, bound);
        printf(", \"points\": [");
        for (int k = 0; k < NPOINTS; k++) {
            printf("%s{\"policy\": \"%s\", \"alpha\": ", k ? ", " : "", pt[k].name);
            if (pt[k].alpha >= 0) printf("%.1f", pt[k].alpha);
            else printf("null");
            printf(", \"peak\": %" PRId64 ", \"makespan\": ", pt[k].peak);
            cli_json_ms(stdout, pt[k].makespan);
            printf(", \"pareto\": %s}", pt[k].pareto ? "true" : "false");
        }
        printf("]}\n");
    } else if (format == CLI_CSV) {
        printf("policy,alpha,peak,makespan_ms,pareto\n");
        for (int k = 0; k < NPOINTS; k++) {
            printf("%s,", pt[k].name);
            if (pt[k].alpha >= 0) printf("%.1f", pt[k].alpha);
            printf(",%" PRId64 ",", pt[k].peak);
            cli_json_ms(stdout, pt[k].makespan);
            printf(",%s\n", pt[k].pareto ? "true" : "false");
        }
    } else {
        printf("%s: %u nodes; no order finishes before %s (critical path %s)\n", g->source, g->n,
               units_ms(a, sizeof a, bound), units_ms(b, sizeof b, critical));
        printf("%-10s  %5s  %12s  %12s  %s\n", "policy", "alpha", "peak", "makespan", "front");
        for (int k = 0; k < NPOINTS; k++) {
            char al[8] = "-";
            if (pt[k].alpha >= 0) snprintf(al, sizeof al, "%.1f", pt[k].alpha);
            printf("%-10s  %5s  %12s  %12s  %s\n", pt[k].name, al,
                   units_bytes(a, sizeof a, pt[k].peak, 0), units_ms(b, sizeof b, pt[k].makespan),
                   pt[k].pareto ? "*" : "");
        }
        printf("*: on the Pareto front (no other point has a lower peak and a makespan as "
               "short, or a shorter makespan and a peak as low)\n");
        if (!g->latency) printf("no node has a Latency: every makespan is 0\n");
    }
    return svg ? write_svg(svg, g, pt) : EXIT_OK;
}
