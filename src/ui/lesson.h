/* lesson.h: a lesson, a guided tour of the TUI a teacher writes as a small text file (the man
 * page's LESSON FILES): its graph and policies, and its stops, each a narration and the keys that
 * set the screen up. lesson_parse reads one with FILE:LINE:COLUMN errors; the narration's room on
 * the screen (lesson_rows, lesson_room) and its lines (lesson_wrap). Exports lesson_*. */
#ifndef MEMTRIS_LESSON_H
#define MEMTRIS_LESSON_H
#include <stddef.h>
#include <stdint.h>
#include "layout.h"
#include "sched/graph/diag.h"
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/policy/policy.h"

/* The narration of a stop fits this many lines at 80 columns (the box's
 * text is 78 wide); a longer one is an error in the file. */
#define LESSON_SAY_LINES 5
#define LESSON_SAY_WIDTH 78
#define LESSON_SAY_MAX   1024 /* bytes of one stop's narration */
#define LESSON_STEP_KEY  (-2) /* an act that jumps to step arg instead of a key */
/* The most a lesson may be (the man page's LESSON FILES): stops, and bytes of file. A stop
 * holds its narration whole (about 1.2 KiB), so 100000 stops take about 120 MiB. */
#define LESSON_MAX_STOPS 100000
#define LESSON_MAX_BYTES (16u << 20)

/* One thing a stop does after its reset, in the file's order: a key
 * pressed as in 'memtris view' (key), or 'step N' (key LESSON_STEP_KEY). */
typedef struct lesson_act {
    int key;
    uint32_t arg;
    unsigned long line, col; /* where the file says it */
} lesson_act;

typedef struct lesson_stop {
    char title[128]; /* "stop TITLE": may be empty */
    char say[LESSON_SAY_MAX];
    const policy *pol, *cmp; /* cmp NULL: no compare mode */
    const placer *plc;
    lesson_act *acts;
    size_t nacts;
    unsigned long line; /* the 'stop' line */
} lesson_stop;

typedef struct lesson {
    char title[128];
    char graph[512]; /* 'graph PATH' as written: relative to the lesson file */
    unsigned long graph_line, graph_col;
    lesson_stop *stops;
    size_t nstops;
} lesson;

/* Parses the len bytes of text; errors go to d (its source names the file)
 * with their line and column. Returns 0, or -1 (lesson_free it either way). */
int lesson_parse(const char *text, size_t len, lesson *ls, diag *d);
/* What the graph makes wrong ('step N' past its last step); 0 or -1. */
int lesson_check(const lesson *ls, const graph *g, diag *d);
void lesson_free(lesson *ls);

/* Splits s into lines of at most width columns as wrap_next does (at
 * spaces, never between a number and its unit; a word longer than a line is
 * cut); calls line(s, len, ctx) for each unless it is NULL. Returns the
 * number of lines. */
int lesson_wrap(const char *s, int width, void (*line)(const char *, size_t, void *), void *ctx);
/* The rows stop `at` takes at the bottom of a w x h screen: a title line
 * and its narration, at most what leaves LAYOUT_MIN_H rows to the panels;
 * 0 without a lesson. */
int lesson_rows(const lesson *ls, size_t at, int w, int h);
/* A layout made for h - rows rows makes room for the narration: the why
 * line and the key bar go down by rows, below it; the screen is h high. */
void lesson_room(layout *l, int rows, int h);
/* The narration's rectangle in l (after lesson_room), rows high. */
rect lesson_rect(const layout *l, int rows);

#endif
