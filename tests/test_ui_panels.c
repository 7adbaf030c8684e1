/* test_ui_panels.c: the TUI without a terminal: what the panels say: the arena (placers, timeline,
 * over the peak, holes), the live lists, the zoom, w's why, node names, the why line, the
 * timeline's cache, and the background jobs (placing, exact's search). */
#define _GNU_SOURCE
#include "uiutil.h"
#include "util/optimal.h"

/* The command line's --alpha reaches the policies the TUI runs in the
 * background (as every policy on a graph this size is): weighted at alpha
 * 0 keys (score,queued). */
static void test_params_in_background(void **state)
{
    (void)state;
    fixture f;
    app *a = open_sized(&f, "prefetch.json", 132, 40);
    a->ctx.has_alpha = 1; /* as --alpha 0 on the command line */
    a->ctx.alpha = 0;
    a->place.async_min = 0; /* every policy and placer in the background */
    while (strcmp(a->pol->name, "weighted")) {
        app_key(a, 's');
        if (a->place.job) place_out(a);
    }
    assert_true(a->st[0].r.alpha == 0);
    size_t len;
    char *s = render(a, 132, 40, 1, 0, &len);
    assert_non_null(strstr(s, "(score,queued)"));
    free(s);
    close_app(&f);
}

/* / finds by name or op (any case), n and N step through the matches in
 * schedule order, wrapping, and any other key ends the find. */
/* The arena header: one excess figure, the fragmentation (arena - peak of
 * live bytes, in bytes and as a share of the arena), as plan says it; no
 * gap to the bound where the bound is the peak (the same excess again);
 * each of its figures whole or absent at every width. */
static void test_arena_over_the_peak(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    int64_t arena = a->pl.arena, peak = a->st[0].r.peak;
    assert_true(arena > peak);
    size_t len;
    char *screen = render(a, 200, 40, 1, 0, &len);
    char frag[64], want[96];
    snprintf(want, sizeof want, ", fragmentation %s   high-water",
             optimal_frag(frag, sizeof frag, arena, peak, OPTIMAL_TERSE));
    if (!strstr(screen, want)) fail_msg("the arena header does not say '%s'", want);
    assert_false(a->pl.proven);
    assert_int_equal(a->pl.bound, peak);
    assert_string_equal(frag, "2.5 MiB (26.3%)");
    assert_null(strstr(screen, "above the peak"));
    assert_null(strstr(screen, "above the bound"));
    assert_null(strstr(screen, "vs bound"));
    free(screen);
    app_jump(a, a->st[0].r.peak_step);
    for (int w = 40; w <= 200; w++) {
        screen = render(a, w, 35, 1, 0, &len);
        /* The figures are whole: a number, then its unit or its words. */
        double v;
        char unit[8];
        const char *h = strstr(screen, "high-water");
        if (h &&
            (sscanf(h, "high-water so far %lf %7[A-Za-z]", &v, unit) != 2 || strcmp(unit, "MiB")))
            fail_msg("at %d columns the high-water mark is cut: %.30s", w, h);
        const char *o = strstr(screen, "arena ");
        if (o && (sscanf(o, "arena %lf %7[A-Za-z]", &v, unit) != 2 || strcmp(unit, "MiB")))
            fail_msg("at %d columns the arena is cut: %.30s", w, o);
        /* whole: with its share, without it where that does not fit, or short */
        o = strstr(screen, ", fragmentation ");
        const char *t = strstr(screen, ", frag. ");
        if (o && strncmp(o, ", fragmentation 2.5 MiB (26.3%)", 31) &&
            (strncmp(o, ", fragmentation 2.5 MiB", 23) || !strncmp(o + 23, " (", 2)))
            fail_msg("at %d columns the fragmentation is cut: %.30s", w, o);
        if (t && strncmp(t, ", frag. 2.5 MiB", 15)) fail_msg("at %d columns: %.30s", w, t);
        if (w >= 70 && !o && !t) fail_msg("at %d columns no fragmentation", w);
        free(screen);
    }
    close_app(&f);
}

