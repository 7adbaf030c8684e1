/* app.c: the TUI's state and its moves: steps, jumps, zoom, the sides and their plans, the jobs'
 * results taken on ticks, auto-play's steps, clicks (hit.c), the replay's overlay, the why of the
 * last pop. Exports app.h's app_* (app_key: app_keys.c) and app_internal.h's. */
#define _GNU_SOURCE
#include "app.h"
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/optimal.h"
#include "util/units.h"
#include "app_internal.h"
#include "app_start.h"
#include "defaults.h"
#include "find.h"
#include "hit.h"
#include "lesson.h"

/* Explains stepper s's last pop by comparing it with the runner-up at that
 * moment (undo, look at the two best keys, redo). */
static void explain(app *a, int which)
{
    stepper *s = &a->st[which];
    const graph *g = a->g;
    char *out = a->why[which];
    char ch[32];
    if (s->k == 0) {
        snprintf(out, sizeof a->why[0], "%s: step 0, nothing popped yet; %u node%s ready",
                 s->pol->name, step_ready_count(s), step_ready_count(s) == 1 ? "" : "s");
        return;
    }
    uint32_t k = s->k;
    step_back(s);
    heap_item top[2];
    uint32_t nready = step_ready_count(s);
    uint32_t got = step_ready(s, 0, top, 2);
    step_forward(s);
    uint32_t u = s->r.order[k - 1];
    char lb[GRAPH_LABEL_MAX];
    int n = snprintf(out, sizeof a->why[0], "%s: popped node %" PRId64 " (%s, %s): ", s->pol->name,
                     g->id[u], graph_label(g, u, lb, sizeof lb),
                     units_bytes(ch, sizeof ch, g->change[u], 1));
    size_t room = sizeof a->why[0] - (size_t)n;
    char *p = out + n;
    if (got < 2) {
        snprintf(p, room, "the only ready node");
        return;
    }
    s->pol->why(g, &s->r, u, top[1].node, nready, p, room);
}

void app_drop_dead_selection(app *a)
{
    if (a->sel != GRAPH_NONE && app_arena_base(a) != ARENA_TIMELINE &&
        !step_buf_live(&a->st[0], a->sel))
        a->sel = GRAPH_NONE;
}

arena_mode app_arena_base(const app *a)
{
    return a->arena == ARENA_LIVE ? a->arena_back : a->arena;
}

void app_curve_window(const app *a, uint32_t *lo, uint32_t *span)
{
    uint32_t all = a->g->n + 1;
    if (a->zoom_span == 0 || a->zoom_span >= all) {
        *lo = 0;
        *span = all;
    } else {
        *span = a->zoom_span;
        *lo = a->zoom_lo > all - a->zoom_span ? all - a->zoom_span : a->zoom_lo;
    }
}

/* Sets the zoom's window to span steps from lo, kept inside the run. */
static void set_window(app *a, int64_t lo, uint32_t span)
{
    uint32_t all = a->g->n + 1;
    if (span < 8) span = 8; /* 8 steps at the closest */
    if (span >= all) {
        a->zoom_span = 0;
        a->zoom_lo = 0;
        return;
    }
    if (lo < 0) lo = 0;
    if (lo > (int64_t)(all - span)) lo = all - span;
    a->zoom_lo = (uint32_t)lo;
    a->zoom_span = span;
}

/* After the cursor moved, the window follows it (a pan alone leaves the
 * cursor where it is, off the window if need be). */
static void follow_cursor(app *a)
{
    if (!a->zoom_span) return;
    uint32_t lo, span, k = a->st[0].k;
    app_curve_window(a, &lo, &span);
    if (k < lo) set_window(a, k, span);
    else if (k >= lo + span) set_window(a, (int64_t)k - span + 1, span);
}

