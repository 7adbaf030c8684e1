/* cli.h: what the subcommands share: their option handling (cli_opts.c),
 * loading a graph with diagnostics on stderr, name lookups with their usage
 * errors, placing with the plan checked, the commands' results (cli_job,
 * cli_compare, cli_pareto) and their emitters, and the subcommand entry points. */
#ifndef MEMTRIS_CLI_H
#define MEMTRIS_CLI_H
#include <getopt.h>
#include <stdio.h>
#include "util/atomic_out.h"
#include "util/jw.h"
#include "util/utf8.h"
#include "sched/graph/diag.h"
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/policy/policy.h"
#include "sched/time/pool.h"
#include "sched/place/problem.h"
#include "sched/time/timeline.h"

struct replay_backend;

/* Exit statuses. */
enum { EXIT_OK = 0, EXIT_BAD = 1, EXIT_USAGE = 2 };

/* ------------------------------------------------ options (cli_opts.c) */

/* A subcommand's options, for cli_opt: -h/--help and -V/--version are
 * added to them and handled there, as are a missing value and an unknown
 * option. */
typedef struct cli_opts {
    const char *cmd;               /* "plan": in usage errors */
    const char *shortopts;         /* the command's own, getopt style: "p:l:a:f:" */
    const struct option *longopts; /* the command's own, ended by {0}; NULL for none */
    const char *help;              /* the --help text, or NULL when print_help prints it */
    void (*print_help)(void);
} cli_opts;

/* The most long options a command may have (--help and --version aside). */
#define CLI_MAX_OPTS 32

/* What cli_opt returns besides an option's character. */
enum { CLI_OPT_END = -1, CLI_OPT_STOP = -2 };

/* The next option of argv (getopt_long, with opterr off): its character, for
 * the command's own switch; CLI_OPT_END when the options are over (optind is
 * the first operand); CLI_OPT_STOP when the command is done and returns
 * *status: its help or the version was printed (EXIT_OK), or the usage error
 * "option 'X' needs a value" or "unknown option 'X'" (EXIT_USAGE). */
int cli_opt(const cli_opts *o, int argc, char **argv, int *status);
/* The one FILE operand after the options, or NULL after the usage error
 * "missing FILE" or "expected one FILE, got N". */
const char *cli_file(const char *cmd, int argc, char **argv);

/* Output formats (--format); minimalloc: google/minimalloc's CSV
 * (id,lower,upper,size,offset); memory-viz: PyTorch's memory snapshot. */
enum { CLI_TEXT, CLI_JSON, CLI_CSV, CLI_MINIMALLOC, CLI_MEMVIZ, CLI_NFORMATS };
#define CLI_FORMATS_ALL ((1u << CLI_TEXT) | (1u << CLI_JSON) | (1u << CLI_CSV))
/* Looks --format NAME up among the formats of the mask (bits 1u << CLI_*):
 * CLI_*, or -1 after the usage error "unknown format 'NAME' (text, json or
 * csv)" naming the mask's formats. */
int cli_format(const char *cmd, const char *name, unsigned formats);

/* An output file (-o, --svg) or standard output. */
typedef struct cli_out {
    FILE *f;
    const char *path; /* NULL: standard output */
    const char *cmd;
    /* How a write error names standard output: "'standard output'", or,
     * set by the caller, the bare words that cli_main uses. */
    const char *stdout_name;
    atomic_out file; /* path's: a temporary file renamed over it when whole */
} cli_out;
/* Opens path for writing (NULL or "-": standard output; a file through
 * atomic_out, whole or absent) and clears errno: EXIT_OK, or EXIT_BAD after
 * "memtris CMD: cannot open 'PATH' for writing: ...". */
int cli_out_open(cli_out *o, const char *cmd, const char *path);
/* Ends the output: flushes standard output, or completes the file (renamed
 * over PATH). write_errno: a write that failed already (0: none). EXIT_OK,
 * or EXIT_BAD after "memtris CMD: error writing 'PATH': ..." with what was
 * written removed and an old PATH untouched. */
int cli_out_close(cli_out *o, int write_errno);
/* After a failure already said: closes the file and removes what was
 * written (an old PATH untouched). */
