/* app_start.c: the app's start spread over threads (app_start.h): the lower
 * bound and a side's checked placement each run beside the caller. Every
 * thread reads the graph and the run, which nothing writes meanwhile, and
 * writes only its own struct. Exports app_task_*, app_bounding_*,
 * app_placing_*, app_checking_*, app_start_*. */
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
    if (!s->check)
        s->rc =
            place_run(s->g, s->r, s->p, PLACE_ALIGN_DEFAULT, s->c, &s->pl, s->err, sizeof s->err)
                ? PLACE_FAILED
                : PLACE_OK;
    else
        s->rc = place_run_checked(s->g, s->r, s->p, PLACE_ALIGN_DEFAULT, s->c, &s->pl, s->err,
                                  sizeof s->err);
    return NULL;
}

void app_placing_start(app_placing *s, const graph *g, const run *r, const placer *p,
                       const solve_ctx *c, int check)
{
    s->g = g;
    s->r = r;
    s->p = p;
    s->c = c;
    s->check = check;
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

static void *checking_main(void *arg)
{
    app_checking *k = arg;
    k->bad = place_check(k->g, k->r, k->pl, k->pname, k->err, sizeof k->err) != 0;
    return NULL;
}

void app_checking_start(app_checking *k, const graph *g, const run *r, const placement *pl,
                        const char *pname)
{
    k->g = g;
    k->r = r;
    k->pl = pl;
    k->pname = pname;
    k->started = 1;
    k->bad = 0;
    k->err[0] = '\0';
    app_task_start(&k->task, checking_main, k);
}

int app_checking_wait(app_checking *k, char *err, size_t cap)
{
    if (!k->started) return 0;
    app_task_wait(&k->task);
    if (!k->bad) return 0;
    snprintf(err, cap, "%s", k->err);
    return -1;
}

static int defer_check; /* set by the caller's thread before app_init, read there */
void (*app_start_check_hook)(placement *pl);

void app_start_defer_check(void) { defer_check = 1; }

int app_start_take_defer(void)
{
    int d = defer_check;
    defer_check = 0;
    return d;
}
