/* fuzz_ui.h: the TUI side of the harnesses: a canvas of exactly w x h cells
 * between guard cells, rendered and then checked (guards untouched, every
 * cell a drawable character and a known style), and the app's invariants. */
#ifndef MEMTRIS_FUZZ_UI_H
#define MEMTRIS_FUZZ_UI_H
#include "fuzz_util.h"
#include "ui/app.h"
#include "ui/canvas.h"
#include "ui/view.h"

#define FUZZ_GUARD       64
#define FUZZ_GUARD_CH    0xDEADBEEFu
#define FUZZ_GUARD_STYLE 0xEE

/* A canvas whose cells sit between FUZZ_GUARD guard cells on each side (and
 * AddressSanitizer's red zones beyond), and the views' cache kept between
 * its frames. */
typedef struct fuzz_canvas {
    canvas cv;
    cell *base;
    view_cache vc;
} fuzz_canvas;

static inline void fuzz_canvas_init(fuzz_canvas *f, int w, int h, int utf8)
{
    size_t cells = (size_t)w * (size_t)h + 2 * FUZZ_GUARD;
    f->base = malloc(cells * sizeof *f->base);
    FUZZ_CHECK(f->base != NULL, "out of memory for %dx%d", w, h);
    for (size_t i = 0; i < cells; i++) f->base[i] = (cell){FUZZ_GUARD_CH, FUZZ_GUARD_STYLE};
    f->cv = (canvas){.w = w, .h = h, .utf8 = utf8, .c = f->base + FUZZ_GUARD};
    f->vc = (view_cache){0};
    canvas_clear(&f->cv);
}

static inline void fuzz_canvas_free(fuzz_canvas *f)
{
    free(f->base);
    f->base = NULL;
    view_cache_free(&f->vc);
}

/* Renders a into f and checks the result. */
static inline void fuzz_render(fuzz_canvas *f, const app *a)
{
    canvas *cv = &f->cv;
    view_render(cv, a, &f->vc);
    size_t n = (size_t)cv->w * (size_t)cv->h;
    for (size_t i = 0; i < FUZZ_GUARD; i++) {
        FUZZ_CHECK(f->base[i].ch == FUZZ_GUARD_CH && f->base[i].style == FUZZ_GUARD_STYLE,
                   "%dx%d: written %zu cells before the canvas", cv->w, cv->h, FUZZ_GUARD - i);
        const cell *after = &f->base[FUZZ_GUARD + n + i];
        FUZZ_CHECK(after->ch == FUZZ_GUARD_CH && after->style == FUZZ_GUARD_STYLE,
                   "%dx%d: written %zu cells past the canvas", cv->w, cv->h, i + 1);
    }
    /* Whole pieces only: no number, unit or word clipped, at any size the
     * panels are laid out for (below it, a notice says the size needed). */
    if (!a->lay.too_small && cv->cuts) { /* the row, for the report */
        int y = cv->cut[0].y;
        for (int x = 0; x < cv->w; x++) {
            uint32_t ch = cv->c[y * cv->w + x].ch;
            fputc(ch < 0x80 ? (int)ch : '#', stderr);
        }
        fputc('\n', stderr);
    }
    FUZZ_CHECK(a->lay.too_small || cv->cuts == 0, "%dx%d: %d cut(s), the first at (%d, %d)", cv->w,
               cv->h, cv->cuts, cv->cuts ? cv->cut[0].x : -1, cv->cuts ? cv->cut[0].y : -1);
    for (size_t i = 0; i < n; i++) {
        uint32_t ch = cv->c[i].ch;
        int x = (int)(i % (size_t)cv->w), y = (int)(i / (size_t)cv->w);
        FUZZ_CHECK(cv->c[i].style < ST_COUNT, "%dx%d: style %u at (%d, %d)", cv->w, cv->h,
                   cv->c[i].style, x, y);
        FUZZ_CHECK(ch >= 0x20 && ch != 0x7f && !(ch >= 0x80 && ch < 0xa0) && ch <= 0x10FFFF &&
                       !(ch >= 0xD800 && ch <= 0xDFFF),
                   "%dx%d: character U+%04X at (%d, %d)", cv->w, cv->h, ch, x, y);
        FUZZ_CHECK(cv->utf8 || ch < 0x7f, "%dx%d: U+%04X at (%d, %d) on an ASCII canvas", cv->w,
                   cv->h, ch, x, y);
    }
}

/* What must hold between any two events. */
static inline void fuzz_check_app(app *a)
{
    const graph *g = a->g;
    fuzz_check_stepper(&a->st[0]);
    if (a->cmp.have) {
        fuzz_check_stepper(&a->st[1]);
        FUZZ_CHECK(a->st[1].k == a->st[0].k, "compare side at step %u, main at %u", a->st[1].k,
                   a->st[0].k);
        FUZZ_CHECK(a->cmp.pol != a->pol, "both sides %s", a->pol->name);
        FUZZ_CHECK(a->cmp.diverge <= g->n, "diverge %u", a->cmp.diverge);
    }
    FUZZ_CHECK(!a->cmp.shown || a->cmp.have, "compare mode without a compare side");
    FUZZ_CHECK(a->sel == GRAPH_NONE || a->sel < g->nbufs, "selected buffer %u of %u", a->sel,
               g->nbufs);
    FUZZ_CHECK(a->focus >= 0 && a->focus < P_COUNT, "focus %d", a->focus);
    FUZZ_CHECK(a->lay.too_small || a->lay.used[a->focus], "focus on panel %d, not shown", a->focus);
    FUZZ_CHECK(a->play.speed >= 0 && a->play.speed < APP_SPEEDS, "speed %d", a->play.speed);
    FUZZ_CHECK(memchr(a->prompt.buf, 0, sizeof a->prompt.buf) &&
                   memchr(a->prompt.find, 0, sizeof a->prompt.find) &&
                   memchr(a->msg, 0, sizeof a->msg) && memchr(a->why[0], 0, sizeof a->why[0]) &&
                   memchr(a->why[1], 0, sizeof a->why[1]),
               "an unterminated string");
    FUZZ_CHECK(a->pl.offset != NULL || g->nbufs == 0, "no placement");
    FUZZ_CHECK(app_tick_ms(a) >= -1, "tick %d", app_tick_ms(a));
}

#endif
