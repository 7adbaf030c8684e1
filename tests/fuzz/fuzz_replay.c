/* fuzz_replay.c: libFuzzer harness of saved replays: replay_load_json on the
 * input's bytes (through a memfd); an accepted replay must save and load back
 * the same, is matched against fixed graphs' schedules as `view --replay`
 * does, and, made to match one, is drawn over its curve in the TUI's canvas;
 * a budget plan's replay opens the budget view of its plan on each graph, or
 * is refused with a why. Exports LLVMFuzzerTestOneInput and LLVMFuzzerInitialize. */
#define _GNU_SOURCE
#include <math.h>
#include <sys/mman.h>
#include <locale.h>
#include "fuzz_ui.h"
#include "gpu/replay.h"

#define NGRAPHS 6
#define NPOL    11 /* every policy of the table */

static graph *graphs[NGRAPHS];
static run runs[NGRAPHS][NPOL];
static app apps[NGRAPHS][NPOL];
static int in_fd = -1, out_fd = -1;
static char in_path[64], out_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* As memtris view in a UTF-8 terminal: wcwidth knows the wide and the
     * zero-width characters (in the C locale every one is '?'). */
    setlocale(LC_ALL, "C.UTF-8");
    graphs[0] = fuzz_graph(MEMTRIS_SOURCE_DIR "/samples/seed-example.json", NULL);
    graphs[1] = fuzz_graph(MEMTRIS_SOURCE_DIR "/samples/demo.json", NULL);
    graphs[2] = fuzz_graph(MEMTRIS_SOURCE_DIR "/tests/data/chain.json", NULL);
    graphs[3] = fuzz_graph(MEMTRIS_SOURCE_DIR "/tests/data/branches.json", NULL);
    graphs[4] = fuzz_graph(MEMTRIS_SOURCE_DIR "/tests/data/huge.json", NULL);
    graphs[5] = fuzz_graph(NULL, "{\"Nodes\": [], \"Edges\": []}");
    FUZZ_CHECK(policy_count() == NPOL, "%zu policies", policy_count());
    for (int i = 0; i < NGRAPHS; i++)
        for (int p = 0; p < NPOL; p++) {
            char err[256];
            FUZZ_CHECK(policy_run(graphs[i], policy_at((size_t)p), NULL, &runs[i][p], err,
                                  sizeof err) == 0,
                       "%s", err);
            FUZZ_CHECK(app_init(&apps[i][p], graphs[i], graphs[i]->source, policy_at((size_t)p),
                                policy_at((size_t)(p + 1) % NPOL), 0, NULL, NULL) == 0,
                       "%s", apps[i][p].err);
        }
    in_fd = memfd_create("fuzz-replay-in", 0);
    out_fd = memfd_create("fuzz-replay-out", 0);
    FUZZ_CHECK(in_fd >= 0 && out_fd >= 0, "memfd_create");
    snprintf(in_path, sizeof in_path, "/proc/self/fd/%d", in_fd);
    snprintf(out_path, sizeof out_path, "/proc/self/fd/%d", out_fd);
    return 0;
}

static void put_bytes(int fd, const uint8_t *data, size_t size)
{
    FUZZ_CHECK(ftruncate(fd, 0) == 0, "ftruncate");
    size_t done = 0;
    while (done < size) {
        ssize_t k = pwrite(fd, data + done, size - done, (off_t)done);
        FUZZ_CHECK(k > 0, "pwrite");
        done += (size_t)k;
    }
}

static void check_loaded(const replay_result *r)
{
    FUZZ_CHECK(r->n <= r->total, "%u steps of %u", r->n, r->total);
    FUZZ_CHECK(r->s != NULL, "no steps array");
    FUZZ_CHECK(r->backend[0] && replay_mode_find(r->mode) >= 0, "backend '%s', mode '%s'",
               r->backend, r->mode);
    FUZZ_CHECK(memchr(r->policy, 0, sizeof r->policy) && memchr(r->placer, 0, sizeof r->placer) &&
                   memchr(r->info.device, 0, sizeof r->info.device) &&
                   memchr(r->info.versions, 0, sizeof r->info.versions),
               "an unterminated string");
    for (uint32_t i = 0; i < r->n; i++) {
        FUZZ_CHECK(r->s[i].step == i, "steps[%u].step %u", i, r->s[i].step);
        FUZZ_CHECK(isfinite(r->s[i].ms) && r->s[i].ms >= 0, "steps[%u].ms", i);
    }
    FUZZ_CHECK(r->n == 0 || (r->predicted_peak_step < r->n && r->measured_peak_step < r->n &&
                             r->max_excess_step < r->n),
               "peak steps past the steps");
}