static void test_curve_holes(void **state)
{
    (void)state;
    fixture f;
    app *a = open_sized(&f, "demo.json", 132, 40);
    app_jump(a, a->st[0].r.peak_step);
    size_t len;
    char *off = render(a, 132, 40, 1, 0, &len);
    assert_null(strstr(off, "holes shaded"));
    app_key(a, 'H');
    assert_true(a->holes);
    char *on = render(a, 132, 40, 1, 0, &len);
    assert_non_null(strstr(on, " Memory, holes shaded "));
    /* first-fit's arena is 9.5 MiB over a 7 MiB peak: holes to shade */
    assert_true(count_of(on, "\u00b7") > count_of(off, "\u00b7") + 10);
    free(on);
    for (int w = 40; w <= 132; w++) { /* the title's words are whole or absent */
        on = render(a, w, 24, 1, 0, &len);
        const char *t = strstr(on, " Memory");
        if (t && strncmp(t, " Memory, holes shaded ", 22) && strncmp(t, " Memory ", 8))
            fail_msg("at %d columns the curve's title is cut: %.24s", w, t);
        free(on);
    }
    app_key(a, 'H');
    assert_false(a->holes);
    on = render(a, 132, 40, 1, 0, &len);
    assert_string_equal(on, off);
    free(on);
    free(off);
    close_app(&f);
}

/* On a big graph a and s place in the background: a progress line with
 * Esc to cancel, the old arena until the new one is taken; keys that need
 * the plan wait. (The bound is lowered here so that the demo counts as big.) */
static void test_place_background(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    a->place.async_min = 0;
    app_jump(a, 20);
    app_key(a, 'a');
    assert_non_null(a->place.job);
    size_t len;
    char *s = render(a, 100, 30, 1, 1, &len);
    assert_non_null(strstr(s, " Placing 20 buffers with best-fit"));
    assert_non_null(strstr(s, "Esc: cancel"));
    free(s);
    app_key(a, 's');
    assert_string_equal(a->msg, "'s' waits until placing ends; Esc cancels it");
    place_out(a);
    assert_string_equal(a->placer->name, "best-fit");
    assert_string_equal(a->pl.placer, "best-fit");
    assert_non_null(strstr(a->msg, "placer best-fit: arena"));
    /* cancelled: the arena stays */
    app_key(a, 'a');
    assert_non_null(a->place.job);
    app_key(a, K_ESC);
    assert_null(a->place.job);
    assert_string_equal(a->msg, "placer pool cancelled; the arena is as it was");
    assert_string_equal(a->placer->name, "best-fit");
    /* s: the new policy's run placed in the background, the step kept */
    app_key(a, 's');
    assert_non_null(a->place.job);
    assert_string_equal(a->pol->name, "priority");
    place_out(a);
    assert_string_equal(a->pol->name, "dfs");
    assert_string_equal(a->cmp.pol->name, "fifo");
    assert_int_equal(a->st[0].k, 20);
    assert_int_equal(a->st[1].k, 20);
    assert_string_equal(a->pl.placer, "best-fit");
    assert_non_null(strstr(a->msg, "policy dfs:"));
    /* and a placement left running when the app ends is stopped */
    app_key(a, 'a');
    close_app(&f);
}

/* In compare mode l lists the stepped side's live buffers, then the
 * other's, then gives the summary back. */
static void test_live_of_either(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    app_resize(a, 120, 35);
    app_jump(a, 30);
    size_t len;
    const char *titles[] = {" Live at step 30 of priority ", " Live at step 30 of fifo ",
                            " Compare "};
    for (int i = 0; i < 3; i++) {
        app_key(a, 'l');
        char *s = render(a, 120, 35, 0, 1, &len);
        assert_non_null(strstr(s, titles[i]));
        free(s);
    }
    close_app(&f);
}

/* l lists the buffers live at the cursor, largest first, summing to the
 * live memory; P then shows the peak's. */
