/* app.h: the TUI's state and its reactions to keys, clicks and ticks, with
 * no terminal in sight (ui_curses.c feeds it; tests and the benchmark drive
 * it directly). Exports app_*. */
#ifndef MEMTRIS_APP_H
#define MEMTRIS_APP_H
#include <stdint.h>
#include "app_replay.h"
#include "gpu/replay.h"
#include "layout.h"
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/time/pool.h"
#include "sched/policy/step.h"
#include "sched/time/timeline.h"

/* Keys beyond ASCII, as the app sees them. */
enum {
    K_UP = 0x1000,
    K_DOWN,
    K_LEFT,
    K_RIGHT,
    K_HOME,
    K_END,
    K_PGUP,
    K_PGDN,
    K_BACKSPACE,
    K_ENTER,
    K_ESC,
    K_TAB,
    K_BTAB,
    K_F1,
    K_F10,
    K_RESIZE
};

#define APP_SPEEDS  11
#define APP_POLL_MS 50 /* how often a running replay is polled */
#define APP_BREAKS  8  /* breakpoints at most */
/* Graphs with this many buffers are placed in the background (a, s): a
 * progress line, Esc cancels. */
#define APP_PLACE_ASYNC_MIN 50000
/* The pool view (I) simulates at most this many node-iterations (about a
 * second): past it, it says to use memtris iterate. */
#define APP_POOL_MAX_WORK 2e8

struct app_place; /* a placement running in the background (app_place.c) */

/* A breakpoint: any play stops at a step where it holds. */
typedef struct app_break {
    char node[64]; /* a find query (id, name or op): the step that popped a match */
    int64_t bytes; /* or, when > 0: the step where live memory reaches it from below */
} app_break;

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
    const char *title;     /* the graph as given (the status bar shows its file name) */
    const policy *pol;     /* main policy: the stepped one */
    const policy *cmp_pol; /* the other side in compare mode */
    stepper st[2];         /* st[0]: pol; st[1]: cmp_pol (when have_cmp) */
    int have_cmp;
    int64_t bound;               /* policy_lower_bound of g: no order peaks below it */
    const placer *placer;        /* the arena panel's placer */
    struct app_place *placing;   /* a placement running in the background, or NULL */
    uint32_t place_async_min;    /* buffers from which a and s place in the background */
    placement pl;                /* its placement of st[0]'s run */
    uint64_t place_gen;          /* bumped whenever pl changes: the views' caches are keyed on it */
    uint32_t *by_span;           /* buffers by span, largest first (timeline painting order) */
    uint32_t zoom_lo, zoom_span; /* the curve's window of steps (zoom_span 0: every step) */
    int better;                  /* compare mode: the summary says why one order is lower */
    curve_mode curve;            /* what the curve's panel shows */
    arena_mode arena;            /* what the arena's panel shows */
    arena_mode arena_back;       /* ARENA_LIVE: what l goes back to (blocks or timeline) */
    int live_side; /* ARENA_LIVE: the buffers of 1 the stepped policy, 2 the other (compare) */
    int holes;    /* the curve shades the plan's holes: its high-water mark above the live bytes */
    timeline tl;  /* st[0]'s run timed on the graph's streams (tl.n 0: not known) */
    uint32_t sel; /* the selected buffer, or GRAPH_NONE */
    int compare;  /* compare mode shown */
    uint32_t diverge; /* first step (0-based) where the orders differ, n if never */
    uint32_t *parts;  /* compare: where the orders part (policy_partings, 0-based) */
    uint32_t nparts;
    int focus; /* panel_id with keyboard focus */
    uint32_t scroll[P_COUNT];
    int help;           /* help overlay shown: 1 the keys, 2 the legend, 3 the policies */
    int playing, speed; /* auto-play and its speed index */
    uint32_t play_to;   /* the play stops at this step (GRAPH_NONE: at the last) */
    char play_goal[64]; /* what play_to is, for the message there ("the peak of fifo");
                         * none: a parting of the orders (d) */
    app_break brk[APP_BREAKS];
    int nbrk;
    int prompt; /* 0, 'g' (go to step), '/' (find node), 'b' (breakpoint), 'e' (export) */
    char pbuf[256];
    int finding;      /* after a find: n and N go to the next and previous match */
    char find[64];    /* the query they look for */
    char msg[200];    /* one-shot message shown in the why line */
    int msg_moment;   /* msg belongs to a moment: the play's next step replaces it */
    char why[2][256]; /* why the last pop happened, per stepper */
    int quit;
    int mono, utf8, mouse;
    layout lay; /* layout of the last frame, for clicks */
    char err[256];
    /* The replay (R): what R runs and the background job (app_replay.c);
     * its finished (or loaded) result is the curve's overlay. */
    app_replay rp;
    int play_wait;   /* ms waited toward the next auto-play step while polling */
    int have_replay; /* replay holds a result: the curve overlays it */
    replay_result replay;
    const policy *replay_pol; /* the policy replay was made for (NULL: one this memtris lacks) */
    /* The pool view (I, app_pool.c; curve CURVE_POOL): the iterations of
     * the stepped policy's run, made with poolp (iterate's options). */
    pool_params poolp;
    pool_sim *pool;
} app;

