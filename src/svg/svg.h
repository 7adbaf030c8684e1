/* svg.h: memtris's pictures as standalone SVG files for slides and papers: a plan (the live
 * memory curve over the steps above the lifetime x address chart; plan --svg, the TUI's
 * export), compare --pareto's memory/time plane and budget --sweep's memory budget against
 * extra time. Exports svg_*; writes to a FILE* the caller owns and opens nothing itself. */
#ifndef MEMTRIS_SVG_H
#define MEMTRIS_SVG_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/policy/policy.h"

/* Rectangles drawn at most: past that, the buffers with the largest area
 * (bytes x steps) are drawn and a note under the chart counts the others. */
#define SVG_MAX_RECTS 2000

typedef struct svg_plan {
    const graph *g;
    const run *r; /* the schedule the plan was made for */
    const placement *pl;
    const char *policy;       /* the policy's name, for the title */
    uint32_t max_rects;       /* 0: SVG_MAX_RECTS */
    int has_cursor;           /* mark step cursor (the TUI's export): a line through both charts */
    uint32_t cursor;          /* 0..n: the state after that many pops */
    const run *r2;            /* compare mode (NULL: none): the other policy's schedule, dashed */
    const char *policy2;      /* its name */
    const char *const *notes; /* lines under the picture (the TUI's why list), or NULL */
    uint32_t nnotes;
    /* A training step as the TUI shows it (0: none of these): */
    int stacked;       /* the curve stacked by Category (g's tags), a legend of them under it */
    int64_t measured;  /* > 0: the measured peak, a line across the curve */
    uint32_t backward; /* > 0: the step of the first backward node, a line "backward" */
    int64_t budget;    /* > 0: the budget view's budget, a line across the curve */
} svg_plan;

/* Writes the picture: a title (graph, policy, placer, arena, lower bound),
 * the memory curve with its peak marked, and one rectangle per buffer from
 * its alloc step to its free step at [offset, offset + size), the arena's
 * high-water mark as a line; with has_cursor, a line at the cursor's step
 * labelled with its live bytes, and the title says the step; with r2, the
 * other policy's curve dashed beside the first, both named in a legend and
 * in the title, each peak labelled; a training step's stacked categories, measured line,
 * backward mark and budget line; labels never overlap one another, a line or the curve (one
 * that finds no free place is left out); notes, one text line each under it. Returns 0, or -1 with
 * a message in err (out of memory); write errors are left to the caller (ferror, fclose). */
int svg_write_plan(FILE *f, const svg_plan *p, char *err, size_t errcap);

/* Writes s as XML text or attribute value: & < > " ' as entities, control
 * characters and bytes that are not UTF-8 (or not XML characters) as '?'. */
void svg_escape(FILE *f, const char *s);

/* An axis step for the range 0..max bytes: 1, 2, 2.5 or 5 times a power of
 * ten of the largest binary unit (B, KiB, MiB...) not above max. Returns the
 * step in bytes and sets *unit to the unit's bytes and *unit_name to its name. */
double svg_byte_step(double max, double *unit, const char **unit_name);

/* compare --pareto's points, drawn by svg_write_pareto. */
typedef struct svg_pareto_point {
    const char *name; /* the policy */
    double alpha;     /* weighted's alpha, or -1 */
    int64_t peak;
    double makespan; /* ms */
    int pareto;      /* on the front */
} svg_pareto_point;
typedef struct svg_pareto {
    const char *source;
    uint32_t n;
    const svg_pareto_point *pt;
} svg_pareto;
/* Writes the (peak, makespan) plane: every point, the front filled and
 * joined. 0, or -1 when memory runs out. */
int svg_write_pareto(FILE *f, const svg_pareto *p);

/* budget --sweep's points, drawn by svg_write_sweep. */
typedef struct svg_sweep_point {
    int64_t budget;
    int feasible;    /* a plan at or under the budget was found: extra_ms is its */
    double extra_ms; /* the least extra time of those plans */
} svg_sweep_point;
typedef struct svg_sweep {
    const char *source;
    const char *solver, *allow; /* as --solver and --allow take them */
    int64_t free_peak;          /* the budget-free peak */
    double step_ms;             /* the budget-free plan's makespan */
    int chen;                   /* Chen's sqrt(n) checkpointing has a plan: */
    int64_t chen_peak;          /* its peak */
    double chen_ms;             /* and its extra time */
    double claim_budget;        /* what checkpointing is said to give: this budget */
    double claim_ms;            /* for this extra time, */
    const char *claim;          /* in words ("65% less memory, 15% more time") */
    const char *warning; /* NULL, or why the claim is not judged ("the graph has no Latency: ...":
                            every plan costs 0 ms): said under the title, the claim not drawn */
    uint32_t n;
    const svg_sweep_point *pt;
    int64_t bound; /* no plan of allow peaks below it (drawn when above 0) */
    /* A second series beside the first (pt2 NULL: none), at the same n budgets: */
    const svg_sweep_point *pt2;
    const char *label, *label2; /* the two series in words ("recompute only", "with offload") */
    const char *allow2;         /* the second's allow */
    int64_t bound2;             /* its bound */
} svg_sweep;
/* Writes the budget against extra time: the curve through the budgets with a plan (one per
 * series), a cross where none, each series' bound as a dashed line (labelled where there is
 * room), Chen's point and the claim's (not drawn with a warning), each labelled, and a legend. */
void svg_write_sweep(FILE *f, const svg_sweep *s);

#endif
