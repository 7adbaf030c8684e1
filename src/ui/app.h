/* app.h: the TUI's state and its reactions to keys, clicks and ticks, with
 * no terminal in sight (ui_curses.c feeds it; tests and the benchmark drive
 * it directly). Exports app_*. */
#ifndef MEMTRIS_APP_H
#define MEMTRIS_APP_H
#include <stdint.h>
#include "gpu/replay.h"
#include "layout.h"
#include "sched/graph.h"
#include "sched/place.h"
#include "sched/step.h"

/* Keys beyond ASCII, as the app sees them. */
enum {
    K_UP = 0x1000, K_DOWN, K_LEFT, K_RIGHT, K_HOME, K_END, K_PGUP, K_PGDN,
    K_BACKSPACE, K_ENTER, K_ESC, K_TAB, K_BTAB, K_F1, K_F10, K_RESIZE
};

#define APP_SPEEDS 11
#define APP_POLL_MS 50   /* how often a running replay is polled */

/* The timeline's raster (which buffer shows in each cell), kept between
 * frames: it changes only with the placement or the panel's size. */
typedef struct timeline_cache {
    int w, h;
    const int64_t *offset;      /* the placement it was drawn for; NULL = stale */
    uint32_t *cell;             /* [w*h] buffer index or GRAPH_NONE, row 0 at the top */
} timeline_cache;

typedef struct app {
    const graph *g;
    const char *title;          /* the graph as given (the status bar shows its file name) */
    const policy *pol;          /* main policy: the stepped one */
    const policy *cmp_pol;      /* the other side in compare mode */
    stepper st[2];              /* st[0]: pol; st[1]: cmp_pol (when have_cmp) */
    int have_cmp;
    const placer *placer;       /* the arena panel's placer */
    placement pl;               /* its placement of st[0]'s run */
    uint32_t *by_span;          /* buffers by span, largest first (timeline painting order) */
    int timeline;               /* the arena panel shows the lifetime x address timeline */
    timeline_cache *tl;
    uint32_t sel;               /* the selected buffer, or GRAPH_NONE */
    int compare;                /* compare mode shown */
    uint32_t diverge;           /* first step (0-based) where the orders differ, n if never */
    int focus;                  /* panel_id with keyboard focus */
    uint32_t scroll[P_COUNT];
    int help;                   /* help overlay shown */
    int playing, speed;         /* auto-play and its speed index */
    int prompt;                 /* 0, 'g' (go to step) or '/' (find node) */
    char pbuf[24];
    char msg[200];              /* one-shot message shown in the why line */
    char why[2][256];           /* why the last pop happened, per stepper */
    int quit;
    int mono, utf8, mouse;
    layout lay;                 /* layout of the last frame, for clicks */
    char err[256];
    /* Replay overlay (R): what R runs (cmd_view's --backend and --mode), the
     * background job while it runs, and the finished (or loaded) result. */
    const replay_backend *rp_be;    /* NULL: host */
    int rp_be_auto;             /* rp_be was not named: fall back to host when it cannot open */
    int rp_mode;                /* REPLAY_* */
    replay_job *rp_job;         /* the running replay, or NULL */
    int rp_running;             /* the hints line shows the replay's progress */
    const replay_backend *rp_job_be;   /* the running replay's backend and mode */
    int rp_job_mode;
    int rp_cancelled;           /* Esc asked the running replay to stop */
    uint32_t rp_done, rp_total; /* its progress at the last poll (total 0: not known yet) */
    char rp_note[48];           /* "cuda unavailable" after falling back to host, for the final message */
    int play_wait;              /* ms waited toward the next auto-play step while polling */
    int have_replay;            /* replay holds a result: the curve overlays it */
    replay_result replay;
} app;

/* Sets up steppers and placement (with placer pl, NULL for first-fit);
 * returns 0 or -1 with app->err set. */
int app_init(app *a, const graph *g, const char *title, const policy *pol, const policy *cmp_pol,
             int compare, const placer *pl);
void app_free(app *a);
void app_resize(app *a, int w, int h);
/* Handles one key; returns 1 if the screen should be redrawn. */
int app_key(app *a, int key);
/* A click at (x, y): on the memory curve it jumps to that step; on a block
 * of the arena or the timeline it selects that buffer. */
int app_click(app *a, int x, int y);
/* Milliseconds until the next tick: auto-play's pace, at most APP_POLL_MS
 * while a replay runs; -1 when there is nothing to do. */
int app_tick_ms(const app *a);
/* Polls a running replay (and takes its result when it has finished), and
 * makes the next auto-play step when it is due; returns 1 to redraw. */
int app_tick(app *a);
void app_jump(app *a, uint32_t k);
uint32_t app_steps_per_sec(const app *a);
/* The stepper a ready panel shows: in compare mode P_READY is the other
 * side (cmp_pol) and P_READY2 the main policy. */
const stepper *app_ready_stepper(const app *a, int panel);
/* Describes buffer b for the details line: size, offset, steps, users. */
void app_buffer_details(const app *a, uint32_t b, char *out, size_t cap);

/* Starts replaying the stepped policy in the background (the R key);
 * 0, or -1 with a->msg saying why not. */
int app_replay_start(app *a);
/* Moves res into the app as the curve's overlay (replacing any); res is
 * left empty. */
void app_set_replay(app *a, replay_result *res);
/* The overlay the curve shows: the replay, when it was made for the
 * stepped policy; NULL otherwise. */
const replay_result *app_overlay(const app *a);

#endif
