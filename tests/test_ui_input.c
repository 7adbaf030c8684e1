/* test_ui_input.c: the TUI without a terminal: what keys, clicks and ticks do: stepping, the
 * prompts, find, the modes, auto-play and the teaching flow (u, d, breakpoints), P, export, the
 * help's pages, clicks on the curve, and the reactions returned. */
#define _GNU_SOURCE
#include "uiutil.h"
#include "ui/app_keys.h"
#include "util/utf8.h"

static void test_keys_stepping(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    uint32_t n = f.g->n;
    app_resize(a, 120, 35);
    assert_int_equal(a->st[0].k, 0);
    app_key(a, ' ');
    app_key(a, 'n');
    app_key(a, K_RIGHT);
    assert_int_equal(a->st[0].k, 3);
    app_key(a, 'p');
    assert_int_equal(a->st[0].k, 2);
    app_key(a, K_LEFT);
    app_key(a, K_BACKSPACE);
    assert_int_equal(a->st[0].k, 0);
    app_key(a, K_LEFT); /* at step 0 it says so */
    assert_int_equal(a->st[0].k, 0);
    assert_non_null(strstr(a->msg, "step 0"));
    app_key(a, K_END);
    assert_int_equal(a->st[0].k, n);
    app_key(a, ' ');
    assert_int_equal(a->st[0].k, n);
    assert_non_null(strstr(a->msg, "last step"));
    app_key(a, K_HOME);
    assert_int_equal(a->st[0].k, 0);
    app_key(a, 'P');
    assert_int_equal(a->st[0].k, a->st[0].r.peak_step);
    uint32_t at;
    assert_int_equal(step_peak(&a->st[0], &at), a->st[0].r.peak);
    close_app(&f);
}

/* The prompts take any character (a name may hold é): Backspace takes back a whole one, the
 * line shows them in their columns, shortened from the left a character at a time. */
static void test_prompt_utf8(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    app_key(a, '/');
    const int typed[] = {0xE9, 0x20AC, 0x1F600, K_BACKSPACE, 0x85 /* C1: not taken */};
    for (size_t i = 0; i < sizeof typed / sizeof typed[0]; i++) app_key(a, typed[i]);
    assert_string_equal(a->prompt.buf, "\xc3\xa9\xe2\x82\xac");
    app_key(a, K_BACKSPACE);
    assert_string_equal(a->prompt.buf, "\xc3\xa9");
    size_t len; /* é is one column in any locale (the canvas draws € by the locale's wcwidth) */
    char *screen = render(a, 120, 35, 1, 0, &len);
    assert_non_null(strstr(screen, "Find node (id, name or op): \xc3\xa9_ "));
    free(screen);
    for (int i = 0; i < 60; i++) app_key(a, 0xE9); /* 61 characters, 122 bytes */
    screen = render(a, 60, 35, 1, 0, &len);        /* " Find: ", then the end of what was typed */
    const char *at = strstr(screen, " Find: \xe2\x80\xa6\xc3\xa9\xc3\xa9");
    if (!at) fail_msg("the shortened prompt is not on the screen");
    else { /* the line whole: 60 columns, the ellipsis, é to the cursor, nothing cut */
        const char *eol = strchr(at, '\n');
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(eol - at), at);
        assert_int_equal(utf8_count(line), 60);
        assert_non_null(strstr(line, "\xc3\xa9_"));
    }
    free(screen);
    app_key(a, K_ENTER);
    assert_non_null(strstr(a->msg, "no node matches '\xc3\xa9\xc3\xa9"));
    char name[8];
    assert_string_equal(app_key_name(0xE9, name, sizeof name), "\xc3\xa9");
    close_app(&f);
}

