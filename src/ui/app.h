/* app.h: the TUI's state (each part's in its own struct) and its reactions to keys, clicks and
 * ticks, with no terminal in sight: ui_curses.c feeds it, tests and the benchmark drive it.
 * Exports app_*, curve_mode, arena_mode. */
#ifndef MEMTRIS_APP_H
#define MEMTRIS_APP_H
#include <stdint.h>
#include "app_budget.h"
#include "app_compare.h"
#include "app_place.h"
#include "app_play.h"
#include "app_prompt.h"
#include "app_replay.h"
#include "app_start.h"
#include "gpu/replay.h"
#include "keys.h"
#include "layout.h"
#include "live_rows.h"
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/time/pool.h"
#include "sched/policy/step.h"
#include "sched/time/timeline.h"

#define APP_POLL_MS 50 /* how often a running job is polled */
/* The pool view (I) simulates at most this many node-iterations (about a
 * second): past it, it says to use memtris iterate. */
#define APP_POOL_MAX_WORK 2e8

/* What the curve's panel shows: the memory curve, the streams over time
 * with memory under them (T), or the pools over iterations (I). */
typedef enum { CURVE_MEMORY, CURVE_LANES, CURVE_POOL } curve_mode;
/* What the arena's panel shows: the live blocks at their addresses, the
 * whole run's timeline (t), or the list of the buffers live at the cursor
 * (l; in compare mode it takes the summary's place). */
typedef enum { ARENA_BLOCKS, ARENA_TIMELINE, ARENA_LIVE } arena_mode;

/* What a key, a click or a tick changed, for the front end to act on (as
 * htop's actions return reactions): a bit set, 0 for nothing. */
typedef unsigned app_reaction;
enum {
    APP_REDRAW = 1,   /* the screen shows something else: draw a frame */
    APP_RELAYOUT = 2, /* the panels moved (a mode: laid out again at the last size) or
                       * the terminal's size changed: measure it, app_resize, draw */
    APP_QUIT = 4      /* the user asked to leave */
};

typedef struct app {
    const graph *g;
    solve_ctx ctx;               /* the command line's limits and parameters (no watcher) */
    const char *title;           /* the graph as given (the status bar shows its file name) */
    const policy *pol;           /* main policy: the stepped one */
    stepper st[2];               /* st[0]: pol; st[1]: cmp.pol (when cmp.have) */
    app_compare cmp;             /* compare mode: the other side (app_compare.c) */
    int64_t bound;               /* policy_lower_bound of g: no order peaks below it */
    const placer *placer;        /* the arena panel's placer */
    app_place place;             /* the background job (app_place.c) */
    placement pl;                /* its placement of st[0]'s run */
    app_checking check;          /* pl's check when app_init deferred it (app_start.h) */
    uint64_t place_gen;          /* bumped whenever pl changes: the views' caches are keyed on it */
    uint32_t *by_span;           /* buffers by span, largest first (timeline painting order) */
    uint32_t zoom_lo, zoom_span; /* the curve's window of steps (zoom_span 0: every step) */
    int better;                  /* compare mode: the summary says why one order is lower */
    curve_mode curve;            /* what the curve's panel shows */
    arena_mode arena;            /* what the arena's panel shows */
    arena_mode arena_back;       /* ARENA_LIVE: what l goes back to (blocks or timeline) */
    int live_side; /* ARENA_LIVE: the buffers of 1 the stepped policy, 2 the other (compare) */
    uint8_t live_fold[LIVE_NGROUP]; /* ARENA_LIVE: each group's state (live_rows.h) */
    uint32_t live_cur; /* ARENA_LIVE: the list's row at its cursor (the list scrolls with it) */
    int stacked;       /* C: the memory curve stacked by Category (a graph with Categories) */
    int holes;    /* the curve shades the plan's holes: its high-water mark above the live bytes */
    timeline tl;  /* st[0]'s run timed on the graph's streams (tl.n 0: not known) */
    uint32_t sel; /* the selected buffer, or GRAPH_NONE */
    int focus;    /* panel_id with keyboard focus */
    uint32_t scroll[P_COUNT];
    int help;          /* help overlay shown: 1 the keys, 2 the legend, 3 the policies */
    app_play play;     /* auto-play and breakpoints (app_play.c) */
    app_prompt prompt; /* the prompt up and the find (app_prompt.c) */
    char msg[400];     /* one-shot message shown in the why line: forms of it, longest first,
                        * between APP_MSG_ALT; the first that fits is shown */
    char *const *warn; /* the load's warnings (the caller's, app_set_warnings): the ? page */
    size_t nwarn;
    int msg_moment;   /* msg belongs to a moment: the play's next step replaces it */
    char why[2][256]; /* why the last pop happened, per stepper */
    int quit;
    int mono, utf8, mouse;
    layout lay; /* layout of the last frame, for clicks */
    char err[256];
    /* The replay (R): what R runs and the background job (app_replay.c);
     * its finished (or loaded) result is the curve's overlay. */
    app_replay rp;
    int have_replay; /* replay holds a result: the curve overlays it */
    replay_result replay;
    const policy *replay_pol; /* the policy replay was made for (NULL: one this memtris lacks) */
    /* The pool view (I, app_pool.c; curve CURVE_POOL): the iterations of
     * the stepped policy's run, made with poolp (iterate's options). */
    pool_params poolp;
    pool_sim *pool;
    /* memtris lesson (app_lesson.c): the lesson shown (NULL outside one), its stop on the
     * screen and the rows the stop's narration takes above the why line. */
    const struct lesson *lesson;
    size_t lesson_at;
    int lesson_rows;
    const graph *lesson_g; /* the graph app_init opened, its bound: a lesson's stops show one */
    int64_t lesson_bound;
    /* The budget view (m, app_budget_view.c): while bud.on, g is bud.pg (the plan as a graph),
     * stepped under given; bud.g is the graph the app was opened on. */
    app_budget bud;
} app;

