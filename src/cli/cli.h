/* cli.h: what the subcommands share beyond their options (cli.c): the exit statuses, loading a
 * graph with diagnostics on stderr, name lookups with their usage errors, placing with the plan
 * checked, the messages on stderr, made printable, and CSV fields. Exports EXIT_*, cli_load,
 * cli_load_diag, cli_version, cli_policy, cli_placer, cli_placer_list, cli_align, cli_backend,
 * cli_mode, cli_place, cli_eprintf, cli_usage_error, cli_csv_field. */
#ifndef MEMTRIS_CLI_H
#define MEMTRIS_CLI_H
#include <stdint.h>
#include <stdio.h>
#include "sched/graph/diag.h"
#include "sched/graph/graph.h"
#include "sched/place/place.h"
#include "sched/policy/policy.h"

struct replay_backend;

/* Exit statuses. */
enum { EXIT_OK = 0, EXIT_BAD = 1, EXIT_USAGE = 2 };

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
/* Prints "memtris CMD: msg\nTry 'memtris CMD --help' for more information." to stderr (as
 * cli_eprintf does); returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints a string as a CSV field (quoted when needed). */
void cli_csv_field(FILE *f, const char *s);

#endif