static int close_enough(double a, double b)
{
    double d = fabs(a - b), m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return d <= 1e-5 * m || d < 1e-300;
}

/* Saved again and loaded back: the same replay. */
static void check_round_trip(const replay_result *a)
{
    FUZZ_CHECK(ftruncate(out_fd, 0) == 0, "ftruncate");
    FILE *f = fopen(out_path, "w");
    FUZZ_CHECK(f != NULL, "fopen %s", out_path);
    FUZZ_CHECK(replay_write_json(f, a) == 0, "replay_write_json");
    FUZZ_CHECK(fclose(f) == 0, "fclose");
    replay_result b;
    char err[512];
    int rc = replay_load_json(out_path, &b, err, sizeof err);
    FUZZ_CHECK(rc == 0, "a saved replay does not load back: %s", err);
    FUZZ_CHECK(!strcmp(a->backend, b.backend) && !strcmp(a->mode, b.mode) &&
                   !strcmp(a->policy, b.policy) && !strcmp(a->placer, b.placer) &&
                   !strcmp(a->info.device, b.info.device) &&
                   !strcmp(a->info.versions, b.info.versions),
               "strings differ after a round trip");
    FUZZ_CHECK(a->info.total == b.info.total && a->total == b.total && a->n == b.n &&
                   a->baseline == b.baseline && a->residual_known == b.residual_known &&
                   a->residual == b.residual && a->held == b.held,
               "figures differ after a round trip");
    for (uint32_t i = 0; i < a->n; i++)
        FUZZ_CHECK(a->s[i].node == b.s[i].node && a->s[i].predicted == b.s[i].predicted &&
                       a->s[i].measured == b.s[i].measured && close_enough(a->s[i].ms, b.s[i].ms),
                   "steps[%u] differs after a round trip", i);
    FUZZ_CHECK(a->predicted_peak == b.predicted_peak && a->measured_peak == b.measured_peak &&
                   a->max_excess == b.max_excess && a->max_excess_step == b.max_excess_step,
               "summary differs after a round trip");
    FUZZ_CHECK(a->plan_n == b.plan_n && a->plan_budget == b.plan_budget &&
                   a->plan_start == b.plan_start &&
                   (!a->plan_n || close_enough(a->plan_bandwidth, b.plan_bandwidth)),
               "the budget plan differs after a round trip");
    for (size_t k = 0; k < a->plan_n; k++)
        FUZZ_CHECK(a->plan_op[k] == b.plan_op[k] && a->plan_x[k] == b.plan_x[k],
                   "budget_plan events[%zu] differs after a round trip", k);
    replay_result_free(&b);
}

/* A copy of r made to belong to run p of graph i (nodes and predicted bytes
 * of the schedule; measured bytes and times kept). */
static void conform(const replay_result *r, int i, int p, replay_result *out)
{
    const run *rn = &runs[i][p];
    *out = *r;
    out->plan_op = NULL; /* r keeps its plan */
    out->plan_x = NULL;
    out->plan_n = 0;
    out->s = calloc((size_t)rn->n + 1, sizeof *out->s);
    FUZZ_CHECK(out->s != NULL, "out of memory");
    out->total = rn->n;
    out->n = r->n < rn->n ? r->n : rn->n;
    snprintf(out->policy, sizeof out->policy, "%s", policy_at((size_t)p)->name);
    for (uint32_t s = 0; s < out->n; s++) {
        out->s[s] = r->s[s];
        out->s[s].node = graphs[i]->id[rn->order[s]];
        out->s[s].predicted = rn->memory[s];
    }
    replay_summarize(out);
}

/* Draws app a with overlay ov (moved into it) at w x h, at step k, in both
 * modes; the overlay is dropped afterwards. */
