/* app_keys.c: the TUI's keys, bound once: the table (keys, modes, action, the help's and the key
 * bar's words) and app_key, which looks a key up in the app's mode and runs the row's action;
 * and a lesson's stops, whose keys it presses as 'memtris view' takes them (app_lesson.c makes
 * the app for the stop). Exports app_key, app_keys, app_nkeys, app_key_mode, app_key_name,
 * app_lesson_go. */
#include "app_keys.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "app_internal.h"
#include "app_lesson.h"
#include "app_train.h"
#include "sched/policy/bycat.h"
#include "util/units.h"
#include "util/utf8.h"

/* ------------------------------------------------------------ helpers */

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

/* Whether key (s, c, a, o, R) must wait for a job, or is off in the budget view (s, c, o), and
 * says so. */
static int must_wait(app *a, int key)
{
    if ((key == 's' || key == 'c' || key == 'o') && app_budget_refuses(a, key)) return 1;
    if (key == 'R') {
        if (!a->place.job) return 0;
        snprintf(a->msg, sizeof a->msg, "'R' waits until placing ends; Esc cancels it");
        return 1;
    }
    if (a->place.job && (key != 'c' || app_place_other(&a->place))) {
        snprintf(a->msg, sizeof a->msg, "'%c' waits until placing ends; Esc cancels it", key);
        return 1;
    }
    /* The host backend reads this process's resident memory: what a new
     * schedule or plan allocates now would be measured as the replay's. */
    if (app_replay_measures_self(&a->rp)) {
        snprintf(a->msg, sizeof a->msg,
                 "'%c' waits until the replay on the host ends (it measures this "
                 "process's memory); Esc cancels it",
                 key);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ actions */

static app_reaction act_quit(app *a, int key)
{
    (void)key;
    a->help = 0;
    a->quit = 1;
    return APP_QUIT;
}

static app_reaction act_help(app *a, int key)
{
    (void)key;
    a->help = 1;
    return APP_REDRAW;
}

/* Tab, Right: the next page (keys, legend, policies); Shift-Tab, Left: the one before. */
static app_reaction act_help_page(app *a, int key)
{
    a->help = key == K_BTAB || key == K_LEFT ? (a->help + 1) % 3 + 1 : a->help % 3 + 1;
    return APP_REDRAW;
}

static app_reaction act_help_close(app *a, int key)
{
    (void)key;
    a->help = 0;
    return APP_REDRAW;
}

static app_reaction act_forward(app *a, int key)
{
    (void)key;
    uint32_t n = a->g->n, k = a->st[0].k;
    if (k < n) app_jump(a, k + 1);
    else snprintf(a->msg, sizeof a->msg, "at the last step (%u); Home goes back to the start", n);
    return APP_REDRAW;
}

static app_reaction act_back(app *a, int key)
{
    (void)key;
    uint32_t k = a->st[0].k;
    if (k > 0) app_jump(a, k - 1);
    else snprintf(a->msg, sizeof a->msg, "at step 0: nothing to undo");
    return APP_REDRAW;
}

/* Home, End: the first or last step; the live list's first or last row when it has the focus. */
static app_reaction act_home(app *a, int key)
{
    if (app_live_key(a, key)) return APP_REDRAW;
    app_jump(a, 0);
    return APP_REDRAW;
}

static app_reaction act_end(app *a, int key)
{
    if (app_live_key(a, key)) return APP_REDRAW;
    app_jump(a, a->g->n);
    return APP_REDRAW;
}

/* P: the stepped policy's peak; in compare mode, P again there goes to the
 * other policy's peak (and back). */
static app_reaction act_peak(app *a, int key)
{
    (void)key;
    const stepper *m = &a->st[0], *o = &a->st[1];
    uint32_t mine = m->r.peak_step, k = m->k;
    if (!a->cmp.shown) {
        app_jump(a, mine);
        snprintf(a->msg, sizeof a->msg, "peak of %s at step %u", a->pol->name, mine);
        return APP_REDRAW;
    }
    uint32_t other = o->r.peak_step;
    const stepper *to = k == mine && mine != other ? o : m, *alt = to == m ? o : m;
    app_jump(a, to->r.peak_step);
    char b1[32];
    snprintf(a->msg, sizeof a->msg, "peak of %s at step %u, %s; P again: %s's peak at step %u",
             to->pol->name, to->r.peak_step, units_bytes(b1, sizeof b1, to->r.peak, 0),
             alt->pol->name, alt->r.peak_step);
    return APP_REDRAW;
}

/* g, /, b, e: the prompt (e offers a file name); the play stops. */
static app_reaction act_prompt_open(app *a, int key)
{
    char offered[sizeof a->prompt.buf] = "";
    if (key == 'e') app_export_name(a, offered, sizeof offered);
    app_prompt_open(&a->prompt, key, offered);
    app_play_stop(&a->play);
    return APP_REDRAW;
}

static app_reaction act_prompt_key(app *a, int key)
{
    if (a->prompt.kind == 'm') return app_budget_prompt_key(a, key);
    app_prompt_do(a, key);
    return APP_REDRAW;
}

static app_reaction act_break_clear(app *a, int key)
{
    (void)key;
    app_break_clear(&a->play, a->msg, sizeof a->msg);
    return APP_REDRAW;
}

static app_reaction act_play(app *a, int key)
{
    (void)key;
    if (a->play.playing) app_play_stop(&a->play);
    else {
        if (a->st[0].k >= a->g->n) app_jump(a, 0);
        app_play_start(&a->play, a->g, &a->st[0].r, a->st[0].k, GRAPH_NONE, NULL);
    }
    return APP_REDRAW;
}

/* u: plays to the stepped policy's peak (from step 0 when at or past it). */
static app_reaction act_play_peak(app *a, int key)
{
    (void)key;
    uint32_t at = a->st[0].r.peak_step;
    if (!at) {
        snprintf(a->msg, sizeof a->msg, "%s holds no memory at any step: no peak to play to",
                 a->pol->name);
        return APP_REDRAW;
    }
    if (a->st[0].k >= at) app_jump(a, 0); /* from the start again */
    char goal[64];
    snprintf(goal, sizeof goal, "the peak of %s", a->pol->name);
    app_play_start(&a->play, a->g, &a->st[0].r, a->st[0].k, at, goal);
    return APP_REDRAW;
}

static app_reaction act_play_part(app *a, int key)
{
    (void)key;
    app_play_part(&a->play, &a->cmp, a->g, &a->st[0].r, a->st[0].k, a->msg, sizeof a->msg);
    return APP_REDRAW;
}

static app_reaction act_zoom(app *a, int key)
{
    app_zoom(a, key);
    return APP_REDRAW;
}

/* + and -: the curve's zoom while it has the focus, else the play's speed. */
static app_reaction act_speed(app *a, int key)
{
    int up = key == '+' || key == '=';
    if (a->focus == P_CURVE) {
        app_zoom(a, up ? 'z' : 'Z');
        return APP_REDRAW;
    }
    if (up && a->play.speed < APP_SPEEDS - 1) a->play.speed++;
    if (!up && a->play.speed > 0) a->play.speed--;
    app_play_say_speed(&a->play, a->msg, sizeof a->msg);
    a->msg_moment = 1; /* the play's next step replaces it with its explanation */
    return APP_REDRAW;
}

static app_reaction act_focus(app *a, int key)
{
    cycle_focus(a, key == K_BTAB ? -1 : 1);
    return APP_REDRAW;
}

/* Up and Down: on the arena, the next live buffer up (higher addresses) or
 * down; on the live list its cursor; elsewhere the focused panel scrolls. */
static app_reaction act_up_down(app *a, int key)
{
    if (app_live_key(a, key)) return APP_REDRAW;
    int up = key == K_UP;
    if (a->focus == P_TETRIS) select_live(a, up ? 1 : -1);
    else scroll(a, up ? -1 : 1);
    return APP_REDRAW;
}

static app_reaction act_page(app *a, int key)
{
    if (app_live_key(a, key)) return APP_REDRAW;
    int page = a->lay.used[a->focus] ? a->lay.r[a->focus].h - 3 : 10;
    if (page < 1) page = 1;
    scroll(a, key == K_PGUP ? -page : page);
    return APP_REDRAW;
}

static app_reaction act_policy(app *a, int key)
{
    if (!must_wait(a, key)) app_next_policy(a);
    return APP_REDRAW;
}

static app_reaction act_compare(app *a, int key)
{
    if (must_wait(a, key)) return APP_REDRAW;
    app_reaction r = app_toggle_compare(a);
    app_train_compared(a); /* from the framework's order: what the other side saves */
    return r;
}

static app_reaction act_placer(app *a, int key)
{
    if (!must_wait(a, key)) app_next_placer(a);
    return APP_REDRAW;
}

static app_reaction act_optimum(app *a, int key)
{
    if (!must_wait(a, key)) app_compare_optimum(a);
    return APP_REDRAW;
}

/* t: the arena panel's blocks or the timeline (the live list goes). */
static app_reaction act_timeline(app *a, int key)
{
    (void)key;
    a->arena = app_arena_base(a) == ARENA_TIMELINE ? ARENA_BLOCKS : ARENA_TIMELINE;
    app_drop_dead_selection(a);
    return APP_REDRAW;
}

/* l: the buffers live at the cursor in the arena's place; in compare mode
 * the stepped side's list, the other's, neither. */
static app_reaction act_live(app *a, int key)
{
    (void)key;
    if (a->arena != ARENA_LIVE) {
        a->arena_back = a->arena;
        a->arena = ARENA_LIVE;
        a->live_side = 1;
        a->live_cur = a->scroll[P_TETRIS] = a->scroll[P_SUMMARY] = 0;
    } else if (a->cmp.shown && a->live_side == 1) a->live_side = 2;
    else a->arena = a->arena_back;
    a->better = 0;
    return APP_REDRAW;
}

/* Enter: on the live list (with the focus), folds the group at its cursor or shows all of it. */
static app_reaction act_live_fold(app *a, int key)
{
    if (app_live_key(a, key)) return APP_REDRAW;
    snprintf(a->msg, sizeof a->msg, "Enter folds a group of the live list: l shows it, Tab to it");
    return APP_REDRAW;
}

/* w: in the budget view, why a rerun was needed; in compare mode, why one order is lower. */
static app_reaction act_why(app *a, int key)
{
    (void)key;
    if (a->bud.on) return app_budget_explain_key(a);
    if (!a->cmp.shown) {
        snprintf(a->msg, sizeof a->msg, "w says why one order is lower: compare two first (c)");
        return APP_REDRAW;
    }
    a->better = !a->better;
    a->arena = app_arena_base(a);
    return APP_REDRAW;
}

/* m: the budget prompt (it waits for no job: Enter does). */
static app_reaction act_budget(app *a, int key)
{
    (void)key;
    return app_budget_open(a);
}

static app_reaction act_holes(app *a, int key)
{
    (void)key;
    a->holes = !a->holes;
    return APP_REDRAW;
}

static app_reaction act_lanes(app *a, int key)
{
    (void)key;
    a->curve = a->curve == CURVE_LANES ? CURVE_MEMORY : CURVE_LANES;
    return APP_REDRAW;
}

/* C: the memory curve stacked by Category, or the plain curve again. */
static app_reaction act_stack(app *a, int key)
{
    (void)key;
    if (!bycat_any(a->g)) {
        snprintf(a->msg, sizeof a->msg,
                 "C stacks the curve by Category: this graph's ALLOCs have none");
        return APP_REDRAW;
    }
    a->stacked = a->curve != CURVE_MEMORY || !a->stacked;
    a->curve = CURVE_MEMORY;
    return APP_REDRAW;
}

static app_reaction act_pool(app *a, int key)
{
    (void)key;
    return app_pool_toggle(a);
}

static app_reaction act_replay(app *a, int key)
{
    if (must_wait(a, key)) return APP_REDRAW;
    if (app_replay_start(&a->rp, a->g, a->pol, a->placer, &a->ctx, a->msg, sizeof a->msg) == 0)
        a->play.wait = 0;
    return APP_REDRAW;
}

/* Esc cancels the placing or the replay first; the next Esc stops play. */
static app_reaction act_esc(app *a, int key)
{
    (void)key;
    if (app_place_cancel(&a->place, a->msg, sizeof a->msg)) return APP_REDRAW;
    if (app_replay_cancel(&a->rp, a->msg, sizeof a->msg)) return APP_REDRAW;
    app_play_stop(&a->play);
    a->sel = GRAPH_NONE;
    return APP_REDRAW;
}

static app_reaction act_find_next(app *a, int key)
{
    app_find_go(a, key == 'n' ? 1 : -1);
    return APP_REDRAW;
}

static app_reaction act_find_done(app *a, int key)
{
    (void)key;
    a->prompt.finding = 0;
    return APP_REDRAW;
}

/* ------------------------------------------------------------ a lesson's stops */

/* The mode the app is in; with in_lesson 0, as if no lesson ran (a lesson's
 * stop presses its keys as 'memtris view' takes them: Space steps there). */
static unsigned mode_of(const app *a, int in_lesson)
{
    return a->prompt.kind           ? APP_MODE_PROMPT
           : a->help                ? APP_MODE_HELP
           : a->prompt.finding      ? APP_MODE_FIND
           : in_lesson && a->lesson ? APP_MODE_LESSON
                                    : APP_MODE_MAIN;
}

/* The first row of mode that binds key (or any key), or NULL. */
static const app_key_row *row_of(unsigned mode, int key)
{
    for (size_t i = 0; i < app_nkeys; i++) {
        const app_key_row *r = &app_keys[i];
        if (!(r->modes & mode) || !r->act) continue;
        for (int j = 0; j < APP_KEYS_MAX && r->keys[j]; j++)
            if (r->keys[j] == key || r->keys[j] == APP_KEY_ANY) return r;
    }
    return NULL;
}

/* Presses key as 'memtris view' would take it, then waits for the job it
 * started (exact's search, a placement): the stop shows its result. */
static app_reaction press(app *a, int key)
{
    a->msg[0] = 0;
    a->msg_moment = 0;
    const app_key_row *r = row_of(mode_of(a, 0), key);
    app_reaction got = r ? r->act(a, key) : 0;
    while (a->place.job) got |= app_tick(a);
    return got;
}

app_reaction app_lesson_go(app *a, size_t at)
{
    const lesson *ls = a->lesson;
    if (!ls || at >= ls->nstops) return 0;
    if (app_lesson_stop(a, at)) return APP_QUIT;
    const lesson_stop *s = &ls->stops[at];
    for (size_t i = 0; i < s->nacts; i++) {
        if (s->acts[i].key == LESSON_STEP_KEY) app_jump(a, s->acts[i].arg);
        else press(a, s->acts[i].key);
    }
    app_resize(a, a->lay.w, a->lay.h); /* the narration's rows, in the stop's mode */
    return APP_REDRAW | APP_RELAYOUT;
}

/* Space, n: a lesson's next stop; p: the stop before; says so at either end. */
static app_reaction act_lesson(app *a, int key)
{
    const lesson *ls = a->lesson;
    if (!ls) return 0;
    int dir = key == 'p' ? -1 : 1;
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

static app_reaction dispatch(app *a, unsigned mode, int key);

/* Any other key ends the find and does what it does on the panels. */
static app_reaction act_find_end(app *a, int key)
{
    a->prompt.finding = 0;
    return dispatch(a, APP_MODE_MAIN, key);
}

/* ------------------------------------------------------------ the table */

enum {
    M = APP_MODE_MAIN,
    F = APP_MODE_FIND,
    H = APP_MODE_HELP,
    PR = APP_MODE_PROMPT,
    L = APP_MODE_LESSON
};

/* In the help page's order; the key bars go by their rank. */
#define NO_HELP    \
    {              \
        NULL, NULL \
    }
#define NO_BAR              \
    {                       \
        NULL, NULL, NULL, 0 \
    }
// clang-format off
const app_key_row app_keys[] = {
    {{' ', 'n', K_RIGHT}, M, act_forward,
     {"Space  n  Right", "step forward; in a lesson: next stop"}, {"Spc", NULL, "Step", 3}},
    {{'p', K_LEFT, K_BACKSPACE, 127, 8}, M, act_back,
     {"p  Left  Backspace", "step back; in a lesson: stop before"}, {"\u2190", "<-", "Back", 4}},
    {{' ', 'n'}, L, act_lesson, NO_HELP, {"Spc", NULL, "NextStop", 3}},
    {{'p'}, L, act_lesson, NO_HELP, {"p", NULL, "PrevStop", 4}},
    {{K_HOME}, M, act_home, {"Home End  g", "first / last step, go to step"}, NO_BAR},
    {{K_END}, M, act_end, NO_HELP, NO_BAR},
    {{'g'}, M, act_prompt_open, NO_HELP, {"g", NULL, "Goto", 11}},
    {{'P'}, M, act_peak, {"P", "peak (compare: again, the other's)"}, {"P", NULL, "Peak", 5}},
    {{'u'}, M, act_play_peak,
     {"u  d", "play to peak; to where orders part"}, {"u", NULL, "UntilPeak", 14}},
    {{'d'}, M, act_play_part, NO_HELP, {"d", NULL, "UntilPart", 15}},
    {{'b'}, M, act_prompt_open,
     {"b  B", "breakpoint on a node or >SIZE; clear"}, {"b", NULL, "Break", 16}},
    {{'B'}, M, act_break_clear, NO_HELP, NO_BAR},
    {{'/'}, M, act_prompt_open,
     {"/  n  N", "find by id, name or op; next, prev"}, {"/", NULL, "Find", 12}},
    {{'n'}, F, act_find_next, NO_HELP, {"n", NULL, "Next match", 1}},
    {{'N'}, F, act_find_next, NO_HELP, {"N", NULL, "Previous", 2}},
    {{'r'}, M, act_play, {"r  +  -", "auto-play on/off, faster, slower"}, {"r", NULL, "Play", 13}},
    {{'+', '='}, M, act_speed, NO_HELP, NO_BAR},
    {{'-', '_'}, M, act_speed, NO_HELP, NO_BAR},
    {{K_TAB}, M, act_focus,
     {"Tab  Shift-Tab", "move the focus between panels"}, {"Tab", NULL, "Focus", 22}},
    {{K_BTAB}, M, act_focus, NO_HELP, NO_BAR},
    {{K_UP, K_DOWN}, M, act_up_down,
     {"Up Down PgUp PgDn", "scroll, select; Enter: fold a group"}, NO_BAR},
    {{K_PGUP, K_PGDN}, M, act_page, NO_HELP, NO_BAR},
    {{'s'}, M, act_policy,
     {"s  c  a  t", "policy, compare, placer, timeline"}, {"s", NULL, "Policy", 17}},
    {{'c'}, M, act_compare, NO_HELP, {"c", NULL, "Compare", 8}},
    {{'a'}, M, act_placer, NO_HELP, {"a", NULL, "Placer", 18}},
    {{'t'}, M, act_timeline, NO_HELP, {"t", NULL, "Timeline", 19}},
    {{'l'}, M, act_live, {"l  C", "live list (each side); stacked curve"}, {"l", NULL, "Live", 6}},
    {{'C'}, M, act_stack, NO_HELP, NO_BAR},
    {{K_ENTER}, M, act_live_fold, NO_HELP, {"Enter", NULL, "Fold", 24}},
    {{'o'}, M, act_optimum,
     {"o  w", "compare with exact; why lower / rerun"}, {"o", NULL, "Optimum", 9}},
    {{'w'}, M, act_why, NO_HELP, {"w", NULL, "Why", 10}},
    {{'H'}, M, act_holes, {"H  T  I", "holes; streams over time; pool view"}, NO_BAR},
    {{'T'}, M, act_lanes, NO_HELP, NO_BAR},
    {{'I'}, M, act_pool, NO_HELP, NO_BAR},
    {{'z', 'Z', '<', '>', '0'}, M, act_zoom,
     {"z  Z  <  >  0", "curve: zoom in, out, pan, all steps"}, {"z", NULL, "Zoom", 7}},
    {{'e'}, M, act_prompt_open,
     {"e  m", "SVG export; memory budget: its plan"}, {"e", NULL, "Export", 20}},
    {{'m'}, M, act_budget, NO_HELP, {"m", NULL, "Budget", 23}},
    {{0}, M, NULL, {"click", "curve: go to step; block: select"}, NO_BAR},
    {{'R'}, M, act_replay, {"R", "replay on the device (Esc cancels)"}, {"R", NULL, "Replay", 21}},
    {{K_ESC}, M, act_esc, {"Esc", "stop play, clear selection, close"}, NO_BAR},
    {{K_ESC}, F, act_find_done, NO_HELP, {"Esc", NULL, "Done", 3}},
    {{'?', K_F1, 'h'}, M, act_help,
     {"? F1 h   q F10", "this help, the legend, policies; quit"}, {"F1", NULL, "Help", 1}},
    {{'q', K_F10}, M | H, act_quit, NO_HELP, {"q", NULL, "Quit", 2}},
    {{K_TAB, K_BTAB, K_RIGHT, K_LEFT}, H, act_help_page, NO_HELP, NO_BAR},
    {{APP_KEY_ANY}, H, act_help_close, NO_HELP, NO_BAR},
    {{APP_KEY_ANY}, F, act_find_end, NO_HELP, NO_BAR},
    {{APP_KEY_ANY}, PR, act_prompt_key, NO_HELP, NO_BAR},
};
// clang-format on
const size_t app_nkeys = sizeof app_keys / sizeof app_keys[0];

/* ------------------------------------------------------------ dispatch */

unsigned app_key_mode(const app *a) { return mode_of(a, 1); }

static app_reaction dispatch(app *a, unsigned mode, int key)
{
    const app_key_row *r = row_of(mode, key);
    if (!r && mode == APP_MODE_LESSON) r = row_of(APP_MODE_MAIN, key); /* every other key */
    return r ? r->act(a, key) : 0;
}

app_reaction app_key(app *a, int key)
{
    if (app_check_wait(a)) return APP_QUIT; /* the plan is invalid: a->err */
    int had_msg = a->msg[0] != 0;
    a->msg[0] = 0; /* one-shot: any key takes it away */
    a->msg_moment = 0;
    /* Not a key but the terminal's size: the same in every mode, and nothing else. */
    if (key == K_RESIZE) return APP_RELAYOUT | APP_REDRAW;
    app_reaction r = dispatch(a, app_key_mode(a), key);
    r = r || !had_msg ? r : APP_REDRAW; /* a key that did nothing still took the message away */
    return r | app_why_follow(a);       /* the why's words whole: its rows, again */
}

const char *app_key_name(int key, char *buf, size_t cap)
{
    static const struct {
        int key;
        const char *name;
    } names[] = {{' ', "Space"},     {'=', "+"},       {'_', "-"},
                 {127, "Backspace"}, {8, "Backspace"}, {K_BACKSPACE, "Backspace"},
                 {K_UP, "Up"},       {K_DOWN, "Down"}, {K_LEFT, "Left"},
                 {K_RIGHT, "Right"}, {K_HOME, "Home"}, {K_END, "End"},
                 {K_PGUP, "PgUp"},   {K_PGDN, "PgDn"}, {K_ENTER, "Enter"},
                 {K_ESC, "Esc"},     {K_TAB, "Tab"},   {K_BTAB, "Shift-Tab"},
                 {K_F1, "F1"},       {K_F10, "F10"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].key == key) return names[i].name;
    char c[8];
    if (key > ' ' && key <= '~') snprintf(buf, cap, "%c", key);
    else if (key >= 0xA0 && utf8_encode((uint32_t)key, c)) snprintf(buf, cap, "%s", c);
    else snprintf(buf, cap, "key %d", key);
    return buf;
}