static void test_live_list(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_key(a, 'P');
    app_key(a, 'l');
    assert_true(a->arena == ARENA_LIVE);
    const graph *g = f.g;
    const stepper *s = &a->st[0];
    uint32_t n = 0, big = GRAPH_NONE;
    for (uint32_t b = 0; b < g->nbufs; b++)
        if (step_buf_live(s, b)) {
            n++;
            if (big == GRAPH_NONE || g->buf_size[b] > g->buf_size[big]) big = b;
        }
    char want[128], b1[32];
    snprintf(want, sizeof want, "%u buffers, %s: the live memory", n,
             units_bytes(b1, sizeof b1, step_memory(s), 0));
    size_t len;
    char *screen = render(a, 132, 40, 1, 0, &len);
    if (!strstr(screen, want)) fail_msg("the live list does not say '%s':\n%s", want, screen);
    char title[64];
    snprintf(title, sizeof title, " Live at step %u of priority ", s->k);
    assert_non_null(strstr(screen, title));
    /* The largest first, by its ALLOC's Name: its row is the first after the header. */
    const char *h = strstr(screen, "live for");
    assert_non_null(h);
    char nm[64];
    snprintf(want, sizeof want, " %s ", graph_buf_display(g, big, nm, sizeof nm));
    const char *row = strchr(h, '\n');
    assert_non_null(row);
    const char *first = strstr(row, want), *end = strchr(row + 1, '\n');
    if (!first || first > end) fail_msg("the first row is not '%s':\n%s", want, screen);
    free(screen);
    app_key(a, 'l');
    assert_false(a->arena == ARENA_LIVE);
    close_app(&f);
}

/* z zooms the curve around the cursor, < and > pan (the cursor stays
 * where it is), 0 fits; clicks land on the window's steps, and the peak's
 * mark points off the edge when the window does not hold it. */
static void test_curve_zoom(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    uint32_t n = f.g->n, lo, span, peak = a->st[0].r.peak_step;
    app_curve_window(a, &lo, &span);
    assert_int_equal(lo, 0);
    assert_int_equal(span, n + 1);
    app_key(a, 'P');
    app_key(a, 'z');
    app_curve_window(a, &lo, &span);
    assert_int_equal(span, (n + 1) / 2);
    assert_true(lo <= peak && peak < lo + span);
    char want[64];
    snprintf(want, sizeof want, " Memory, steps %u-%u ", lo, lo + span - 1);
    size_t len;
    char *screen = render(a, 120, 35, 1, 0, &len);
    if (!strstr(screen, want)) fail_msg("no '%s' in:\n%s", want, screen);
    free(screen);
    /* A click on the plot's left edge is the window's first step. */
    rect r = a->lay.r[P_CURVE];
    assert_true(app_click(a, r.x + 12, r.y + 2));
    assert_int_equal(a->st[0].k, lo);
    /* Pan on until the peak is left behind: its mark points back at it. */
    uint32_t k = a->st[0].k;
    while (a->zoom_lo + a->zoom_span < n + 1) app_key(a, '>');
    app_curve_window(a, &lo, &span);
    assert_true(lo > peak);
    assert_int_equal(a->st[0].k, k); /* a pan moves the window, not the cursor */
    screen = render(a, 120, 35, 1, 0, &len);
    snprintf(want, sizeof want, "\u25c0peak %u", peak);
    if (!strstr(screen, want)) fail_msg("no '%s' in:\n%s", want, screen);
    free(screen);
    /* Stepping out of the window moves it. */
    app_jump(a, 2);
    app_curve_window(a, &lo, &span);
    assert_true(lo <= 2 && 2 < lo + span);
    /* Z and 0 zoom out; with the focus on the curve, + and - zoom too. */
    app_key(a, '0');
    assert_int_equal(a->zoom_span, 0);
    while (a->focus != P_CURVE) app_key(a, K_TAB);
    uint32_t speed = app_steps_per_sec(a);
    app_key(a, '+');
    assert_int_equal(a->zoom_span, (n + 1) / 2);
    assert_int_equal(app_steps_per_sec(a), speed);
    app_key(a, 'Z');
    assert_int_equal(a->zoom_span, 0);
    close_app(&f);
}