static void draw(app *a, replay_result *ov, int w, int h, uint32_t k, int timeline)
{
    app_set_replay(a, ov);
    FUZZ_CHECK(a->replay.n == 0 || app_overlay(a) != NULL, "a matching replay is not drawn");
    app_jump(a, k);
    a->arena = timeline ? ARENA_TIMELINE : ARENA_BLOCKS;
    fuzz_canvas fc;
    fuzz_canvas_init(&fc, w, h, (w ^ h) & 1);
    app_resize(a, w, h);
    fuzz_render(&fc, a);
    fuzz_canvas_free(&fc);
    replay_result_free(&a->replay);
    a->have_replay = 0;
    app_jump(a, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    put_bytes(in_fd, data, size);
    replay_result r;
    char err[512];
    if (replay_load_json(in_path, &r, err, sizeof err)) {
        FUZZ_CHECK(!strncmp(err, in_path, strlen(in_path)),
                   "the message does not name the file: %s", err);
        FUZZ_CHECK(r.s == NULL && r.n == 0, "a refused replay keeps steps");
        return 0;
    }
    check_loaded(&r);
    check_round_trip(&r);

    /* The canvas size and the step vary with a hash of the input. */
    uint32_t hash = 2166136261u;
    for (size_t i = 0; i < size; i++) hash = (hash ^ data[i]) * 16777619u;
    int w = 1 + (int)(hash % 300), h = 1 + (int)((hash >> 9) % 100);

    /* view --replay: the replay checked against each graph's schedule of its
     * policy; a match is drawn. */
    const policy *pol = policy_find(r.policy);
    for (int i = 0; i < NGRAPHS && pol; i++) {
        int p = 0;
        while (policy_at((size_t)p) != pol) p++;
        if (replay_check_run(&r, graphs[i], &runs[i][p], err, sizeof err)) {
            FUZZ_CHECK(err[0] != 0, "no message");
            continue;
        }
        replay_result copy = r;
        copy.plan_op = NULL; /* r keeps its plan */
        copy.plan_x = NULL;
        copy.plan_n = 0;
        copy.s = calloc((size_t)r.n + 1, sizeof *copy.s);
        FUZZ_CHECK(copy.s != NULL, "out of memory");
        memcpy(copy.s, r.s, (size_t)r.n * sizeof *r.s);
        draw(&apps[i][p], &copy, w, h, graphs[i]->n ? hash % (graphs[i]->n + 1) : 0,
             (int)(hash >> 20) & 1);
    }
    /* A budget plan's replay, as view --replay takes one: the budget view of its plan on each
     * graph (a fresh app each: a plan that fits changes the app), or a refusal that says why. */
    for (int g = 0; g < NGRAPHS && r.plan_n; g++) {
        app a;
        replay_result copy = r;
        copy.s = malloc(((size_t)r.n + 1) * sizeof *copy.s);
        copy.plan_op = malloc(r.plan_n + 1);
        copy.plan_x = malloc((r.plan_n + 1) * sizeof *copy.plan_x);
        FUZZ_CHECK(copy.s && copy.plan_op && copy.plan_x, "out of memory");
        memcpy(copy.s, r.s, (size_t)r.n * sizeof *r.s);
        memcpy(copy.plan_op, r.plan_op, r.plan_n);
        memcpy(copy.plan_x, r.plan_x, r.plan_n * sizeof *r.plan_x);
        FUZZ_CHECK(app_init(&a, graphs[g], graphs[g]->source, policy_find("given"),
                            policy_find("priority"), 0, NULL, NULL) == 0,
                   "%s", a.err);
        if (app_budget_replay(&a, &copy, err, sizeof err) == 0) {
            FUZZ_CHECK(a.bud.on && app_overlay(&a) != NULL, "a plan taken but not shown");
            fuzz_canvas fc;
            fuzz_canvas_init(&fc, w, h, (w ^ h) & 1);
            app_resize(&a, w, h);
            fuzz_render(&fc, &a);
            fuzz_canvas_free(&fc);
        } else {
            FUZZ_CHECK(err[0] != 0 && !a.bud.on && a.g == graphs[g], "a refusal without a why");
            replay_result_free(&copy);
        }
        app_free(&a);
    }
    /* Any replay's measurements, made to match a schedule, drawn over it. */
    int i = (int)((hash >> 16) % NGRAPHS), p = (int)((hash >> 24) % NPOL);
    replay_result fit;
    conform(&r, i, p, &fit);
    FUZZ_CHECK(replay_check_run(&fit, graphs[i], &runs[i][p], err, sizeof err) == 0,
               "conformed: %s", err);
    draw(&apps[i][p], &fit, w, h, graphs[i]->n ? (hash >> 3) % (graphs[i]->n + 1) : 0,
         (int)(hash >> 21) & 1);
    replay_result_free(&r);
    return 0;
}
