/* cli_lesson.h: memtris lesson's input (cmd_lesson.c): a built-in lesson or a lesson file with
 * its graph, loaded and checked before the UI opens. Exports cli_lesson_open. */
#ifndef MEMTRIS_CLI_LESSON_H
#define MEMTRIS_CLI_LESSON_H
#include <stddef.h>
#include "sched/graph/graph.h"

struct lesson;

/* memtris lesson's input: the built-in lesson called arg, or the lesson file
 * arg, parsed into ls (lesson_free it either way), with its graph loaded and
 * checked against it: the graph, or NULL after the errors (FILE:LINE:COLUMN)
 * on stderr. source gets the name the messages give the lesson. */
graph *cli_lesson_open(const char *arg, struct lesson *ls, char *source, size_t cap);

#endif
