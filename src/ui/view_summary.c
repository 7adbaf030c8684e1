/* view_summary.c: compare mode's summary panel: each side's peak and live
 * bytes now (exact's, when its search proved nothing, as not proven, with
 * its bound and gap), the saving, where the two orders first diverge, and
 * the other side's last pop. Exports view_summary. */
#include <inttypes.h>
#include <stdio.h>
#include "util/optimal.h"
#include "util/units.h"
#include "util/utf8.h"
#include "util/wrap.h"
#include "view.h"

/* Whether side s is exact's search stopped short of a proof: never its optimum. */
static int unproven(const stepper *s) { return s->pol->kind == POLICY_EXACT && !s->r.optimal; }

const char *view_peak_gap(const app *a, const stepper *s, char *out, size_t cap)
{
    int opt;
    int64_t lb = app_bound(a, &opt);
    char words[96];
    out[0] = 0;
    if (opt && lb > 0 && s->r.peak == lb) snprintf(out, cap, " (optimal)");
    else if (opt && lb > 0)
        snprintf(out, cap, " (%s)",
                 optimal_phrase(words, sizeof words, s->r.peak, lb, 1, OPTIMAL_TINY));
    return out;
}

/* One sentence from *y on, wrapped at words into the rows left less one for
 * each of the after sentences still to come; moves *y past it. */
static void put(canvas *cv, int x, int *y, int w, int ymax, int after, int style, const char *s)
{
    int rows = ymax - *y - after;
    if (rows < 1) rows = 1;
    if (*y < ymax) *y += layout_wrap(cv, x, *y, w, rows, style, s);
}

/* Side s's line in columns, its gap padded to gw columns: "fifo      peak
 * 10.5 MiB (+50.0% vs optimum) at step 12      now 3.0 MiB". */
static void col_line(const app *a, const stepper *s, int gw, char *line, size_t cap)
{
    char p1[32], p2[32], gap[128];
    view_peak_gap(a, s, gap, sizeof gap);
    snprintf(line, cap, "%-9s peak %10s%-*s at step %-7u now %s", s->pol->name,
             units_bytes(p1, sizeof p1, s->r.peak, 0), gw, gap, s->r.peak_step,
             units_bytes(p2, sizeof p2, step_memory(s), 0));
}

/* Side s's line: in columns (gw >= 0, both sides' fit), else "fifo peak 10.5
 * MiB at step 12, now 3.0 MiB", or for an unproven exact "exact, not proven:
 * 96.3 MiB, bound 74.0 MiB, gap 30.1%; at step 12 now 3.0 MiB", less its
 * tail, then its bound and gap, where the width is short: whole words or
 * none. Wrapped where rows are free. */
static void side_line(canvas *cv, int x, int *y, int w, int ymax, int after, int style,
                      const app *a, const stepper *s, int gw)
{
    char line[320], p1[32], p2[32], words[128], gap[128];
    units_bytes(p2, sizeof p2, step_memory(s), 0);
    if (!unproven(s)) {
        view_peak_gap(a, s, gap, sizeof gap);
        if (gw >= 0) col_line(a, s, gw, line, sizeof line);
        else
            snprintf(line, sizeof line, "%s peak %s%s at step %u, now %s", s->pol->name,
                     units_bytes(p1, sizeof p1, s->r.peak, 0), gap, s->r.peak_step, p2);
        put(cv, x, y, w, ymax, after, style, line);
        return;
    }
    const char *name = s->pol->name;
    optimal_phrase(words, sizeof words, s->r.peak, s->r.lower_bound, 0, OPTIMAL_SEARCH);
    int rows = ymax - *y - after, room = w * (rows > 1 ? rows : 1);
    snprintf(line, sizeof line, "%s, %s; at step %u now %s", name, words, s->r.peak_step, p2);
    if (layout_wrap(NULL, 0, 0, w, 99, style, line) * w > room)
        snprintf(line, sizeof line, "%s, %s", name, words);
    if (layout_wrap(NULL, 0, 0, w, 99, style, line) * w > room)
        snprintf(
            line, sizeof line, "%s, %s", name,
            optimal_phrase(words, sizeof words, s->r.peak, s->r.lower_bound, 0, OPTIMAL_VALUE));
    put(cv, x, y, w, ymax, after, style, line);
}

