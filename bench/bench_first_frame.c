/* bench_first_frame.c: what the TUI does between start and its first frame on
 * a large graph, phase by phase, wall and CPU seconds: the load, app_init (the
 * run, its placement, the bound...), the first layout and the first frame drawn
 * into the headless canvas, as `memtris view FILE` does them (the plan's check
 * deferred past the frame: each run also says how long it was then waited
 * for). Best of REPS runs of the whole (the file read again each time).
 * Usage: bench_first_frame FILE [WIDTHxHEIGHT [REPS]] */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "sched/graph/load.h"
#include "ui/app.h"
#include "ui/view.h"

typedef struct {
    double wall, cpu;
} moment;

static moment now(void)
{
    struct timespec w, c;
    clock_gettime(CLOCK_MONOTONIC, &w);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
    return (moment){(double)w.tv_sec + (double)w.tv_nsec * 1e-9,
                    (double)c.tv_sec + (double)c.tv_nsec * 1e-9};
}

enum { P_LOAD, P_INIT, P_LAYOUT, P_FRAME, NPHASE };
static const char *const phase_name[NPHASE] = {"load", "app_init", "first layout", "first frame"};

/* One start: fills wall and cpu seconds per phase; 0 on success. */
static int one(const char *file, int w, int h, double wall[NPHASE], double cpu[NPHASE],
               double *check_wait)
{
    moment m[NPHASE + 1];
    m[0] = now();
    diag d;
    diag_init(&d, file);
    graph *g = load_file(file, &d, NULL, NULL);
    diag_free(&d);
    if (!g) {
        fprintf(stderr, "cannot load %s\n", file);
        return -1;
    }
    m[1] = now();
    app a;
    app_start_defer_check(); /* as memtris view: the plan checked beside the frame */
    if (app_init(&a, g, file, policy_find("priority"), policy_find("fifo"), 0, NULL, NULL)) {
        fprintf(stderr, "%s\n", a.err);
        graph_free(g);
        return -1;
    }
    m[2] = now();
    canvas cv;
    canvas_init(&cv, w, h, 1);
    app_resize(&a, w, h);
    m[3] = now();
    view_cache vc = {0};
    view_render(&cv, &a, &vc);
    m[4] = now();
    if (app_check_wait(&a)) fprintf(stderr, "%s\n", a.err);
    *check_wait = now().wall - m[4].wall;
    for (int p = 0; p < NPHASE; p++) {
        wall[p] = m[p + 1].wall - m[p].wall;
        cpu[p] = m[p + 1].cpu - m[p].cpu;
    }
    view_cache_free(&vc);
    canvas_free(&cv);
    app_free(&a);
    graph_free(g);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_first_frame FILE [WxH [REPS]]\n");
        return 2;
    }
    int w = 120, h = 35, reps = 3;
    if (argc > 2 && sscanf(argv[2], "%dx%d", &w, &h) != 2) return 2;
    if (argc > 3) reps = atoi(argv[3]);
    if (reps < 1) reps = 1;
    double bw[NPHASE], bc[NPHASE], btot = 1e30, bcpu = 0;
    for (int r = 0; r < reps; r++) {
        double wall[NPHASE], cpu[NPHASE], tot = 0, ctot = 0, chk;
        if (one(argv[1], w, h, wall, cpu, &chk)) return 1;
        for (int p = 0; p < NPHASE; p++) {
            tot += wall[p];
            ctot += cpu[p];
        }
        printf("run %d: %.3f s wall (%.3f s CPU)", r + 1, tot, ctot);
        for (int p = 0; p < NPHASE; p++) printf(", %s %.3f", phase_name[p], wall[p]);
        printf("; then the plan's check %.3f\n", chk);
        if (tot < btot) {
            btot = tot;
            bcpu = ctot;
            for (int p = 0; p < NPHASE; p++) {
                bw[p] = wall[p];
                bc[p] = cpu[p];
            }
        }
    }
    printf("%s at %dx%d, best of %d: %.3f s wall, %.3f s CPU\n", argv[1], w, h, reps, btot, bcpu);
    for (int p = 0; p < NPHASE; p++)
        printf("  %-13s %7.3f s wall %7.3f s CPU  %5.1f%%\n", phase_name[p], bw[p], bc[p],
               100 * bw[p] / btot);
    printf("  %-13s %7.3f s wall %7.3f s CPU  %5.1f%%\n", "after load", btot - bw[P_LOAD],
           bcpu - bc[P_LOAD], 100 * (btot - bw[P_LOAD]) / btot);
    return 0;
}