/* Sets up steppers and placement (with placer pl, NULL for first-fit);
 * returns 0 or -1 with app->err set. */
int app_init(app *a, const graph *g, const char *title, const policy *pol, const policy *cmp_pol,
             int compare, const placer *pl);
void app_free(app *a);
void app_resize(app *a, int w, int h);
/* Handles one key; returns what changed. */
app_reaction app_key(app *a, int key);
/* A click at (x, y) on the last frame (hit.c finds what is there): on the
 * memory curve it jumps to that step; on a block of the arena or the
 * timeline it selects that buffer. Returns APP_REDRAW, or 0 for a miss. */
app_reaction app_click(app *a, int x, int y);
/* Milliseconds until the next tick: auto-play's pace, at most APP_POLL_MS
 * while a replay runs; -1 when there is nothing to do. */
int app_tick_ms(const app *a);
/* Polls a running replay (and takes its result when it has finished), and
 * makes the next auto-play step when it is due; returns what changed. */
app_reaction app_tick(app *a);
void app_jump(app *a, uint32_t k);
/* The steps the curve shows, lo .. lo + span - 1: the zoom's window, or
 * every step 0 .. n. */
void app_curve_window(const app *a, uint32_t *lo, uint32_t *span);
uint32_t app_steps_per_sec(const app *a);
/* The stepper a ready panel shows: in compare mode P_READY is the other
 * side (cmp_pol) and P_READY2 the main policy. */
const stepper *app_ready_stepper(const app *a, int panel);
/* Describes buffer b for the details line: size, offset, steps, users. */
void app_buffer_details(const app *a, uint32_t b, char *out, size_t cap);

/* "fifo pops node 3 (alloc b2), priority pops node 4 (free b1)": what the
 * other side and the stepped side pop at step s (0-based) in compare mode.
 * Returns out. */
const char *app_part_words(const app *a, uint32_t s, char *out, size_t cap);
/* The export's file name offered: "demo-priority-step117.svg". */
void app_export_name(const app *a, char *out, size_t cap);
/* Writes the stepped policy's curve and arena, as plan --svg draws them,
 * with the cursor's step marked, to path; says what it wrote (or why not)
 * in a->msg. 0 or -1. */
int app_export_svg(app *a, const char *path);

/* The background job's progress for the key line. */
typedef struct app_job_view {
    int searching;     /* making a policy's run (exact's search); else placing */
    const char *name;  /* that policy, or the placer */
    const char *doing; /* the placer's phase ("the hill-climb"), or its name */
    uint32_t nbufs;    /* the graph's buffers and nodes */
    uint32_t nodes;
    uint32_t ms;     /* milliseconds it has run (counted in ticks) */
    uint64_t states; /* the search: states kept (exact placer: nodes visited) so far */
    int64_t best;    /* the search: the least peak (arena) found so far (0: none yet) */
    int64_t bound;   /* and the bound it proved */
} app_job_view;
/* Fills v; 0 when no job runs. */
int app_place_progress(const app *a, app_job_view *v);

/* Moves res into the app as the curve's overlay (replacing any); res is
 * left empty. */
void app_set_replay(app *a, replay_result *res);
/* The overlay the curve shows: the replay, when it was made for the
 * stepped policy; NULL otherwise. */
const replay_result *app_overlay(const app *a);
/* I: the pool view on or off; simulates the pools (a->poolp) over the
 * stepped policy's run when it is shown (says why not in a->msg). */
app_reaction app_pool_toggle(app *a);

/* The arena panel's blocks or timeline: what it shows, or what it shows
 * again when the live list (l) goes. */
arena_mode app_arena_base(const app *a);

/* The best proven bound on g's least peak (the graph's, and any the runs'
 * searches proved); *optimal: a run peaks there (so it is the optimum). */
int64_t app_bound(const app *a, int *optimal);

#endif