/* Sets up steppers and placement (with placer pl, NULL for first-fit); every
 * run and placement, in the background too, takes c's limits and parameters
 * (NULL: the defaults). Returns 0 or -1 with app->err set. */
int app_init(app *a, const graph *g, const char *title, const policy *pol, const policy *cmp_pol,
             int compare, const placer *pl, const solve_ctx *c);
void app_free(app *a);
void app_resize(app *a, int w, int h);
/* Handles one key (app_keys.c, by the key table); returns what changed. */
app_reaction app_key(app *a, int key);
/* A click at (x, y) on the last frame (hit.c finds what is there): on the
 * memory curve it jumps to that step; on a block of the arena or the
 * timeline it selects that buffer. Returns APP_REDRAW, or 0 for a miss. */
app_reaction app_click(app *a, int x, int y);
/* Milliseconds until the next tick: auto-play's pace, at most APP_POLL_MS
 * while a job runs; -1 when there is nothing to do. */
int app_tick_ms(const app *a);
/* Polls the running jobs (and takes their results when they have
 * finished), and makes the next auto-play step when it is due; returns
 * what changed; APP_QUIT when the plan's deferred check failed. */
app_reaction app_tick(app *a);
/* Waits for the stepped side's plan check that app_init deferred
 * (app_start_defer_check), if any: 0, or -1 with a->err why the plan is
 * invalid. The first frame may be drawn before; a key, tick or app_free
 * waits for it. */
int app_check_wait(app *a);
void app_jump(app *a, uint32_t k);
/* The steps the curve shows, lo .. lo + span - 1: the zoom's window, or
 * every step 0 .. n. */
void app_curve_window(const app *a, uint32_t *lo, uint32_t *span);
uint32_t app_steps_per_sec(const app *a);
/* The stepper a ready panel shows: in compare mode P_READY is the other
 * side (cmp.pol) and P_READY2 the main policy. */
const stepper *app_ready_stepper(const app *a, int panel);
/* Describes buffer b for the details line: size, offset, steps, users. */
void app_buffer_details(const app *a, uint32_t b, char *out, size_t cap);
/* The arena panel's blocks or timeline: what it shows, or what it shows
 * again when the live list (l) goes. */