static void test_keys_prompts(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    app_key(a, 'g');
    assert_int_equal(a->prompt.kind, 'g');
    type(a, "27");
    app_key(a, K_ENTER);
    assert_int_equal(a->prompt.kind, 0);
    assert_int_equal(a->st[0].k, 27);
    app_key(a, 'g');
    type(a, "9999");
    app_key(a, K_ENTER);
    assert_int_equal(a->st[0].k, 27);
    assert_non_null(strstr(a->msg, "'9999' is not a step: steps run from 0 to 61"));
    app_key(a, 'g');
    type(a, "5");
    app_key(a, K_ESC); /* cancelled */
    assert_int_equal(a->st[0].k, 27);
    app_key(a, '/');
    type(a, "41");
    app_key(a, K_ENTER);
    uint32_t u = graph_find(f.g, 41);
    assert_int_equal(a->st[0].k, a->st[0].r.pos[u] + 1);
    assert_int_equal(step_last(&a->st[0]), u);
    assert_non_null(strstr(a->msg, "node 41"));
    app_key(a, '/');
    type(a, "12345");
    app_key(a, K_ENTER);
    assert_non_null(strstr(a->msg, "no node matches '12345'"));
    assert_int_equal(a->prompt.finding, 0);
    /* g refuses what is not a step number, and says so. */
    uint32_t k = a->st[0].k;
    app_key(a, 'g');
    type(a, "abc12");
    app_key(a, K_ENTER);
    assert_int_equal(a->st[0].k, k);
    assert_non_null(strstr(a->msg, "'abc12' is not a step: steps run from 0 to 61"));
    app_key(a, 'g');
    type(a, "2_");
    app_key(a, K_ENTER);
    assert_int_equal(a->st[0].k, k);
    assert_non_null(strstr(a->msg, "'2_' is not a step"));
    close_app(&f);
}

/* Messages of a moment give way: the speed's to the play's next step, a
 * selection on the stack to its buffer's FREE (the timeline keeps it). */
static void test_messages_of_a_moment(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    while (app_steps_per_sec(a) > 1) app_key(a, '-'); /* down to 1 step a second */
    assert_string_equal(a->msg, "auto-play speed 1 step/s");
    app_key(a, '+');
    assert_string_equal(a->msg, "auto-play speed 2 steps/s");
    app_key(a, 'r');
    app_key(a, '+');
    assert_string_equal(a->msg, "auto-play speed 5 steps/s");
    uint32_t k = a->st[0].k;
    app_tick(a);
    assert_true(a->st[0].k > k);
    assert_string_equal(a->msg, ""); /* the why line explains the pop again */
    app_key(a, 'r');
    /* A buffer selected on the stack, then freed: the selection ends. */
    const graph *g = f.g;
    app_jump(a, 3);
    app_key(a, K_TAB);
    while (a->focus != P_TETRIS) app_key(a, K_TAB);
    app_key(a, K_UP);
    uint32_t b = a->sel;
    assert_true(b != GRAPH_NONE);
    uint32_t freed = a->st[0].r.pos[g->buf_free[b]] + 1;
    app_jump(a, freed - 1);
    assert_int_equal(a->sel, b);
    app_jump(a, freed);
    assert_int_equal(a->sel, GRAPH_NONE);
    /* On the timeline every buffer stays selectable. */
    app_jump(a, 3);
    app_key(a, K_UP);
    b = a->sel;
    app_key(a, 't');
    app_jump(a, a->st[0].r.pos[g->buf_free[b]] + 1);
    assert_int_equal(a->sel, b);
    app_key(a, 't'); /* back to the stack, where b is not live: dropped */
    assert_int_equal(a->sel, GRAPH_NONE);
    close_app(&f);
}

/* The teaching flow: u plays to the peak, d to where the orders part next,
 * breakpoints (b) on a node or a memory threshold stop any play exactly
 * there, even at 20000 steps a second; B clears them. */