void app_zoom(app *a, int key)
{
    uint32_t lo, span, k = a->st[0].k;
    app_curve_window(a, &lo, &span);
    /* z and Z keep the cursor where it is on screen, or (when a pan left it
     * outside) the window's middle; < and > move the window only */
    uint32_t c = k >= lo && k < lo + span ? k : lo + span / 2;
    if (key == 'z') set_window(a, (int64_t)c - span / 4, span / 2);
    else if (key == 'Z') set_window(a, (int64_t)c - span, span * 2 > span ? span * 2 : span);
    else if (key == '<') set_window(a, (int64_t)lo - span / 2, span);
    else if (key == '>') set_window(a, (int64_t)lo + span / 2, span);
    else set_window(a, 0, UINT32_MAX);
    app_curve_window(a, &lo, &span);
    if (a->zoom_span)
        snprintf(a->msg, sizeof a->msg, "the curve shows steps %u to %u of %u (0: all)%s", lo,
                 lo + span - 1, a->g->n, k < lo || k >= lo + span ? "; the cursor is off it" : "");
    else snprintf(a->msg, sizeof a->msg, "the curve shows every step");
    a->msg_moment = 1;
}

/* After the cursor moved: the why lines, the selection, the curve's window. */
static void after_move(app *a)
{
    explain(a, 0);
    if (a->cmp.have) explain(a, 1);
    if (a->cmp.have) app_compare_explain(&a->cmp, a->g, a->st, a->st[0].k);
    app_drop_dead_selection(a);
    follow_cursor(a);
}

/* Builds a stepper (and with pl, its placement; with tl, its timeline, or
 * an empty one without memory for it) for pol into the caller's structs;
 * on failure leaves them empty and sets a->err. The placement runs on a
 * thread of its own while the timeline is made (app_start.c); with check 0
 * the plan is place_run's, for the caller to check. */
static int make_side_timed(app *a, const policy *pol, stepper *st, placement *pl, timeline *tl,
                           int check)
{
    if (step_init(st, a->g, pol, &a->ctx, a->err, sizeof a->err)) return -1;
    app_placing job;
    if (pl) app_placing_start(&job, a->g, &st->r, a->placer, &a->ctx, check);
    char err[64];
    if (tl && timeline_run(a->g, &st->r, tl, err, sizeof err)) memset(tl, 0, sizeof *tl);
    if (pl && app_placing_wait(&job, pl, a->err, sizeof a->err)) {
        if (tl) timeline_free(tl);
        step_free(st);
        return -1;
    }
    return 0;
}

static int make_side(app *a, const policy *pol, stepper *st, placement *pl)
{
    return make_side_timed(a, pol, st, pl, NULL, 1);
}

static int cmp_span_desc(const void *x, const void *y, void *ctx)
{
    const graph *g = ctx;
    uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
    if (g->buf_size[i] != g->buf_size[j]) return g->buf_size[i] < g->buf_size[j] ? 1 : -1;
    return (i > j) - (i < j);
}

/* The painting order of the timeline: largest first, so small blocks stay on top. */
static void sort_by_span(app *a)
{
    free(a->by_span);
    a->by_span = malloc(((size_t)a->g->nbufs + 1) * sizeof *a->by_span);
    if (!a->by_span) return;
    for (uint32_t b = 0; b < a->g->nbufs; b++) a->by_span[b] = b;
    qsort_r(a->by_span, a->g->nbufs, sizeof *a->by_span, cmp_span_desc, (void *)(uintptr_t)a->g);
}

/* The plan p made (pl, taken) becomes the arena panel's; says so. */
static void take_plan(app *a, placement *pl, const placer *p)
{
    place_free(&a->pl);
    a->pl = *pl;
    a->placer = p;
    a->place_gen++;
    char ar[32], gap[64]; /* the arena panel says the bound and the peak */
    snprintf(
        a->msg, sizeof a->msg, "placer %s: arena %s, %s", p->name,
        units_bytes(ar, sizeof ar, a->pl.arena, 0),
        optimal_phrase(gap, sizeof gap, a->pl.arena, a->pl.bound, a->pl.proven, OPTIMAL_TERSE));
}

