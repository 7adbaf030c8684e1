/* app_lesson.h: a lesson on the app (memtris lesson): its stops shown one at a time, each from a
 * fresh app with the stop's settings (app_lesson.c) and then its keys, pressed through the key
 * table (app_keys.c). Exports app_lesson_go, which app_keys.c defines (app_lesson_stop:
 * app_internal.h). */
#ifndef MEMTRIS_APP_LESSON_H
#define MEMTRIS_APP_LESSON_H
#include <stddef.h>
#include "app.h"
#include "lesson.h"

/* Shows stop `at` of a->lesson: the app made again on its graph with the
 * stop's policy, compare side and placer (the display's settings kept),
 * then the stop's keys pressed and steps taken, each job they start waited
 * for. Returns what changed; APP_QUIT with a->err set when the app cannot
 * be made (out of memory). */
app_reaction app_lesson_go(app *a, size_t at);

#endif
