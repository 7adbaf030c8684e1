/* view_why.c: the line above the key hints: why the last pop happened, a
 * selected buffer's details, or a one-shot message over either. Exports
 * view_why. */
#include "view.h"

/* The last pop's reason; a selected buffer's details instead (Esc clears
 * the selection); a one-shot message over either. */
void view_why(canvas *cv, const app *a, rect r)
{
    char details[512];
    const char *text = a->why[0];
    if (a->sel != GRAPH_NONE) {
        app_buffer_details(a, a->sel, details, sizeof details);
        text = details;
    }
    if (a->msg[0]) text = a->msg;
    /* shortened with a mark when the line is too narrow, never cut */
    canvas_fit(cv, r.x + 1, r.y, r.w - 1, a->msg[0] ? ST_WARN : ST_WHY, text);
}
