/* bench_limits.c: do the searches keep their limits? For each FILE (a memtris graph, or a
 * MiniMalloc CSV problem when it ends in .csv) and each time limit, the wall time of the
 * solving part alone (policy exact's plan, or placer exact's plan of the schedule) against
 * the limit, and how long a cancel takes to be obeyed (the watcher's flag, as the TUI's Esc
 * and q and the CLI's SIGINT set it) when set 0.3 s into the search. A Markdown row per file,
 * limit and solver; the contract is an overshoot of at most 10% + 0.2 s, and a cancel obeyed
 * within 0.2 s. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sched/graph/diag.h"
#include "sched/graph/graph.h"
#include "sched/graph/load.h"
#include "sched/graph/solve_watch.h"
#include "sched/place/place.h"
#include "sched/place/problem.h"
#include "sched/policy/policy.h"
#include "util/clock.h"

typedef struct job {
    const graph *g;
    const run *sched; /* the schedule to place; NULL: schedule with exact */
    solve_ctx ctx;
    double t0, t1;
    int rc;
    char note[96]; /* how the search went */
} job;

static char last_note[96]; /* the last measured job's note */

static void *job_main(void *arg)
{
    job *j = arg;
    char err[256];
    j->t0 = clock_seconds();
    if (j->sched) {
        placement pl;
        j->rc = place_run(j->g, j->sched, placer_find("exact"), 1, &j->ctx, &pl, err, sizeof err);
        if (!j->rc)
            snprintf(j->note, sizeof j->note, "ran %d, %llu nodes, %s", pl.search.ran,
                     (unsigned long long)pl.search.states, solve_stop_name(pl.search.stopped));
        if (!j->rc) place_free(&pl);
    } else {
        run r;
        j->rc = policy_run(j->g, policy_find("exact"), &j->ctx, &r, err, sizeof err);
        if (!j->rc)
            snprintf(j->note, sizeof j->note, "ran %d, %llu states, %u/%u pieces, %s", r.search.ran,
                     (unsigned long long)r.search.states, r.search.solved, r.search.pieces,
                     solve_stop_name(r.search.stopped));
        if (!j->rc) policy_run_free(&r);
    }
    j->t1 = clock_seconds();
    if (j->rc) fprintf(stderr, "bench_limits: %s\n", err);
    return NULL;
}

/* The seconds a run with this limit takes; with cancel_at > 0, the seconds
 * from setting the cancel flag at cancel_at to the solver's return. */
static double measure(const graph *g, const run *sched, double limit, double cancel_at)
{
    solve_watch w;
    memset(&w, 0, sizeof w);
    job j = {.g = g, .sched = sched, .ctx = {.seconds = limit, .watch = &w}};
    pthread_t t;
    if (pthread_create(&t, NULL, job_main, &j)) return -1;
    double set = 0;
    if (cancel_at > 0) {
        time_t whole = (time_t)cancel_at;
        struct timespec ts = {whole, (long)((cancel_at - (double)whole) * 1e9)};
        nanosleep(&ts, NULL);
        set = clock_seconds();
        atomic_store(&w.cancel, 1);
        if (getenv("BENCH_DOING")) fprintf(stderr, "cancel during: %s\n", atomic_load(&w.doing));
    }
    pthread_join(t, NULL);
    memcpy(last_note, j.note, sizeof last_note);
    return cancel_at > 0 ? j.t1 - set : j.t1 - j.t0;
}

static graph *load_any(const char *path)
{
    diag d;
    diag_init(&d, path);
    size_t n = strlen(path);
    graph *g = NULL;
    if (n > 4 && !strcmp(path + n - 4, ".csv")) {
        problem *p = problem_read(path, &d);
        g = p ? problem_graph(p, &d) : NULL;
        problem_free(p);
    } else {
        g = load_file(path, &d, NULL, NULL);
    }
    for (size_t i = 0; i < d.nlines; i++) fprintf(stderr, "%s\n", d.lines[i]);
    diag_free(&d);
    return g;
}

int main(int argc, char **argv)
{
    static const double limits[] = {0.5, 2, 10};
    if (argc < 2) {
        fprintf(stderr, "Usage: bench_limits FILE... (graphs, or MiniMalloc CSVs)\n");
        return 2;
    }
    /* BENCH_ONLY=policy|placer: that solver alone; BENCH_CANCEL_AT=S: the
     * cancel S seconds in (default 0.3); BENCH_CANCEL_ONLY=1: no limits */
    const char *only = getenv("BENCH_ONLY");
    double cancel_at = getenv("BENCH_CANCEL_AT") ? atof(getenv("BENCH_CANCEL_AT")) : 0.3;
    int cancel_only = getenv("BENCH_CANCEL_ONLY") != NULL;
    printf("| file | nodes | solver | limit | solving | overshoot | within 10%% + 0.2 s | "
           "cancel obeyed in | search |\n|---|---:|---|---:|---:|---:|---|---:|---|\n");
    for (int i = 1; i < argc; i++) {
        graph *g = load_any(argv[i]);
        if (!g) return 1;
        run base;
        char err[256];
        if (policy_run(g, policy_find("priority"), NULL, &base, err, sizeof err)) {
            fprintf(stderr, "bench_limits: %s\n", err);
            return 1;
        }
        const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        for (int s = 0; s < 2; s++) {
            const run *sched = s ? &base : NULL;
            if (only && strcmp(only, s ? "placer" : "policy")) continue;
            double cancel = measure(g, sched, 60, cancel_at);
            if (cancel_only)
                printf("| %s | %u | %s | - | - | - | - | %.3f s | |\n", name, g->n,
                       s ? "placer exact" : "policy exact", cancel);
            for (size_t k = 0; k < sizeof limits / sizeof *limits && !cancel_only; k++) {
                double t = measure(g, sched, limits[k], 0), over = t - limits[k];
                printf("| %s | %u | %s | %.1f s | %.2f s | %+.2f s | %s | %.3f s | %s |\n", name,
                       g->n, s ? "placer exact" : "policy exact", limits[k], t, over,
                       over <= 0.1 * limits[k] + 0.2 ? "yes" : "**no**", cancel, last_note);
                fflush(stdout);
            }
        }
        policy_run_free(&base);
        graph_free(g);
    }
    return 0;
}
