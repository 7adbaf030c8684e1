/* cli_compare.h: compare's result, made by cmd_compare.c and written by its emitters
 * (cli_compare.c), and compare --pareto (cmd_pareto.c). Exports compare_row, compare_result,
 * compare_*, cli_pareto. */
#ifndef MEMTRIS_CLI_COMPARE_H
#define MEMTRIS_CLI_COMPARE_H
#include <stdint.h>
#include "cli_job.h"
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/policy/policy.h"

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

/* compare --pareto on g: every policy but exact (exact too with with_exact,
 * under c's limits), weighted at alpha 0, 0.1, ..., 1, the front marked over
 * all the points; the points in FORMAT (CLI_TEXT, CLI_JSON, CLI_CSV) on
 * standard output, and the SVG to svg (NULL: none; "-": standard output,
 * instead of the points), written first: when it fails, standard output
 * stays empty. EXIT_OK or EXIT_BAD after a message. */
int cli_pareto(const graph *g, const solve_ctx *c, int with_exact, int format, const char *svg);

#endif
