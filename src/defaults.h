/* defaults.h: every default of memtris in one place: what a command or the
 * TUI uses when the user names nothing. (The backend of a replay is a
 * function of the build: replay_backend_default() in gpu/replay.h.) */
#ifndef MEMTRIS_DEFAULTS_H
#define MEMTRIS_DEFAULTS_H

#define DEFAULT_POLICY            "priority" /* schedule, plan, replay, view's stepped side */
#define DEFAULT_COMPARE_POLICY    "fifo"     /* view's other side in compare mode */
#define DEFAULT_TUI_PLACER        "first-fit" /* the TUI's arena panel: an allocator's view of the run */
#define DEFAULT_PLAN_PLACER       "best" /* plan, and replay --mode arena: the smallest arena */
#define DEFAULT_REPLAY_MODE       "raw"  /* replay and the TUI's R */
#define DEFAULT_FORMAT            "text" /* every command's --format */
#define DEFAULT_ALIGN             64     /* bytes: offsets and spans of every plan */
#define DEFAULT_PLACE_ALIGN       1      /* place: MiniMalloc's problems have no alignment */
#define DEFAULT_PLACE_FORMAT      "csv"  /* place: MiniMalloc's output, the CSV with offsets */
#define DEFAULT_ITERATIONS        100    /* iterate and the TUI's pool view (I) */
#define DEFAULT_SCALE_MIN         0.25   /* their factors: uniform in [MIN, MAX) */
#define DEFAULT_SCALE_MAX         1.0
#define DEFAULT_SEED              1
#define DEFAULT_MAX_SECONDS       300    /* iterate: the longest run it starts without being told */
#define DEFAULT_BUDGET_SOLVER     "best" /* budget: the least extra time of every solver */
#define DEFAULT_SWEEP_SOLVER      "greedy" /* budget --sweep: many budgets, each fast */
#define DEFAULT_SWEEP_POINTS      16       /* budget --sweep's budgets */
#define DEFAULT_TUI_BUDGET_SOLVER "greedy" /* the TUI's m: the screen waits for it */
#define DEFAULT_BUDGET_BANDWIDTH  16e9     /* bytes a second each way between device and host */
#define DEFAULT_WHATIF_SOLVER     "greedy" /* whatif's checkpointing rows */
#define DEFAULT_WHATIF_PCT        50       /* their budget, % of the budget-free peak (whole) */

#endif