void cli_out_abandon(cli_out *o);
/* Checks an output path given to option OPT ("-o", "--svg") before any work,
 * so that an output that cannot be made stops the command before it reads
 * or writes anything: EXIT_OK for NULL, "-" or a path that can be opened;
 * EXIT_USAGE after "OPT needs a file name ('-' for standard output)" for "";
 * EXIT_BAD after "memtris CMD: cannot open 'PATH' for writing: ..." for a
 * folder, a missing or unwritable folder, or a file that cannot be written.
 * Call it after the usage checks (a usage error is said first). */
int cli_out_check(const char *cmd, const char *opt, const char *path);

/* ------------------------------------------------ the rest (cli.c) */

/* Loads path ("-" = stdin), printing warnings and errors to stderr; NULL on error. */
graph *cli_load(const char *path, int quiet_warnings);
/* cli_load, its messages kept in d (the caller's to diag_free): the TUI
 * shows the load's warnings too. */
graph *cli_load_diag(const char *path, int quiet_warnings, diag *d);
/* Prints "memtris VERSION" to stdout; returns EXIT_OK. */
int cli_version(void);
/* Looks a policy up, or prints a usage error for CMD naming the known ones. */
const policy *cli_policy(const char *cmd, const char *name);
/* Looks a placer up, or prints a usage error for CMD naming the known ones. */
const placer *cli_placer(const char *cmd, const char *name);
/* Prints the placers' names, comma-separated, to f. */
void cli_placer_list(FILE *f);
/* The largest --align: 2^30 (1 GiB). */
#define CLI_ALIGN_MAX ((int64_t)1 << 30)
/* Parses an --align value for CMD: a power of two from 1 to CLI_ALIGN_MAX.
 * 0, or -1 after printing a usage error. */
int cli_align(const char *cmd, const char *arg, int64_t *align);
/* Looks a replay backend up, or prints the usage error "unknown backend
 * 'NAME' (cuda, host)" for CMD. */
const struct replay_backend *cli_backend(const char *cmd, const char *name);
/* Looks a replay mode up: REPLAY_*, or -1 after the usage error "unknown mode
 * 'NAME' (raw, arena, pool, async)" for CMD. */
int cli_mode(const char *cmd, const char *name);
/* Places r's buffers with p and checks the plan (place_run_checked). 0, or
 * EXIT_BAD after saying why on stderr: "SOURCE: error: ..." when there is
 * no plan, "memtris CMD: internal error: placer P made an invalid plan for
 * SOURCE: ..." for a plan that fails the check (for SOURCE with policy POL
 * when pol is given). pl holds a plan only on 0. */
int cli_place(const char *cmd, const graph *g, const run *r, const policy *pol, const placer *p,
              int64_t align, const solve_ctx *c, placement *pl);
/* Prints to stderr as fprintf does, with the whole message made printable
 * (utf8_printable; its line breaks kept): every message memtris writes
 * there goes through it, so that no name, field or option value in it
 * reaches the terminal raw. */
void cli_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The progress line of long work (cli_progress.c), on stderr only when it
 * is a terminal: cli_progress draws "compare: policy 3 of 9 (best)" in
 * place of the last line (made printable, at most 78 columns), redrawn at
 * most ten times a second unless its words (digits aside) change;
 * cli_progress_clear removes it (cli_eprintf does first, as must any
 * command before it writes to standard output); cli_progress_sigclear is
 * the async-signal-safe clear for a handler ending the process. on: whether
 * stderr is a terminal. */
int cli_progress_on(void);
void cli_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_progress_clear(void);
void cli_progress_sigclear(void);
/* Prints "memtris CMD: msg\nTry 'memtris CMD --help' for more information." to stderr (as
 * cli_eprintf does); returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* ------------------------------------------ plans shown (cli_plan.c) */

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

/* ------------------------------------------ a command's work (cli_job.c) */

/* What load -> run -> place -> write commands make (schedule, plan, place,
 * replay, iterate; compare keeps its graph here): each step fills its part,
 * says on stderr why when it fails (EXIT_BAD, or cli_place's status), and
 * cli_job_free frees whatever was made. */
