/* app_why.c: the why line's words and rows: the last pop's reason, a selected buffer's details or
 * a one-shot message over either, wrapped whole in rows the layout takes from the panels above
 * it. Exports app_why_text, app_why_layout and app_why_stale. */
#include <stdio.h>
#include <string.h>
#include "util/wrap.h"
#include "app.h"
#include "lesson.h"

/* The first form of msg (forms between APP_MSG_ALT, longest first) that
 * wraps into rows rows of w columns, or its last. */
static const char *msg_fit(const char *msg, int w, int rows, char *out, size_t cap)
{
    const char *p = msg;
    for (;;) {
        const char *end = strchr(p, APP_MSG_ALT);
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(out, cap, "%.*s", (int)n, p);
        if (!end || wrap_count(out, w) <= rows) return out;
        p = end + 1;
    }
}

const char *app_why_text(const app *a, const char *details, int w, int rows, char *out, size_t cap)
{
    if (a->msg[0]) return msg_fit(a->msg, w, rows, out, cap);
    snprintf(out, cap, "%s", details ? details : a->why[0]);
    return out;
}

/* The rows the why line may take at a terminal of h rows with the lesson's narration: at most
 * APP_WHY_MAX_ROWS, the panels above keeping LAYOUT_MIN_H rows. */
static int why_room(const app *a, int h)
{
    int room = h - a->lesson_rows - LAYOUT_MIN_H + 1;
    return room > APP_WHY_MAX_ROWS ? APP_WHY_MAX_ROWS : room < 1 ? 1 : room;
}

/* The rows the why's words take whole in w columns, at most most. */
static int why_rows(const app *a, const char *details, int w, int most)
{
    char text[APP_WHY_TEXT];
    int n = wrap_count(app_why_text(a, details, w, most, text, sizeof text), w);
    return n < 1 ? 1 : n > most ? most : n;
}

void app_why_layout(app *a, const char *details, int w, int h)
{
    int rows = why_rows(a, details, w - APP_WHY_MARGIN, why_room(a, h));
    layout_compute(w, h - a->lesson_rows - (rows - 1), a->cmp.shown, &a->lay);
    lesson_room(&a->lay, a->lesson_rows, h);
    if (a->lay.too_small || rows < 2) return;
    a->lay.r[P_WHY].h = rows;
    a->lay.r[P_HINTS].y += rows - 1;
}

int app_why_stale(const app *a, const char *details)
{
    const layout *l = &a->lay;
    if (l->too_small || !l->w) return 0;
    return why_rows(a, details, l->w - APP_WHY_MARGIN, why_room(a, l->h)) != l->r[P_WHY].h;
}
