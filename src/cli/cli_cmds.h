/* cli_cmds.h: the subcommands' entry points, one a cmd_NAME.c, which cli_main.c's commands[]
 * dispatches to. Exports cmd_*. */
#ifndef MEMTRIS_CLI_CMDS_H
#define MEMTRIS_CLI_CMDS_H

/* memtris NAME ARGS (argv[0] is NAME): returns the exit status (EXIT_*). */
int cmd_schedule(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_budget(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_lesson(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_place(int argc, char **argv);
int cmd_iterate(int argc, char **argv);

#endif
