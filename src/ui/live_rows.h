/* live_rows.h: the rows of the live list (l), shared by the panel that draws them (view_live.c)
 * and the keys that move over them and fold them (app_live.c): the buffers live at a step,
 * largest first, or, on a graph with Categories, every category's header (biggest first) with
 * its largest buffers under it as the room allows. Exports live_rows_*, LIVE_*. */
#ifndef MEMTRIS_LIVE_ROWS_H
#define MEMTRIS_LIVE_ROWS_H
#include <stdint.h>
#include "sched/graph/graph.h"
#include "sched/policy/step.h"

/* A group's state (one per category; LIVE_NGROUP - 1 is the list of a graph without
 * Categories): its largest buffers as the room allows, then "and N more"; its header alone;
 * all its buffers (the list scrolls). Zeroed is every group fitted. */
enum { LIVE_FIT, LIVE_FOLDED, LIVE_OPEN };
#define LIVE_NGROUP (GRAPH_NCAT + 1)
#define LIVE_FLAT   GRAPH_NCAT /* the group of a list without headers */

/* A row: a category's header (cat; n buffers, bytes), a buffer (buf, of group cat), or the
 * buffers of group cat left out (n of them, bytes). */
enum { LIVE_HEAD, LIVE_BUF, LIVE_MORE };
typedef struct live_row {
    int kind, cat;
    uint32_t buf, n;
    int64_t bytes;
} live_row;

typedef struct live_rows {
    uint32_t nlive;         /* buffers live at the step */
    int64_t total;          /* their bytes */
    int grouped;            /* the graph has Categories: the rows have headers */
    uint32_t n;             /* rows */
    live_row *row;          /* [n] */
    int whole[LIVE_NGROUP]; /* each group shows every buffer it has (folded: 0) */
} live_rows;

/* The list at s's step in room rows (fewer rows than the list: the list scrolls) with the
 * groups' states fold[LIVE_NGROUP]. 0, or -1 out of memory (lr empty). */
int live_rows_build(live_rows *lr, const graph *g, const stepper *s,
                    const uint8_t fold[LIVE_NGROUP], int room);
void live_rows_free(live_rows *lr);
/* Sorts buffers largest first (then by BufId). */
void live_rows_by_size(const graph *g, uint32_t *bufs, uint32_t n);
#endif
