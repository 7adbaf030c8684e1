/* view.h: renders the whole TUI screen for an app state into a canvas, by
 * pure functions of that state. Exports view_*. */
#ifndef MEMTRIS_VIEW_H
#define MEMTRIS_VIEW_H
#include "app.h"
#include "canvas.h"

void view_render(canvas *cv, const app *a);
/* The step under a click at (x, y) on the memory curve; 0 if not on it. */
int view_curve_step(const app *a, int x, int y, uint32_t *k);

/* The buffer under a click on the arena panel (the stack: live ones; the
 * timeline: any); 0 if none. */
int view_arena_buffer(const app *a, int x, int y, uint32_t *b);

/* Panels (view_*.c), each drawing inside its rectangle. */
void view_ready(canvas *cv, const app *a, int panel, rect r);
void view_curve(canvas *cv, const app *a, rect r);
void view_tetris(canvas *cv, const app *a, rect r);   /* the stack or the timeline */
void view_summary(canvas *cv, const app *a, rect r);

#endif
