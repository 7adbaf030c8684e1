/* app.c: the TUI's state machine: stepping, jumps, prompts, focus, scrolling, compare
 * mode, auto-play, clicks (hit.c finds what), the replay's overlay (its job: app_replay.c)
 * and the "why" of the last pop (compare's other side: app_compare.c). Exports the app_*
 * of app.h. */
#define _GNU_SOURCE
#include "app.h"
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/units.h"
#include "app_internal.h"
#include "defaults.h"
#include "find.h"
#include "hit.h"

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

/* The stack shows live buffers only: a selection there ends with its
 * buffer (the timeline shows every buffer, and keeps it). */
static void drop_dead_selection(app *a)
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

/* The cursor stays in the zoom's window: the window follows it. */
static void follow_cursor(app *a)
{
    if (!a->zoom_span) return;
    uint32_t lo, span, k = a->st[0].k;
    app_curve_window(a, &lo, &span);
    if (k < lo) set_window(a, k, span);
    else if (k >= lo + span) set_window(a, (int64_t)k - span + 1, span);
}

/* z (or + on the curve): half the steps, around the cursor; Z (or -):
 * twice; < and >: half a window back or on; 0: every step. */
static void zoom(app *a, int key)
{
    uint32_t lo, span, k = a->st[0].k;
    app_curve_window(a, &lo, &span);
    if (key == 'z') set_window(a, (int64_t)k - span / 4, span / 2);
    else if (key == 'Z') set_window(a, (int64_t)k - span, span * 2 > span ? span * 2 : span);
    else if (key == '<') set_window(a, (int64_t)lo - span / 2, span);
    else if (key == '>') set_window(a, (int64_t)lo + span / 2, span);
    else set_window(a, 0, UINT32_MAX);
    app_curve_window(a, &lo, &span);
    if (a->zoom_span)
        snprintf(a->msg, sizeof a->msg, "the curve shows steps %u to %u of %u (0: all)", lo,
                 lo + span - 1, a->g->n);
    else snprintf(a->msg, sizeof a->msg, "the curve shows every step");
    a->msg_moment = 1;
    /* panning may leave the cursor behind: bring it along */
    if (k < lo) app_jump(a, lo);
    else if (k >= lo + span) app_jump(a, lo + span - 1);
}

void app_after_move(app *a)
{
    explain(a, 0);
    if (a->have_cmp) explain(a, 1);
    drop_dead_selection(a);
    follow_cursor(a);
}

