/* view_lesson.c: a lesson's narration (memtris lesson), above the why line: a rule naming the
 * lesson, the stop and the keys that move between stops, then the stop's words wrapped at
 * words (layout_wrap). Exports view_lesson. */
#include <stdio.h>
#include <string.h>
#include "util/utf8.h"
#include "lesson.h"
#include "view.h"

void view_lesson(canvas *cv, const app *a, rect r)
{
    const lesson *ls = a->lesson;
    if (!ls || r.h < 1 || a->lesson_at >= ls->nstops) return;
    const lesson_stop *s = &ls->stops[a->lesson_at];
    canvas_fill(cv, r, ' ', ST_NORMAL);
    uint32_t rule = cv->utf8 ? 0x2500 : '-';
    for (int x = r.x; x < r.x + r.w; x++) canvas_put(cv, x, r.y, rule, ST_BORDER);
    /* the keys at the right, whole or not at all; then the stop and its title */
    static const struct {
        const char *text;
        int key;
    } keys[] = {{" ", 0},       {"Space", 1}, {"/", 0},     {"n", 1},
                {" next  ", 0}, {"p", 1},     {" back ", 0}};
    int kw = 0, right = r.x + r.w - 1;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) kw += utf8_count(keys[i].text);
    if (r.w >= kw + 30) {
        right -= kw;
        for (size_t i = 0, x = (size_t)right; i < sizeof keys / sizeof keys[0]; i++)
            x += (size_t)canvas_text(cv, (int)x, r.y, kw, keys[i].key ? ST_HINT_KEY : ST_HINT,
                                     keys[i].text);
    }
    char head[64], title[300];
    snprintf(head, sizeof head, " Lesson %zu/%zu ", a->lesson_at + 1, ls->nstops);
    int x = r.x + 1 + canvas_text(cv, r.x + 1, r.y, right - r.x - 1, ST_TITLE, head);
    const char *t = s->title[0] ? s->title : ls->title;
    if (t[0] && right - x > 4) {
        snprintf(title, sizeof title, "%s ", t);
        canvas_fit(cv, x, r.y, right - x, ST_TITLE, title);
    }
    /* the wrapper of every sentence (never a number from its unit); the last row marked where
     * the narration has more words than the screen has rows */
    layout_wrap(cv, r.x + 1, r.y + 1, r.w - 2, r.h - 1, ST_NORMAL, s->say);
}