static void test_teaching_keys(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    const run *r = &a->st[0].r;
    uint32_t peak = r->peak_step;
    app_key(a, 'u');
    assert_true(a->play.playing);
    play_out(a);
    assert_int_equal(a->st[0].k, peak);
    char want[160], b1[32];
    snprintf(want, sizeof want, "at the peak of priority: step %u, %s live", peak,
             units_bytes(b1, sizeof b1, r->peak, 0));
    assert_string_equal(a->msg, want);
    app_key(a, 'u'); /* at the peak: from the start again */
    assert_int_equal(a->st[0].k, 0);
    play_out(a);
    assert_int_equal(a->st[0].k, peak);

    /* d: each parting in turn, then "no more" */
    assert_true(a->cmp.nparts >= 1);
    app_jump(a, 0);
    for (uint32_t i = 0; i < a->cmp.nparts; i++) {
        app_key(a, 'd');
        play_out(a);
        assert_int_equal(a->st[0].k, a->cmp.parts[i] + 1);
        snprintf(want, sizeof want, "the orders part at step %u (%u of %u): fifo pops node",
                 a->cmp.parts[i] + 1, i + 1, a->cmp.nparts);
        assert_non_null(strstr(a->msg, want));
        assert_int_equal(a->st[0].r.order[a->cmp.parts[i]] == a->st[1].r.order[a->cmp.parts[i]], 0);
    }
    app_key(a, 'd');
    assert_false(a->play.playing);
    assert_non_null(strstr(a->msg, "the orders do not part after step"));

    /* b on a node: the play stops right after it pops, at full speed */
    while (app_steps_per_sec(a) < 20000) app_key(a, '+');
    app_key(a, 'b');
    type(a, "block2.b3.pool");
    app_key(a, K_ENTER);
    assert_int_equal(a->play.nbrk, 1);
    assert_non_null(strstr(a->msg, "breakpoint 1: where a node matching 'block2.b3.pool' pops"));
    app_key(a, K_HOME);
    app_key(a, 'r');
    play_out(a);
    uint32_t pool_out = graph_find(f.g, 26), pool = graph_find(f.g, 27);
    uint32_t first = r->pos[pool_out] < r->pos[pool] ? pool_out : pool;
    assert_int_equal(a->st[0].k, r->pos[first] + 1);
    assert_non_null(strstr(a->msg, "breakpoint 1 ('block2.b3.pool'): node"));
    /* b on memory: where live bytes first reach 4 MiB from below */
    app_key(a, 'B');
    assert_int_equal(a->play.nbrk, 0);
    app_key(a, 'b');
    type(a, ">=4MiB");
    app_key(a, K_ENTER);
    assert_int_equal(a->play.nbrk, 1);
    app_key(a, K_HOME);
    app_key(a, 'r');
    play_out(a);
    uint32_t k = a->st[0].k, j = 0;
    while (j < f.g->n && r->memory[j] < 4 << 20) j++;
    assert_int_equal(k, j + 1);
    assert_non_null(strstr(a->msg, "reaches 4.0 MiB"));
    /* the stop is not sticky: r goes on to the next crossing or the end */
    app_key(a, 'r');
    play_out(a);
    assert_true(a->st[0].k > k);
    /* what cannot be a breakpoint says so and sets none */
    app_key(a, 'B');
    app_key(a, 'b');
    type(a, ">4 XB");
    app_key(a, K_ENTER);
    assert_non_null(strstr(a->msg, "is not a size"));
    app_key(a, 'b');
    type(a, "no such node");
    app_key(a, K_ENTER);
    assert_non_null(strstr(a->msg, "no node matches 'no such node'"));
    assert_int_equal(a->play.nbrk, 0);
    app_key(a, 'B');
    assert_string_equal(a->msg, "no breakpoints to clear");
    close_app(&f);
}

/* P in compare mode offers either policy's peak, in turn; u without a
 * compare and d say what they need. */
static void test_peak_of_either(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    uint32_t mine = a->st[0].r.peak_step, other = a->st[1].r.peak_step;
    assert_int_not_equal(mine, other);
    app_key(a, 'P');
    assert_int_equal(a->st[0].k, mine);
    assert_non_null(strstr(a->msg, "peak of priority at step"));
    assert_non_null(strstr(a->msg, "P again: fifo's peak at step"));
    app_key(a, 'P');
    assert_int_equal(a->st[0].k, other);
    assert_non_null(strstr(a->msg, "peak of fifo at step"));
    app_key(a, 'P');
    assert_int_equal(a->st[0].k, mine);
    app_key(a, 'c'); /* compare off: d needs it */
    app_key(a, 'd');
    assert_false(a->play.playing);
    assert_non_null(strstr(a->msg, "compare two first (c)"));
    close_app(&f);
}

/* e writes the curve and arena of the stepped policy as SVG, the cursor
 * marked, to the file named in its prompt (a name offered); a file that
 * cannot be written says why. */
