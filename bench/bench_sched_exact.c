/* bench_sched_exact.c: policy exact (`schedule -p exact`) under a limit of CPU seconds (the
 * process's clock, so that a loaded machine does not change what the search reaches much): for
 * each FILE (a memtris graph) the proven bound, the best peak, the gap (peak over the bound, as
 * `schedule` prints it), proven or not, why it stopped, the states kept and the CPU seconds.
 * One Markdown row each.
 * Usage: bench_sched_exact SECONDS FILE... */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sched/graph/diag.h"
#include "sched/graph/graph.h"
#include "sched/graph/load.h"
#include "sched/policy/policy.h"

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double mib(int64_t b) { return (double)b / 1048576.0; }

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_sched_exact SECONDS FILE...\n");
        return 2;
    }
    double secs = atof(argv[1]);
    printf("| graph | bound | best | gap | proven | stopped | states | cpu s |\n");
    printf("|---|---:|---:|---:|---|---|---:|---:|\n");
    for (int i = 2; i < argc; i++) {
        diag d;
        diag_init(&d, argv[i]);
        graph *g = load_file(argv[i], &d, NULL, NULL);
        for (size_t k = 0; k < d.nlines; k++) fprintf(stderr, "%s\n", d.lines[k]);
        diag_free(&d);
        if (!g) return 1;
        const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        solve_ctx c = {.seconds = secs, .clock = cpu_seconds};
        run r;
        char err[256];
        double t0 = cpu_seconds();
        if (policy_run(g, policy_find("exact"), &c, &r, err, sizeof err)) {
            fprintf(stderr, "%s: %s\n", base, err);
            graph_free(g);
            return 1;
        }
        double t = cpu_seconds() - t0;
        double gap = r.lower_bound > 0
                         ? 100.0 * (double)(r.peak - r.lower_bound) / (double)r.lower_bound
                         : 100.0;
        printf("| %s | %.2f MiB | %.2f MiB | %.2f%% | %s | %s | %llu | %.2f |\n", base,
               mib(r.lower_bound), mib(r.peak), gap, r.optimal ? "yes" : "no",
               solve_stop_name(r.search.stopped), (unsigned long long)r.search.states, t);
        fflush(stdout);
        policy_run_free(&r);
        graph_free(g);
    }
    return 0;
}
