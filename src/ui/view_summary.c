/* view_summary.c: compare mode's summary panel: each side's peak and live
 * bytes now, the saving, where the two orders first diverge, and the other
 * side's last pop. Exports view_summary. */
#include <inttypes.h>
#include <stdio.h>
#include "util/units.h"
#include "view.h"

void view_summary(canvas *cv, const app *a, rect r)
{
    const graph *g = a->g;
    const stepper *m = &a->st[0], *o = &a->st[1];
    int focused = a->focus == P_SUMMARY;
    canvas_box(cv, r, " Compare ", focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    int x = r.x + 2, w = r.w - 4, y = r.y + 1, ymax = r.y + r.h - 1;
    char line[320], p1[32], p2[32], words[256];
    const stepper *side[2] = {o, m};
    int sty[2] = {ST_CURVE2, ST_CURVE};
    for (int i = 0; i < 2 && y < ymax; i++, y++) {
        snprintf(line, sizeof line, "%-9s peak %10s at step %-7u now %s", side[i]->pol->name,
                 units_bytes(p1, sizeof p1, side[i]->r.peak, 0), side[i]->r.peak_step,
                 units_bytes(p2, sizeof p2, step_memory(side[i]), 0));
        canvas_fit(cv, x, y, w, sty[i], line);
    }
    if (y < ymax) {
        int64_t save = o->r.peak - m->r.peak;
        if (save > 0)
            snprintf(line, sizeof line, "saving    %s (%.1f%%) with %s",
                     units_bytes(p1, sizeof p1, save, 0), 100.0 * (double)save / (double)o->r.peak,
                     m->pol->name);
        else if (save < 0)
            snprintf(line, sizeof line, "%s needs %s (%.1f%%) more than %s", m->pol->name,
                     units_bytes(p1, sizeof p1, -save, 0),
                     o->r.peak ? 100.0 * (double)-save / (double)o->r.peak : 0.0, o->pol->name);
        else snprintf(line, sizeof line, "same peak: no saving");
        canvas_fit(cv, x, y++, w, save > 0 ? ST_GOOD : save < 0 ? ST_WARN : ST_NORMAL, line);
    }
    if (y < ymax) {
        uint32_t d = a->cmp.diverge;
        if (d >= g->n) snprintf(line, sizeof line, "the two orders are identical");
        else
            snprintf(line, sizeof line, "orders diverge first at step %u: %s", d + 1,
                     app_part_words(a, d, words, sizeof words));
        canvas_fit(cv, x, y++, w, ST_NORMAL, line);
    }
    if (y < ymax) canvas_fit(cv, x, y++, w, ST_WHY, a->why[1]);
}