static void test_export_svg(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_jump(a, 18);
    app_key(a, 'e');
    assert_int_equal(a->prompt.kind, 'e');
    assert_string_equal(a->prompt.buf, "demo-priority-step18.svg");
    char dir[] = "/tmp/memtris-export-XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/view.svg", dir);
    while (a->prompt.buf[0]) app_key(a, K_BACKSPACE);
    type(a, path);
    app_key(a, K_ENTER);
    assert_int_equal(a->prompt.kind, 0);
    char want[320];
    snprintf(want, sizeof want,
             "wrote %s: the curve and the first-fit arena of priority at step 18", path);
    assert_string_equal(a->msg, want);
    size_t len = 0;
    char *svg = slurp(path, &len);
    assert_non_null(svg);
    assert_non_null(strstr(svg, "class=\"cursor\""));
    assert_non_null(strstr(svg, ", at step 18 of 61</text>"));
    assert_non_null(strstr(svg, "</svg>\n"));
    free(svg);
    assert_int_equal(remove(path), 0);
    snprintf(path, sizeof path, "%s/no/such/dir.svg", dir);
    app_key(a, 'e');
    while (a->prompt.buf[0]) app_key(a, K_BACKSPACE);
    type(a, path);
    app_key(a, K_ENTER);
    snprintf(want, sizeof want, "cannot write %s: No such file or directory", path);
    assert_string_equal(a->msg, want);
    assert_int_equal(rmdir(dir), 0);
    close_app(&f);
}

/* ? shows the keys; Tab turns to the legend (every glyph, the key tuple,
 * the file's full path, the breakpoints) and back; any other key closes. */
static void test_help_legend(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_key(a, 'b');
    type(a, "block1.add");
    app_key(a, K_ENTER);
    app_key(a, 'b');
    type(a, ">2MiB");
    app_key(a, K_ENTER);
    app_key(a, '?');
    size_t len;
    char *s = render(a, 80, 24, 1, 1, &len);
    assert_non_null(strstr(s, " Keys "));
    assert_non_null(strstr(s, "u  d               play to peak; to where orders part"));
    /* Every key line fits at 80x24, the last included. */
    assert_non_null(strstr(s, "H  T  I            holes; streams over time; pool view"));
    assert_non_null(strstr(s, "? F1 h   q F10     this help, the legend, policies; quit"));
    assert_non_null(strstr(s, "Tab: the legend"));
    free(s);
    app_key(a, K_TAB);
    s = render(a, 80, 24, 1, 1, &len);
    assert_non_null(strstr(s, " Legend "));
    assert_non_null(strstr(s, "\u28ff         curve: the stepped policy, steps done"));
    assert_non_null(strstr(s, "\u25b2         the peak; \u25c0 \u25b6 when zoomed away from it"));
    assert_non_null(strstr(s, "(c,t,id)  priority's key: the smallest pops"));
    assert_non_null(strstr(s, "file: demo.json"));
    assert_non_null(strstr(s, "breakpoints: 'block1.add', >=2.0 MiB"));
    free(s);
    s = render(a, 80, 24, 0, 1, &len); /* ASCII: its own glyphs */
    assert_non_null(strstr(s, "^         the peak; < > when zoomed away from it"));
    free(s);
    app_key(a, K_TAB); /* the policies: every one of the table, in whole words */
    s = render(a, 80, 24, 1, 1, &len);
    assert_non_null(strstr(s, " Policies "));
    for (size_t i = 0; policy_at(i); i++) {
        char name[32];
        snprintf(name, sizeof name, "%-12s", policy_at(i)->name);
        assert_non_null(strstr(s, name));
    }
    /* At 80x24 the page is too short for every description: one line a
     * policy, as much as fits in whole words; at 132x40 they are whole. */
    assert_non_null(strstr(s, "exact       the proven minimum peak: a best-first\u2026"));
    assert_non_null(strstr(s, "Tab: the keys"));
    free(s);
    s = render(a, 132, 40, 1, 1, &len);
    assert_non_null(strstr(s, "exact       the proven minimum peak: a best-first search"));
    assert_non_null(strstr(s, "            over the sets of nodes run, within"));
    assert_non_null(strstr(s, "multiqueue  a first-in, first-out queue per kind of"));
    free(s);
    app_key(a, K_TAB);
    assert_int_equal(a->help, 1);
    app_key(a, 'x');
    assert_int_equal(a->help, 0);
    assert_false(a->quit);
    close_app(&f);
}

