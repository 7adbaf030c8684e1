/* view.h: renders the whole TUI screen for an app state into a canvas, by
 * pure functions of that state. Exports view_*. */
#ifndef MEMTRIS_VIEW_H
#define MEMTRIS_VIEW_H
#include "app.h"
#include "canvas.h"

void view_render(canvas *cv, const app *a);
/* The step under a click at (x, y) on the memory curve; 0 if not on it. */
int view_curve_step(const app *a, int x, int y, uint32_t *k);

/* Panels (view_*.c), each drawing inside its rectangle. */
void view_ready(canvas *cv, const app *a, int panel, rect r);
void view_curve(canvas *cv, const app *a, rect r);
void view_tetris(canvas *cv, const app *a, rect r);
void view_summary(canvas *cv, const app *a, rect r);

#endif
