/* ui.h: the terminal front end (ui_curses.c). Exports ui_run and
 * ui_check_terminal. */
#ifndef MEMTRIS_UI_H
#define MEMTRIS_UI_H
#include <stddef.h>
#include "app.h"

/* 0 if standard input and output are a usable terminal; else -1 and why. */
int ui_check_terminal(char *why, size_t cap);
/* Runs the TUI until the user quits; returns the exit status. */
int ui_run(app *a);

#endif