void app_buffer_details(const app *a, uint32_t b, char *out, size_t cap)
{
    const graph *g = a->g;
    const run *r = &a->st[0].r;
    char sz[32], off[32], nm[256];
    uint32_t f = g->buf_free[b];
    char lb[GRAPH_LABEL_MAX];
    /* By names: the buffer's (its ALLOC's), the users'; ids only where a node has none. */
    int n = snprintf(out, cap, "%s: %s at %s, allocated at step %u, ",
                     graph_buf_display(g, b, nm, sizeof nm),
                     units_bytes(sz, sizeof sz, g->buf_size[b], 0),
                     units_bytes(off, sizeof off, a->pl.offset[b], 0), r->pos[g->buf_alloc[b]] + 1);
    if (n < 0 || (size_t)n >= cap) return;
    if (f == GRAPH_NONE) n += snprintf(out + n, cap - (size_t)n, "never freed; used by");
    else n += snprintf(out + n, cap - (size_t)n, "freed at step %u; used by", r->pos[f] + 1);
    int users = 0;
    for (uint32_t i = 0; i < g->n && (size_t)n < cap; i++)
        for (uint32_t j = g->in_off[i]; j < g->in_off[i + 1]; j++)
            if (g->inputs[j] == g->buf_id[b]) {
                n += snprintf(out + n, cap - (size_t)n, "%s %s", users++ ? "," : "",
                              graph_display(g, i, lb, sizeof lb));
                break;
            }
    if (!users && (size_t)n < cap) snprintf(out + n, cap - (size_t)n, " no node's Inputs");
}

/* Times st[0]'s run (the lanes and the status bar's makespan); without
 * memory for it, tl stays empty and they say nothing of time. */
static void retime(app *a)
{
    char err[64];
    timeline_free(&a->tl);
    if (timeline_run(a->g, &a->st[0].r, &a->tl, err, sizeof err)) memset(&a->tl, 0, sizeof a->tl);
}

/* Makes pol the main (stepped) policy; the app is unchanged on failure. */
static int init_main(app *a, const policy *pol)
{
    stepper st;
    placement pl;
    timeline tl;
    int defer = app_start_take_defer(); /* the plan's check after app_init (app_check_wait) */
    if (make_side_timed(a, pol, &st, &pl, &tl, !defer)) return -1;
    step_free(&a->st[0]);
    place_free(&a->pl);
    a->st[0] = st;
    a->pl = pl;
    a->pol = pol;
    a->place_gen++;
    timeline_free(&a->tl); /* st's, as retime makes it */
    a->tl = tl;
    if (defer && app_start_check_hook) app_start_check_hook(&a->pl);
    if (defer) app_checking_start(&a->check, a->g, &a->st[0].r, &a->pl, a->placer->name);
    return 0;
}

int app_check_wait(app *a) { return app_checking_wait(&a->check, a->err, sizeof a->err); }

/* st (taken) becomes the other side for pol, at the stepped side's step. */
static void install_other(app *a, stepper *st, const policy *pol)
{
    if (a->cmp.have) step_free(&a->st[1]);
    a->st[1] = *st;
    a->cmp.have = 1;
    a->cmp.pol = pol;
    app_compare_set_partings(&a->cmp, a->g->n, &a->st[0].r, &a->st[1].r);
    step_jump(&a->st[1], a->st[0].k);
    app_compare_explain(&a->cmp, a->g, a->st, a->st[0].k);
}

/* (Re)builds the other side for pol at once; the app is unchanged on failure. */
static int init_other(app *a, const policy *pol)
{
    stepper st;
    if (make_side(a, pol, &st, NULL)) return -1;
    install_other(a, &st, pol);
    return 0;
}

int app_init(app *a, const graph *g, const char *title, const policy *pol, const policy *cmp_pol,
             int compare, const placer *pl, const solve_ctx *c)
{
    return app_init_known(a, g, title, pol, cmp_pol, compare, pl, c, NULL);
}

