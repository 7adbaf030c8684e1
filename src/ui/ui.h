/* ui.h: the terminal front end (ui_curses.c). Exports ui_run, ui_signal,
 * ui_check_terminal and ui_draws_utf8. */
#ifndef MEMTRIS_UI_H
#define MEMTRIS_UI_H
#include <stddef.h>
#include "app.h"

/* 0 if standard input and output are a usable terminal; else -1 and why. */
int ui_check_terminal(char *why, size_t cap);
/* 1 if the TUI draws with UTF-8 (braille, box drawing), 0 for ASCII only:
 * not when asked for ASCII, nor in a locale that is not UTF-8 (call it after
 * setlocale), nor under a TERM that cannot draw braille (style_utf8). */
int ui_draws_utf8(int ascii);
/* Runs the TUI until the user quits; returns the exit status: 0, 1 when
 * the terminal went away or memory ran out (said on stderr once the
 * terminal is back), 128 + the signal after SIGINT, SIGTERM or SIGHUP. */
int ui_run(app *a);
/* The stop signal that ended ui_run, or 0. */
int ui_signal(void);

#endif
