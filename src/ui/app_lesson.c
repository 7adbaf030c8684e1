/* app_lesson.c: memtris lesson on the app: a stop is shown from a fresh app made with the stop's
 * policy, compare side and placer, then the stop's keys pressed through the key table (as the
 * user would press them in 'memtris view') and its steps taken; Space, n and p move between the
 * stops. Exports app_lesson_go, app_lesson_step. */
#include "app_lesson.h"
#include <stdio.h>
#include <string.h>
#include "app_internal.h"
#include "app_keys.h"

/* Presses key as 'memtris view' would take it, then waits for the job it
 * started (exact's search, a placement): the stop shows its result. */
static app_reaction press(app *a, int key)
{
    a->msg[0] = 0;
    a->msg_moment = 0;
    const app_key_row *r = app_key_row_of(app_key_mode_of(a, 0), key);
    app_reaction got = r ? r->act(a, key) : 0;
    while (a->place.job) got |= app_tick(a);
    return got;
}

/* The app made again for stop s on the same graph, the display's settings
 * kept. 0, or -1 with a->err set. */
static int reset(app *a, const lesson_stop *s)
{
    app keep = *a;
    app_free(a);
    const policy *other = s->cmp;
    for (size_t i = 0; !other && policy_at(i); i++)
        if (policy_at(i) != s->pol) other = policy_at(i); /* compare's side until c picks one */
    if (app_init(a, keep.g, keep.title, s->pol, other, s->cmp != NULL, s->plc, &keep.ctx))
        return -1;
    a->utf8 = keep.utf8;
    a->mono = keep.mono;
    a->mouse = keep.mouse;
    a->rp.be = keep.rp.be;
    a->rp.be_auto = keep.rp.be_auto;
    a->rp.mode = keep.rp.mode;
    a->poolp = keep.poolp;
    a->play.speed = keep.play.speed;
    a->lesson = keep.lesson;
    a->place_gen = keep.place_gen + 1; /* a new plan: the views' caches are keyed on it */
    a->lay.w = keep.lay.w;
    a->lay.h = keep.lay.h;
    return 0;
}

app_reaction app_lesson_go(app *a, size_t at)
{
    const lesson *ls = a->lesson;
    if (!ls || at >= ls->nstops) return 0;
    const lesson_stop *s = &ls->stops[at];
    int w = a->lay.w, h = a->lay.h;
    if (reset(a, s)) {
        a->quit = 1;
        return APP_QUIT;
    }
    a->lesson_at = at;
    app_resize(a, w, h);
    for (size_t i = 0; i < s->nacts; i++) {
        if (s->acts[i].key == LESSON_STEP_KEY) app_jump(a, s->acts[i].arg);
        else press(a, s->acts[i].key);
    }
    app_resize(a, a->lay.w, a->lay.h); /* the narration's rows, in the stop's mode */
    return APP_REDRAW | APP_RELAYOUT;
}

app_reaction app_lesson_step(app *a, int dir)
{
    const lesson *ls = a->lesson;
    if (!ls) return 0;
    size_t n = ls->nstops, at = a->lesson_at;
    if (dir > 0 && at + 1 >= n) {
        snprintf(a->msg, sizeof a->msg,
                 "the last stop (%zu of %zu): p goes back, Home and Right step, q quits", n, n);
        return APP_REDRAW;
    }
    if (dir < 0 && at == 0) {
        snprintf(a->msg, sizeof a->msg, "the first stop (1 of %zu): Space or n goes on", n);
        return APP_REDRAW;
    }
    return app_lesson_go(a, dir > 0 ? at + 1 : at - 1);
}
