/* view.h: the TUI screen drawn into a canvas by pure functions of the const app,
 * one panel a file (view_*.c), composed by view_render; what they keep between
 * frames is in the caller's view_cache, never in the app. Exports view_*. */
#ifndef MEMTRIS_VIEW_H
#define MEMTRIS_VIEW_H
#include <stdint.h>
#include "app.h"
#include "canvas.h"

/* What the views keep between frames: the timeline's raster (which buffer
 * each cell shows), drawn again only when the placement (app.place_gen) or
 * the panel's size changes. Zeroed is empty; one cache serves one app. */
typedef struct view_cache {
    struct {
        uint64_t gen; /* the app's place_gen it was drawn for; 0: none */
        int w, h;
        uint32_t *cell; /* [w*h] buffer index or GRAPH_NONE, row 0 at the top */
    } timeline;
} view_cache;

/* The whole screen; vc NULL keeps nothing (every frame draws afresh). */
void view_render(canvas *cv, const app *a, view_cache *vc);
void view_cache_free(view_cache *vc);

/* Panels (view_*.c), each drawing inside its rectangle. */
void view_status(canvas *cv, const app *a, rect r); /* the status bar */
void view_ready(canvas *cv, const app *a, int panel, rect r);
void view_curve(canvas *cv, const app *a, rect r);
void view_lanes(canvas *cv, const app *a, rect r); /* the streams over time (T) */
/* C: the stepped policy's curve stacked by Category (view_stack.c): the plot's cells filled
 * for the steps lo .. lo + span - 1, then the categories' legend in r's borders; a category's
 * letter. */
struct geom_curve;
void view_stack_fill(canvas *cv, const app *a, const struct geom_curve *gm, uint32_t lo,
                     uint32_t span, int64_t ymax);
void view_stack_legend(canvas *cv, const app *a, rect r);
char view_stack_mark(int cat);
void view_pool(canvas *cv, const app *a, rect r); /* I: the pools over iterations */
/* The budget view (view_budget.c): the budget's row and the reruns' ticks on the curve
 * in panel r (gm, win: the curve's geometry and steps; ymax: its scale); the rows the host lane
 * takes from the bottom of the curve's panel (0: none, the lane is left out whole) and the lane. */
struct geom_window;
void view_budget_marks(canvas *cv, const app *a, rect r, const struct geom_curve *gm,
                       const struct geom_window *win, int64_t ymax);
int view_host_rows(const app *a, rect curve);
void view_host(canvas *cv, const app *a, rect r);
/* The curve's y axis left of plot: a line, and 0, ymax / 2 and ymax in bytes. */
void view_y_axis(canvas *cv, rect plot, int64_t ymax);
void view_arena(canvas *cv, const app *a, rect r); /* the live blocks at their addresses */
void view_timeline(canvas *cv, const app *a, rect r, view_cache *vc); /* the whole run */
void view_summary(canvas *cv, const app *a, rect r);
/* " (+50.0% vs optimum)", " (optimal)": side s's peak against the proven optimum of
 * the orders shown, worded as compare's vs-optimum cell; "" without a proof. */
const char *view_peak_gap(const app *a, const stepper *s, char *out, size_t cap);
void view_live(canvas *cv, const app *a, rect r);
void view_better(canvas *cv, const app *a, rect r); /* compare: why one order is lower (w) */
/* s (a buffer's name) in at most w columns, shortened from the left as utf8_fit_left does, its
 * mark '~' on an ASCII canvas; into out, returned. */
const char *view_fit_left(const canvas *cv, const char *s, int w, char *out, size_t cap);
/* Sorts buffers largest first (then by BufId), as the live lists show them. */
void view_by_size(const graph *g, uint32_t *bufs, uint32_t n);
/* the buffers live at the cursor (l) */            /* compare mode's peaks and divergence */
void view_why(canvas *cv, const app *a, rect r);    /* the last pop's reason, or a message */
void view_hints(canvas *cv, const app *a, rect r);  /* the keys, a prompt or a replay's progress */
void view_help(canvas *cv, const app *a);           /* the overlay: the keys, or the legend */
void view_lesson(canvas *cv, const app *a, rect r); /* a lesson's narration (memtris lesson) */

/* The frame the arena and the timeline share: title, axis, arena and
 * high-water mark, around drawing area `area`. */
void view_arena_frame(canvas *cv, const app *a, rect r, rect area, int64_t hwm);

#endif