arena_mode app_arena_base(const app *a);

/* "fifo pops node 3 (alloc b2), priority pops node 4 (free b1)": what the
 * other side and the stepped side pop at step s (0-based) in compare mode.
 * Returns out. */
const char *app_part_words(const app *a, uint32_t s, char *out, size_t cap);
/* Why side i (0: the stepped, 1: the other) took its node where the orders
 * part, at the parting the cursor is at or passed last (app_compare_why). */
const char *app_part_why(const app *a, int i, char *out, size_t cap);
/* The export's file name offered: "demo-priority-step117.svg". */
void app_export_name(const app *a, char *out, size_t cap);
/* Writes the stepped policy's curve and arena, as plan --svg draws them,
 * with the cursor's step marked, to path; says what it wrote (or why not)
 * in a->msg. 0 or -1. */
int app_export_svg(app *a, const char *path);

/* Moves res into the app as the curve's overlay (replacing any); res is
 * left empty. */
void app_set_replay(app *a, replay_result *res);
/* A memory budget's plan that ran (res->plan_n events, from tools/runplan.py): the budget view
 * of that plan, its steps measured as res measured its events, as the curve's overlay. res is
 * taken (left empty) on success. 0, or -1 with why in err (the plan is not this graph's, or its
 * predictions are not memtris's) and the app as it was. */
int app_budget_replay(app *a, replay_result *res, char *err, size_t cap);
/* The live list (l, app_live.c): the panel that shows it (P_TETRIS, P_SUMMARY in compare mode),
 * or -1 when it is not shown; the stepper it lists; its rows at the cursor's step with the room
 * its panel gives them (0, or -1 out of memory); and its keys while it has the focus (Up, Down,
 * PgUp, PgDn, Home, End move its cursor; Enter folds the group there or shows all of it):
 * what they changed, 0 when the list does not have the focus (the key does what it does
 * elsewhere). */
int app_live_panel(const app *a);
const stepper *app_live_stepper(const app *a);
int app_live_rows(const app *a, live_rows *lr);
app_reaction app_live_key(app *a, int key);
/* A click at (x, y) on the live list's panel: the focus there, the cursor on the row clicked
 * (a buffer's: selected); 0 when the click is elsewhere. */
app_reaction app_live_click(app *a, int x, int y);

/* The load's n warnings (the caller keeps them while the app runs): the
 * first as the opening message, all on the ? page. */
void app_set_warnings(app *a, char *const *lines, size_t n);
/* The overlay the curve shows: the replay, when it was made for the
 * stepped policy; NULL otherwise. */
const replay_result *app_overlay(const app *a);
/* I: the pool view on or off; simulates the pools (a->poolp) over the
 * stepped policy's run when it is shown (says why not in a->msg). */
app_reaction app_pool_toggle(app *a);

/* The best proven bound on g's least peak (the graph's, and any the runs'
 * searches proved); *optimal: a run peaks there (so it is the optimum). */
int64_t app_bound(const app *a, int *optimal);

/* The why line (app_why.c): its text for rows rows of w columns (the first form of a message that
 * fits them; details: the selected buffer's, NULL for none); the layout of a terminal of w x h
 * with the rows that text takes whole given to the why line (at most APP_WHY_MAX_ROWS, taken from
 * the panels above it, never leaving them under LAYOUT_MIN_H); whether the layout's why rows
 * differ from what the text takes now. */
enum { APP_WHY_MAX_ROWS = 4, APP_WHY_MARGIN = 2, APP_WHY_TEXT = 512 };
const char *app_why_text(const app *a, const char *details, int w, int rows, char *out, size_t cap);
void app_why_layout(app *a, const char *details, int w, int h);
int app_why_stale(const app *a, const char *details);
/* After a key, a click or a tick: the layout again where the why's rows changed (APP_REDRAW
 * then, else 0). */
app_reaction app_why_follow(app *a);

#endif
