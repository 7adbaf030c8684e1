/* view_help.c: the help overlay (F1, ?, h) in three pages: the keys (the load's warnings, then
 * the key table's help words), the legend (every glyph and colour, the file, the breakpoints) and
 * the policies. Tab turns the page, Shift-Tab back, any other key closes it. Exports view_help. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "util/units.h"
#include "app_keys.h"
#include "view.h"

/* The keys page's lines: the key table's rows with help words. */
static int key_lines(void)
{
    int n = 0;
    for (size_t i = 0; i < app_nkeys; i++) n += app_keys[i].help.keys != NULL;
    return n;
}

/* The load's warnings atop the keys page: a heading, then each warning
 * (less its file name) over up to 2 rows, at most 4 of them, then how many
 * more; from row y while rows remain. Returns the rows taken (drawing
 * nothing when cv is NULL). */
static int warn_lines(canvas *cv, const app *a, int x, int y, int w, int rows)
{
    if (!a->nwarn) return 0;
    char line[160];
    int used = 0;
    snprintf(line, sizeof line, "loaded with %zu warning%s:", a->nwarn, a->nwarn == 1 ? "" : "s");
    if (used < rows && cv) canvas_fit(cv, x, y, w, ST_WARN, line);
    used++;
    for (size_t i = 0; i < a->nwarn && i < 4 && used < rows; i++) {
        const char *t = strstr(a->warn[i], "warning: ");
        t = t ? t + 9 : a->warn[i];
        used += layout_wrap(cv, x + 2, y + used, w - 2, rows - used < 2 ? 1 : 2, ST_WARN, t);
    }
    if (a->nwarn > 4 && used < rows) {
        snprintf(line, sizeof line, "and %zu more (memtris validate lists them)", a->nwarn - 4);
        if (cv) canvas_fit(cv, x + 2, y + used, w - 2, ST_WARN, line);
        used++;
    }
    return used;
}

/* The keys page: the load's warnings, if any; then a line per row of the
 * key table with help words, its key column, then the words. */
static void keys_page(canvas *cv, const app *a, rect r, int rows)
{
    int y = r.y + 1;
    y += warn_lines(cv, a, r.x + 2, y, r.w - 4, rows);
    for (size_t i = 0; i < app_nkeys && y < r.y + 1 + rows; i++) {
        const app_key_row *k = &app_keys[i];
        if (!k->help.keys) continue;
        char line[128];
        snprintf(line, sizeof line, "%-18s %s", k->help.keys, k->help.words);
        canvas_fit(cv, r.x + 2, y++, r.w - 4, ST_NORMAL, line);
    }
}

/* One legend line: a sample (UTF-8 and ASCII forms) in its style, then the
 * words. */
typedef struct legend_line {
    const char *utf8, *ascii;
    int style;
    const char *text, *text_ascii; /* NULL: the same on an ASCII screen */
} legend_line;

static const legend_line legend[] = {
    {"\u28ff", "#", ST_CURVE, "curve: the stepped policy, steps done", NULL},
    {"\u28ff", ":", ST_FUTURE, "curve: its steps still to come", NULL},
    {"\u2895", "+", ST_CURVE2, "curve: compare's other policy, dotted", NULL},
    {"\u28ff", "*", ST_MEASURED, "curve: measured by the replay (R)", NULL},
    {"\u2502", "|", ST_CURSOR, "the cursor: the state after k pops", NULL},
    {"\u25b2", "^", ST_PEAK, "the peak; \u25c0 \u25b6 when zoomed away from it",
     "the peak; < > when zoomed away from it"},
    {"\u2504", "-", ST_PEAK, "optimum, or bound: no order peaks lower", NULL},
    {" b7 ", " b7 ", ST_BUF0, "a live buffer at its address", NULL},
    {"\u00b7", ".", ST_HOLE, "a hole: free below the high-water mark, even in part of a row", NULL},
    {"\u00b7", ".", ST_HOLE, "curve (H): arena held, no buffer live", NULL},
    {"\u2504", "-", ST_HWM, "the arena's high-water mark so far", NULL},
    {" b7 ", " b7 ", ST_NEXT, "the selected buffer; the next pop", NULL},
    {"ALLOC", "ALLOC", ST_ALLOC, "FREE compute: the node kinds' colours", NULL},
    {"(c,t,id)", "(c,t,id)", ST_DIM, "priority's key: the smallest pops", NULL},
    {"", "", ST_DIM, "first: change in bytes, then type (FREE 0 <", NULL},
    {"", "", ST_DIM, "compute 1 < ALLOC 2), then id", NULL},
    {"queued", "queued", ST_DIM, "fifo's key: the order nodes got ready, from 1", NULL},
    {"rank", "rank", ST_DIM, "dfs ... exact: the place in their order", NULL},
};

/* A training graph's (only where the graph has them): its Measured peak, its Phases. */
static const legend_line train_legend[] = {
    {"\u2550", "=", ST_MEASURED, "the graph's Measured peak (its framework's)", NULL},
    {"\u250a", "!", ST_DIM, "where the backward pass starts (Phase)", NULL},
};