typedef struct cli_job {
    graph *g;
    problem *prob;     /* place: the CSV read (freed with the job); else NULL */
    const policy *pol; /* the policy run */
    run r;             /* has_run */
    timeline t;        /* has_time */
    const placer *pc;  /* has_plan: the placer, */
    placement pl;      /* its plan of r (zeroed until then) */
    lifetimes lt;      /* cli_job_plan: r's buffer lifetimes, */
    uint32_t *order;   /* and the buffers in BufId order */
    int has_run, has_time, has_plan;
} cli_job;
/* Zeroes j and loads path (cli_load): EXIT_OK or EXIT_BAD. */
int cli_job_load(cli_job *j, const char *path);
/* Runs policy p on the graph: EXIT_OK, or EXIT_BAD after "SOURCE: error: ...". */
int cli_job_run(cli_job *j, const policy *p, const solve_ctx *c);
/* Times the run on the graph's streams (cli_timeline). */
int cli_job_time(cli_job *j);
/* Places the run with pc, the plan checked (cli_place for CMD). */
int cli_job_place(cli_job *j, const char *cmd, const placer *pc, int64_t align, const solve_ctx *c);
/* The placed run as plan and place write it: lifetimes and BufId order made,
 * cp's fields but --rank-by's set (policy: the policy's name, NULL for
 * place's problem). */
int cli_job_plan(cli_job *j, cli_plan *cp);
void cli_job_free(cli_job *j);

/* ------------------------------------------ compare's result (cli_compare.c) */

#define CLI_MAX_POLICIES 16
#define CLI_MAX_PLACERS  32

/* What compare says of one policy's run besides the run itself. */
typedef struct compare_row {
    double makespan; /* ms, on the graph's streams */
    int is_base;     /* this run is fifo's, the baseline */
    /* peak / fifo's peak (1 when both are 0); none when fifo's is 0 and this one's is not */
    int has_vs_fifo;
    double vs_fifo;
    int has_vs_optimum; /* peak / the optimum, when one is proven */
    double vs_optimum;
    uint32_t diverges_at; /* the first step (from 1) where the order differs from fifo's; 0: none */
} compare_row;

/* compare's result: every policy's run of one graph, fifo's as the baseline,
 * the bound they are proven against and, with placers, each placer's arena
 * for each run; made by cmd_compare.c, written by the compare_* emitters. */
typedef struct compare_result {
    cli_job job; /* the graph */
    int n;       /* policies */
    const policy *pol[CLI_MAX_POLICIES];
    run runs[CLI_MAX_POLICIES]; /* the first n made */
    int nruns;
    compare_row row[CLI_MAX_POLICIES];
    const run *base; /* fifo's run: one of runs, or own */
    run own;         /* fifo's run when fifo is not listed (has_own) */
    int has_own;
    int all; /* --policies all: a given that refuses the graph is left out */
    int npl; /* placers */
    const placer *plc[CLI_MAX_PLACERS];
    int64_t align;
    int64_t *arena;                   /* [n * npl]: runs[i] placed by plc[j] at i * npl + j */
    int least_arena[CLI_MAX_PLACERS]; /* per placer, the run it places smallest (first on ties) */
    int least_peak;                   /* the run of least live peak (first on ties) */
    int64_t lower_bound;              /* no order peaks below it */
    int64_t optimum;                  /* the least peak, when a run reached the bound; else -1 */
} compare_result;

/* compare's text, JSON and CSV on standard output. */
void compare_text(const compare_result *c);
void compare_json(const compare_result *c);
void compare_csv(const compare_result *c);
/* Frees the runs, the arenas and the graph. */
void compare_free(compare_result *c);

/* ------------------------------------------ optimality (cli_proof.c) */

/* "  NAME       DESC", the description wrapped at 79 columns under itself: an entry of a
 * help's list (policies, budget solvers). */
void cli_help_entry(const char *name, const char *desc);

