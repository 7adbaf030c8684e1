/* app_why.c: the why line's words and rows: the last pop's reason, a selected buffer's details or
 * a one-shot message over either, wrapped whole in rows the layout takes from the panels above
 * it. Exports app_why_text, app_why_layout and app_why_stale. */
#include <stdio.h>
#include <string.h>
#include "util/wrap.h"
#include "app.h"
#include "lesson.h"

/* The first form of msg (forms between APP_MSG_ALT, longest first) that wraps
 * into rows rows of w columns, into out: 1; else its last form there: 0. */
static int form_in(const char *msg, int w, int rows, char *out, size_t cap)
{
    for (const char *p = msg;; p = strchr(p, APP_MSG_ALT) + 1) {
        const char *end = strchr(p, APP_MSG_ALT);
        snprintf(out, cap, "%.*s", (int)(end ? (size_t)(end - p) : strlen(p)), p);
        if (wrap_count(out, w) <= rows) return 1;
        if (!end) return 0;
    }
}

/* The form of msg to show in w columns: the first that fits one row, so that the panels keep
 * their rows while a shorter form says it; else the first that wraps into rows rows; else its
 * last. */
static const char *msg_fit(const char *msg, int w, int rows, char *out, size_t cap)
{
    if (!form_in(msg, w, 1, out, cap)) form_in(msg, w, rows, out, cap);
    return out;
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

/* Takes k rows for the why line from the curve (it keeps 6), so that the lists beside and
 * under it (the ready queue loses them too: it spans the height) keep theirs: the curve says
 * the same in fewer rows. Returns 0 when the curve has not the rows. */
static int take_from_curve(layout *l, int k)
{
    rect *c = &l->r[P_CURVE], *why = &l->r[P_WHY];
    if (c->h - k < 6) return 0;
    for (int p = 0; p < P_COUNT; p++) {
        rect *r = &l->r[p];
        if (!l->used[p] || p == P_CURVE || p == P_STATUS || p == P_WHY || p == P_HINTS ||
            r->y + r->h != why->y)
            continue;                               /* not down to the why */
        if (r->x == c->x && r->y > c->y) r->y -= k; /* under the curve: moved up */
        else r->h -= k;                             /* beside it: shorter */
    }
    c->h -= k;
    why->y -= k;
    why->h += k;
    return 1;
}

void app_why_layout(app *a, const char *details, int w, int h)
{
    int rows = why_rows(a, details, w - APP_WHY_MARGIN, why_room(a, h));
    layout_compute(w, h - a->lesson_rows, a->cmp.shown, &a->lay);
    if (rows > 1 && !a->lay.too_small && !take_from_curve(&a->lay, rows - 1)) {
        layout_compute(w, h - a->lesson_rows - (rows - 1), a->cmp.shown, &a->lay);
        if (!a->lay.too_small) {
            a->lay.r[P_WHY].h = rows;
            a->lay.r[P_HINTS].y += rows - 1;
        }
    }
    lesson_room(&a->lay, a->lesson_rows, h);
}

int app_why_stale(const app *a, const char *details)
{
    const layout *l = &a->lay;
    if (l->too_small || !l->w) return 0;
    return why_rows(a, details, l->w - APP_WHY_MARGIN, why_room(a, l->h)) != l->r[P_WHY].h;
}
