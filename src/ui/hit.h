/* hit.h: which step or buffer a click lands on, read off the last frame's
 * layout and the geometry its curve and arena were drawn with; knows no app
 * (app_click applies what it finds). Exports hit_test and its types. */
#ifndef MEMTRIS_HIT_H
#define MEMTRIS_HIT_H
#include <stdint.h>
#include "layout.h"
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/policy/step.h"

/* What the last frame showed where a click can land. */
typedef struct hit_frame {
    const layout *lay; /* its layout */
    int utf8;          /* the curve in braille: two dot columns a cell */
    int timeline;      /* the arena panel showed the whole run's timeline */
    const graph *g;
    const stepper *st;   /* the stepped run, at its step */
    const placement *pl; /* the arena panel's placement of that run */
    uint32_t lo, span;   /* the curve\'s window of steps (app_curve_window) */
    int lanes;           /* the curve panel showed the streams over time: no steps there */
} hit_frame;

typedef enum hit_kind {
    HIT_NONE,  /* nothing to act on */
    HIT_STEP,  /* the memory curve: go to step .step */
    HIT_BUFFER /* a block of the arena or the timeline: select buffer .buf */
} hit_kind;

typedef struct hit_action {
    hit_kind kind;
    uint32_t step; /* HIT_STEP: 0 .. n */
    uint32_t buf;  /* HIT_BUFFER: a buffer index */
} hit_action;

/* What a click at (x, y) lands on: on the curve's plot (or its x axis) the
 * step drawn in that column; on the stack a live block, on the timeline any
 * buffer's lifetime rectangle (the smallest where several cover the cell). */
hit_action hit_test(const hit_frame *f, int x, int y);

#endif
