/* app_play.h: auto-play's state (on or off, speed, the step it goes to, the breakpoints), knowing
 * nothing of the app: a tick says which step to go to, and the app goes there. Exports app_play,
 * app_break, app_play_*, app_break_*. */
#ifndef MEMTRIS_APP_PLAY_H
#define MEMTRIS_APP_PLAY_H
#include <stddef.h>
#include <stdint.h>
#include "app_compare.h"
#include "sched/graph/graph.h"
#include "sched/policy/step.h"

#define APP_SPEEDS 11
#define APP_BREAKS 8 /* breakpoints at most */
/* A play with a stop (u, d, a breakpoint ahead) reaches it within this many
 * milliseconds whatever the distance: its pace rises to fit. */
#define APP_PLAY_FIT_MS 2000

/* A breakpoint: any play stops at a step where it holds. */
typedef struct app_break {
    char node[64]; /* a find query (id, name or op): the step that popped a match */
    int64_t bytes; /* or, when > 0: the step where live memory reaches it from below */
} app_break;

typedef struct app_play {
    int playing, speed; /* auto-play and its speed index (the user's pace, + and -) */
    uint32_t fit;       /* steps a second the play's stop asks for (0: none, the user's pace) */
    uint32_t to;        /* the play stops at this step (GRAPH_NONE: at the last) */
    char goal[64];      /* what `to` is, for the message there ("the peak of fifo");
                         * none: a parting of the orders (d) */
    int wait;           /* ms waited toward the next step while a job is polled */
    app_break brk[APP_BREAKS];
    int nbrk;
} app_play;

/* Stopped, at speed 3 (5 steps a second), no breakpoints. */
void app_play_init(app_play *p);
/* Steps a second now: the user's pace, or the stop's when that is faster. */
uint32_t app_play_sps(const app_play *p);
/* Milliseconds between two play steps at the current speed. */
int app_play_ms(const app_play *p);
/* "auto-play speed 5 steps/s". */
void app_play_say_speed(const app_play *p, char *msg, size_t cap);
/* Plays from step k of r (g's run) to step `to` (GRAPH_NONE: the last),
 * saying "at GOAL" there (no goal: the parting of the orders at `to`);
 * breakpoints stop it sooner. A play with a stop (`to`, or a breakpoint that
 * holds on the way) reaches it within APP_PLAY_FIT_MS: its pace is the
 * user's or, when that is too slow for the distance, ceil(distance / 2 s). */
void app_play_start(app_play *p, const graph *g, const run *r, uint32_t k, uint32_t to,
                    const char *goal);
void app_play_stop(app_play *p);
/* One tick of the play from step k of st[0] (st[1] and c: compare's other
 * side, for the partings): the steps of one tick at the current speed, each
 * looked at, stopping at the goal, a breakpoint or the last step (and
 * saying which in said, else ""). 0: at the last step already (the play
 * stops); 1: *to is the step to go to. */
int app_play_next(app_play *p, const graph *g, const stepper st[2], const app_compare *c,
                  uint32_t *to, char *said, size_t cap);
/* d (compare mode, c->shown): plays from step k to the next step where the
 * orders part; else says why not in msg. */
void app_play_part(app_play *p, const app_compare *c, const graph *g, const run *r, uint32_t k,
                   char *msg, size_t cap);
/* b: a breakpoint from what was typed: ">SIZE" (">=SIZE" too) for live
 * memory reaching SIZE, else a find query (id, name or op) for a node's
 * pop. Says what it set, or why not, in msg; 0 or -1. */
int app_break_add(app_play *p, const graph *g, const char *text, char *msg, size_t cap);
/* B: forgets every breakpoint, and says so. */
void app_break_clear(app_play *p, char *msg, size_t cap);

#endif
