/* cli_opts.h: the options every command shares (cli_opts.c): a command's own options parsed
 * with -h/--help and -V/--version beside them, the one FILE operand, --format, the output files
 * (-o, --svg) written whole or not at all. Exports cli_opt, cli_file, cli_format, cli_out_*. */
#ifndef MEMTRIS_CLI_OPTS_H
#define MEMTRIS_CLI_OPTS_H
#include <getopt.h>
#include <stdio.h>
#include "util/atomic_out.h"

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

#endif
