/* test_ui_arena.c: the arena panel tells the truth at every size: a hole smaller than a row
 * shows, every live buffer is named or counted ("+N more"), and the one excess figure, the
 * fragmentation, reads the same in the TUI, plan's text and JSON, and the SVG. */
#include <ctype.h>
#include "uiutil.h"
#include "cli/cli_plan.h"
#include "ui/arena_rows.h"
#include "ui/geom.h"
#include "svg/svg.h"
#include "util/optimal.h"

/* The panel alone on a w x h canvas. */
static canvas draw_arena(app *a, int w, int h, int utf8)
{
    canvas cv;
    assert_int_equal(canvas_init(&cv, w, h, utf8), 0);
    a->utf8 = utf8;
    view_arena(&cv, a, (rect){0, 0, w, h});
    return cv;
}

/* Row y of the canvas as text: ASCII as is, U+00B7 as '.', other code points as '#'. */
static void row_text(const canvas *cv, int y, char *out)
{
    for (int x = 0; x < cv->w; x++) {
        uint32_t ch = cv->c[y * cv->w + x].ch;
        out[x] = ch == 0x00B7 ? '.' : ch < 128 && ch >= 32 ? (char)ch : '#';
    }
    out[cv->w] = 0;
}

static int hole_cells(const canvas *cv)
{
    rect area = geom_arena_area((rect){0, 0, cv->w, cv->h}, 0);
    int n = 0;
    for (int y = area.y; y < area.y + area.h; y++)
        for (int x = area.x; x < area.x + area.w; x++) {
            const cell *c = &cv->c[y * cv->w + x];
            n += c->style == ST_HOLE && (c->ch == 0x00B7 || c->ch == '.');
        }
    return n;
}

/* 64 B freed between two 4 KiB buffers of an 8.1 KiB arena: less than a
 * row at every height here, and yet a hole on the panel, in UTF-8 and ASCII,
 * and 64 B of holes in its bottom border. */
static void subrow_hole(void **state)
{
    (void)state;
    graph *g = tu_load_path(MEMTRIS_SOURCE_DIR "/tests/data/arena-hole.json", NULL);
    app a;
    assert_int_equal(
        app_init(&a, g, "arena-hole.json", policy_find("priority"), NULL, 0, NULL, NULL), 0);
    assert_string_equal(a.pl.placer, "first-fit");
    app_jump(&a, 5);
    canvas cv = draw_arena(&a, 50, 20, 1);
    assert_int_equal(hole_cells(&cv), 0); /* before the FREE: no hole */
    canvas_free(&cv);
    app_jump(&a, 6);
    assert_int_equal(a.pl.arena, 8256);
    for (int h = 4; h <= 60; h++)
        for (int utf8 = 0; utf8 <= 1; utf8++) {
            cv = draw_arena(&a, 50, h, utf8);
            if (!hole_cells(&cv)) fail_msg("no hole at height %d (utf8 %d)", h, utf8);
            char line[64];
            row_text(&cv, h - 1, line);
            if (!strstr(line, "holes 64 B")) fail_msg("at height %d: %s", h, line);
            canvas_free(&cv);
        }
    app_free(&a);
    graph_free(g);
}

/* The live buffers named on their widest parts (arena_rows' lab_*), by their ALLOC's Name less
 * ".out" ("b12" without one), whole or shortened from the left ("…conv2.weight"); a label
 * there that is not its buffer's name fails. */
static uint32_t named_in(const canvas *cv, const app *a)
{
    rect area = geom_arena_area((rect){0, 0, cv->w, cv->h}, 0);
    arena_rows ar;
    if (area.w < 4 || area.h < 1 || a->pl.arena <= 0) return 0; /* no stack drawn */
    assert_int_equal(arena_rows_build(&ar, a->g, &a->pl, &a->st[0], area.h, area.w), 0);
    uint32_t n = 0;
    for (uint32_t i = 0; i < ar.nlive; i++) {
        if (ar.lab_w[i] < 3) continue;
        int y = area.y + ar.ph - 1 - ar.lab_y[i], x = area.x + ar.lab_x[i], k = 0;
        char got[256], nm[256];
        for (int j = 0; j < ar.lab_w[i] && k < 250; j++) {
            uint32_t ch = cv->c[y * cv->w + x + j].ch;
            if (ch == ' ' && !k) continue; /* the label's pad */
            if (ch == ' ') break;          /* its size follows */
            if (ch != 0x2026 && (ch >= 128 || ch < 32)) {
                k = 0; /* a block's glyph: no label */
                break;
            }
            got[k++] = ch == 0x2026 ? '~' : (char)ch;
        }
        got[k] = 0;
        if (!k) continue;
        graph_buf_display(a->g, ar.live_buf[i], nm, sizeof nm);
        size_t gl = strlen(got), nl = strlen(nm);
        if (strcmp(got, nm) &&
            !(got[0] == '~' && gl - 1 < nl && !strcmp(nm + nl - (gl - 1), got + 1)))
            fail_msg("buffer %s is labelled '%s'", nm, got);
        n++;
    }
    arena_rows_free(&ar);
    return n;
}