void view_summary(canvas *cv, const app *a, rect r)
{
    const graph *g = a->g;
    const stepper *m = &a->st[0], *o = &a->st[1];
    int focused = a->focus == P_SUMMARY;
    canvas_box(cv, r, " Compare ", focused ? ST_FOCUS : ST_BORDER, focused ? ST_FOCUS : ST_TITLE);
    int x = r.x + 2, w = r.w - 4, y = r.y + 1, ymax = r.y + r.h - 1;
    char line[320], p1[32], pct[32], words[256];
    const stepper *side[2] = {o, m};
    int sty[2] = {ST_CURVE2, ST_CURVE};
    /* both sides in columns, or neither: the two lines read alike */
    int gw = 0;
    for (int i = 0; i < 2; i++) {
        char gap[128];
        int n = (int)utf8_count(view_peak_gap(a, side[i], gap, sizeof gap));
        gw = n > gw ? n : gw;
    }
    for (int i = 0; i < 2; i++) {
        col_line(a, side[i], gw, line, sizeof line);
        if (unproven(side[i]) || (int)utf8_count(line) > w) gw = -1;
        if (gw < 0) break;
    }
    for (int i = 0; i < 2 && y < ymax; i++)
        side_line(cv, x, &y, w, ymax, 4 - i, sty[i], a, side[i], gw);
    if (y < ymax) {
        /* shares of o's peak, as compare's saving and vs optimum are */
        int64_t save = o->r.peak - m->r.peak;
        if (save > 0)
            snprintf(line, sizeof line, "saving %s%s (%s) with %s", gw >= 0 ? "   " : "",
                     units_bytes(p1, sizeof p1, save, 0),
                     optimal_pct(pct, sizeof pct, save, o->r.peak), m->pol->name);
        else if (save < 0) /* against exact stopped short: its order, not the optimum */
            for (int k = unproven(o) ? 0 : 2; k < 3; k++) {
                static const char *const tail[] = {"'s order (not proven optimal)", "'s order", ""};
                snprintf(line, sizeof line, "%s needs %s (%s) more than %s%s", m->pol->name,
                         units_bytes(p1, sizeof p1, -save, 0),
                         optimal_pct(pct, sizeof pct, -save, o->r.peak), o->pol->name, tail[k]);
                if (layout_wrap(NULL, 0, 0, w, 99, 0, line) <=
                    (ymax - y - 2 > 1 ? ymax - y - 2 : 1))
                    break;
            }
        else snprintf(line, sizeof line, "same peak: no saving");
        put(cv, x, &y, w, ymax, 2, save > 0 ? ST_GOOD : save < 0 ? ST_WARN : ST_NORMAL, line);
    }
    /* The sentences after the peaks and the saving, each whole or not at all, granted rows by
     * worth (why the stepped side took its node at the parting, where the orders first
     * diverge, why the other side took its, the other side's last pop) and drawn in reading
     * order. */
    char text[4][320];
    uint32_t d = a->cmp.diverge;
    if (d >= g->n) snprintf(text[0], sizeof text[0], "the two orders are identical");
    else
        snprintf(text[0], sizeof text[0], "orders diverge first at step %u: %s", d + 1,
                 app_part_words(a, d, words, sizeof words));
    for (int i = 0; i < 2; i++) {
        text[1 + i][0] = 0;
        if (d < g->n) app_part_why(a, i, text[1 + i], sizeof text[1 + i]);
    }
    snprintf(text[3], sizeof text[3], "%s", a->why[1]);
    static const int worth[] = {1, 0, 2, 3}, style[] = {ST_NORMAL, ST_WHY, ST_WHY, ST_WHY};
    int left = ymax - y, shown[4] = {0};
    for (int i = 0; i < 4; i++) {
        int k = worth[i], n = wrap_count(text[k], w);
        if (n && n <= left) {
            shown[k] = 1;
            left -= n;
        }
    }
    for (int k = 0; k < 4; k++)
        if (shown[k]) y += layout_wrap(cv, x, y, w, ymax - y, style[k], text[k]);
}