/* Long-only options of the commands that run exact's search. */
enum { CLI_OPT_TIME_LIMIT = 1000, CLI_OPT_MAX_STATES, CLI_OPT_MAX_MEMORY, CLI_OPT_CAPACITY };
#define CLI_MAX_STATES 1000000000ull
#define CLI_LIMIT_OPTIONS                                         \
    {"time-limit", required_argument, 0, CLI_OPT_TIME_LIMIT},     \
        {"max-states", required_argument, 0, CLI_OPT_MAX_STATES}, \
    {                                                             \
        "max-memory", required_argument, 0, CLI_OPT_MAX_MEMORY    \
    }
#define CLI_LIMIT_HELP                                                                   \
    "      --time-limit S  exact: stop after S seconds (default 10), the whole of its\n" \
    "                      solving (best's start, bound, search, answer) included;\n"    \
    "                      best: at most S seconds, when given\n"                        \
    "      --max-states N  exact: stop after keeping N states (default 4000000)\n"       \
    "      --max-memory SIZE exact: the memory its search may hold (default a\n"         \
    "                      quarter of the machine's, at most 2GiB); past a limit,\n"     \
    "                      or at Ctrl-C, the best answer found and the bound\n"
/* Long-only options of the commands that run the time-aware policies. */
enum { CLI_OPT_ALPHA = 1010, CLI_OPT_QUEUE_ORDER };
#define CLI_PARAM_OPTIONS                                        \
    {"alpha", required_argument, 0, CLI_OPT_ALPHA},              \
    {                                                            \
        "queue-order", required_argument, 0, CLI_OPT_QUEUE_ORDER \
    }
#define CLI_PARAM_HELP                                                                \
    "      --alpha A       weighted: the weight of memory against latency, 0 to 1\n"  \
    "                      (default 0.7; 1 is priority's order)\n"                    \
    "      --queue-order Q multiqueue: the queues served each round, a permutation\n" \
    "                      of compute,transfer,other (the default)\n"
/* Parses --alpha (opt CLI_OPT_ALPHA) or --queue-order into pp. 0, or -1 after
 * a usage error for CMD. */
int cli_param(const char *cmd, int opt, const char *arg, solve_ctx *pp);
/* A placement search's end as JSON and text say it: "finished", "limit",
 * "cancelled" or "too large" (place_search.stopped). */
const char *cli_place_stop_word(solve_stop stopped);
/* Parses --time-limit (opt CLI_OPT_TIME_LIMIT), --max-states or --max-memory into l. 0, or
 * -1 after a usage error for CMD. */
int cli_limit(const char *cmd, int opt, const char *arg, solve_ctx *l);
/* Around a search (cli_sigint.c): begin returns c with the CLI's watcher
 * (when c has none) and lets the first SIGINT stop the search instead of
 * the process; end says on stderr, once, when a SIGINT did, and when the
 * search failed (failed nonzero: no answer to go on with) after a SIGINT
 * stopped it, ends the process as that SIGINT would have. */
solve_ctx cli_search_begin(const solve_ctx *c);
void cli_search_end(int failed);
/* From now on, once a SIGINT has stopped a search, the next SIGINT ends the
 * process even in a later search: for a command of many searches (compare),
 * which a second Ctrl-C then ends. */
void cli_search_sticky(void);
/* Parses --capacity SIZE (bytes, or with a unit: 1MiB) into l->capacity.
 * 0, or -1 after a usage error for CMD. */
int cli_capacity(const char *cmd, const char *arg, solve_ctx *l);
/* Prints "Policies:" and each policy's name and description (from the
 * table) to stdout: the end of the --help of the commands that take one. */
void cli_policy_help(void);
/* The live bytes at r's peak by Category (cli_bycat.c), only when g has Categories: text, one
 * line after lead ("at the peak:"), biggest first, "other" for untagged buffers; JSON, the key
 * "peak_by_category": {"CATEGORY": bytes, ...} in the same order. */
void cli_bycat_text(FILE *f, const char *lead, const graph *g, const run *r);
void cli_bycat_json(jw *w, const graph *g, const run *r);
/* Proves each of the n runs of g against the best bound known (policy's
 * lower bound, and any a run found); returns that bound. */