/* w, in compare mode: at the worse policy's peak step, what it holds that
 * the other does not after as many pops (and the other way round), summing
 * to the gap between the curves there. */
static void test_why_better(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_key(a, 'w');
    assert_false(a->better);
    assert_non_null(strstr(a->msg, "compare two first"));
    app_key(a, 'c');
    app_key(a, 'w');
    assert_true(a->better);
    const graph *g = f.g;
    const run *pr = &a->st[0].r, *fr = &a->st[1].r; /* priority, fifo */
    assert_true(fr->peak > pr->peak);
    uint32_t k = fr->peak_step, n = 0;
    int64_t sum = 0, back = 0;
    for (uint32_t b = 0; b < g->nbufs; b++) {
        uint32_t fb = g->buf_free[b];
        int in_f = fr->pos[g->buf_alloc[b]] < k && (fb == GRAPH_NONE || fr->pos[fb] >= k);
        int in_p = pr->pos[g->buf_alloc[b]] < k && (fb == GRAPH_NONE || pr->pos[fb] >= k);
        if (in_f && !in_p) {
            n++;
            sum += g->buf_size[b];
        }
        if (in_p && !in_f) back += g->buf_size[b];
    }
    assert_int_equal(sum - back, fr->memory[k - 1] - pr->memory[k - 1]);
    char want[128], b1[32];
    snprintf(want, sizeof want, "fifo holds %u buffers priority does not, %s:", n,
             units_bytes(b1, sizeof b1, sum, 0));
    size_t len;
    char *screen = render(a, 132, 40, 1, 0, &len);
    if (!strstr(screen, want)) fail_msg("no '%s' in:\n%s", want, screen);
    snprintf(want, sizeof want, "at step %u (fifo's peak: ", k);
    assert_non_null(strstr(screen, want));
    assert_non_null(strstr(screen, " Why priority is lower "));
    assert_non_null(strstr(screen, "the orders part at step 5"));
    free(screen);
    close_app(&f);
}

/* Unnamed nodes are called something readable: "alloc b1", "free b1",
 * "Matmul 1" (Op and Id) in the ready queue, the why line and find. */
static void test_unnamed_names(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "seed-example.json", 0);
    app *a = &f.a;
    char lb[GRAPH_LABEL_MAX];
    assert_string_equal(graph_display(f.g, 0, lb, sizeof lb), "alloc b1");
    assert_string_equal(graph_display(f.g, 1, lb, sizeof lb), "Matmul 1");
    assert_string_equal(graph_display(f.g, 2, lb, sizeof lb), "free b1");
    assert_string_equal(graph_label(f.g, 1, lb, sizeof lb), "Matmul");
    size_t len;
    char *s = render(a, 80, 24, 1, 1, &len);
    assert_non_null(strstr(s, "alloc b1")); /* the ready queue's name column */
    free(s);
    app_jump(a, 2);
    assert_non_null(strstr(a->why[0], "popped node 1 (Matmul, 0 B)"));
    s = render(a, 80, 24, 1, 1, &len);
    assert_non_null(strstr(s, "free b1"));
    free(s);
    /* find knows the names shown */
    app_key(a, '/');
    type(a, "free b1");
    app_key(a, K_ENTER);
    assert_int_equal(a->st[0].k, 3);
    assert_non_null(strstr(a->msg, "node 2 (free b1) pops at step 3"));
    close_app(&f);
}

