/* cli.h: what the subcommands share: loading a graph with diagnostics on
 * stderr, policy lists, and the subcommand entry points. */
#ifndef MEMTRIS_CLI_H
#define MEMTRIS_CLI_H
#include <stdio.h>
#include "sched/graph.h"
#include "sched/place.h"
#include "sched/policy.h"

/* Exit statuses. */
enum { EXIT_OK = 0, EXIT_BAD = 1, EXIT_USAGE = 2 };

/* Loads path ("-" = stdin), printing warnings and errors to stderr; NULL on error. */
graph *cli_load(const char *path, int quiet_warnings);
/* Prints "memtris VERSION" to stdout; returns EXIT_OK. */
int cli_version(void);
/* Looks a policy up, or prints an error naming the known ones. */
const policy *cli_policy(const char *name);
/* Looks a placer up, or prints a usage error for CMD naming the known ones. */
const placer *cli_placer(const char *cmd, const char *name);
/* Prints the placers' names, comma-separated, to f. */
void cli_placer_list(FILE *f);
/* The largest --align: 2^30 (1 GiB). */
#define CLI_ALIGN_MAX ((int64_t)1 << 30)
/* Parses an --align value for CMD: a power of two from 1 to CLI_ALIGN_MAX.
 * 0, or -1 after printing a usage error. */
int cli_align(const char *cmd, const char *arg, int64_t *align);
/* Prints "memtris CMD: msg\nTry 'memtris CMD --help'." to stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Removes a partly written output file after a write error: only a regular
 * file (never /dev/full, a fifo or a device). */
void cli_remove_partial(const char *path);
/* Prints a string as a CSV field (quoted when needed). */
void cli_csv_field(FILE *f, const char *s);

/* The whole command line (cli_main.c): dispatches argv to a subcommand and
 * returns the exit status; never calls exit(). argv[0] is the program. */
int cli_main(int argc, char **argv);

int cmd_schedule(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_replay(int argc, char **argv);

#endif