int app_init_known(app *a, const graph *g, const char *title, const policy *pol,
                   const policy *cmp_pol, int compare, const placer *pl, const solve_ctx *c,
                   const int64_t *bound)
{
    memset(a, 0, sizeof *a);
    a->g = g;
    if (c) a->ctx = *c;
    a->ctx.watch = NULL; /* each search in the background has its own */
    app_bounding lb;     /* policy_lower_bound(g) beside the sides (app_start.c) */
    if (!bound) app_bounding_start(&lb, g);
    a->title = title;
    a->cmp.pol = cmp_pol;
    a->focus = P_READY;
    a->sel = GRAPH_NONE;
    app_play_init(&a->play);
    app_place_init(&a->place);
    a->poolp =
        (pool_params){DEFAULT_ITERATIONS, DEFAULT_SCALE_MIN, DEFAULT_SCALE_MAX, DEFAULT_SEED};
    a->placer = pl ? pl : placer_find(DEFAULT_TUI_PLACER);
    a->utf8 = 1;
    a->mouse = 1;
    app_replay_init(&a->rp);
    int bad = init_main(a, pol) || (compare && init_other(a, cmp_pol));
    if (!bad) sort_by_span(a);
    a->bound = bound ? *bound : app_bounding_wait(&lb);
    a->lesson_g = g; /* g's bound for a lesson's next stop, whatever the budget view shows */
    a->lesson_bound = a->bound;
    if (bad) return -1;
    a->cmp.shown = compare;
    after_move(a);
    layout_compute(80, 24, a->cmp.shown, &a->lay);
    return 0;
}

void app_free(app *a)
{
    app_check_wait(a);         /* the plan's check reads st[0] and pl */
    app_place_free(&a->place); /* stop it, wait for it, drop its plan */
    app_pool_free(a);
    app_replay_stop(&a->rp); /* stop it, wait for it, drop what it measured */
    if (a->have_replay) replay_result_free(&a->replay);
    a->have_replay = 0;
    step_free(&a->st[0]);
    if (a->cmp.have) step_free(&a->st[1]);
    place_free(&a->pl);
    timeline_free(&a->tl);
    free(a->by_span);
    app_compare_free(&a->cmp);
    app_budget_free(&a->bud); /* after the steppers: g may be its plan graph */
}

/* The selected buffer's details, the why line's words while it is selected; NULL for none. */
static const char *sel_details(const app *a, char *out, size_t cap)
{
    if (a->sel == GRAPH_NONE) return NULL;
    app_buffer_details(a, a->sel, out, cap);
    return out;
}

app_reaction app_why_follow(app *a)
{
    char details[APP_WHY_TEXT];
    if (!app_why_stale(a, sel_details(a, details, sizeof details))) return 0;
    app_resize(a, a->lay.w, a->lay.h);
    return APP_REDRAW;
}

void app_resize(app *a, int w, int h)
{
    a->lesson_rows = lesson_rows(a->lesson, a->lesson_at, w, h); /* 0 outside a lesson */
    char details[APP_WHY_TEXT];
    app_why_layout(a, sel_details(a, details, sizeof details), w, h); /* the why's rows whole */
    if (!a->lay.used[a->focus]) a->focus = P_READY;
}

const stepper *app_ready_stepper(const app *a, int panel)
{
    return a->cmp.shown && panel == P_READY ? &a->st[1] : &a->st[0];
}

void app_jump(app *a, uint32_t k)
{
    if (k > a->g->n) k = a->g->n;
    step_jump(&a->st[0], k);
    if (a->cmp.have) step_jump(&a->st[1], k);
    a->scroll[P_READY] = a->scroll[P_READY2] = 0;
    after_move(a);
}

int app_set_graph(app *a, const graph *g, const policy *pol)
{
    const graph *was = a->g;
    a->g = g;
    if (init_main(a, pol)) {
        a->g = was;
        return -1;
    }
    if (a->cmp.have) step_free(&a->st[1]);
    app_compare_free(&a->cmp);
    a->cmp.have = a->cmp.shown = 0;
    a->better = 0;
    a->live_side = 1;
    if (a->have_replay) replay_result_free(&a->replay); /* measured on the other graph */
    a->have_replay = 0;
    a->bound = policy_lower_bound(g);
    sort_by_span(a);
    a->sel = GRAPH_NONE;
    a->zoom_lo = a->zoom_span = 0;
    a->prompt.finding = 0;
    app_play_stop(&a->play);
    app_pool_refresh(a);
    app_resize(a, a->lay.w, a->lay.h);
    app_jump(a, 0);
    return 0;
}

void app_set_replay(app *a, replay_result *res)
{
    if (a->have_replay) replay_result_free(&a->replay);
    a->replay = *res;
    a->replay_pol = policy_find(res->policy);
    a->have_replay = 1;
    memset(res, 0, sizeof *res);
}