/* At every height and width, the named buffers and "+N more" add up to the
 * live ones: a demo at its peak and resnet50 (many buffers) at its. */
static void more_counts(void **state)
{
    (void)state;
    static const char *const samples[] = {"demo.json", "resnet50.json"};
    for (int k = 0; k < 2; k++) {
        fixture f;
        open_app(&f, samples[k], 0);
        app *a = &f.a;
        app_jump(a, a->st[0].r.peak_step);
        uint32_t live = 0;
        for (uint32_t b = 0; b < f.g->nbufs; b++) live += (uint32_t)step_buf_live(&a->st[0], b);
        for (int w = 30; w <= 90; w += 12)
            for (int h = 4; h <= 40; h++) {
                canvas cv = draw_arena(a, w, h, 1);
                char border[256];
                row_text(&cv, h - 1, border);
                const char *m = strstr(border, ", +");
                unsigned more = 0;
                if (m && sscanf(m, ", +%u more", &more) != 1) fail_msg("%s", border);
                uint32_t named = named_in(&cv, a);
                if (named + more != live)
                    fail_msg("%s at %dx%d: %u named + %u more, %u live: %s", samples[k], w, h,
                             named, more, live, border);
                canvas_free(&cv);
            }
        close_app(&f);
    }
}

/* The figure as each output writes it: "2.5 MiB" and "26.3%". */
typedef struct figure {
    char bytes[32], pct[16];
} figure;

enum { IN_TUI, IN_TEXT, IN_SVG };

static void find_figure(const char *text, int in, figure *fg)
{
    const char *p = strstr(text, "fragmentation ");
    if (!p) fail_msg("no fragmentation in: %.200s", text);
    double v;
    char unit[8];
    int got = in == IN_TEXT ? sscanf(p, "fragmentation %lf %7s (%*[0-9] bytes), %15[0-9.%<]", &v,
                                     unit, fg->pct)
                            : sscanf(p, "fragmentation %lf %7s (%15[0-9.%<]", &v, unit, fg->pct);
    if (got != 3) fail_msg("cannot read: %.80s", p);
    snprintf(fg->bytes, sizeof fg->bytes, "%.1f %s", v, unit);
    char *e = strchr(fg->pct, '%');
    if (e) e[1] = 0;
}

/* One plan, four outputs, one figure. */
static void check_agree(app *a, const char *name)
{
    const graph *g = a->g;
    const run *r = &a->st[0].r;
    size_t len;
    figure tui, text, svg, json;
    char *screen = render(a, 200, 50, 1, 0, &len);
    find_figure(screen, IN_TUI, &tui);
    free(screen);

    lifetimes lt = {0};
    assert_int_equal(place_lifetimes(g, r, &lt), 0);
    uint32_t *order = cli_bufid_order(g);
    cli_plan cp = {.g = g,
                   .r = r,
                   .pc = placer_find(a->pl.placer),
                   .pl = &a->pl,
                   .lt = &lt,
                   .policy = a->pol->name,
                   .order = order};
    char *buf = NULL;
    FILE *f = open_memstream(&buf, &len);
    cli_plan_text(f, &cp);
    fclose(f);
    find_figure(buf, IN_TEXT, &text);
    free(buf);
    f = open_memstream(&buf, &len);
    cli_plan_json(f, &cp);
    fclose(f);
    const char *jb = strstr(buf, "\"fragmentation_bytes\": "),
               *jr = strstr(buf, "\"fragmentation\": ");
    assert_non_null(jb);
    assert_non_null(jr);
    long long bytes = atoll(jb + strlen("\"fragmentation_bytes\": "));
    double ratio = atof(jr + strlen("\"fragmentation\": "));
    assert_true(bytes == a->pl.arena - r->peak);
    units_bytes(json.bytes, sizeof json.bytes, bytes, 0);
    snprintf(json.pct, sizeof json.pct, "%.1f%%", ratio * 100);
    free(buf);

    f = open_memstream(&buf, &len);
    svg_plan sp = {.g = g, .r = r, .pl = &a->pl, .policy = a->pol->name};
    char err[256];
    assert_int_equal(svg_write_plan(f, &sp, err, sizeof err), 0);
    fclose(f);
    find_figure(buf, IN_SVG, &svg);
    free(buf);
    free(order);
    place_lifetimes_free(&lt);

    const figure *all[4] = {&tui, &text, &svg, &json};
    for (int i = 1; i < 4; i++)
        if (strcmp(all[i]->bytes, tui.bytes) || strcmp(all[i]->pct, tui.pct))
            fail_msg("%s: output %d says %s %s, the TUI %s %s", name, i, all[i]->bytes, all[i]->pct,
                     tui.bytes, tui.pct);
}

