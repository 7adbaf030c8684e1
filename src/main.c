/* main.c: memtris's entry point; dispatches to a subcommand. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

#ifndef MEMTRIS_VERSION
#define MEMTRIS_VERSION "unknown"
#endif

static const char usage_text[] =
    "Usage: memtris COMMAND [OPTION]... FILE\n"
    "Visualize and compare memory-aware schedules of computation graphs.\n"
    "\n"
    "Commands:\n"
    "  schedule FILE   run one policy and print the order and the memory after each step\n"
    "  compare FILE    compare the peak memory of several policies\n"
    "  validate FILE   check a graph and summarize it\n"
    "\n"
    "FILE is a JSON graph ({\"Nodes\": [...], \"Edges\": [...]}); '-' reads standard input.\n"
    "Each command takes --help. See memtris(1) for the graph format.\n"
    "\n"
    "Options:\n"
    "  -h, --help      show this help and exit\n"
    "  -V, --version   show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 bad input or failure, 2 usage error.\n";

int main(int argc, char **argv)
{
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (argc < 2) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) { fputs(usage_text, stdout); return EXIT_OK; }
    if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
        printf("memtris %s\n", MEMTRIS_VERSION);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "schedule")) return cmd_schedule(argc - 1, argv + 1);
    if (!strcmp(cmd, "compare")) return cmd_compare(argc - 1, argv + 1);
    if (!strcmp(cmd, "validate")) return cmd_validate(argc - 1, argv + 1);
    fprintf(stderr, "memtris: unknown command '%s'\nTry 'memtris --help'.\n", cmd);
    return EXIT_USAGE;
}