void app_set_warnings(app *a, char *const *lines, size_t n)
{
    a->warn = lines;
    a->nwarn = n;
    if (!n) return;
    const char *w = strstr(lines[0], "warning: "), *first = w ? w + 9 : lines[0];
    if (n == 1) snprintf(a->msg, sizeof a->msg, "load warning: %.150s (? lists it)", first);
    else snprintf(a->msg, sizeof a->msg, "%zu load warnings (? lists them): %.140s", n, first);
}

const replay_result *app_overlay(const app *a)
{
    const replay_result *r = &a->replay;
    if (!a->have_replay || !r->n || r->n > a->g->n || !r->s || a->replay_pol != a->pol) return NULL;
    return r;
}

int app_tick_ms(const app *a)
{
    int t = a->play.playing ? app_play_ms(&a->play) : -1;
    if ((a->rp.job || a->place.job) && (t < 0 || t > APP_POLL_MS)) t = APP_POLL_MS;
    return t;
}

/* st and its plan (taken) become the stepped side for pol, at the same
 * step; compare's other side follows; says so. */
static void take_main(app *a, stepper *st, placement *pl, const policy *pol);
/* st (taken) becomes compare's other side for pol, at the same step, and
 * compare mode shows it; says how far the stepped side is from the best
 * bound now known. */
static void take_other(app *a, stepper *st, const policy *pol);

/* A poll of the background job: takes what it made when it has finished. */
static app_reaction poll_place(app *a)
{
    app_placed got;
    if (!app_place_poll(&a->place, APP_POLL_MS, &got, a->msg, sizeof a->msg)) return 0;
    if (got.kind == APP_PLACED_OTHER) take_other(a, &got.side, got.pol);
    else if (got.kind == APP_PLACED_MAIN) {
        a->placer = got.p;
        take_main(a, &got.side, &got.pl, got.pol);
    } else if (got.kind == APP_PLACED_PLAN) take_plan(a, &got.pl, got.p);
    return APP_REDRAW;
}

/* One tick of the play: the steps of one tick at the current speed, each
 * looked at, stopping at the goal, a breakpoint or the last step (and
 * saying which). */
static app_reaction play_step(app *a)
{
    uint32_t to;
    char said[sizeof a->msg];
    if (!app_play_next(&a->play, a->g, a->st, &a->cmp, &to, said, sizeof said)) return APP_REDRAW;
    app_jump(a, to);
    if (a->msg_moment) a->msg[0] = 0; /* the pop's explanation now */
    a->msg_moment = 0;
    if (said[0]) snprintf(a->msg, sizeof a->msg, "%s", said);
    return APP_REDRAW;
}

static app_reaction tick(app *a)
{
    int polled = a->rp.job != NULL || a->place.job != NULL; /* ticks come every APP_POLL_MS */
    app_reaction r = a->place.job ? poll_place(a) : 0;
    if (a->rp.job) {
        replay_result res;
        unsigned got =
            app_replay_poll(&a->rp, a->g, a->pol, a->placer, &a->ctx, &res, a->msg, sizeof a->msg);
        if (got & APP_REPLAY_RESULT) app_set_replay(a, &res);
        if (got & APP_REPLAY_STARTED) a->play.wait = 0;
        if (got & APP_REPLAY_CHANGED) r |= APP_REDRAW;
    }
    if (!a->play.playing) return r;
    if (polled && app_play_ms(&a->play) > APP_POLL_MS) { /* wait for the play's pace */
        a->play.wait += APP_POLL_MS;
        if (a->play.wait < app_play_ms(&a->play)) return r;
        a->play.wait = 0;
    }
    return play_step(a);
}

app_reaction app_tick(app *a)
{
    if (app_check_wait(a)) return APP_QUIT; /* a->err says why */
    app_reaction r = tick(a);
    return r ? r | app_why_follow(a) : r;
}

