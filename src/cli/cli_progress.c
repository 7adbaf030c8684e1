/* cli_progress.c: the one progress line of long work ("compare: policy 3 of
 * 9 (best)", "iterate: iteration 120 of 10000 (1%), about 25 s left") on
 * stderr, only when stderr is a terminal: redrawn in place ("\r" ... "ESC[K"),
 * at most ten times a second but at once when its words (the digits
 * aside) change, and cleared before any
 * message (cli_eprintf) and when the work is done, so that no output is left
 * mixed with it. Exports cli_progress*. */
#define _GNU_SOURCE
#include "cli_progress.h"
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "util/clock.h"
#include "util/utf8.h"

static int tty = -1;                /* stderr is a terminal; -1: not asked yet */
static volatile sig_atomic_t shown; /* a line is on the terminal now */
static double last = -1;            /* when it was drawn */
static char stage[256];             /* its words but the digits: a new stage is drawn at once */
#define PROGRESS_INTERVAL 0.1       /* seconds between redraws of one stage */
#define PROGRESS_WIDTH    78        /* the columns it takes at most */

int cli_progress_on(void)
{
    if (tty < 0) tty = isatty(STDERR_FILENO) == 1;
    return tty;
}

void cli_progress(const char *fmt, ...)
{
    if (!cli_progress_on()) return;
    char raw[256], line[PROGRESS_WIDTH * 4 + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* the stage: the words, its digits left out */
    char words[sizeof raw];
    size_t k = 0;
    for (const char *c = raw; *c; c++)
        if (*c < '0' || *c > '9') words[k++] = *c;
    words[k] = 0;
    double now = clock_seconds();
    int same = shown && !strcmp(stage, words);
    if (same && now - last < PROGRESS_INTERVAL) return;
    memcpy(stage, words, k + 1);
    last = now;
    utf8_printable(raw, line, sizeof line);
    /* at most PROGRESS_WIDTH characters (bytes that start one) */
    size_t n = 0, chars = 0;
    for (; line[n]; n++)
        if (((unsigned char)line[n] & 0xc0) != 0x80 && ++chars > PROGRESS_WIDTH) break;
    line[n] = 0;
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
    shown = 1;
}

void cli_progress_clear(void)
{
    if (!shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    shown = 0;
    stage[0] = 0;
}

void cli_progress_sigclear(void)
{
    if (shown) {
        ssize_t w = write(STDERR_FILENO, "\r\033[K", 4);
        (void)w;
        shown = 0;
    }
}
