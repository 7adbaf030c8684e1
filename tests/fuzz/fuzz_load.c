/* fuzz_load.c: libFuzzer harness of the graph loader: load_buffer on the
 * input's bytes; when it accepts, every policy's schedule is checked, and on
 * graphs of at most FUZZ_PLACE_MAX nodes every placer's plan is verified and
 * the stepper is walked forward and back; the loader's single pass and its walk
 * (load_opts.walk_only) give the same messages and the same graph. Exports
 * LLVMFuzzerTestOneInput. */
#include "../graph_same.h"
#include "fuzz_util.h"
#include "sched/place/place.h"

/* Work per input stays small: placing (best hill-climbs) and stepping are
 * done on graphs up to this size only; bigger ones are loaded and scheduled. */
#define FUZZ_PLACE_MAX 1024
#define FUZZ_STEP_MAX  4096

/* The loaded graph's arrays agree with each other. */
static void check_graph(const graph *g, const diag *d)
{
    FUZZ_CHECK(d->nerrors == 0, "a graph with %zu errors", d->nerrors);
    FUZZ_CHECK(g->succ_off[0] == 0 && g->pred_off[0] == 0 && g->succ_off[g->n] == g->nedges &&
                   g->pred_off[g->n] == g->nedges,
               "edge offsets");
    for (uint32_t i = 0; i < g->n; i++) {
        FUZZ_CHECK(graph_find(g, g->id[i]) == i, "Id %lld does not find node %u",
                   (long long)g->id[i], i);
        FUZZ_CHECK(g->kind[i] <= NODE_ALLOC, "kind %u", g->kind[i]);
        FUZZ_CHECK(g->op[i] < g->nops, "op index");
        FUZZ_CHECK(g->name[i] < g->strpool_len || (g->name[i] == 0), "name offset");
        FUZZ_CHECK(g->in_off[i] <= g->in_off[i + 1], "inputs offsets");
        for (uint32_t e = g->succ_off[i]; e < g->succ_off[i + 1]; e++)
            FUZZ_CHECK(g->succ[e] < g->n, "succ");
        for (uint32_t e = g->pred_off[i]; e < g->pred_off[i + 1]; e++)
            FUZZ_CHECK(g->pred[e] < g->n, "pred");
        uint32_t b = g->buf[i];
        if (g->kind[i] == NODE_COMPUTE) {
            FUZZ_CHECK(b == GRAPH_NONE && g->change[i] == 0, "compute node %u with a buffer", i);
            continue;
        }
        FUZZ_CHECK(b < g->nbufs, "node %u: buffer %u of %u", i, b, g->nbufs);
        FUZZ_CHECK(g->change[i] == (g->kind[i] == NODE_ALLOC ? g->buf_size[b] : -g->buf_size[b]),
                   "change");
    }
    for (uint32_t b = 0; b < g->nbufs; b++) {
        FUZZ_CHECK(graph_find_buf(g, g->buf_id[b]) == b, "BufId %lld", (long long)g->buf_id[b]);
        FUZZ_CHECK(g->buf_size[b] >= 0 && g->buf_size[b] <= GRAPH_MAX_SIZE, "size");
        FUZZ_CHECK(g->buf_alloc[b] < g->n && g->kind[g->buf_alloc[b]] == NODE_ALLOC, "buf_alloc");
        FUZZ_CHECK(g->buf_free[b] == GRAPH_NONE ||
                       (g->buf_free[b] < g->n && g->kind[g->buf_free[b]] == NODE_FREE),
                   "buf_free");
    }
    for (uint32_t i = 0; i < g->n; i++) (void)strlen(graph_name(g, i));
}

