/* cli_progress.h: the one progress line of long work on a terminal's stderr (cli_progress.c).
 * Exports cli_progress_*, cli_progress. */
#ifndef MEMTRIS_CLI_PROGRESS_H
#define MEMTRIS_CLI_PROGRESS_H

/* The progress line of long work (cli_progress.c), on stderr only when it
 * is a terminal: cli_progress draws "compare: policy 3 of 9 (best)" in
 * place of the last line (made printable, in the terminal's width less one
 * column, cut at a space where longer), redrawn at most ten times a second
 * unless its words (digits aside) change; cli_progress_path draws head,
 * path and the formatted rest ("loading ", path, ": %zu%%"), the path
 * shortened from the left to fit ("loading …/samples/demo.json: 12%");
 * cli_progress_clear removes it (cli_eprintf does first, as must any
 * command before it writes to standard output); cli_progress_sigclear is
 * the async-signal-safe clear for a handler ending the process. on: whether
 * stderr is a terminal. */
int cli_progress_on(void);
void cli_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_progress_path(const char *head, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cli_progress_clear(void);
void cli_progress_sigclear(void);

#endif
