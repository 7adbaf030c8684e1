/* cmd_replay.c: PLACEHOLDER being written. */
#include "cli.h"
int cmd_replay(int argc, char **argv) { (void)argc; (void)argv; return EXIT_USAGE; }
