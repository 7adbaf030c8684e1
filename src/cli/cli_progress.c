/* cli_progress.c: the one progress line of long work ("compare: policy 3 of
 * 9 (best)", "iterate: iteration 120 of 10000 (1%), about 25 s left") on
 * stderr, only when stderr is a terminal: redrawn in place ("\r" ... "ESC[K"),
 * at most ten times a second but at once when its words (the digits
 * aside) change, and cleared before any
 * message (cli_eprintf) and when the work is done, so that no output is left
 * mixed with it. It fits one line of the terminal: a file's path is shortened
 * from the left ("loading …/samples/demo.json: 12%"), so that its name and
 * the figures after it stay whole. Exports cli_progress*. */
#define _GNU_SOURCE
#include "cli_progress.h"
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "util/clock.h"
#include "util/utf8.h"

static int tty = -1;                /* stderr is a terminal; -1: not asked yet */
static volatile sig_atomic_t shown; /* a line is on the terminal now */
static double last = -1;            /* when it was drawn */
static char stage[4096];            /* its words but the digits: a new stage is drawn at once */
#define PROGRESS_INTERVAL 0.1       /* seconds between redraws of one stage */
#define PROGRESS_COLUMNS  80        /* the terminal's width when it does not say */
#define PROGRESS_MAX      4096      /* bytes of a part of the line, made printable */

int cli_progress_on(void)
{
    if (tty < 0) tty = isatty(STDERR_FILENO) == 1;
    return tty;
}

/* The columns the line may take: the terminal's width less one (a line that
 * filled it would wrap on some terminals). */
static int line_columns(void)
{
    struct winsize ws;
    int cols =
        ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : PROGRESS_COLUMNS;
    return cols > 1 ? cols - 1 : 1;
}

/* "\u2026" where the locale is UTF-8 (as the TUI decides), "..." otherwise. */
static const char *ellipsis(void)
{
    const char *v = getenv("LC_ALL");
    if (!v || !*v) v = getenv("LC_CTYPE");
    if (!v || !*v) v = getenv("LANG");
    return v && (strcasestr(v, "UTF-8") || strcasestr(v, "UTF8")) ? "\xe2\x80\xa6" : "...";
}

/* path made printable into out (cap bytes), in at most room columns where it
 * is longer: shortened from the left to an ellipsis and its last characters
 * (never an escape \xNN cut); the ellipsis alone where the room is too
 * small for it and one character. */
static void fit_path(const char *path, int room, char *out, size_t cap)
{
    utf8_printable(path, out, cap);
    const char *ell = ellipsis();
    int ellw = utf8_count(ell), width = utf8_count(out);
    if (width <= room) return;
    if (room < ellw + 1) room = ellw;
    /* from the end, the characters whose printable forms fit beside the ellipsis */
    const char *from = path + strlen(path);
    for (int used = 0; from > path;) {
        const char *c = from - 1;
        uint32_t cp;
        while (c > path && ((unsigned char)*c & 0xc0) == 0x80 && from - c < 4) c--;
        if (utf8_decode(c, from, &cp) != from - c) c = from - 1; /* one byte, \xNN */
        char one[64];
        int w = utf8_count(utf8_printable_n(c, (size_t)(from - c), one, sizeof one));
        if (used + w > room - ellw) break;
        used += w;
        from = c;
    }
    size_t n = strlen(ell);
    memcpy(out, ell, n);
    utf8_printable(from, out + n, cap - n);
}

/* line cut to at most cols characters (bytes that start one): its last
 * fields dropped (what follows ", ", ": " or starts " ("), or where it has
 * none its last words, so that no figure or word is cut. */
static void cut_line(char *line, int cols)
{
    size_t n = 0, field = 0, space = 0;
    int chars = 0;
    for (; line[n]; n++) {
        if (((unsigned char)line[n] & 0xc0) == 0x80) continue;
        if (line[n] == ' ' && n) {
            space = n;
            if (line[n - 1] == ',' || line[n - 1] == ':') field = n - 1;
            else if (line[n + 1] == '(') field = n;
        }
        if (++chars > cols) break;
    }
    if (!line[n]) return;
    line[field ? field : space ? space : n] = 0;
}

/* Draws head, path (shortened to fit, when given) and fmt's text as one line. */
__attribute__((format(printf, 3, 0))) static void draw(const char *head, const char *path,
                                                       const char *fmt, va_list ap)
{
    char tail[PROGRESS_MAX], raw[PROGRESS_MAX], words[PROGRESS_MAX];
    vsnprintf(tail, sizeof tail, fmt, ap);
    snprintf(raw, sizeof raw, "%s%s%s", head, path ? path : "", tail);
    /* the stage: the words, its digits left out */
    size_t k = 0;
    for (const char *c = raw; *c; c++)
        if (*c < '0' || *c > '9') words[k++] = *c;
    words[k] = 0;
    double now = clock_seconds();
    int same = shown && !strcmp(stage, words);
    if (same && now - last < PROGRESS_INTERVAL) return;
    snprintf(stage, sizeof stage, "%s", words);
    last = now;
    char h[PROGRESS_MAX], p[PROGRESS_MAX] = "", t[PROGRESS_MAX], line[3 * PROGRESS_MAX];
    utf8_printable(head, h, sizeof h);
    utf8_printable(tail, t, sizeof t);
    int cols = line_columns();
    if (path) fit_path(path, cols - utf8_count(h) - utf8_count(t), p, sizeof p);
    snprintf(line, sizeof line, "%s%s%s", h, p, t);
    cut_line(line, cols);
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
    shown = 1;
}

void cli_progress(const char *fmt, ...)
{
    if (!cli_progress_on()) return;
    va_list ap;
    va_start(ap, fmt);
    draw("", NULL, fmt, ap);
    va_end(ap);
}

void cli_progress_path(const char *head, const char *path, const char *fmt, ...)
{
    if (!cli_progress_on()) return;
    va_list ap;
    va_start(ap, fmt);
    draw(head, path, fmt, ap);
    va_end(ap);
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
