/* view_why.c: the why line(s) above the key hints: why the last pop happened, a selected
 * buffer's details, or a one-shot message over either, wrapped at words into the rows the
 * layout gave it (app_why.c). Exports view_why. */
#include "view.h"

/* The last pop's reason; a selected buffer's details instead (Esc clears
 * the selection); a one-shot message over either. */
void view_why(canvas *cv, const app *a, rect r)
{
    char text[APP_WHY_TEXT], details[APP_WHY_TEXT];
    int w = r.w - APP_WHY_MARGIN;
    if (a->sel != GRAPH_NONE) app_buffer_details(a, a->sel, details, sizeof details);
    app_why_text(a, a->sel != GRAPH_NONE ? details : NULL, w, r.h, text, sizeof text);
    /* wrapped; the last row shortened with a mark, never cut, where rows run out */
    layout_wrap(cv, r.x + 1, r.y, w, r.h, a->msg[0] ? ST_WARN : ST_WHY, text);
}
