/* app_lesson.c: memtris lesson on the app: a stop is shown from a fresh app made with the stop's
 * policy, compare side and placer, the display's settings kept; app_keys.c then presses the
 * stop's keys through the key table (as the user would press them in 'memtris view') and takes
 * its steps, and moves between the stops on Space, n and p. Exports app_lesson_stop
 * (app_internal.h). */
#include <stddef.h>
#include "app_internal.h"
#include "app_train.h"
#include "lesson.h"

/* The app made again for stop s on the same graph, the display's settings
 * kept. 0, or -1 with a->err set. */
static int reset(app *a, const lesson_stop *s)
{
    app keep = *a;
    const graph *g = a->bud.on ? a->bud.g : a->g; /* the lesson's, not a budget's plan */
    app_free(a);
    const policy *other = s->cmp ? s->cmp : app_train_other(g, s->pol); /* given: priority */
    for (size_t i = 0; !other && policy_at(i); i++)
        if (policy_at(i) != s->pol) other = policy_at(i); /* compare's side until c picks one */
    /* The graph's bound is the same at every stop: work out once, not per stop. */
    const int64_t *bound = keep.lesson_g == g ? &keep.lesson_bound : NULL;
    if (app_init_known(a, g, keep.title, s->pol, other, s->cmp != NULL, s->plc, &keep.ctx, bound))
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

int app_lesson_stop(app *a, size_t at)
{
    int w = a->lay.w, h = a->lay.h;
    if (reset(a, &a->lesson->stops[at])) {
        a->quit = 1;
        return -1;
    }
    a->lesson_at = at;
    app_resize(a, w, h);
    return 0;
}