static void test_keys_find(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    const graph *g = f.g;
    const run *r = &a->st[0].r;
    uint32_t count = 0, first = UINT32_MAX, last = 0;
    for (uint32_t u = 0; u < g->n; u++)
        if (strcasestr(graph_name(g, u), "conv") || strcasestr(graph_op(g, u), "conv")) {
            count++;
            if (r->pos[u] + 1 < first) first = r->pos[u] + 1;
            if (r->pos[u] + 1 > last) last = r->pos[u] + 1;
        }
    assert_true(count > 2);
    app_key(a, '/');
    type(a, "CoNv");
    app_key(a, K_ENTER);
    assert_int_equal(a->st[0].k, first);
    assert_true(a->prompt.finding);
    char want[64];
    snprintf(want, sizeof want, "match 1 of %u", count);
    if (!strstr(a->msg, want)) fail_msg("'%s' does not say '%s'", a->msg, want);
    app_key(a, 'n');
    snprintf(want, sizeof want, "match 2 of %u", count);
    assert_non_null(strstr(a->msg, want));
    uint32_t second = a->st[0].k;
    assert_true(second > first);
    app_key(a, 'N');
    assert_int_equal(a->st[0].k, first);
    app_key(a, 'N'); /* before the first: from the end again */
    assert_int_equal(a->st[0].k, last);
    assert_non_null(strstr(a->msg, "from the end again"));
    snprintf(want, sizeof want, "match %u of %u", count, count);
    assert_non_null(strstr(a->msg, want));
    app_key(a, 'n');
    assert_int_equal(a->st[0].k, first);
    assert_non_null(strstr(a->msg, "from the start again"));
    /* The hints line says what n and N do while the find is up. */
    size_t len;
    char *screen = render(a, 120, 35, 1, 0, &len);
    assert_non_null(strstr(screen, " Find 'CoNv': nNext match NPrevious EscDone"));
    free(screen);
    /* Esc ends it; then n is the next step again. */
    app_key(a, K_ESC);
    assert_false(a->prompt.finding);
    app_key(a, 'n');
    assert_int_equal(a->st[0].k, first + 1);
    /* A name's part finds by name; an op ("ALLOC") finds every ALLOC. */
    app_key(a, '/');
    type(a, "alloc");
    app_key(a, K_ENTER);
    snprintf(want, sizeof want, "of %u", g->nbufs);
    assert_non_null(strstr(a->msg, want));
    close_app(&f);
}

static void test_keys_modes(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    app_jump(a, 10);
    /* Compare mode: two steppers in step, two ready panels, the divergence. */
    app_key(a, 'c');
    assert_true(a->cmp.shown);
    assert_true(a->lay.used[P_READY2]);
    assert_int_equal(a->st[1].k, 10);
    assert_string_equal(a->st[1].pol->name, "fifo");
    assert_int_equal(a->cmp.diverge, policy_diverge(&a->st[0].r, &a->st[1].r));
    assert_true(a->cmp.diverge < f.g->n); /* the demo's orders do differ */
    app_key(a, ' ');
    assert_int_equal(a->st[0].k, 11);
    assert_int_equal(a->st[1].k, 11);
    app_key(a, 'c');
    assert_false(a->cmp.shown);
    /* Switch policy: every policy of the table in turn, the step kept. */
    static const char *const cycle[] = {"dfs",   "postorder", "lpmf",     "bfs",
                                        "best",  "exact",     "weighted", "multiqueue",
                                        "given", "fifo",      "priority"};
    for (int i = 0; i < 11; i++) {
        app_key(a, 's');
        /* exact's search runs in the background: the key line says so */
        assert_int_equal(a->place.job != NULL, !strcmp(cycle[i], "exact"));
        if (a->place.job) place_out(a);
        assert_string_equal(a->pol->name, cycle[i]);
        assert_int_equal(a->st[0].k, 11);
    }
    /* Help overlay: shown, and any key closes it without acting. */
    app_key(a, '?');
    assert_true(a->help);
    app_key(a, ' ');
    assert_false(a->help);
    assert_int_equal(a->st[0].k, 11);
    app_key(a, K_F1);
    assert_true(a->help);
    app_key(a, K_ESC);
    assert_false(a->help);
    /* Focus moves over the panels shown; arrows scroll the focused one. */
    assert_int_equal(a->focus, P_READY);
    app_key(a, K_TAB);
    assert_int_equal(a->focus, P_CURVE);
    app_key(a, K_TAB);
    assert_int_equal(a->focus, P_TETRIS);
    app_key(a, K_TAB);
    assert_int_equal(a->focus, P_READY);
    app_key(a, K_BTAB);
    assert_int_equal(a->focus, P_TETRIS);
    app_key(a, K_TAB);
    app_jump(a, 0);
    app_key(a, K_END);
    app_key(a, K_HOME);
    app_key(a, K_DOWN); /* one ready node at step 0: nothing to scroll */
    assert_int_equal(a->scroll[P_READY], 0);
    app_key(a, 'q');
    assert_true(a->quit);
    close_app(&f);
}