static void take_main(app *a, stepper *st, placement *pl, const policy *pol)
{
    const policy *prev = a->pol, *other = pol == a->cmp.pol ? prev : a->cmp.pol; /* sides differ */
    uint32_t k = a->st[0].k;
    step_free(&a->st[0]);
    place_free(&a->pl);
    a->st[0] = *st;
    a->pl = *pl;
    a->pol = pol;
    a->place_gen++;
    retime(a);
    app_pool_refresh(a);
    snprintf(a->msg, sizeof a->msg, "policy %s: %s", pol->name, pol->desc);
    if (a->cmp.have && other != a->cmp.pol && init_other(a, other)) { /* out of memory */
        snprintf(a->msg, sizeof a->msg, "policy %s; cannot compare with %s: %.120s", pol->name,
                 other->name, a->err);
        step_free(&a->st[1]);
        a->cmp.have = a->cmp.shown = 0;
        a->live_side = 1;
        app_resize(a, a->lay.w, a->lay.h);
    }
    a->cmp.pol = other;
    if (a->cmp.have) app_compare_set_partings(&a->cmp, a->g->n, &a->st[0].r, &a->st[1].r);
    app_jump(a, k);
}

void app_next_policy(app *a)
{
    size_t i = 0;
    while (policy_at(i) && policy_at(i) != a->pol) i++;
    const policy *next = policy_at(i + 1) ? policy_at(i + 1) : policy_at(0);
    stepper st;
    placement pl;
    if (next->kind == POLICY_EXACT || a->g->nbufs >= a->place.async_min) {
        /* a search, or a big placement */
        app_place_start(&a->place, a->g, &a->st[0].r, next, 0, a->placer, &a->ctx, a->msg,
                        sizeof a->msg);
        return;
    }
    if (make_side(a, next, &st, &pl)) {
        snprintf(a->msg, sizeof a->msg, "cannot switch to %s: %.150s", next->name, a->err);
        if (next->kind != POLICY_BASELINE) return;
        /* given refuses a graph whose Ids are no order: s goes on to the next policy */
        const policy *skip = next, *after = policy_at(i + 2) ? policy_at(i + 2) : policy_at(0);
        if (after == a->pol || after->kind == POLICY_EXACT || make_side(a, after, &st, &pl)) return;
        next = after;
        snprintf(a->msg, sizeof a->msg, "%s skipped: its order is not topological", skip->name);
    }
    take_main(a, &st, &pl, next);
}

void app_next_placer(app *a)
{
    size_t i = 0;
    while (placer_at(i) && placer_at(i) != a->placer) i++;
    const placer *next = placer_at(i + 1) ? placer_at(i + 1) : placer_at(0);
    if (next->searches || a->g->nbufs >= a->place.async_min) {
        app_place_start(&a->place, a->g, &a->st[0].r, NULL, 0, next, &a->ctx, a->msg,
                        sizeof a->msg);
        return;
    }
    placement pl;
    if (place_run_checked(a->g, &a->st[0].r, next, PLACE_ALIGN_DEFAULT, &a->ctx, &pl, a->err,
                          sizeof a->err)) {
        snprintf(a->msg, sizeof a->msg, "cannot place with %s: %.150s", next->name, a->err);
        return;
    }
    take_plan(a, &pl, next);
}

static app_reaction click(app *a, int x, int y)
{
    app_reaction live = app_live_click(a, x, y); /* the list hides the arena under it */
    if (live) return live;
    hit_frame f = {&a->lay, a->utf8,   app_arena_base(a) == ARENA_TIMELINE,
                   a->g,    &a->st[0], &a->pl,
                   0,       0,         a->curve == CURVE_LANES};
    app_curve_window(a, &f.lo, &f.span);
    hit_action h = hit_test(&f, x, y);
    switch (h.kind) {
    case HIT_STEP:
        if (a->curve == CURVE_POOL) return 0; /* the panel shows iterations, not steps */
        app_jump(a, h.step);
        return APP_REDRAW;
    case HIT_BUFFER:
        a->sel = h.buf;
        a->focus = P_TETRIS;
        return APP_REDRAW;
    default: return 0;
    }
}

app_reaction app_click(app *a, int x, int y)
{
    app_reaction r = click(a, x, y);
    return r ? r | app_why_follow(a) : r;
}