static void figure_agrees(void **state)
{
    (void)state;
    static const char *const samples[] = {"demo.json", "resnet50.json", "greedy-not-optimal.json"};
    for (int k = 0; k < 3; k++) {
        fixture f;
        open_app(&f, samples[k], 0);
        if (f.a.pl.arena > f.a.st[0].r.peak) check_agree(&f.a, samples[k]);
        close_app(&f);
    }
}

/* The least address geom_addr_row puts in row j or above (arena if none). */
static int64_t first_in_row(int64_t arena, int ph, int j)
{
    int64_t lo = 0, hi = arena;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (geom_addr_row(mid, arena, ph) >= j) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* Every row whose addresses hold a hole below the high-water mark shows one,
 * even where its buffers outnumber its columns; the parts tile the row. */
static void every_hole_row(void **state)
{
    (void)state;
    static const char *const samples[] = {"resnet50.json", "bert_base.json"};
    for (int k = 0; k < 2; k++) {
        fixture f;
        open_app(&f, samples[k], 0);
        app *a = &f.a;
        const graph *g = f.g;
        const placement *pl = &a->pl;
        for (uint32_t step = 1; step <= a->st[0].r.n; step += a->st[0].r.n / 7 + 1) {
            app_jump(a, step);
            for (int pw = 4; pw <= 64; pw *= 4)
                for (int ph = 1; ph <= 40; ph += 13) {
                    arena_rows ar;
                    assert_int_equal(arena_rows_build(&ar, g, pl, &a->st[0], ph, pw), 0);
                    for (int j = 0; j < ph; j++) {
                        /* the row's addresses, as geom_addr_row maps them */
                        int64_t lo = first_in_row(pl->arena, ph, j),
                                hi = first_in_row(pl->arena, ph, j + 1), cover = 0;
                        hi = hi < ar.hwm ? hi : ar.hwm;
                        for (uint32_t i = 0; i < ar.nlive; i++) {
                            uint32_t b = ar.live_buf[i];
                            int64_t o = pl->offset[b],
                                    e = o + place_span(g->buf_size[b], pl->align);
                            o = o > lo ? o : lo;
                            e = e < hi ? e : hi;
                            if (e > o) cover += e - o;
                        }
                        int hole = 0, x = 0;
                        for (uint32_t i = ar.row0[j]; i < ar.row0[j + 1]; i++) {
                            assert_int_equal(ar.seg[i].x, x);
                            x += ar.seg[i].w;
                            hole |= ar.seg[i].kind == ARENA_SEG_HOLE;
                        }
                        assert_int_equal(x, pw);
                        if (hi > lo && cover < hi - lo && !hole)
                            fail_msg("%s step %u %dx%d row %d: %lld of %lld bytes live, no hole",
                                     samples[k], step, pw, ph, j, (long long)cover,
                                     (long long)(hi - lo));
                    }
                    arena_rows_free(&ar);
                }
        }
        close_app(&f);
    }
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(subrow_hole),
        cmocka_unit_test(more_counts),
        cmocka_unit_test(figure_agrees),
        cmocka_unit_test(every_hole_row),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