/* The walk alone says what load_buffer said (d) and builds the same graph (g, or NULL). */
static void check_walk_agrees(const uint8_t *data, size_t size, const graph *g, const diag *d)
{
    diag dw;
    diag_init(&dw, "fuzz.json");
    load_opts o;
    memset(&o, 0, sizeof o);
    o.walk_only = 1;
    graph *w = load_buffer((const char *)data, size, "fuzz.json", &dw, &o, NULL);
    long line = diag_differs(d, &dw);
    FUZZ_CHECK(line < 0, "message %ld: \"%s\" by the single pass, \"%s\" by the walk", line,
               (size_t)line < d->nlines ? d->lines[line] : "",
               (size_t)line < dw.nlines ? dw.lines[line] : "");
    FUZZ_CHECK((g == NULL) == (w == NULL), "one way failed");
    const char *what = g ? graph_differs(g, w) : NULL;
    FUZZ_CHECK(!what, "%s differs between the single pass and the walk", what);
    graph_free(w);
    diag_free(&dw);
}

static void check_placers(const graph *g, const run *r, int64_t align)
{
    int64_t lb = place_lower_bound(g, r, align);
    for (size_t i = 0; placer_at(i); i++) {
        const placer *p = placer_at(i);
        placement pl;
        char err[512];
        if (place_run(g, r, p, align, NULL, &pl, err, sizeof err))
            continue; /* e.g. the arena past 2^63-1 */
        int bad = place_verify(g, r, &pl, err, sizeof err);
        FUZZ_CHECK(!bad, "placer %s, align %lld: %s", p->name, (long long)align, err);
        FUZZ_CHECK(pl.arena >= lb, "placer %s: arena %lld below the lower bound %lld", p->name,
                   (long long)pl.arena, (long long)lb);
        for (uint32_t s = 0; s < r->n; s++) FUZZ_CHECK(pl.hwm[s] <= pl.arena, "hwm past the arena");
        place_free(&pl);
    }
}

static void check_stepper(const graph *g, const policy *p)
{
    stepper s;
    char err[256];
    if (step_init(&s, g, p, NULL, err, sizeof err)) return;
    fuzz_check_stepper(&s);
    while (step_forward(&s)) {
        if (s.k % 64 == 0 || s.k == g->n) fuzz_check_stepper(&s);
    }
    FUZZ_CHECK(s.k == g->n, "stepped to %u of %u", s.k, g->n);
    step_jump(&s, g->n / 3);
    fuzz_check_stepper(&s);
    fuzz_check_undo(&s);
    while (step_back(&s)) {}
    FUZZ_CHECK(s.k == 0, "stepped back to %u", s.k);
    fuzz_check_stepper(&s);
    step_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag d;
    diag_init(&d, "fuzz.json");
    graph *g = load_buffer((const char *)data, size, "fuzz.json", &d, NULL, NULL);
    FUZZ_CHECK(g ? d.nerrors == 0 : d.nerrors > 0, "graph %p with %zu errors", (void *)g,
               d.nerrors);
    for (size_t i = 0; i < d.nlines; i++)
        FUZZ_CHECK(d.lines[i] && strlen(d.lines[i]) < 4096, "diagnostic line");
    check_walk_agrees(data, size, g, &d);
    if (!g) {
        diag_free(&d);
        return 0;
    }
    check_graph(g, &d);
    diag_free(&d);

    /* The alignment varies with the input's length, not its text. */
    static const int64_t aligns[] = {64, 1, 8, 4096};
    int64_t align = aligns[size % 4];
    run runs[2];
    int have[2] = {0, 0};
    for (size_t i = 0; i < 2 && policy_at(i); i++) {
        char err[256];
        if (policy_run(g, policy_at(i), NULL, &runs[i], err, sizeof err))
            continue; /* live bytes past 2^63-1 */
        have[i] = 1;
        fuzz_check_run(g, &runs[i]);
        if (g->n <= FUZZ_PLACE_MAX) check_placers(g, &runs[i], align);
        if (g->n <= FUZZ_STEP_MAX) check_stepper(g, policy_at(i));
    }
    if (have[0] && have[1]) FUZZ_CHECK(policy_diverge(&runs[0], &runs[1]) <= g->n, "diverge");
    for (int i = 0; i < 2; i++)
        if (have[i]) policy_run_free(&runs[i]);
    graph_free(g);
    return 0;
}
