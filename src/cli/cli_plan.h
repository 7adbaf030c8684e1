/* cli_plan.h: a plan as plan and place write it (cli_plan.c): text, JSON, CSV, MiniMalloc's
 * CSV and SVG; PyTorch's memory snapshot (cli_memviz.c); and what each format can hold, checked
 * before any output (cli_limits.c). Exports cli_plan, cli_bufid_order, cli_plan_*,
 * cli_write_file. */
#ifndef MEMTRIS_CLI_PLAN_H
#define MEMTRIS_CLI_PLAN_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/place/problem.h"
#include "sched/policy/policy.h"

/* A plan, as plan and place write it. */
typedef struct cli_plan {
    const graph *g;
    const run *r; /* the schedule placed */
    const placer *pc;
    const placement *pl;
    const lifetimes *lt;
    const char *policy;    /* plan: the policy's name; place: NULL */
    const uint32_t *order; /* the buffers in the order written (cli_bufid_order) */
    /* place: the CSV read (BufId i is its row i), whose ids and times the
     * writers show; plan: NULL (BufIds and steps from 1). */
    const problem *prob;
    /* plan --rank-by arena: the member whose placed arena won, and the one
     * the live peak would have chosen with its peak and arena (NULL: none) */
    const policy *by_arena, *by_peak;
    int64_t by_peak_peak, by_peak_arena;
} cli_plan;

/* The buffer indices of g in BufId order; NULL when out of memory. */
uint32_t *cli_bufid_order(const graph *g);
/* The summary and the table of every buffer. */
void cli_plan_text(FILE *f, const cli_plan *cp);
/* {"policy" (plan), "placer", "align" (place), "arena", "lower_bound",
 * "live_peak", "proven_optimal", "fragmentation" (a share of the arena),
 * "fragmentation_bytes" (arena - live_peak), "buffers": [...]}: plan's buffers {"buf", "offset",
 * "size", "alloc_step", "free_step"}, place's {"id", "offset", "size", "lower", "upper"}. */
void cli_plan_json(FILE *f, const cli_plan *cp);
/* plan's CSV: buf,offset,size,alloc_step,free_step,name. */
void cli_plan_csv(FILE *f, const cli_plan *cp);
/* MiniMalloc's CSV with the plan's offsets: place's CSV as read (its
 * alignment column kept), or plan's buffers as problem_from_plan makes them.
 * 0, or -1 out of memory or after a write error. */
int cli_plan_minimalloc(FILE *f, const cli_plan *cp);
/* Writes the plan in FORMAT (CLI_*; place's CLI_CSV is its MiniMalloc CSV) to
 * path, and the SVG picture to svg ('-': standard output; NULL: not that
 * one): the files first, then standard output, then each file renamed over
 * its target. EXIT_OK, or EXIT_BAD after a message for CMD with no file
 * changed (and, when a file failed, nothing on standard output); nothing is
 * written when the format cannot hold a number of the plan (memory-viz: an
 * address past 2^63-1; plan's minimalloc: a size past 2^53-1). */
int cli_plan_write(const char *cmd, const char *path, int format, const char *svg,
                   const cli_plan *cp);
/* Where the memory-viz snapshot puts the arena: an aligned address in the
 * range CUDA hands out, so that addresses look like a device's. */
#define MEMVIZ_BASE ((int64_t)0x7f0000000000)
/* The plan as PyTorch's memory snapshot, a pickle (cli_memviz.c): {"segments":
 * [the arena, its blocks at the live peak step], "device_traces": [[
 * "segment_alloc", then each ALLOC's "alloc" and each FREE's "free_requested"
 * and "free_completed", in schedule order]]}. 0, or -1 out of memory. */
int cli_plan_memviz(FILE *f, const cli_plan *cp);
/* Whether the snapshot can hold the plan: every address, MEMVIZ_BASE + an
 * offset + the bytes held there, and every sum within 2^63-1. EXIT_OK, or
 * EXIT_BAD after "memtris CMD: buffer ... ends past 2^63-1 bytes ..." (the
 * first buffer past it, in the order written). */
int cli_plan_memviz_check(const char *cmd, const cli_plan *cp);
/* cli_limits.c: buffer b as messages name it: "buffer 'ID' (line L)"
 * (place: its CSV row), "buffer 'NAME' (BufId N)" or "buffer N" (plan);
 * out, of cap bytes. */
const char *cli_plan_buf_label(char *out, size_t cap, const cli_plan *cp, uint32_t b);
/* Whether plan --format minimalloc can hold the plan: every buffer's span
 * at the alignment within 2^53-1 (place's CSV: its own numbers, always).
 * EXIT_OK, or EXIT_BAD after a message naming the first buffer past it. */
int cli_plan_minimalloc_check(const char *cmd, const cli_plan *cp);
/* A problem_write_fn and gen_write_fn writing to the FILE ctx. */
int cli_write_file(void *ctx, const char *data, size_t len);

#endif
