/* bench_exact.c: the exact budget solver's scale: for each FILE (a memtris graph) and each
 * budget (a percentage of the budget-free peak), budget_fit with --solver exact under a limit of
 * CPU seconds (the process's clock, so that a loaded machine does not change the answer much):
 * found or not, extra time, proven or the lower bound (the gap), the states kept and the CPU
 * seconds. One Markdown row each.
 * Usage: bench_exact SECONDS PCT[,PCT...] FILE... */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sched/budget/budget_arg.h"
#include "sched/budget/budget_fit.h"
#include "sched/graph/diag.h"
#include "sched/graph/graph.h"
#include "sched/graph/load.h"

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_exact SECONDS PCT[,PCT...] FILE...\n");
        return 2;
    }
    double secs = atof(argv[1]);
    printf(
        "| graph | budget | found | extra ms | proven | lower bound ms | gap | states | cpu s |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 3; i < argc; i++) {
        diag d;
        diag_init(&d, argv[i]);
        graph *g = load_file(argv[i], &d, NULL, NULL);
        for (size_t k = 0; k < d.nlines; k++) fprintf(stderr, "%s\n", d.lines[k]);
        diag_free(&d);
        if (!g) return 1;
        const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        char pcts[256];
        snprintf(pcts, sizeof pcts, "%s", argv[2]);
        for (char *tok = strtok(pcts, ","); tok; tok = strtok(NULL, ",")) {
            solve_ctx c = {.seconds = secs, .clock = cpu_seconds};
            char arg[64];
            int64_t bytes, pct;
            snprintf(arg, sizeof arg, "%s%%", tok);
            if (budget_arg_parse(arg, &bytes, &pct)) {
                fprintf(stderr, "bench_exact: '%s' is not a percentage\n", tok);
                return 2;
            }
            budget_request rq = {.g = g,
                                 .pct_micro = pct,
                                 .allow = BUDGET_ALLOW_RECOMPUTE,
                                 .bandwidth = BUDGET_BANDWIDTH,
                                 .solver = budget_solver_find("exact"),
                                 .c = &c};
            budget_result res = {0};
            double t0 = cpu_seconds();
            if (budget_fit(&rq, &res)) {
                fprintf(stderr, "bench_exact: %s: %s\n", argv[i], res.err);
                return 1;
            }
            double t1 = cpu_seconds();
            double lb = res.proof.lower_bound_ms, ex = res.st.extra_ms;
            char gap[32] = "-";
            if (res.found && !res.proof.proven && ex > 0)
                snprintf(gap, sizeof gap, "%.1f%%", 100 * (ex - lb) / ex);
            printf("| %s | %s%% | %s | %s%.4f | %s | %.4f | %s | %llu | %.2f |\n", base, tok,
                   res.found ? "yes" : "no", res.found ? "" : "-", res.found ? ex : 0,
                   res.proof.proven ? "yes" : "no", lb, gap, (unsigned long long)res.proof.states,
                   t1 - t0);
            fflush(stdout);
            budget_result_free(&res);
        }
        graph_free(g);
    }
    return 0;
}