static void test_autoplay(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    assert_int_equal(app_tick_ms(a), -1);
    app_key(a, 'r');
    assert_true(a->play.playing);
    uint32_t sps = app_steps_per_sec(a);
    app_key(a, '+');
    assert_true(app_steps_per_sec(a) > sps);
    app_key(a, '-');
    assert_int_equal(app_steps_per_sec(a), sps);
    assert_true(app_tick_ms(a) > 0);
    app_tick(a);
    app_tick(a);
    assert_int_equal(a->st[0].k, 2);
    while (a->play.playing) app_tick(a); /* stops by itself at the end */
    assert_int_equal(a->st[0].k, f.g->n);
    close_app(&f);
}

static void test_click_on_curve(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 0);
    app *a = &f.a;
    app_resize(a, 120, 35);
    rect r = a->lay.r[P_CURVE];
    hit_frame hf = {&a->lay,    a->utf8, a->arena == ARENA_TIMELINE, a->g, &a->st[0], &a->pl, 0,
                    f.g->n + 1, 0};
    /* Outside the plot: no jump. */
    assert_false(hit_test(&hf, r.x, r.y).kind == HIT_STEP);
    assert_false(app_click(a, 0, 0));
    /* The plot's left edge is step 0, its right edge the last step. */
    int x0 = r.x + 12, x1 = r.x + r.w - 3;
    assert_true(app_click(a, x0, r.y + 2));
    assert_int_equal(a->st[0].k, 0);
    assert_true(app_click(a, x1, r.y + 2));
    assert_true(a->st[0].k >= f.g->n - 2);
    /* A click in the middle lands in the middle. */
    assert_true(app_click(a, (x0 + x1) / 2, r.y + 3));
    assert_true(a->st[0].k > f.g->n / 3 && a->st[0].k < 2 * f.g->n / 3);
    close_app(&f);
}

/* What keys, clicks and ticks say changed: the front end draws, lays out
 * again or leaves on these alone. */
static void test_reactions(void **state)
{
    (void)state;
    fixture f;
    app *a = open_sized(&f, "demo.json", 120, 35);
    assert_int_equal(app_key(a, ' '), APP_REDRAW);
    assert_int_equal(app_key(a, K_RESIZE), APP_RELAYOUT | APP_REDRAW);
    assert_int_equal(app_key(a, 'c'), APP_RELAYOUT | APP_REDRAW); /* the panels move */
    assert_true(a->lay.used[P_READY2]); /* laid out already, at the last size */
    assert_int_equal(app_key(a, 'c'), APP_RELAYOUT | APP_REDRAW);
    assert_int_equal(app_key(a, 'x'), 0); /* nothing bound, nothing shown */
    app_key(a, 'P');
    assert_true(a->msg[0] != 0);
    assert_int_equal(app_key(a, 'x'), APP_REDRAW); /* ... but it takes the message away */
    assert_int_equal(app_tick(a), 0);              /* not playing, no replay */
    assert_int_equal(app_click(a, 0, 0), 0);
    app_key(a, 'g');
    assert_int_equal(app_key(a, K_RESIZE), APP_RELAYOUT | APP_REDRAW); /* in the prompt too */
    assert_int_equal(a->prompt.kind, 'g');
    app_key(a, K_ESC);
    app_key(a, '?');
    assert_int_equal(app_key(a, 'q'), APP_QUIT); /* from the help too */
    assert_true(a->quit);
    a->quit = 0;
    assert_int_equal(app_key(a, K_F10), APP_QUIT);
    close_app(&f);
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_stepping),
        cmocka_unit_test(test_keys_prompts),
        cmocka_unit_test(test_keys_find),
        cmocka_unit_test(test_messages_of_a_moment),
        cmocka_unit_test(test_keys_modes),
        cmocka_unit_test(test_autoplay),
        cmocka_unit_test(test_click_on_curve),
        cmocka_unit_test(test_reactions),
        cmocka_unit_test(test_teaching_keys),
        cmocka_unit_test(test_peak_of_either),
        cmocka_unit_test(test_export_svg),
        cmocka_unit_test(test_help_legend),
        cmocka_unit_test(test_prompt_utf8),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