static void test_why_line(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    assert_non_null(strstr(a->why[0], "step 0, nothing popped yet"));
    app_jump(a, 1);
    /* an ALLOC is called by what it does to its buffer, by the buffer's name */
    assert_non_null(strstr(a->why[0], "priority: popped node 0 (alloc input, +1.0 MiB)"));
    assert_non_null(strstr(a->why[0], "the only ready node"));
    /* Somewhere in the demo a FREE wins a tie or the smallest change; and
     * fifo explains with its queue. */
    int smallest = 0, fifo = 0;
    for (uint32_t k = 1; k <= f.g->n; k++) {
        app_jump(a, k);
        smallest |= strstr(a->why[0], "the smallest change of") != NULL;
        fifo |= strstr(a->why[1], "first in the queue of") != NULL;
    }
    assert_true(smallest);
    assert_true(fifo);
    close_app(&f);
}

/* The arena panel: placers cycle, the timeline toggles, buffers are
 * selected by keys and clicks, and their details are right. */
static void test_arena_keys(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 132, 40);
    app_jump(a, 14);
    assert_string_equal(a->placer->name, "first-fit");
    size_t np = 0;
    while (placer_at(np)) np++;
    for (size_t i = 1; i <= np; i++) {
        app_key(a, 'a');
        if (placer_at(i % np)->searches) { /* exact: always in the background */
            assert_non_null(a->place.job);
            size_t len;
            char *sc = render(a, 132, 40, 1, 1, &len);
            assert_non_null(strstr(sc, " Placing 20 buffers with exact"));
            free(sc);
            place_out(a);
        }
        assert_string_equal(a->placer->name, placer_at(i % np)->name);
        assert_string_equal(a->pl.placer, a->placer->name);
        char err[256];
        if (place_verify(f.g, &a->st[0].r, &a->pl, err, sizeof err))
            fail_msg("%s: %s", a->placer->name, err);
        if (!strstr(a->msg, "% above the bound") && !strstr(a->msg, "optimal (proven)"))
            fail_msg("%s: %s", a->placer->name, a->msg);
    }
    assert_string_equal(a->placer->name, "first-fit");
    /* Selection: focus the arena, Up/Down walk the live buffers by address. */
    while (a->focus != P_TETRIS) app_key(a, K_TAB);
    assert_int_equal(a->sel, GRAPH_NONE);
    app_key(a, K_UP);
    assert_true(a->sel != GRAPH_NONE);
    uint32_t lowest = a->sel;
    assert_true(step_buf_live(&a->st[0], lowest));
    app_key(a, K_UP);
    assert_true(a->pl.offset[a->sel] > a->pl.offset[lowest]);
    app_key(a, K_DOWN);
    assert_int_equal(a->sel, lowest);
    char d[512];
    app_buffer_details(a, lowest, d, sizeof d);
    char want[64];
    char nm[64]; /* by its ALLOC's Name */
    snprintf(want, sizeof want, "%s: ", graph_buf_display(f.g, lowest, nm, sizeof nm));
    assert_non_null(strstr(d, want));
    assert_non_null(strstr(d, "allocated at step"));
    assert_non_null(strstr(d, "used by"));
    size_t n;
    char *got = render(a, 132, 40, 1, 0, &n);
    assert_non_null(strstr(got, want)); /* shown in the why line */
    free(got);
    app_key(a, K_ESC);
    assert_int_equal(a->sel, GRAPH_NONE);
    /* A click on a block selects its buffer; the timeline too. */
    rect r = a->lay.r[P_TETRIS];
    int hit = 0;
    for (int y = r.y + 2; y < r.y + r.h - 1 && !hit; y++)
        hit = app_click(a, r.x + 20, y) && a->sel != GRAPH_NONE;
    assert_true(hit);
    app_key(a, 't');
    assert_true(a->arena == ARENA_TIMELINE);
    got = render(a, 132, 40, 1, 0, &n);
    assert_non_null(strstr(got, "Timeline: first-fit"));
    free(got);
    a->sel = GRAPH_NONE;
    hit = 0;
    for (int y = r.y + 2; y < r.y + r.h - 2 && !hit; y++)
        for (int x = r.x + 13; x < r.x + r.w - 1 && !hit; x++)
            hit = app_click(a, x, y) && a->sel != GRAPH_NONE;
    assert_true(hit);
    app_key(a, 't');
    assert_false(a->arena == ARENA_TIMELINE);
    close_app(&f);
}

