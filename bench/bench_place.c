/* bench_place.c: benchmark of the placers: for each graph file and one schedule, every placer's
 * time (best of --runs), arena against the lower bounds (peak live bytes, peak of aligned spans)
 * and place_verify on its plan; text, or a Markdown table of files x placers. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sched/graph/diag.h"
#include "sched/graph/graph.h"
#include "sched/graph/load.h"
#include "sched/place/place.h"
#include "sched/policy/policy.h"
#include "util/units.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char usage[] =
    "Usage: bench_place [OPTION]... FILE...\n"
    "Runs every placer on the schedule of each FILE and prints its time and arena.\n"
    "  -p, --policy NAME   the schedule's policy (default priority)\n"
    "  -a, --align N       alignment in bytes (default 64)\n"
    "  -r, --runs N        time each placer N times, keep the best (default 3)\n"
    "  -P, --placers LIST  comma-separated placers (default: all)\n"
    "  -m, --md            a Markdown table: a row per file, a column per placer\n"
    "  -h, --help          this help\n";

static int wanted(const char *list, const char *name)
{
    if (!list) return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, name, n)) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {{"policy", required_argument, 0, 'p'},
                                         {"align", required_argument, 0, 'a'},
                                         {"runs", required_argument, 0, 'r'},
                                         {"placers", required_argument, 0, 'P'},
                                         {"md", no_argument, 0, 'm'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *polname = "priority", *list = NULL;
    long long align = PLACE_ALIGN_DEFAULT;
    int runs = 3, md = 0, c;
    while ((c = getopt_long(argc, argv, "p:a:r:P:mh", opts, NULL)) != -1) {
        switch (c) {
        case 'p': polname = optarg; break;
        case 'a': align = atoll(optarg); break;
        case 'r': runs = atoi(optarg); break;
        case 'P': list = optarg; break;
        case 'm': md = 1; break;
        case 'h': fputs(usage, stdout); return 0;
        default: fputs(usage, stderr); return 2;
        }
    }
    const policy *pol = policy_find(polname);
    if (optind >= argc || runs < 1 || !pol || align < 1 || (align & (align - 1))) {
        fputs(usage, stderr);
        return 2;
    }
    if (md) {
        printf("| graph | buffers | lower bound |");
        for (size_t i = 0; placer_at(i); i++)
            if (wanted(list, placer_at(i)->name)) printf(" %s |", placer_at(i)->name);
        printf("\n|---|---:|---:|");
        for (size_t i = 0; placer_at(i); i++)
            if (wanted(list, placer_at(i)->name)) printf("---:|");
        printf("\n");
    }
    int status = 0;
    for (int fi = optind; fi < argc; fi++) {
        const char *path = argv[fi], *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        diag d;
        diag_init(&d, path);
        double t0 = now_s();
        graph *g = load_file(path, &d, NULL, NULL);
        double load_s = now_s() - t0;
        if (!g) {
            for (size_t i = 0; i < d.nlines; i++) fprintf(stderr, "%s\n", d.lines[i]);
            diag_free(&d);
            status = 1;
            continue;
        }
        run r;
        char err[512];
        t0 = now_s();
        if (policy_run(g, pol, NULL, &r, err, sizeof err)) {
            fprintf(stderr, "%s: %s\n", path, err);
            graph_free(g);
            diag_free(&d);
            status = 1;
            continue;
        }
        double sched_s = now_s() - t0;
        int64_t lb = r.peak, alb = place_lower_bound(g, &r, align);
        char h1[32], h2[32], h3[32];
        if (md) printf("| %s | %u | %s |", base, g->nbufs, units_bytes(h1, sizeof h1, lb, 0));
        else
            printf("%s: %u nodes, %u buffers, load %.3f s, %s %.4f s, lower bound %s (%lld), "
                   "aligned to %lld: %s "
                   "(%lld)\n",
                   base, g->n, g->nbufs, load_s, pol->name, sched_s,
                   units_bytes(h1, sizeof h1, lb, 0), (long long)lb, align,
                   units_bytes(h2, sizeof h2, alb, 0), (long long)alb);
        for (size_t i = 0; placer_at(i); i++) {
            const placer *p = placer_at(i);
            if (!wanted(list, p->name)) continue;
            double best = 1e30;
            placement pl = {0};
            int failed = 0;
            for (int k = 0; k < runs && !failed; k++) {
                if (k) place_free(&pl);
                t0 = now_s();
                if (place_run(g, &r, p, align, NULL, &pl, err, sizeof err)) failed = 1;
                double t = now_s() - t0;
                if (t < best) best = t;
            }
            if (failed) {
                fprintf(stderr, "%s: %s: %s\n", path, p->name, err);
                status = 1;
                continue;
            }
            const char *ok = "";
            if (place_verify(g, &r, &pl, err, sizeof err)) {
                fprintf(stderr, "%s: %s: the plan is wrong: %s\n", path, p->name, err);
                ok = " (WRONG)";
                status = 1;
            }
            double over = lb ? 100.0 * (double)(pl.arena - lb) / (double)lb : 0;
            double aover = alb ? 100.0 * (double)(pl.arena - alb) / (double)alb : 0;
            units_bytes(h3, sizeof h3, pl.arena, 0);
            if (md) {
                char t[32];
                if (best < 1e-3) snprintf(t, sizeof t, "%.0f us", best * 1e6);
                else if (best < 1) snprintf(t, sizeof t, "%.1f ms", best * 1e3);
                else snprintf(t, sizeof t, "%.2f s", best);
                printf(" %s%s +%.2f%%, %s |", h3, ok, over, t);
            } else
                printf("  %-12s arena %12lld (%s) %+8.2f%% over the bound, %+8.2f%% over the "
                       "aligned bound, "
                       "%.4f s%s%s%s\n",
                       p->name, (long long)pl.arena, h3, over, aover, best, ok,
                       pl.detail ? ": " : "", pl.detail ? pl.detail : "");
            fflush(stdout);
            place_free(&pl);
        }
        if (md) printf("\n");
        policy_run_free(&r);
        graph_free(g);
        diag_free(&d);
    }
    return status;
}
