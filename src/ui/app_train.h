/* app_train.h: a training step (a graph with Phase or Category) on screen: it opens on given,
 * the framework's own order, which the status bar, the opening message and the key bar name as
 * such, with c comparing it with priority (what memtris saves over the framework's order).
 * Exports app_train_*. */
#ifndef MEMTRIS_APP_TRAIN_H
#define MEMTRIS_APP_TRAIN_H
#include <stddef.h>
#include "app.h"

/* The other side that c compares a training step's given with, priority (what memtris saves
 * over the framework's order), when g is a training step and pol is given; else NULL. */
const policy *app_train_other(const graph *g, const policy *pol);
/* Whether a steps given on a training step (not in the budget view: its plan steps under given
 * whatever was stepped before). */
int app_train_given(const app *a);
/* What the status bar adds after the policy's name there: " (the framework's order)", else "". */
const char *app_train_label(const app *a);
/* The key bar's word for c ("VsPriority": it compares the framework's order with the other side)
 * where app_train_given and compare mode is off; NULL elsewhere (the table's word). */
const char *app_train_bar_word(const app *a, char *buf, size_t cap);
/* The opening message of a training step stepped under given: what the order is and what c
 * does, in forms for the why line (APP_MSG_ALT between them). Nothing elsewhere. */
void app_train_hello(app *a);
/* After c turned compare mode on from the framework's order: what the other side saves over it
 * ("priority saves 20.2 MiB (16.3%) over given, the framework's order: peak 103.6 MiB against
 * 123.8 MiB"). Nothing elsewhere. */
void app_train_compared(app *a);

#endif