/* The legend page: the samples, then the file and the breakpoints. */
static void legend_page(canvas *cv, const app *a, rect r, int rows)
{
    int x = r.x + 2, w = r.w - 4, y = r.y + 1, n = (int)(sizeof legend / sizeof legend[0]);
    for (int i = 0; i < n + 2 && y < r.y + 1 + rows; i++, y++) {
        if (i >= n && !(i == n ? a->g->measured_peak >= 0 : a->g->tag != NULL)) {
            y--;
            continue;
        }
        const legend_line *l = i < n ? &legend[i] : &train_legend[i - n];
        const char *s = cv->utf8 ? l->utf8 : l->ascii;
        canvas_text(cv, x, y, 9, l->style, s);
        if (l->style == ST_ALLOC) { /* the three kinds, each in its colour */
            canvas_text(cv, x + 10, y, w - 10, ST_FREE, "FREE");
            canvas_text(cv, x + 15, y, w - 15, ST_COMPUTE, "compute");
            canvas_fit(cv, x + 22, y, w - 22, ST_NORMAL, ": the node kinds' colours");
            continue;
        }
        const char *text = !cv->utf8 && l->text_ascii ? l->text_ascii : l->text;
        canvas_fit(cv, x + 10, y, w - 10, ST_NORMAL, text);
    }
    char line[320];
    if (y < r.y + 1 + rows) {
        snprintf(line, sizeof line, "file: %s", a->title);
        canvas_fit(cv, x, y++, w, ST_HEADER, line);
    }
    if (y < r.y + 1 + rows) {
        int len =
            snprintf(line, sizeof line, "breakpoints: %s", a->play.nbrk ? "" : "none (b sets one)");
        for (int i = 0; i < a->play.nbrk && len < (int)sizeof line; i++) {
            char b1[32];
            if (a->play.brk[i].bytes > 0)
                len += snprintf(line + len, sizeof line - (size_t)len, "%s>=%s", i ? ", " : "",
                                units_bytes(b1, sizeof b1, a->play.brk[i].bytes, 0));
            else
                len += snprintf(line + len, sizeof line - (size_t)len, "%s'%s'", i ? ", " : "",
                                a->play.brk[i].node);
        }
        canvas_fit(cv, x, y, w, ST_HEADER, line);
    }
}

/* The policies page: each policy of the table, its name (the stepped one
 * marked) and its description in whole words over as many lines as it
 * takes, at x within width w, from row y while rows remain; brief: one line
 * a policy, its description as far as it fits in whole words (when the
 * whole page is taller than the screen). Returns the lines it took
 * (drawing nothing when cv is NULL: the page's height). */
static int policies_page(canvas *cv, const app *a, int x, int y, int w, int rows, int brief)
{
    int used = 0, tw = w - 12;
    for (size_t i = 0; policy_at(i); i++) {
        const policy *p = policy_at(i);
        if (cv && used < rows)
            canvas_text(cv, x, y + used, 11, p == a->pol ? ST_FOCUS : ST_HEADER, p->name);
        if (brief) {
            if (cv && used < rows) canvas_fit(cv, x + 12, y + used, tw, ST_NORMAL, p->desc);
            used++;
            continue;
        }
        int col = 0;
        for (const char *wd = p->desc; *wd;) {
            int len = (int)strcspn(wd, " ");
            if (col && col + 1 + len > tw) {
                used++;
                col = 0;
            }
            if (cv && used < rows && col + len <= tw)
                canvas_text(cv, x + 12 + col + (col > 0), y + used, len, ST_NORMAL, wd);
            col += (col > 0) + len;
            wd += len;
            while (*wd == ' ') wd++;
        }
        used++;
    }
    return used;
}

void view_help(canvas *cv, const app *a)
{
    static const char *const title[] = {"", " Keys ", " Legend ", " Policies "};
    static const char *const hint[] = {"", "Tab: the legend; any other key closes this help",
                                       "Tab: the policies; any other key closes this help",
                                       "Tab: the keys; any other key closes this help"};
    int keys = key_lines() + warn_lines(NULL, a, 0, 0, 56, 99);
    int leg = (int)(sizeof legend / sizeof legend[0]) + 2 + (a->g->measured_peak >= 0) +
              (a->g->tag != NULL);
    int pol = policies_page(NULL, a, 0, 0, 56, 0, 0);
    int n = keys > leg ? keys : leg;
    if (pol > n) n = pol;
    int w = 60, h = n + 4;
    if (w > cv->w) w = cv->w;
    if (h > cv->h) h = cv->h;
    rect r = {(cv->w - w) / 2, (cv->h - h) / 2, w, h};
    canvas_fill(cv, r, ' ', ST_NORMAL);
    int page = a->help >= 1 && a->help <= 3 ? a->help : 1;
    canvas_box(cv, r, title[page], ST_FOCUS, ST_TITLE);
    int rows = h - 4 > 0 ? h - 4 : 0;
    if (page == 2) legend_page(cv, a, r, rows);
    else if (page == 3)
        policies_page(cv, a, r.x + 2, r.y + 1, w - 4, rows,
                      policies_page(NULL, a, 0, 0, w - 4, 0, 0) > rows);
    else keys_page(cv, a, r, rows);
    if (h > 3) canvas_fit(cv, r.x + 2, r.y + h - 2, w - 4, ST_DIM, hint[page]);
}