static void take_other(app *a, stepper *st, const policy *pol)
{
    install_other(a, st, pol);
    int opt;
    int64_t lb = app_bound(a, &opt); /* what the new side proved holds for both */
    policy_prove(&a->st[0].r, lb);
    policy_prove(&a->st[1].r, lb);
    char gap[64]; /* without the bound, to fit 80 columns: the curve draws it */
    optimal_phrase(gap, sizeof gap, a->st[0].r.peak, lb, opt, OPTIMAL_TERSE);
    snprintf(a->msg, sizeof a->msg, "%s vs %s: %s; d: where they part, w: why", a->pol->name,
             pol->name, gap);
    if (!a->cmp.shown) {
        a->cmp.shown = 1;
        app_resize(a, a->lay.w, a->lay.h);
    }
    after_move(a);
}

void app_compare_optimum(app *a)
{
    const policy *x = app_compare_exact();
    if (a->pol == x) {
        snprintf(a->msg, sizeof a->msg, "the stepped policy is exact; s picks another to compare");
        return;
    }
    if (a->cmp.have && a->cmp.pol == x) {
        if (!a->cmp.shown) app_toggle_compare(a);
        return;
    }
    app_place_start(&a->place, a->g, &a->st[0].r, x, 1, a->placer, &a->ctx, a->msg, sizeof a->msg);
}

app_reaction app_toggle_compare(app *a)
{
    if (!a->cmp.have && a->cmp.pol->kind == POLICY_EXACT) { /* a search: in the background */
        app_place_start(&a->place, a->g, &a->st[0].r, a->cmp.pol, 1, a->placer, &a->ctx, a->msg,
                        sizeof a->msg);
        return APP_REDRAW;
    }
    if (!a->cmp.have && init_other(a, a->cmp.pol)) {
        snprintf(a->msg, sizeof a->msg, "cannot compare with %s: %.150s", a->cmp.pol->name, a->err);
        return APP_REDRAW;
    }
    a->cmp.shown = !a->cmp.shown;
    if (!a->cmp.shown && a->arena == ARENA_LIVE) a->live_side = 1; /* the other side's list goes */
    app_resize(a, a->lay.w, a->lay.h);
    after_move(a);
    return APP_REDRAW | APP_RELAYOUT;
}

int64_t app_bound(const app *a, int *optimal)
{
    return app_compare_bound(a->bound, a->st, a->cmp.have ? 2 : 1, optimal);
}

const char *app_part_words(const app *a, uint32_t s, char *out, size_t cap)
{
    return app_compare_words(a->g, &a->st[0], &a->st[1], s, out, cap);
}

const char *app_part_why(const app *a, int i, char *out, size_t cap)
{
    return app_compare_why(&a->cmp, i, out, cap);
}

uint32_t app_steps_per_sec(const app *a) { return app_play_sps(&a->play); }

void app_find_go(app *a, int dir)
{
    uint32_t k = app_prompt_find(&a->prompt, a->g, &a->st[0].r, a->st[0].k, dir, a->pol->name,
                                 a->msg, sizeof a->msg);
    if (k != GRAPH_NONE) app_jump(a, k);
}

void app_prompt_do(app *a, int key)
{
    uint32_t step = 0;
    switch (app_prompt_key(&a->prompt, key, a->g->n, &step, a->msg, sizeof a->msg)) {
    case APP_PROMPT_GO: app_jump(a, step); break;
    case APP_PROMPT_FIND: app_find_go(a, 1); break;
    case APP_PROMPT_BREAK:
        app_break_add(&a->play, a->g, a->prompt.buf, a->msg, sizeof a->msg);
        break;
    case APP_PROMPT_EXPORT:
        if (access(a->prompt.buf, F_OK) == 0) {
            char path[sizeof a->prompt.buf];
            snprintf(path, sizeof path, "%s", a->prompt.buf);
            app_prompt_open(&a->prompt, 'o', path);
            snprintf(a->msg, sizeof a->msg,
                     "%.120s exists: y overwrites it, any other key keeps it", path);
        } else {
            app_export_svg(a, a->prompt.buf);
        }
        break;
    case APP_PROMPT_OVERWRITE: app_export_svg(a, a->prompt.buf); break;
    case APP_PROMPT_BUDGET: /* the budget's prompt goes to app_budget_prompt_key */
    case APP_PROMPT_EDIT: break;
    }
}
