/* ui_curses.c: the one file that talks to ncurses: terminal setup and restore
 * (every exit path, signals too), keys and mouse into the app, acting on its
 * reactions, the canvas onto the screen. Exports ui_run, ui_signal, ui_check_terminal,
 * ui_draws_utf8. */
#define _XOPEN_SOURCE_EXTENDED 1
#define _GNU_SOURCE
#include "ui.h"
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "style.h"
#include "util/utf8.h"
#include "view.h"

static volatile sig_atomic_t got_signal;
static int curses_on;

/* The signals that end the UI cleanly (the loop sees them within one
 * timeout) and those that mean a crash (the terminal is given back in the
 * handler, then the signal goes on to whoever handled it before: the
 * default action, or a sanitizer's report). */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
static const int crash_signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
#define NCRASH (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction crash_prev[NCRASH];

static void restore_terminal(void)
{
    if (curses_on && !isendwin()) endwin();
    curses_on = 0;
}

static void on_stop_signal(int sig) { got_signal = sig; }

static void on_crash(int sig)
{
    restore_terminal(); /* as htop does: leave a usable terminal behind */
    for (size_t i = 0; i < NCRASH; i++)
        if (crash_signals[i] == sig) sigaction(sig, &crash_prev[i], NULL);
    /* Delivered when this handler returns (a fault repeats its instruction). */
    raise(sig);
}

static void install_handlers(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_stop_signal;
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++) {
        /* A hangup that was ignored when memtris started (nohup) stays ignored. */
        if (stop_signals[i] == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 &&
            old.sa_handler == SIG_IGN)
            continue;
        sigaction(stop_signals[i], &sa, NULL);
    }
    sa.sa_handler = on_crash;
    sa.sa_flags = (int)(SA_NODEFER | SA_RESETHAND);
    for (size_t i = 0; i < NCRASH; i++) sigaction(crash_signals[i], &sa, &crash_prev[i]);
}

static void remove_handlers(void)
{
    for (size_t i = 0; i < NCRASH; i++) sigaction(crash_signals[i], &crash_prev[i], NULL);
}

int ui_signal(void) { return got_signal; }

/* A positive whole number in the environment variable, as ncurses takes LINES
 * and COLUMNS; else 0. */
static int env_size(const char *name)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s) return 0;
    long v = strtol(s, &end, 10);
    return *end || v <= 0 || v > 0x7fff ? 0 : (int)v;
}

/* A resize between newterm's reading of the size and its SIGWINCH handler
 * going in sends a signal no one hears: the screen would be drawn at the old
 * size until the next resize. Once the handler is in, the size is read again;
 * LINES and COLUMNS in the environment still fix their own dimension, as they
 * do for ncurses. */
static void catch_up_size(void)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return;
    int rows = env_size("LINES"), cols = env_size("COLUMNS");
    if (!rows) rows = ws.ws_row;
    if (!cols) cols = ws.ws_col;
    if (rows != LINES || cols != COLS) resizeterm(rows, cols);
}

/* 1 when the terminal has gone away (closed, hung up): reads and writes
 * would fail from now on, and the UI must end instead of spinning. */
