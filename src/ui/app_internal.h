/* app_internal.h: what the app's own files share beyond app.h: app.c's operations that the key
 * table's actions call (app_keys.c) the pool view's upkeep (app_pool.c) that app.c calls, and the
 * app made for a lesson's stop (app_lesson.c) before app_keys.c presses its keys. Included by
 * app.c, app_keys.c, app_lesson.c, app_pool.c and app_budget_view.c. */
#ifndef MEMTRIS_APP_INTERNAL_H
#define MEMTRIS_APP_INTERNAL_H
#include "app.h"

/* app.c */
/* z (or + on the curve): half the steps, around the cursor; Z (or -):
 * twice; < and >: half a window back or on, the cursor left where it is;
 * 0: every step. */
void app_zoom(app *a, int key);
/* The stack shows live buffers only: a selection there ends with its
 * buffer (the timeline shows every buffer, and keeps it). */
void app_drop_dead_selection(app *a);
/* s: the next policy steps, at the same step (exact's search, and the
 * placement on a big graph, in the background). */
void app_next_policy(app *a);
/* a: the arena panel's next placer (in the background on a big graph). */
void app_next_placer(app *a);
/* c: compare mode on or off (an exact other side is searched in the background). */
app_reaction app_toggle_compare(app *a);
/* o: compare mode against exact's order, searched in the background. */
void app_compare_optimum(app *a);
/* Goes to the match of the find after (dir > 0) or before the cursor and
 * says which it is. */
void app_find_go(app *a, int dir);
/* A key while a prompt is up: edits it, or carries out what Enter asks. */
void app_prompt_do(app *a, int key);

/* Steps g (the caller's, kept while the app shows it) under pol instead of the graph shown:
 * compare mode, the replay's overlay, the selection, the zoom and the play go, the cursor goes
 * to step 0. 0, or -1 with a->err set and the app as it was. */
int app_set_graph(app *a, const graph *g, const policy *pol);

/* app_budget_view.c */
/* m: the budget prompt, the current budget offered. */
app_reaction app_budget_open(app *a);
/* A key in the budget prompt: Enter sets the budget typed (empty: clears it), Esc clears it. */
app_reaction app_budget_prompt_key(app *a, int key);
/* w in the budget view: why the rerun at or before the cursor was needed. */
app_reaction app_budget_explain_key(app *a);
/* Whether key must wait: in the budget view s, c and o are off (the plan steps under given);
 * says so. */
int app_budget_refuses(app *a, int key);

/* app_init with g's lower bound already known (bound not NULL: policy_lower_bound(g), which
 * app_init computes; a lesson's stops, all on one graph, take it from the first). */
int app_init_known(app *a, const graph *g, const char *title, const policy *pol,
                   const policy *cmp_pol, int compare, const placer *pl, const solve_ctx *c,
                   const int64_t *bound);

/* app_lesson.c */
/* The app made again for stop `at` of a->lesson (there is one) on its graph with the stop's
 * policy, compare side and placer, the display's settings and size kept, a->lesson_at set: the
 * stop before its keys (app_lesson_go presses them). 0, or -1 with a->quit and a->err set when
 * the app cannot be made (out of memory). */
int app_lesson_stop(app *a, size_t at);

/* app_pool.c */
/* After the stepped policy changed: the pool view follows it. */
void app_pool_refresh(app *a);
void app_pool_free(app *a);

#endif
