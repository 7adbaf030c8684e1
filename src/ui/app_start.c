/* app_start.c: the app's start spread over threads (app_start.h): the lower
 * bound and a side's checked placement each run beside the caller. Every
 * thread reads the graph and the run, which nothing writes meanwhile, and
 * writes only its own struct. Exports app_task_*, app_bounding_*,
 * app_placing_*. */
#include "app_start.h"
#include <stdio.h>
#include <string.h>
#include "sched/policy/policy.h"

void app_task_start(app_task *t, void *(*fn)(void *), void *arg)
{
    t->on = pthread_create(&t->thread, NULL, fn, arg) == 0;
    if (!t->on) fn(arg); /* no thread: the same work, here and now */
}

void app_task_wait(app_task *t)
{
    if (t->on) pthread_join(t->thread, NULL);
    t->on = 0;
}

static void *bound_main(void *arg)
{
    app_bounding *b = arg;
    b->lb = policy_lower_bound(b->g);
    return NULL;
}

void app_bounding_start(app_bounding *b, const graph *g)
{
    b->g = g;
    b->lb = 0;
    app_task_start(&b->task, bound_main, b);
}

int64_t app_bounding_wait(app_bounding *b)
{
    app_task_wait(&b->task);
    return b->lb;
}

static void *placing_main(void *arg)
{
    app_placing *s = arg;
    s->rc = place_run_checked(s->g, s->r, s->p, PLACE_ALIGN_DEFAULT, s->c, &s->pl, s->err,
                              sizeof s->err);
    return NULL;
}

void app_placing_start(app_placing *s, const graph *g, const run *r, const placer *p,
                       const solve_ctx *c)
{
    s->g = g;
    s->r = r;
    s->p = p;
    s->c = c;
    s->rc = PLACE_OK;
    s->err[0] = '\0';
    memset(&s->pl, 0, sizeof s->pl);
    app_task_start(&s->task, placing_main, s);
}

int app_placing_wait(app_placing *s, placement *pl, char *err, size_t cap)
{
    app_task_wait(&s->task);
    if (s->rc != PLACE_OK) {
        snprintf(err, cap, "%s", s->err);
        return -1;
    }
    *pl = s->pl;
    return 0;
}
