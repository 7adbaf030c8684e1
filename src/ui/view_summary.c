/* view_summary.c: compare mode's summary panel: each side's peak and live
 * bytes now (exact's, when its search proved nothing, as not proven, with
 * its bound and gap), the saving, where the two orders first diverge, and
 * the other side's last pop. Exports view_summary. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "util/optimal.h"
#include "util/units.h"
#include "util/utf8.h"
#include "view.h"

/* Whether side s is exact's search stopped short of a proof: never its optimum. */
static int unproven(const stepper *s) { return s->pol->kind == POLICY_EXACT && !s->r.optimal; }

/* Side s's line: "fifo      peak   10.5 MiB at step 12      now 3.0 MiB", or
 * for an unproven exact "exact, not proven: 96.3 MiB, bound 74.0 MiB, gap
 * 30.1%; at step 12 now 3.0 MiB", less its tail, then its bound and gap,
 * where the width is short: whole words or none. */
static void side_line(canvas *cv, int x, int y, int w, int style, const stepper *s)
{
    char line[320], p1[32], p2[32], words[128];
    units_bytes(p2, sizeof p2, step_memory(s), 0);
    if (!unproven(s)) {
        snprintf(line, sizeof line, "%-9s peak %10s at step %-7u now %s", s->pol->name,
                 units_bytes(p1, sizeof p1, s->r.peak, 0), s->r.peak_step, p2);
        canvas_fit(cv, x, y, w, style, line);
        return;
    }
    const char *name = s->pol->name;
    optimal_phrase(words, sizeof words, s->r.peak, s->r.lower_bound, 0, OPTIMAL_SEARCH);
    snprintf(line, sizeof line, "%s, %s; at step %u now %s", name, words, s->r.peak_step, p2);
    if (utf8_count(line) > w) snprintf(line, sizeof line, "%s, %s", name, words);
    if (utf8_count(line) > w)
        snprintf(
            line, sizeof line, "%s, %s", name,
            optimal_phrase(words, sizeof words, s->r.peak, s->r.lower_bound, 0, OPTIMAL_VALUE));
    canvas_fit(cv, x, y, w, style, line);
}

/* Whether the word at s is a unit of size (it stays with its number). */
static int unit_word(const char *s)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    for (int i = 0; i < 5; i++) {
        size_t n = strlen(unit[i]);
        if (!strncmp(s, unit[i], n) && !isalpha((unsigned char)s[n])) return 1;
    }
    return 0;
}

/* Draws s over at most rows rows from (x, y), broken at spaces (never
 * before a unit), the last row cut as canvas_fit cuts; returns the next y. */
static int wrap(canvas *cv, int x, int y, int w, int rows, const char *s)
{
    char part[320];
    while (rows > 1 && utf8_count(s) > w) {
        const char *p = s, *brk = NULL;
        for (int k = 0; *p && k <= w; k++) {
            if (*p == ' ' && k > 0 && !unit_word(p + 1)) brk = p;
            uint32_t cp;
            int n = utf8_decode(p, NULL, &cp);
            p += n > 0 ? n : 1;
        }
        if (!brk || (size_t)(brk - s) >= sizeof part) break;
        memcpy(part, s, (size_t)(brk - s));
        part[brk - s] = 0;
        canvas_text(cv, x, y++, w, ST_WHY, part);
        s = brk + 1;
        rows--;
    }
    canvas_fit(cv, x, y++, w, ST_WHY, s);
    return y;
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
    for (int i = 0; i < 2 && y < ymax; i++, y++) side_line(cv, x, y, w, sty[i], side[i]);
    if (y < ymax) {
        /* shares of o's peak, as compare's saving and vs optimum are */
        int64_t save = o->r.peak - m->r.peak;
        if (save > 0)
            snprintf(line, sizeof line, "saving    %s (%s) with %s",
                     units_bytes(p1, sizeof p1, save, 0),
                     optimal_pct(pct, sizeof pct, save, o->r.peak), m->pol->name);
        else if (save < 0) /* against exact stopped short: its order, not the optimum */
            for (int k = unproven(o) ? 0 : 2; k < 3; k++) {
                static const char *const tail[] = {"'s order (not proven optimal)", "'s order", ""};
                snprintf(line, sizeof line, "%s needs %s (%s) more than %s%s", m->pol->name,
                         units_bytes(p1, sizeof p1, -save, 0),
                         optimal_pct(pct, sizeof pct, -save, o->r.peak), o->pol->name, tail[k]);
                if (utf8_count(line) <= w) break;
            }
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
    /* why each took its node there: the stepped side's, then the other's,
     * wrapped while rows are free (one is kept for the other's last pop) */
    for (int i = 0; i < 2 && a->cmp.diverge < g->n && y < ymax; i++) {
        int left = ymax - y - 1, rows = i ? left : (left + 1) / 2;
        y = wrap(cv, x, y, w, rows < 1 ? 1 : rows, app_part_why(a, i, line, sizeof line));
    }
    if (y < ymax) canvas_fit(cv, x, y++, w, ST_WHY, a->why[1]);
}
