/* bench_tui.c: the TUI's cost on a large graph, through the headless canvas
 * renderer: one key plus one full frame, and jumps from step 0 to the last
 * step. Usage: bench_tui FILE [WIDTHxHEIGHT] */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sched/graph/load.h"
#include "ui/app.h"
#include "ui/view.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The views' cache between frames, as the terminal UI keeps it. */
static view_cache cache;

/* Times key + render `reps` times starting at step `from`; prints mean and max. */
static void frames(app *a, canvas *cv, const char *what, uint32_t from, int key, int reps)
{
    app_jump(a, from);
    double sum = 0, max = 0;
    for (int i = 0; i < reps; i++) {
        double t0 = now();
        app_key(a, key);
        view_render(cv, a, &cache);
        double dt = now() - t0;
        sum += dt;
        if (dt > max) max = dt;
    }
    printf("  %-44s mean %7.3f ms  max %7.3f ms  (%d frames)\n", what, sum / reps * 1e3, max * 1e3,
           reps);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_tui FILE [WxH]\n");
        return 2;
    }
    int w = 132, h = 40;
    if (argc > 2 && sscanf(argv[2], "%dx%d", &w, &h) != 2) return 2;
    diag d;
    diag_init(&d, argv[1]);
    double t0 = now();
    graph *g = load_file(argv[1], &d, NULL, NULL);
    diag_free(&d);
    if (!g) {
        fprintf(stderr, "cannot load %s\n", argv[1]);
        return 1;
    }
    double t1 = now();
    app a;
    if (app_init(&a, g, argv[1], policy_find("priority"), policy_find("fifo"), 0, NULL, NULL)) {
        fprintf(stderr, "%s\n", a.err);
        return 1;
    }
    double t2 = now();
    canvas cv;
    canvas_init(&cv, w, h, 1);
    app_resize(&a, w, h);
    uint32_t n = g->n;
    printf("%s: %u nodes, %u edges, screen %dx%d\n", argv[1], n, g->nedges, w, h);
    printf("  load %.3f s, app setup (run + placement) %.3f s\n", t1 - t0, t2 - t1);
    frames(&a, &cv, "step forward (Space) + frame, from step 0", 0, ' ', 200);
    frames(&a, &cv, "step forward (Space) + frame, mid-run", n / 2, ' ', 200);
    frames(&a, &cv, "step back (Left) + frame, mid-run", n / 2, K_LEFT, 200);
    frames(&a, &cv, "scroll ready queue (Down) + frame, at peak", a.st[0].r.peak_step, K_DOWN, 200);

    double best = 1e9, bestback = 1e9;
    for (int i = 0; i < 5; i++) {
        app_jump(&a, 0);
        double s = now();
        app_key(&a, K_END);
        double e = now();
        if (e - s < best) best = e - s;
        s = now();
        app_key(&a, K_HOME);
        e = now();
        if (e - s < bestback) bestback = e - s;
    }
    printf("  %-44s best %7.3f ms\n", "jump step 0 -> last (End)", best * 1e3);
    printf("  %-44s best %7.3f ms\n", "jump last -> step 0 (Home)", bestback * 1e3);

    app_key(&a, 't');
    frames(&a, &cv, "timeline view: step + frame, mid-run", n / 2, ' ', 100);
    app_key(&a, 't');
    app_key(&a, 'l');
    frames(&a, &cv, "live list (l): step + frame, mid-run", n / 2, ' ', 100);
    app_key(&a, 'l');
    app_key(&a, 'c');
    frames(&a, &cv, "compare mode: step + frame, mid-run", n / 2, ' ', 100);
    canvas_free(&cv);
    view_cache_free(&cache);
    app_free(&a);
    graph_free(g);
    return 0;
}