int app_make_side(app *a, const policy *pol, stepper *st, placement *pl)
{
    if (step_init(st, a->g, pol, a->err, sizeof a->err)) return -1;
    if (pl && place_run_checked(a->g, &st->r, a->placer, PLACE_ALIGN_DEFAULT, pl, a->err,
                                sizeof a->err)) {
        step_free(st);
        return -1;
    }
    return 0;
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

void app_take_plan(app *a, placement *pl, const placer *p)
{
    place_free(&a->pl);
    a->pl = *pl;
    a->placer = p;
    a->place_gen++;
    char ar[32];
    snprintf(a->msg, sizeof a->msg, "placer %s: arena %s, %.1f%% over the peak", p->name,
             units_bytes(ar, sizeof ar, a->pl.arena, 0),
             100.0 * place_over_peak(&a->pl, a->st[0].r.peak));
}

void app_buffer_details(const app *a, uint32_t b, char *out, size_t cap)
{
    const graph *g = a->g;
    const run *r = &a->st[0].r;
    char sz[32], off[32];
    uint32_t f = g->buf_free[b];
    char lb[GRAPH_LABEL_MAX];
    int n = snprintf(out, cap, "b%" PRId64 ": %s at %s, allocated at step %u (node %" PRId64 "), ",
                     g->buf_id[b], units_bytes(sz, sizeof sz, g->buf_size[b], 0),
                     units_bytes(off, sizeof off, a->pl.offset[b], 0), r->pos[g->buf_alloc[b]] + 1,
                     g->id[g->buf_alloc[b]]);
    if (n < 0 || (size_t)n >= cap) return;
    if (f == GRAPH_NONE) n += snprintf(out + n, cap - (size_t)n, "never freed; used by");
    else
        n += snprintf(out + n, cap - (size_t)n, "freed at step %u (node %" PRId64 "); used by",
                      r->pos[f] + 1, g->id[f]);
    int users = 0;
    for (uint32_t i = 0; i < g->n && (size_t)n < cap; i++)
        for (uint32_t j = g->in_off[i]; j < g->in_off[i + 1]; j++)
            if (g->inputs[j] == g->buf_id[b]) {
                n += snprintf(out + n, cap - (size_t)n, "%s node %" PRId64 " (%s)",
                              users++ ? "," : "", g->id[i], graph_display(g, i, lb, sizeof lb));
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
    if (app_make_side(a, pol, &st, &pl)) return -1;
    step_free(&a->st[0]);
    place_free(&a->pl);
    a->st[0] = st;
    a->pl = pl;
    a->pol = pol;
    a->place_gen++;
    retime(a);
    return 0;
}

int app_init(app *a, const graph *g, const char *title, const policy *pol, const policy *cmp_pol,
             int compare, const placer *pl)
{
    memset(a, 0, sizeof *a);
    a->g = g;
    a->bound = policy_lower_bound(g);
    a->title = title;
    a->cmp_pol = cmp_pol;
    a->focus = P_READY;
    a->speed = 3;
    a->sel = GRAPH_NONE;
    a->play_to = GRAPH_NONE;
    a->place_async_min = APP_PLACE_ASYNC_MIN;
    a->poolp =
        (pool_params){DEFAULT_ITERATIONS, DEFAULT_SCALE_MIN, DEFAULT_SCALE_MAX, DEFAULT_SEED};
    a->placer = pl ? pl : placer_find(DEFAULT_TUI_PLACER);
    a->utf8 = 1;
    a->mouse = 1;
    app_replay_init(&a->rp);
    if (init_main(a, pol)) return -1;
    if (compare && app_init_cmp(a, cmp_pol)) return -1;
    sort_by_span(a);
    a->compare = compare;
    app_after_move(a);
    layout_compute(80, 24, a->compare, &a->lay);
    return 0;
}

void app_free(app *a)
{
    app_place_free(a); /* stop it, wait for it, drop its plan */
    app_pool_free(a);
    app_replay_stop(&a->rp); /* stop it, wait for it, drop what it measured */
    if (a->have_replay) replay_result_free(&a->replay);
    a->have_replay = 0;
    step_free(&a->st[0]);
    if (a->have_cmp) step_free(&a->st[1]);
    place_free(&a->pl);
    timeline_free(&a->tl);
    free(a->by_span);
    free(a->parts);
}

void app_resize(app *a, int w, int h)
{
    layout_compute(w, h, a->compare, &a->lay);
    if (!a->lay.used[a->focus]) a->focus = P_READY;
}

const stepper *app_ready_stepper(const app *a, int panel)
{
    return a->compare && panel == P_READY ? &a->st[1] : &a->st[0];
}

void app_jump(app *a, uint32_t k)
{
    if (k > a->g->n) k = a->g->n;
    step_jump(&a->st[0], k);
    if (a->have_cmp) step_jump(&a->st[1], k);
    a->scroll[P_READY] = a->scroll[P_READY2] = 0;
    app_after_move(a);
}

void app_set_replay(app *a, replay_result *res)
{
    if (a->have_replay) replay_result_free(&a->replay);
    a->replay = *res;
    a->replay_pol = policy_find(res->policy);
    a->have_replay = 1;
    memset(res, 0, sizeof *res);
}

const replay_result *app_overlay(const app *a)
{
    const replay_result *r = &a->replay;
    if (!a->have_replay || !r->n || r->n > a->g->n || !r->s || a->replay_pol != a->pol) return NULL;
    return r;
}

int app_tick_ms(const app *a)
{
    int t = a->playing ? app_play_ms(a) : -1;
    if ((a->rp.job || a->placing) && (t < 0 || t > APP_POLL_MS)) t = APP_POLL_MS;
    return t;
}

app_reaction app_tick(app *a)
{
    int polled = a->rp.job != NULL || a->placing != NULL; /* ticks come every APP_POLL_MS */
    app_reaction r = a->placing ? app_place_poll(a) : 0;
    if (a->rp.job) {
        replay_result res;
        unsigned got =
            app_replay_poll(&a->rp, a->g, a->pol, a->placer, &res, a->msg, sizeof a->msg);
        if (got & APP_REPLAY_RESULT) app_set_replay(a, &res);
        if (got & APP_REPLAY_STARTED) a->play_wait = 0;
        if (got & APP_REPLAY_CHANGED) r |= APP_REDRAW;
    }
    if (!a->playing) return r;
    if (polled && app_play_ms(a) > APP_POLL_MS) { /* wait for the play's pace */
        a->play_wait += APP_POLL_MS;
        if (a->play_wait < app_play_ms(a)) return r;
        a->play_wait = 0;
    }
    return app_play_step(a);
}

static void cycle_focus(app *a, int dir)
{
    static const int order[] = {P_READY, P_READY2, P_CURVE, P_TETRIS, P_SUMMARY};
    int n = (int)(sizeof order / sizeof order[0]), i = 0;
    while (i < n && order[i] != a->focus) i++;
    for (int t = 0; t < n; t++) {
        i = (i + dir + n) % n;
        if (a->lay.used[order[i]]) {
            a->focus = order[i];
            return;
        }
    }
}

static void scroll(app *a, int64_t delta)
{
    int p = a->focus;
    int64_t v = (int64_t)a->scroll[p] + delta;
    int64_t max = 0;
    if (p == P_READY || p == P_READY2) {
        max = (int64_t)step_ready_count(app_ready_stepper(a, p)) - 1;
    }
    if (v > max) v = max;
    if (v < 0) v = 0;
    a->scroll[p] = (uint32_t)v;
}

/* Moves the selection to the next (dir 1) or previous (-1) live buffer in
 * address order at the current step. */
static void select_live(app *a, int dir)
{
    const graph *g = a->g;
    const stepper *s = &a->st[0];
    uint32_t best = GRAPH_NONE;
    int64_t cur = a->sel == GRAPH_NONE ? (dir > 0 ? -1 : INT64_MAX) : a->pl.offset[a->sel];
    for (uint32_t b = 0; b < g->nbufs; b++) {
        if (!step_buf_live(s, b) || b == a->sel) continue;
        int64_t o = a->pl.offset[b];
        int after =
            dir > 0 ? (o > cur || (o == cur && b > a->sel)) : (o < cur || (o == cur && b < a->sel));
        if (!after) continue;
        if (best == GRAPH_NONE || (dir > 0 ? o < a->pl.offset[best] : o > a->pl.offset[best]))
            best = b;
    }
    if (best != GRAPH_NONE) a->sel = best;
    else if (a->sel == GRAPH_NONE)
        snprintf(a->msg, sizeof a->msg, "no buffer is live at step %u", s->k);
}

void app_take_main(app *a, stepper *st, placement *pl, const policy *pol)
{
    const policy *prev = a->pol, *other = pol == a->cmp_pol ? prev : a->cmp_pol; /* sides differ */
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
    if (a->have_cmp && other != a->cmp_pol && app_init_cmp(a, other)) { /* out of memory */
        snprintf(a->msg, sizeof a->msg, "policy %s; cannot compare with %s: %.120s", pol->name,
                 other->name, a->err);
        step_free(&a->st[1]);
        a->have_cmp = a->compare = 0;
        a->live_side = 1;
        app_resize(a, a->lay.w, a->lay.h);
    }
    a->cmp_pol = other;
    if (a->have_cmp) app_set_partings(a);
    app_jump(a, k);
}

/* s: the next policy steps, at the same step (exact's search, and the
 * placement on a big graph, in the background). */
static void switch_policy(app *a)
{
    size_t i = 0;
    while (policy_at(i) && policy_at(i) != a->pol) i++;
    const policy *next = policy_at(i + 1) ? policy_at(i + 1) : policy_at(0);
    stepper st;
    placement pl;
    if (next->kind == POLICY_EXACT || a->g->nbufs >= a->place_async_min) {
        app_place_start(a, next, 0, a->placer); /* a search, or a big placement */
        return;
    }
    if (app_make_side(a, next, &st, &pl)) {
        snprintf(a->msg, sizeof a->msg, "cannot switch to %s: %.150s", next->name, a->err);
        return;
    }
    app_take_main(a, &st, &pl, next);
}

/* The a key: the arena panel's next placer (in the background on a big graph). */
static void next_placer(app *a)
{
    size_t i = 0;
    while (placer_at(i) && placer_at(i) != a->placer) i++;
    const placer *next = placer_at(i + 1) ? placer_at(i + 1) : placer_at(0);
    if (next->searches || a->g->nbufs >= a->place_async_min) {
        app_place_start(a, NULL, 0, next);
        return;
    }
    placement pl;
    if (place_run_checked(a->g, &a->st[0].r, next, PLACE_ALIGN_DEFAULT, &pl, a->err,
                          sizeof a->err)) {
        snprintf(a->msg, sizeof a->msg, "cannot place with %s: %.150s", next->name, a->err);
        return;
    }
    app_take_plan(a, &pl, next);
}

/* P: the stepped policy's peak; in compare mode, P again there goes to the
 * other policy's peak (and back). */
static void go_peak(app *a)
{
    const stepper *m = &a->st[0], *o = &a->st[1];
    uint32_t mine = m->r.peak_step, k = m->k;
    if (!a->compare) {
        app_jump(a, mine);
        snprintf(a->msg, sizeof a->msg, "peak of %s at step %u", a->pol->name, mine);
        return;
    }
    uint32_t other = o->r.peak_step;
    const stepper *to = k == mine && mine != other ? o : m, *alt = to == m ? o : m;
    app_jump(a, to->r.peak_step);
    char b1[32];
    snprintf(a->msg, sizeof a->msg, "peak of %s at step %u, %s; P again: %s's peak at step %u",
             to->pol->name, to->r.peak_step, units_bytes(b1, sizeof b1, to->r.peak, 0),
             alt->pol->name, alt->r.peak_step);
}

/* A key outside the prompt and the help. */
static app_reaction main_key(app *a, int key)
{
    uint32_t n = a->g->n, k = a->st[0].k;
    int page = a->lay.used[a->focus] ? a->lay.r[a->focus].h - 3 : 10;
    if (page < 1) page = 1;
    if (a->finding) { /* n and N step through the matches; any other key ends the find */
        if (key == 'n' || key == 'N') {
            app_find_go(a, key == 'n' ? 1 : -1);
            return APP_REDRAW;
        }
        a->finding = 0;
        if (key == K_ESC) return APP_REDRAW;
    }
    switch (key) {
    case 'q':
    case K_F10: a->quit = 1; return APP_QUIT;
    case '?':
    case K_F1:
    case 'h': a->help = 1; return APP_REDRAW;
    case ' ':
    case 'n':
    case K_RIGHT:
        if (k < n) app_jump(a, k + 1);
        else
            snprintf(a->msg, sizeof a->msg, "at the last step (%u); Home goes back to the start",
                     n);
        return APP_REDRAW;
    case 'p':
    case K_LEFT:
    case K_BACKSPACE:
    case 127:
    case 8:
        if (k > 0) app_jump(a, k - 1);
        else snprintf(a->msg, sizeof a->msg, "at step 0: nothing to undo");
        return APP_REDRAW;
    case K_HOME: app_jump(a, 0); return APP_REDRAW;
    case K_END: app_jump(a, n); return APP_REDRAW;
    case 'P': go_peak(a); return APP_REDRAW;
    case 'g':
    case '/':
    case 'b':
    case 'e':
        a->prompt = key;
        a->pbuf[0] = 0;
        if (key == 'e') app_export_name(a, a->pbuf, sizeof a->pbuf);
        app_play_stop(a);
        return APP_REDRAW;
    case 'B': app_break_clear(a); return APP_REDRAW;
    case 'r':
        if (a->playing) app_play_stop(a);
        else {
            if (k >= n) app_jump(a, 0);
            app_play_start(a, GRAPH_NONE, NULL);
        }
        return APP_REDRAW;
    case 'u': app_play_peak(a); return APP_REDRAW;
    case 'd': app_play_part(a); return APP_REDRAW;
    case 'z':
    case 'Z':
    case '<':
    case '>':
    case '0': zoom(a, key); return APP_REDRAW;
    case '+':
    case '=':
        if (a->focus == P_CURVE) {
            zoom(a, 'z');
            return APP_REDRAW;
        }
        if (a->speed < APP_SPEEDS - 1) a->speed++;
        app_say_speed(a);
        return APP_REDRAW;
    case '-':
    case '_':
        if (a->focus == P_CURVE) {
            zoom(a, 'Z');
            return APP_REDRAW;
        }
        if (a->speed > 0) a->speed--;
        app_say_speed(a);
        return APP_REDRAW;
    case K_TAB: cycle_focus(a, 1); return APP_REDRAW;
    case K_BTAB: cycle_focus(a, -1); return APP_REDRAW;
    case K_UP:
        if (a->focus == P_TETRIS) select_live(a, 1); /* up the arena: higher addresses */
        else scroll(a, -1);
        return APP_REDRAW;
    case K_DOWN:
        if (a->focus == P_TETRIS) select_live(a, -1);
        else scroll(a, 1);
        return APP_REDRAW;
    case 'l': /* compare mode: the stepped side's list, the other's, neither */
        if (a->arena != ARENA_LIVE) {
            a->arena_back = a->arena;
            a->arena = ARENA_LIVE;
            a->live_side = 1;
        } else if (a->compare && a->live_side == 1) a->live_side = 2;
        else a->arena = a->arena_back;
        a->better = 0;
        return APP_REDRAW;
    case 'w':
        if (!a->compare) {
            snprintf(a->msg, sizeof a->msg, "w says why one order is lower: compare two first (c)");
            return APP_REDRAW;
        }
        a->better = !a->better;
        a->arena = app_arena_base(a);
        return APP_REDRAW;
    case 'H': a->holes = !a->holes; return APP_REDRAW;
    case 'T': a->curve = a->curve == CURVE_LANES ? CURVE_MEMORY : CURVE_LANES; return APP_REDRAW;
    case 'I': return app_pool_toggle(a);
    case 't':
        a->arena = app_arena_base(a) == ARENA_TIMELINE ? ARENA_BLOCKS : ARENA_TIMELINE;
        drop_dead_selection(a);
        return APP_REDRAW;
    case K_PGUP: scroll(a, -page); return APP_REDRAW;
    case K_PGDN: scroll(a, page); return APP_REDRAW;
    case 's':
    case 'c':
    case 'a':
    case 'o':
        if (a->placing && (key != 'c' || app_place_other(a))) {
            snprintf(a->msg, sizeof a->msg, "'%c' waits until placing ends; Esc cancels it", key);
            return APP_REDRAW;
        }
        /* The host backend reads this process's resident memory: what a new
         * schedule or plan allocates now would be measured as the replay's. */
        if (app_replay_measures_self(&a->rp)) {
            snprintf(a->msg, sizeof a->msg,
                     "'%c' waits until the replay on the host ends (it measures this "
                     "process's memory); Esc cancels it",
                     key);
            return APP_REDRAW;
        }
        if (key == 'a') next_placer(a);
        else if (key == 's') switch_policy(a);
        else if (key == 'o') app_compare_optimum(a);
        else return app_toggle_compare(a);
        return APP_REDRAW;
    case 'R':
        if (a->placing) {
            snprintf(a->msg, sizeof a->msg, "'R' waits until placing ends; Esc cancels it");
            return APP_REDRAW;
        }
        if (app_replay_start(&a->rp, a->g, a->pol, a->placer, a->msg, sizeof a->msg) == 0)
            a->play_wait = 0;
        return APP_REDRAW;
    case K_ESC:
        /* cancels the placing or the replay first; the next Esc stops play */
        if (app_place_cancel(a)) return APP_REDRAW;
        if (app_replay_cancel(&a->rp, a->msg, sizeof a->msg)) return APP_REDRAW;
        app_play_stop(a);
        a->sel = GRAPH_NONE;
        return APP_REDRAW;
    default: return 0;
    }
}

app_reaction app_key(app *a, int key)
{
    int had_msg = a->msg[0] != 0;
    a->msg[0] = 0; /* one-shot: any key takes it away */
    a->msg_moment = 0;
    if (key == K_RESIZE) return APP_RELAYOUT | APP_REDRAW; /* in every mode, and nothing else */
    if (a->prompt) {
        app_prompt_key(a, key);
        return APP_REDRAW;
    }
    if (a->help) {
        if (key == K_TAB || key == K_BTAB || key == K_RIGHT || key == K_LEFT) {
            /* the next page (keys, legend, policies), or the one before */
            a->help = key == K_BTAB || key == K_LEFT ? (a->help + 1) % 3 + 1 : a->help % 3 + 1;
            return APP_REDRAW;
        }
        a->help = 0; /* any other key closes the help */
        if (key == 'q' || key == K_F10) {
            a->quit = 1;
            return APP_QUIT;
        }
        return APP_REDRAW;
    }
    app_reaction r = main_key(a, key);
    return r || !had_msg ? r : APP_REDRAW; /* a key that did nothing still took the message away */
}

app_reaction app_click(app *a, int x, int y)
{
    hit_frame f = {&a->lay,   a->utf8, app_arena_base(a) == ARENA_TIMELINE,
                   a->g,      &a->st[0], &a->pl, 0, 0, a->curve == CURVE_LANES};
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
