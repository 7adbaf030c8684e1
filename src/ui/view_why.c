/* view_why.c: the line above the key hints: why the last pop happened, a
 * selected buffer's details, or a one-shot message over either. Exports
 * view_why and view_msg_fit. */
#include <string.h>
#include "view.h"
#include "util/utf8.h"

const char *view_msg_fit(const char *msg, int w, char *out, size_t cap)
{
    const char *p = msg;
    for (;;) {
        const char *end = strchr(p, APP_MSG_ALT);
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(out, cap, "%.*s", (int)n, p);
        if (!end || utf8_count(out) <= w) return out;
        p = end + 1;
    }
}

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
    char alt[sizeof a->msg];
    if (a->msg[0]) text = view_msg_fit(a->msg, r.w - 1, alt, sizeof alt);
    /* shortened with a mark when the line is too narrow, never cut */
    canvas_fit(cv, r.x + 1, r.y, r.w - 1, a->msg[0] ? ST_WARN : ST_WHY, text);
}
