/* view_help.c: the help overlay (F1, ?, h): the keys, boxed in the middle
 * of the screen; any key closes it. Exports view_help. */
#include "view.h"

/* The keys, as the help overlay and the man page list them. */
static const char *const help_lines[] = {
    "Space  n  Right    step forward (one heap pop)",
    "p  Left  Backspace step back (undo the last pop)",
    "Home End  g  P     first / last step, go to step, peak",
    "/  n  N            find by id, name or op; next, prev",
    "r  +  -            auto-play on/off, faster, slower",
    "Tab  Shift-Tab     move the focus between panels",
    "Up Down PgUp PgDn  scroll the ready queue in focus",
    "Up Down on arena   select a buffer (details below)",
    "s  c  a  t         policy, compare, placer, timeline",
    "l                  list the buffers live at the step",
    "w                  compare: why one order is lower",
    "z  Z  <  >  0      curve: zoom in, out, pan, all steps",
    "click              curve: go to step; block: select",
    "R                  replay on the device (Esc cancels)",
    "Esc                stop play, clear selection, close",
    "? F1 h   q F10     this help; quit",
};

void view_help(canvas *cv)
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
