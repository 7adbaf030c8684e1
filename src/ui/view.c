/* view.c: composes the screen from its panels (status bar, ready queues,
 * curve, arena, timeline or live list, compare summary, why line, hints, help), or the
 * too-small notice. Exports view_render and view_cache_free. */
#include "view.h"
#include "lesson.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a terminal below the minimum size shows instead of the panels. */
static void too_small(canvas *cv)
{
    char need[64], have[64];
    snprintf(need, sizeof need, "memtris needs at least %dx%d", LAYOUT_MIN_W, LAYOUT_MIN_H);
    snprintf(have, sizeof have, "this terminal is %dx%d", cv->w, cv->h);
    int y = cv->h > 1 ? cv->h / 2 - 1 : 0;
    int n1 = (int)strlen(need), n2 = (int)strlen(have);
    canvas_text(cv, cv->w > n1 ? (cv->w - n1) / 2 : 0, y, cv->w, ST_WARN, need);
    canvas_text(cv, cv->w > n2 ? (cv->w - n2) / 2 : 0, y + 1, cv->w, ST_WARN, have);
}

void view_render(canvas *cv, const app *a, view_cache *vc)
{
    canvas_clear(cv);
    const layout *l = &a->lay;
    if (l->too_small || l->w != cv->w || l->h != cv->h) {
        too_small(cv);
        return;
    }
    view_status(cv, a, l->r[P_STATUS]);
    view_ready(cv, a, P_READY, l->r[P_READY]);
    if (l->used[P_READY2]) view_ready(cv, a, P_READY2, l->r[P_READY2]);
    if (a->curve == CURVE_POOL && a->pool) view_pool(cv, a, l->r[P_CURVE]);
    else if (a->curve == CURVE_LANES) view_lanes(cv, a, l->r[P_CURVE]);
    else {
        rect cr = l->r[P_CURVE];
        int hr = view_host_rows(a, cr); /* the budget view's host lane, under the curve */
        cr.h -= hr;
        view_curve(cv, a, cr);
        if (hr) view_host(cv, a, (rect){cr.x, cr.y + cr.h, cr.w, hr});
    }
    if (l->used[P_TETRIS]) {
        if (a->arena == ARENA_LIVE) view_live(cv, a, l->r[P_TETRIS]);
        else if (a->arena == ARENA_TIMELINE) view_timeline(cv, a, l->r[P_TETRIS], vc);
        else view_arena(cv, a, l->r[P_TETRIS]);
    }
    if (l->used[P_SUMMARY]) {
        if (a->arena == ARENA_LIVE) view_live(cv, a, l->r[P_SUMMARY]);
        else if (a->better) view_better(cv, a, l->r[P_SUMMARY]);
        else view_summary(cv, a, l->r[P_SUMMARY]);
    }
    view_why(cv, a, l->r[P_WHY]);
    view_hints(cv, a, l->r[P_HINTS]);
    if (a->lesson) view_lesson(cv, a, lesson_rect(l, a->lesson_rows));
    if (a->help) view_help(cv, a);
}

void view_cache_free(view_cache *vc)
{
    free(vc->timeline.cell);
    memset(vc, 0, sizeof *vc);
}
