/* app_internal.h: what the app's files (app.c, app_play.c, app_prompt.c,
 * app_export.c: one module, the TUI's state) share beyond app.h: auto-play
 * and the teaching flow (app_play.c), the prompts (app_prompt.c). */
#ifndef MEMTRIS_APP_INTERNAL_H
#define MEMTRIS_APP_INTERNAL_H
#include "app.h"

/* app_play.c */
/* Milliseconds between two play steps at the current speed. */
int app_play_ms(const app *a);
/* "auto-play speed 5 steps/s": a message of the moment (the next step of
 * the play replaces it with its explanation). */
void app_say_speed(app *a);
/* Plays from the cursor to step `to` (GRAPH_NONE: the last), saying "at
 * GOAL" there (no goal: the parting of the orders at `to`); breakpoints stop
 * it sooner. */
void app_play_start(app *a, uint32_t to, const char *goal);
void app_play_stop(app *a);
/* One tick of the play: the steps of one tick at the current speed, each
 * looked at, stopping at the goal, a breakpoint or the last step (and
 * saying which). */
app_reaction app_play_step(app *a);
/* u: plays to the stepped policy's peak (from step 0 when at or past it). */
void app_play_peak(app *a);
/* d (compare mode): plays to the next step where the orders part. */
void app_play_part(app *a);
/* "the orders part at step 7 (2 of 3): fifo pops node 3 (...), priority
 * pops node 4 (...)" when step k (1-based) is a parting, else NULL. */
const char *app_part_text(const app *a, uint32_t k, char *out, size_t cap);
/* b: a breakpoint from what was typed: ">SIZE" (">=SIZE" too) for live
 * memory reaching SIZE, else a find query (id, name or op) for a node's
 * pop. Says what it set, or why not, in a->msg; 0 or -1. */
int app_break_add(app *a, const char *text);
/* B: forgets every breakpoint. */
void app_break_clear(app *a);

/* app.c: builds a stepper (and with pl, its placement) for pol into the
 * caller's structs; on failure leaves them empty and sets a->err. */
int app_make_side(app *a, const policy *pol, stepper *st, placement *pl);
/* app.c: after the cursor moved: the why lines, the selection, the curve's window. */
void app_after_move(app *a);

/* app_compare.c */
/* Where the two sides' orders part (the first is diverge). */
void app_set_partings(app *a);
/* (Re)builds the other side for cmp_pol at once; the app is unchanged on failure. */
int app_init_cmp(app *a, const policy *cmp_pol);
/* The c key: compare mode on or off (an exact other side is searched in the background). */
app_reaction app_toggle_compare(app *a);
/* The o key: compare mode against exact's order, searched in the background. */
void app_compare_optimum(app *a);

/* app.c: the plan p made (pl, taken) becomes the arena panel's; says so. */
void app_take_plan(app *a, placement *pl, const placer *p);
/* app.c: st and its plan (taken) become the stepped side for pol, at the
 * same step; compare's other side follows; says so. */
void app_take_main(app *a, stepper *st, placement *pl, const policy *pol);

/* app_compare.c: st (taken) becomes compare's other side for pol, at the
 * same step, and compare mode shows it; says how far the stepped side is
 * from the best bound now known. */
void app_take_other(app *a, stepper *st, const policy *pol);

/* app_place.c: the background job: makes pol's run (with the command
 * line's search limits) and places it with p as the new stepped side, or,
 * when other, makes it compare's other side; with pol NULL, places the
 * stepped side's run with p. Says why it cannot start in a->msg. */
void app_place_start(app *a, const policy *pol, int other, const placer *p);
/* Whether a job making compare's other side runs. */
int app_place_other(const app *a);
/* Takes a finished placement (app_take_main or app_take_plan); returns
 * APP_REDRAW when the screen changes (the progress line's time too). */
app_reaction app_place_poll(app *a);
/* Esc: stops a running placement and says so; 1 if there was one. */
int app_place_cancel(app *a);
/* Stops any, silently, and frees it (app_free). */
void app_place_free(app *a);

/* app_pool.c */
/* After the stepped policy changed: the pool view follows it. */
void app_pool_refresh(app *a);
void app_pool_free(app *a);

/* app_prompt.c */
/* A key while a prompt is up: typing, Backspace, Esc (cancel), Enter (do it). */
void app_prompt_key(app *a, int key);
/* Goes to the match of a->find after (dir > 0) or before the cursor and
 * says which it is. */
void app_find_go(app *a, int dir);

#endif
