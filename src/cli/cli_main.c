/* cli_main.c: the table of commands, which drives the dispatch and memtris --help;
 * callable in-process (main.c calls it; tests/fuzz/fuzz_cli.c once per input).
 * Exports cli_main. */
#include "cli_main.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "cli_cmds.h"

/* The subcommands: dispatch and memtris --help's list. A new command is one
 * cmd_NAME.c and one line here (and its entry under COMMANDS in
 * man/memtris.1: tests/test_cli.sh checks that both list the same). */
typedef struct cli_command {
    const char *name;
    const char *operand;               /* in the list: "FILE", "[FILE]", "KIND" */
    const char *summary;               /* in the list; '\n' goes on in the column below */
    int (*run)(int argc, char **argv); /* argv[0] is the command's name */
} cli_command;

static const cli_command commands[] = {
    {"view", "[FILE]", "the terminal UI (see 'memtris view --help' for its options)", cmd_view},
    {"schedule", "FILE", "run one policy and print the order and the memory after\neach step",
     cmd_schedule},
    {"compare", "FILE",
     "compare the peak memory and makespan of several policies\n"
     "(with --placers, the arena each placer needs; with --pareto,\n"
     "the memory/time trade-off and its Pareto front)",
     cmd_compare},
    {"plan", "FILE",
     "place every buffer in one arena with a placer: the arena,\n"
     "the lower bound, each buffer's offset; --svg draws it",
     cmd_plan},
    {"place", "CSV",
     "place a MiniMalloc CSV problem (id,lower,upper,size) with a\n"
     "placer and write it back with each buffer's offset",
     cmd_place},
    {"replay", "FILE",
     "run the schedule for real on a GPU (cuda) or the host and\n"
     "print the memory measured after each step next to the\n"
     "predicted live bytes",
     cmd_replay},
    {"iterate", "FILE",
     "run the schedule for many iterations with buffers scaled by\n"
     "seeded factors and compare the static, size-class and\n"
     "elastic pools (--backend: for real)",
     cmd_iterate},
    {"budget", "FILE",
     "fit the graph into a memory budget (--budget SIZE or N%) by\n"
     "recomputing or offloading buffers: the plan, its extra time",
     cmd_budget},
    {"whatif", "FILE",
     "a training graph's peak and time under checkpointing,\n"
     "mixed precision, gradient accumulation and fusion, beside\n"
     "the savings claimed for them",
     cmd_whatif},
    {"validate", "FILE", "check a graph and summarize it", cmd_validate},
    {"lesson", "[FILE]",
     "a guided tour of the terminal UI: a built-in lesson\n"
     "(by NAME, see --list) or a lesson FILE a teacher writes",
     cmd_lesson},
    {"gen", "KIND",
     "write a synthetic graph (chain, branch, alloc-heavy, huge,\n"
     "random, randwire, train) of --nodes N with --seed S, or a\n"
     "placement problem of known optimum (packing)",
     cmd_gen},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const char usage_head[] =
    "Usage: memtris [view] [FILE] [OPTION]...\n"
    "       memtris COMMAND [OPTION]... FILE\n"
    "Visualize and compare memory-aware schedules of computation graphs.\n"
    "Without a command, memtris opens the terminal UI on FILE, or on a built-in\n"
    "demo graph when no FILE is given.\n"
    "\n"
    "Commands:\n";

static const char usage_tail[] =
    "\n"
    "FILE is a JSON graph ({\"Nodes\": [...], \"Edges\": [...]}); '-' reads standard input.\n"
    "Each command takes --help. See memtris(1) for the graph format.\n"
    "\n"
    "Options:\n"
    "  -h, --help      show this help and exit\n"
    "  -V, --version   show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n";

static void usage(void)
{
    fputs(usage_head, stdout);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        char left[32];
        snprintf(left, sizeof left, "%s %s", commands[i].name, commands[i].operand);
        printf("  %-15s ", left);
        for (const char *s = commands[i].summary; *s; s++) {
            putchar(*s);
            if (*s == '\n') printf("%18s", "");
        }
        putchar('\n');
    }
    fputs(usage_tail, stdout);
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) return cmd_view(argc, argv);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
        usage();
        return EXIT_OK;
    }
    if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) return cli_version();
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(cmd, commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    /* "memtris FILE" and "memtris --ascii" open the UI too. */
    struct stat st;
    if (cmd[0] == '-' || stat(cmd, &st) == 0) return cmd_view(argc, argv);
    cli_eprintf("memtris: '%s' is neither a command nor a file\n"
                "Try 'memtris --help' for more information.\n",
                cmd);
    return EXIT_USAGE;
}

int cli_main(int argc, char **argv)
{
    int status = dispatch(argc, argv);
    /* Output that could not be written (a full disk, a closed pipe, --help
     * > /dev/full) is a failure, said once here for every command; a
     * command that failed has said why already. */
    errno = 0;
    if (status == EXIT_OK && (fflush(stdout) == EOF || ferror(stdout))) {
        const char *cmd = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
        cli_eprintf("memtris%s%s: error writing standard output: %s\n", cmd ? " " : "",
                    cmd ? cmd : "", strerror(errno ? errno : EIO));
        status = EXIT_BAD;
    }
    return status;
}