int64_t cli_prove(const graph *g, run *runs, int n);
/* Why exact's search stopped, as schedule's JSON says it: "done", "time" or
 * "states" (run.search.stopped). */
const char *cli_search_stop_word(const run *r);
/* "search: 1234 states, 2 of 3 pieces searched to the end (stopped at the
 * time limit)" for exact's run. Returns out. */
const char *cli_search_words(const run *r, char *out, size_t cap);

/* ------------------------------------------ timelines (cli_time.c) */

/* Times r's order on g (timeline_run): EXIT_OK, or EXIT_BAD after
 * "SOURCE: error: ..." on stderr. */
int cli_timeline(const graph *g, const run *r, timeline *t);
/* A time in ms as CSV and JSON write it (12 significant digits). */
void cli_csv_ms(FILE *f, double ms);
void cli_jw_ms(jw *w, double ms);
/* The members "makespan": MS, "critical_path": MS, "makespan_bound": MS,
 * "stream_busy": [MS per stream]. */
void cli_time_json(jw *w, const timeline *t);
/* "makespan 12.3 ms on 2 streams (busy: 0 10.0 ms, 1 2.30 ms); no order
 * finishes before 11.0 ms (critical path 10.2 ms)" (the streams that run
 * something), or "makespan 0 ms: no node has a Latency" (or "every Latency
 * is 0"), and a newline. */
void cli_time_text(FILE *f, const graph *g, const timeline *t);

/* compare --pareto on g: every policy but exact (exact too with with_exact,
 * under c's limits), weighted at alpha 0, 0.1, ..., 1, the front marked over
 * all the points; the points in FORMAT (CLI_TEXT, CLI_JSON, CLI_CSV) on
 * standard output, and the SVG to svg (NULL: none; "-": standard output,
 * instead of the points), written first: when it fails, standard output
 * stays empty. EXIT_OK or EXIT_BAD after a message. */
int cli_pareto(const graph *g, const solve_ctx *c, int with_exact, int format, const char *svg);

/* ------------------------------------------ pools (cli_pool.c) */

/* Long-only options of the pool simulation: iterate, and view's I. */
enum { CLI_OPT_ITERATIONS = 1100, CLI_OPT_SCALE, CLI_OPT_SEED };
#define CLI_POOL_OPTIONS                                      \
    {"iterations", required_argument, 0, CLI_OPT_ITERATIONS}, \
        {"scale", required_argument, 0, CLI_OPT_SCALE},       \
    {                                                         \
        "seed", required_argument, 0, CLI_OPT_SEED            \
    }
#define CLI_POOL_HELP                                                                    \
    "      --iterations N  iterations of the schedule (default 100, at most 10000000)\n" \
    "      --scale MIN:MAX each iteration scales every buffer by a factor drawn\n"       \
    "                      uniformly in [MIN, MAX) (default 0.25:1; 0 < MIN <= MAX)\n"   \
    "      --seed S        the factors' seed (default 1): same seed, same factors\n"
/* iterate's defaults (defaults.h). */
void cli_pool_defaults(pool_params *pp);
/* Parses --iterations, --scale or --seed (opt CLI_OPT_*) into pp. 0, or -1
 * after a usage error for CMD naming the option. */
int cli_pool_opt(const char *cmd, int opt, const char *arg, pool_params *pp);

/* Prints a string as a CSV field (quoted when needed). */
void cli_csv_field(FILE *f, const char *s);

/* The whole command line (cli_main.c): dispatches argv to a subcommand and
 * returns the exit status; never calls exit(). argv[0] is the program. */
int cli_main(int argc, char **argv);

int cmd_schedule(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_budget(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_lesson(int argc, char **argv);
struct lesson;
/* memtris lesson's input: the built-in lesson called arg, or the lesson file
 * arg, parsed into ls (lesson_free it either way), with its graph loaded and
 * checked against it: the graph, or NULL after the errors (FILE:LINE:COLUMN)
 * on stderr. source gets the name the messages give the lesson. */
graph *cli_lesson_open(const char *arg, struct lesson *ls, char *source, size_t cap);
int cmd_plan(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_place(int argc, char **argv);
int cmd_iterate(int argc, char **argv);

#endif
