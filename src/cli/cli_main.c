/* cli_main.c: the command line's dispatch to a subcommand, callable in-process
 * (main.c calls it; tests/fuzz/fuzz_cli.c calls it once per input). Exports
 * cli_main. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"

static const char usage_text[] =
    "Usage: memtris [view] [FILE] [OPTION]...\n"
    "       memtris COMMAND [OPTION]... FILE\n"
    "Visualize and compare memory-aware schedules of computation graphs.\n"
    "Without a command, memtris opens the terminal UI on FILE, or on a built-in\n"
    "demo graph when no FILE is given.\n"
    "\n"
    "Commands:\n"
    "  view [FILE]     the terminal UI (see 'memtris view --help' for its options)\n"
    "  schedule FILE   run one policy and print the order and the memory after each step\n"
    "  compare FILE    compare the peak memory of several policies (and, with\n"
    "                  --placers, the arena each placer needs)\n"
    "  plan FILE       place every buffer in one arena with a placer: the arena,\n"
    "                  the lower bound, each buffer's offset; --svg draws it\n"
    "  replay FILE     run the schedule for real on a GPU (cuda) or the host and\n"
    "                  print the memory measured after each step next to the\n"
    "                  predicted live bytes\n"
    "  validate FILE   check a graph and summarize it\n"
    "  gen KIND        write a synthetic graph (chain, branch, alloc-heavy, huge,\n"
    "                  random, randwire) of --nodes N with --seed S\n"
    "\n"
    "FILE is a JSON graph ({\"Nodes\": [...], \"Edges\": [...]}); '-' reads standard input.\n"
    "Each command takes --help. See memtris(1) for the graph format.\n"
    "\n"
    "Options:\n"
    "  -h, --help      show this help and exit\n"
    "  -V, --version   show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n";

static int dispatch(int argc, char **argv)
{
    if (argc < 2) return cmd_view(argc, argv);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) { fputs(usage_text, stdout); return EXIT_OK; }
    if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) return cli_version();
    if (!strcmp(cmd, "schedule")) return cmd_schedule(argc - 1, argv + 1);
    if (!strcmp(cmd, "compare")) return cmd_compare(argc - 1, argv + 1);
    if (!strcmp(cmd, "validate")) return cmd_validate(argc - 1, argv + 1);
    if (!strcmp(cmd, "view")) return cmd_view(argc - 1, argv + 1);
    if (!strcmp(cmd, "gen")) return cmd_gen(argc - 1, argv + 1);
    if (!strcmp(cmd, "plan")) return cmd_plan(argc - 1, argv + 1);
    if (!strcmp(cmd, "replay")) return cmd_replay(argc - 1, argv + 1);
    /* "memtris FILE" and "memtris --ascii" open the UI too. */
    struct stat st;
    if (cmd[0] == '-' || stat(cmd, &st) == 0) return cmd_view(argc, argv);
    fprintf(stderr, "memtris: '%s' is neither a command nor a file\nTry 'memtris --help'.\n", cmd);
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
        fprintf(stderr, "memtris%s%s: error writing standard output: %s\n", cmd ? " " : "", cmd ? cmd : "",
                strerror(errno ? errno : EIO));
        status = EXIT_BAD;
    }
    return status;
}
