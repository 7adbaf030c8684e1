/* view.c: composes the screen: status bar, panels, the "why" line, key
 * hints or a prompt, the help overlay, and the too-small notice. */
#include "view.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "sched/units.h"

/* The keys, as the help overlay and the man page list them. */
static const char *const help_lines[] = {
    "Space  n  Right    step forward (one heap pop)",
    "p  Left  Backspace step back (undo the last pop)",
    "Home End  g  P     first / last step, go to step, peak",
    "/                  find a node by id, jump to its pop",
    "r  +  -            auto-play on/off, faster, slower",
    "Tab  Shift-Tab     move the focus between panels",
    "Up Down PgUp PgDn  scroll the ready queue in focus",
    "Up Down on arena   select a buffer (details below)",
    "s  c               switch policy, compare mode",
    "a  t               next placer, stack or timeline",
    "click              curve: go to step; block: select",
    "Esc                stop play, clear selection, close",
    "? F1 h   q F10     this help; quit",
};

static void status_bar(canvas *cv, const app *a, rect r)
{
    const stepper *s = &a->st[0];
    const graph *g = a->g;
    char now[32], pk[32], buf[512];
    uint32_t pat;
    int64_t peak = step_peak(s, &pat);
    uint32_t u = step_last(s);
    char popped[96] = "-";
    if (u != GRAPH_NONE)
        snprintf(popped, sizeof popped, "%s %" PRId64, graph_label(g, u), g->id[u]);
    canvas_fill(cv, r, ' ', ST_STATUS);
    int x = r.x;
    x += canvas_text(cv, x, r.y, r.w, ST_STATUS_KEY, " memtris ");
    snprintf(buf, sizeof buf, "%s  %s%s%s  step %u/%u  popped %s  mem %s  peak %s",
             a->title, a->pol->name, a->compare ? " vs " : "", a->compare ? a->cmp_pol->name : "",
             s->k, g->n, popped, units_bytes(now, sizeof now, step_memory(s), 0),
             units_bytes(pk, sizeof pk, peak, 0));
    x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_STATUS, buf);
    if (pat) {
        snprintf(buf, sizeof buf, " @%u", pat);
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_STATUS, buf);
    }
    if (a->playing) {
        snprintf(buf, sizeof buf, "  %s %u/s", cv->utf8 ? "\u25b6" : ">", app_steps_per_sec(a));
        canvas_text(cv, x, r.y, r.x + r.w - x, ST_STATUS_KEY, buf);
    }
}

/* The last pop's reason; a selected buffer's details instead (Esc clears
 * the selection); a one-shot message over either. */
static void why_line(canvas *cv, const app *a, rect r)
{
    char details[512];
    const char *text = a->why[0];
    if (a->sel != GRAPH_NONE) {
        app_buffer_details(a, a->sel, details, sizeof details);
        text = details;
    }
    if (a->msg[0]) text = a->msg;
    canvas_text(cv, r.x + 1, r.y, r.w - 1, a->msg[0] ? ST_WARN : ST_WHY, text);
}

static void hints(canvas *cv, const app *a, rect r)
{
    canvas_fill(cv, r, ' ', ST_HINT);
    if (a->prompt) {
        char buf[96];
        if (a->prompt == 'g') snprintf(buf, sizeof buf, " Go to step (0-%u): %s_", a->g->n, a->pbuf);
        else snprintf(buf, sizeof buf, " Find node id: %s_", a->pbuf);
        canvas_fill(cv, r, ' ', ST_PROMPT);
        int w = canvas_text(cv, r.x, r.y, r.w, ST_PROMPT, buf);
        canvas_text(cv, r.x + w, r.y, r.w - w, ST_PROMPT, "   Enter: go   Esc: cancel");
        return;
    }
    static const char *const keys[][2] = {
        {"F1", "Help"}, {"Spc", "Step"}, {"\u2190", "Back"}, {"g", "Goto"}, {"P", "Peak"},
        {"r", "Play"}, {"s", "Policy"}, {"c", "Compare"}, {"/", "Find"}, {"Tab", "Focus"}, {"q", "Quit"},
    };
    int x = r.x;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] && x < r.x + r.w; i++) {
        const char *k = keys[i][0];
        if (!cv->utf8 && !strcmp(k, "\u2190")) k = "<-";
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_HINT_KEY, k);
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_HINT, keys[i][1]);
        x += canvas_text(cv, x, r.y, r.x + r.w - x, ST_HINT, " ");
    }
}

static void help_overlay(canvas *cv)
{
    int n = (int)(sizeof help_lines / sizeof help_lines[0]);
    int w = 58, h = n + 4;
    if (w > cv->w) w = cv->w;
    if (h > cv->h) h = cv->h;
    rect r = {(cv->w - w) / 2, (cv->h - h) / 2, w, h};
    canvas_fill(cv, r, ' ', ST_NORMAL);
    canvas_box(cv, r, " Keys ", ST_FOCUS, ST_TITLE);
    for (int i = 0; i < n && i + 1 < h - 2; i++)
        canvas_text(cv, r.x + 2, r.y + 1 + i, w - 4, ST_NORMAL, help_lines[i]);
    if (h > 3) canvas_text(cv, r.x + 2, r.y + h - 2, w - 4, ST_DIM, "any key closes this help");
}

void view_render(canvas *cv, const app *a)
{
    canvas_clear(cv);
    const layout *l = &a->lay;
    if (l->too_small || l->w != cv->w || l->h != cv->h) {
        char need[64], have[64];
        snprintf(need, sizeof need, "memtris needs at least %dx%d", LAYOUT_MIN_W, LAYOUT_MIN_H);
        snprintf(have, sizeof have, "this terminal is %dx%d", cv->w, cv->h);
        int y = cv->h > 1 ? cv->h / 2 - 1 : 0;
        int n1 = (int)strlen(need), n2 = (int)strlen(have);
        canvas_text(cv, cv->w > n1 ? (cv->w - n1) / 2 : 0, y, cv->w, ST_WARN, need);
        canvas_text(cv, cv->w > n2 ? (cv->w - n2) / 2 : 0, y + 1, cv->w, ST_WARN, have);
        return;
    }
    status_bar(cv, a, l->r[P_STATUS]);
    view_ready(cv, a, P_READY, l->r[P_READY]);
    if (l->used[P_READY2]) view_ready(cv, a, P_READY2, l->r[P_READY2]);
    view_curve(cv, a, l->r[P_CURVE]);
    if (l->used[P_TETRIS]) view_tetris(cv, a, l->r[P_TETRIS]);
    if (l->used[P_SUMMARY]) view_summary(cv, a, l->r[P_SUMMARY]);
    why_line(cv, a, l->r[P_WHY]);
    hints(cv, a, l->r[P_HINTS]);
    if (a->help) help_overlay(cv);
}
