/* arena_rows.h: what each row of the arena stack shows, shared by the panel
 * that draws it (view_arena.c) and the click that reads it back (hit.c).
 * A row stands for an address range; a row that holds more than one thing
 * (buffers, a hole, room above the high-water mark) is split across in
 * proportion to their bytes, lowest address at the left, each part at least
 * one cell: a hole smaller than a row still shows. Exports arena_rows_*. */
#ifndef MEMTRIS_ARENA_ROWS_H
#define MEMTRIS_ARENA_ROWS_H
#include <stdint.h>
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/policy/step.h"

enum { ARENA_SEG_BUF, ARENA_SEG_HOLE, ARENA_SEG_ABOVE };

/* Columns x .. x + w - 1 of a row (x from 0): a live buffer's bytes
 * (kind ARENA_SEG_BUF, buf its index), a hole (free below the high-water
 * mark so far) or the room above that mark. */
typedef struct arena_seg {
    int kind, x, w;
    uint32_t buf;
} arena_seg;

typedef struct arena_rows {
    int ph, pw;                 /* rows (0 = the bottom, address 0) and columns */
    int64_t hwm;                /* the high-water mark so far */
    int64_t live;               /* bytes of the live buffers (their sizes) */
    int64_t holes;              /* bytes below hwm that hold no live buffer (nor its padding) */
    uint32_t nlive;             /* live buffers */
    arena_seg *seg;             /* row j's parts: seg[row0[j] .. row0[j + 1]) */
    uint32_t *row0;             /* [ph + 1] */
    uint32_t *live_buf;         /* [nlive] the live buffers, by address */
    int *lab_y, *lab_x, *lab_w; /* [nlive] each one's widest part: row, x, w (w 0: none) */
} arena_rows;

/* The stack of placement pl at stepper s's step on ph rows of pw columns
 * (pl->arena > 0, ph >= 1, pw >= 1). 0, or -1 out of memory. */
int arena_rows_build(arena_rows *ar, const graph *g, const placement *pl, const stepper *s, int ph,
                     int pw);
void arena_rows_free(arena_rows *ar);
/* The part under column x of row j, or NULL. */
const arena_seg *arena_rows_at(const arena_rows *ar, int j, int x);
#endif