/* The timeline's raster kept between frames follows the placement: after
 * another placer or policy, a frame drawn with the cache equals one drawn
 * afresh (the cache is keyed on the app's placement generation). */
static void test_timeline_cache(void **state)
{
    (void)state;
    fixture f;
    app *a = open_sized(&f, "demo.json", 132, 40);
    view_cache vc = {0};
    app_jump(a, 20);
    app_key(a, 't');
    const char *keys = "assaa";
    for (const char *k = keys;; k++) {
        size_t n1, n2;
        char *cached = render_cached(a, &vc, 132, 40, 1, 0, &n1);
        char *fresh = render(a, 132, 40, 1, 0, &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(cached, fresh, n1);
        free(cached);
        free(fresh);
        if (!*k) break;
        uint64_t gen = a->place_gen;
        app_key(a, *k);
        assert_true(a->place_gen != gen);
    }
    view_cache_free(&vc);
    close_app(&f);
}

/* o: compare against exact's order, searched in the background with the
 * command line's limits: the key line shows the search, Esc cancels it, and
 * its end opens compare mode with the gap said; c with exact as the other
 * side searches in the background too. */
static double still_clock(void) { return 0; }

static void test_compare_optimum(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 300, 1); /* the greedy is 35% above the optimum */
    /* A clock that stands still: the proof must not hang on the machine's
     * speed (under TSan the default 10 s ran out before it). */
    static const solve_ctx still = {.clock = still_clock};
    app a;
    assert_int_equal(
        app_init(&a, g, "rw", policy_find("priority"), policy_find("fifo"), 0, NULL, &still), 0);
    app_resize(&a, 120, 35);
    app_jump(&a, 7);
    app_key(&a, 'o');
    assert_non_null(a.place.job);
    assert_true(has(&a, 120, 35, " Searching 300 nodes with exact"));
    assert_true(has(&a, 120, 35, "Esc: cancel"));
    app_key(&a, 's'); /* the schedules wait */
    assert_string_equal(a.msg, "'s' waits until placing ends; Esc cancels it");
    app_key(&a, 'c');
    assert_false(a.cmp.shown);
    app_key(&a, K_ESC);
    assert_null(a.place.job);
    assert_false(a.cmp.shown);
    assert_string_equal(a.msg, "policy exact cancelled; the schedules are as they were");
    /* Again, to the end: compare mode, priority against the proven optimum. */
    app_key(&a, 'o');
    place_out(&a);
    assert_true(a.cmp.shown);
    assert_string_equal(a.cmp.pol->name, "exact");
    assert_true(a.st[1].r.optimal);
    assert_int_equal(a.st[1].k, 7);
    assert_string_equal(a.msg,
                        "priority vs exact: 35.6% above the optimum; d: where they part, w: why");
    assert_true(has(&a, 80, 24, a.msg)); /* whole at 80 columns */
    assert_true(has(&a, 120, 35, "optimum 26.0 MiB"));
    app_key(&a, 'o'); /* already there: nothing to search */
    assert_null(a.place.job);
    app_free(&a);
    /* The search in the thread keeps the limits this thread set. */
    static const solve_ctx few = {.max_states = 50};
    assert_int_equal(
        app_init(&a, g, "rw", policy_find("priority"), policy_find("exact"), 0, NULL, &few), 0);
    app_resize(&a, 120, 35);
    app_key(&a, 'c');
    assert_non_null(a.place.job);
    place_out(&a);
    assert_true(a.cmp.shown);
    assert_int_equal(a.st[1].r.search.stopped, SOLVE_STATES);
    assert_false(a.st[1].r.optimal);
    assert_true(has(&a, 120, 35, "bound "));
    app_free(&a);
    graph_free(g);
}

/* The words compare says (test_cli.sh's group_words, the same randwire of
 * 150 nodes): priority 12.1% above exact's proven optimum, in o's message and
 * the summary; exact stopped short (a randwire of 300) is "not proven" with its bound and gap,
 * never the optimum, whole at 80 columns too. */