static int terminal_gone(int in_fd, int out_fd)
{
    struct pollfd p[2] = {{in_fd, POLLIN, 0}, {out_fd, POLLOUT, 0}};
    int n;
    do n = poll(p, 2, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0) return 0;
    return ((p[0].revents | p[1].revents) & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

static attr_t attrs_of(int a)
{
    attr_t r = A_NORMAL;
    if (a & SA_BOLD) r |= A_BOLD;
    if (a & SA_REVERSE) r |= A_REVERSE;
    if (a & SA_UNDERLINE) r |= A_UNDERLINE;
    if (a & SA_DIM) r |= A_DIM;
    return r;
}

static void setup_colors(int mono)
{
    if (mono) return;
    start_color();
    use_default_colors();
    for (int s = 0; s < ST_COUNT; s++) {
        const style_look *l = style_look_of(s, 0);
        init_pair((short)(s + 1), l->fg, l->bg);
    }
}

static void blit(const canvas *cv, int mono)
{
    for (int y = 0; y < cv->h; y++)
        for (int x = 0; x < cv->w; x++) {
            const cell *c = &cv->c[y * cv->w + x];
            const style_look *l = style_look_of(c->style, mono);
            wchar_t wc[2] = {(wchar_t)c->ch, 0};
            cchar_t cc;
            setcchar(&cc, wc, attrs_of(l->attr), mono ? 0 : (short)(c->style + 1), NULL);
            mvadd_wch(y, x, &cc); /* the last cell may report ERR; it is still drawn */
        }
}

static int map_key(int rc, wint_t ch)
{
    if (rc == KEY_CODE_YES) {
        switch (ch) {
        case KEY_UP: return K_UP;
        case KEY_DOWN: return K_DOWN;
        case KEY_LEFT: return K_LEFT;
        case KEY_RIGHT: return K_RIGHT;
        case KEY_HOME: return K_HOME;
        case KEY_END: return K_END;
        case KEY_PPAGE: return K_PGUP;
        case KEY_NPAGE: return K_PGDN;
        case KEY_BACKSPACE: return K_BACKSPACE;
        case KEY_ENTER: return K_ENTER;
        case KEY_BTAB: return K_BTAB;
        case KEY_RESIZE: return K_RESIZE;
        case KEY_F(1): return K_F1;
        case KEY_F(10): return K_F10;
        default: return -1;
        }
    }
    switch (ch) {
    case '\t': return K_TAB;
    case '\n':
    case '\r': return K_ENTER;
    case 27: return K_ESC;
    case 127:
    case 8: return K_BACKSPACE;
    default: /* a character: its code point (not a C1 control, a surrogate, past Unicode) */
        return ch < 128 || (ch >= 0xA0 && ch <= 0x10FFFF && (ch < 0xD800 || ch > 0xDFFF)) ? (int)ch
                                                                                          : -1;
    }
}

int ui_check_terminal(char *why, size_t cap)
{
    const char *term = getenv("TERM");
    if (!isatty(STDOUT_FILENO)) snprintf(why, cap, "standard output is not a terminal");
    else if (!isatty(STDIN_FILENO) && access("/dev/tty", R_OK) != 0)
        snprintf(why, cap, "there is no terminal to read keys from");
    else if (!term || !*term || !strcmp(term, "dumb"))
        snprintf(why, cap, "TERM is %s", term && *term ? term : "not set");
    else return 0;
    return -1;
}

int ui_draws_utf8(int ascii) { return style_utf8(ascii, nl_langinfo(CODESET), getenv("TERM")); }

int ui_run(app *a)
{
    /* Keys come from the terminal even when the graph came on standard input. */
    FILE *in = isatty(STDIN_FILENO) ? stdin : fopen("/dev/tty", "r");
    SCREEN *scr = in ? newterm(NULL, stdout, in) : NULL;
    if (!scr) {
        if (in && in != stdin) fclose(in);
        const char *term = getenv("TERM");
        char shown[128];
        fprintf(stderr, "memtris: cannot start the terminal UI for TERM=%s\n",
                utf8_printable(term ? term : "", shown, sizeof shown));
        return 1;
    }
    curses_on = 1;
    atexit(restore_terminal);
    install_handlers();
    catch_up_size();

    set_escdelay(25);
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    if (!has_colors()) a->mono = 1;
    setup_colors(a->mono);
    if (a->mouse) mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED, NULL);
    mouseinterval(0);

    canvas cv = {0};
    view_cache vc = {0};
    int status = 0;
    const char *why = NULL; /* said on stderr once the terminal is back */
    struct timespec last_tick;
    clock_gettime(CLOCK_MONOTONIC, &last_tick);
    app_reaction react = APP_RELAYOUT | APP_REDRAW; /* the first frame */
    while (!(react & APP_QUIT) && !got_signal) {
        if (terminal_gone(fileno(in), STDOUT_FILENO)) {
            why = "the terminal went away";
            status = 1;
            break;
        }
        int h, w;
        getmaxyx(stdscr, h, w);
        if (w != cv.w || h != cv.h || !cv.c) react |= APP_RELAYOUT | APP_REDRAW;
        if (react & APP_RELAYOUT) {
            if (w != cv.w || h != cv.h || !cv.c) {
                canvas_free(&cv);
                if (canvas_init(&cv, w, h, a->utf8)) {
                    why = "out of memory (for a screen of this size)";
                    status = 1;
                    break;
                }
            }
            app_resize(a, w, h);
        }
        if (react & (APP_REDRAW | APP_RELAYOUT)) {
            view_render(&cv, a, &vc);
            blit(&cv, a->mono);
            refresh();
        }
        react = 0;
        if (app_check_wait(a)) { /* the first frame came before the plan's check */
            why = a->err;
            status = 1;
            break;
        }

        int tick = app_tick_ms(a);
        timeout(tick >= 0 ? tick : 250);
        wint_t ch;
        int rc = get_wch(&ch);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long since =
            (now.tv_sec - last_tick.tv_sec) * 1000 + (now.tv_nsec - last_tick.tv_nsec) / 1000000;
        /* timeout: auto-play tick, replay poll or signal check; also when
         * keys keep coming faster than the ticks would */
        if (rc == ERR || (tick >= 0 && since >= tick)) {
            react |= app_tick(a);
            last_tick = now;
            if (rc == ERR) continue;
        }
        if (rc == KEY_CODE_YES && ch == KEY_MOUSE) {
            MEVENT ev;
            if (getmouse(&ev) == OK && (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
                react |= app_click(a, ev.x, ev.y);
            continue;
        }
        int key = map_key(rc, ch);
        if (key >= 0) react |= app_key(a, key);
    }
    view_cache_free(&vc);
    canvas_free(&cv);
    restore_terminal();
    remove_handlers();
    delscreen(scr);
    if (in != stdin) fclose(in);
    if (why && !got_signal) fprintf(stderr, "memtris: %s\n", why);
    if (got_signal) return 128 + got_signal;
    return status;
}
