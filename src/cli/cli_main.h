/* cli_main.h: the whole command line (cli_main.c), for main.c and the fuzzers. Exports
 * cli_main. */
#ifndef MEMTRIS_CLI_MAIN_H
#define MEMTRIS_CLI_MAIN_H

/* The whole command line (cli_main.c): dispatches argv to a subcommand and
 * returns the exit status; never calls exit(). argv[0] is the program. */
int cli_main(int argc, char **argv);

#endif