static void test_words_as_compare(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 150, 1);
    app a;
    assert_int_equal(
        app_init(&a, g, "rw", policy_find("priority"), policy_find("fifo"), 0, NULL, NULL), 0);
    app_resize(&a, 120, 35);
    app_key(&a, 'o');
    place_out(&a);
    assert_true(a.st[1].r.optimal);
    assert_string_equal(a.msg,
                        "priority vs exact: 12.1% above the optimum; d: where they part, w: why");
    assert_true(has(&a, 120, 35, "priority needs 2.0 MiB (12.1%) more than exact"));
    app_free(&a);
    graph_free(g);
    g = tu_gen_load("randwire", 300, 1); /* where 5 states prove nothing */
    static const solve_ctx few = {.max_states = 5};
    assert_int_equal(
        app_init(&a, g, "rw", policy_find("priority"), policy_find("exact"), 0, NULL, &few), 0);
    app_resize(&a, 120, 35);
    app_key(&a, 'c');
    place_out(&a);
    assert_false(a.st[1].r.optimal);
    assert_string_equal(a.msg,
                        "priority vs exact: 45.4% above the bound; d: where they part, w: why");
    assert_true(has(&a, 200, 50, "exact, not proven: 26.2 MiB, bound 24.2 MiB, gap 8.2%"));
    assert_true(has(&a, 200, 50, "more than exact's order (not proven optimal)"));
    assert_true(has(&a, 200, 50, "exact peak 26.2 MiB, not proven"));
    for (int w = 80; w <= 200; w += 40) { /* the short form where room is tight, never "peak" */
        assert_true(has(&a, w, 35, "exact, not proven: 26.2 MiB"));
        assert_false(has(&a, w, 35, "exact     peak"));
        assert_true(w < 160 || has(&a, w, 35, "more than exact's order"));
        assert_false(has(&a, w, 35, "optimum"));
    }

    app_free(&a);
    graph_free(g);
}

/* A poll while the job still runs, at a tick that redraws its progress,
 * takes nothing (the TUI fuzzer found the last plan taken again there, and
 * freed twice). */
static void test_poll_while_running_takes_nothing(void **state)
{
    (void)state;
    graph *g = tu_gen_load("randwire", 2000, 1);
    app a;
    solve_ctx c = {.seconds = 2};
    assert_int_equal(
        app_init(&a, g, "rw", policy_find("priority"), policy_find("fifo"), 0, NULL, &c), 0);
    app_place_start(&a.place, g, &a.st[0].r, NULL, 0, placer_find("exact"), &a.ctx, a.msg,
                    sizeof a.msg);
    assert_non_null(a.place.job);
    app_placed got = {.kind = APP_PLACED_PLAN}; /* what a stale result would say */
    int r = app_place_poll(&a.place, 500, &got, a.msg, sizeof a.msg);
    if (a.place.job) { /* still running, as it is at once: a redraw, nothing made */
        assert_int_equal(r, 1);
        assert_int_equal(got.kind, APP_PLACED_NOTHING);
    } else if (got.kind == APP_PLACED_PLAN) {
        place_free(&got.pl);
    }
    app_free(&a);
    graph_free(g);
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params_in_background),
        cmocka_unit_test(test_arena_keys),
        cmocka_unit_test(test_why_better),
        cmocka_unit_test(test_curve_zoom),
        cmocka_unit_test(test_live_list),
        cmocka_unit_test(test_arena_over_the_peak),
        cmocka_unit_test(test_curve_holes),
        cmocka_unit_test(test_timeline_cache),
        cmocka_unit_test(test_why_line),
        cmocka_unit_test(test_unnamed_names),
        cmocka_unit_test(test_live_of_either),
        cmocka_unit_test(test_place_background),
        cmocka_unit_test(test_compare_optimum),
        cmocka_unit_test(test_words_as_compare),
        cmocka_unit_test(test_poll_while_running_takes_nothing),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
