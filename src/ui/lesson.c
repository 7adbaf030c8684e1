/* lesson.c: the lesson file format (the man page's LESSON FILES): a directive a line, parsed
 * into the lesson's graph, policies and stops, each error with its line and column; the
 * narration's lines and its room at the bottom of the screen. Exports lesson_*. */
#include "lesson.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/utf8.h"
#include "util/wrap.h"
#include "keys.h"

/* The keys a 'keys' line names by word; any other key is one character (a UTF-8 one: its
 * key is its code point, as the TUI reads it). */
static const struct {
    const char *name;
    int key;
} key_names[] = {
    {"Space", ' '},        {"Tab", K_TAB},
    {"Shift-Tab", K_BTAB}, {"Esc", K_ESC},
    {"Enter", K_ENTER},    {"Home", K_HOME},
    {"End", K_END},        {"Left", K_LEFT},
    {"Right", K_RIGHT},    {"Up", K_UP},
    {"Down", K_DOWN},      {"PgUp", K_PGUP},
    {"PgDn", K_PGDN},      {"Backspace", K_BACKSPACE},
    {"F1", K_F1},
};

/* What the parser holds between lines. */
typedef struct parse {
    lesson *ls;
    diag *d;
    unsigned long line;
    const char *start; /* the line's first byte */
    int header_set[2]; /* title, graph given: their lines */
    const policy *pol, *cmp;
    const placer *plc;
    unsigned long say_line; /* the current stop's first 'say' */
    int failed;
    int stop; /* past a limit: no line more is read */
} parse;

/* The column of p in the line (code points from 1). */
static unsigned long col_of(const parse *ps, const char *p)
{
    unsigned long col = 1;
    for (const char *q = ps->start; q < p; q++)
        if (((unsigned char)*q & 0xC0) != 0x80) col++;
    return col;
}

/* An error at p (NULL: the line's start). The line is text (parse_line
 * checks that first): the words quoted from it are printable as they are. */
__attribute__((format(printf, 3, 4))) static void err_at(parse *ps, const char *p, const char *fmt,
                                                         ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_add(ps->d, DIAG_ERROR, DC_SYNTAX, ps->line, p ? col_of(ps, p) : 1, "%s", msg);
    ps->failed = 1;
}

static lesson_stop *cur_stop(parse *ps)
{
    return ps->ls->nstops ? &ps->ls->stops[ps->ls->nstops - 1] : NULL;
}

/* The policy list for a message: "fifo, priority, ...". */
static void policy_names(char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    for (size_t i = 0; policy_at(i) && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? ", " : "", policy_at(i)->name);
}

static void placer_names(char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    for (size_t i = 0; placer_at(i) && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? ", " : "", placer_at(i)->name);
}

/* Room for item n of an array of n items of size bytes, grown to twice its
 * size when n is a power of two (its capacity then): a lesson of many stops
 * or keys is read in linear time. The array, moved, or NULL (out of memory). */
static void *grow(void *arr, size_t n, size_t size)
{
    if (n & (n - 1)) return arr; /* room left */
    size_t cap = n ? 2 * n : 1;
    return cap > SIZE_MAX / size ? NULL : realloc(arr, cap * size);
}

/* The end of a stop: what it must have, checked. */
static void end_stop(parse *ps)
{
    lesson_stop *s = cur_stop(ps);
    if (!s) return;
    if (!s->say[0]) {
        diag_add(ps->d, DIAG_ERROR, DC_FIELD, s->line, 1,
                 "this stop has no narration: add a 'say TEXT' line after it");
        ps->failed = 1;
    } else {
        int n = lesson_wrap(s->say, LESSON_SAY_WIDTH, NULL, NULL);
        if (n > LESSON_SAY_LINES) {
            diag_add(ps->d, DIAG_ERROR, DC_FIELD, ps->say_line, 1,
                     "the stop's narration takes %d lines at 80 columns, at most %d fit: "
                     "shorten it or split the stop",
                     n, LESSON_SAY_LINES);
            ps->failed = 1;
        }
    }
    if (s->cmp && s->cmp == s->pol) {
        diag_add(ps->d, DIAG_ERROR, DC_FIELD, s->line, 1,
                 "this stop compares %s with itself: 'compare' needs another policy (or 'none')",
                 s->pol->name);
        ps->failed = 1;
    }
}

/* 'keys KEY...': each word a key; returns -1 on an error (said). */
static void parse_keys(parse *ps, lesson_stop *s, const char *arg, const char *end)
{
    const char *p = arg;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t')) p++;
        if (p >= end) break;
        const char *w = p;
        while (p < end && *p != ' ' && *p != '\t') p++;
        char tok[64];
        size_t len = (size_t)(p - w) < sizeof tok - 1 ? (size_t)(p - w) : sizeof tok - 1;
        memcpy(tok, w, len);
        tok[len] = 0;
        int key = 0;
        uint32_t cp;
        if (len == 1 && *w > ' ' && *w <= '~') key = (unsigned char)*w;
        else if ((size_t)(p - w) == len && utf8_decode(w, p, &cp) == (int)len && cp >= 0xA0)
            key = (int)cp; /* one UTF-8 character (parse_line took the line as text) */
        for (size_t i = 0; !key && i < sizeof key_names / sizeof key_names[0]; i++)
            if (!strcmp(tok, key_names[i].name)) key = key_names[i].key;
        if (key == 'q' || !strcmp(tok, "F10")) {
            err_at(ps, w, "'%s' would end the lesson: a stop's keys cannot quit", tok);
            continue;
        }
        if (!key) {
            err_at(ps, w,
                   "unknown key '%s': a character, or Space, Tab, Shift-Tab, Esc, Enter, Home, "
                   "End, Left, Right, Up, Down, PgUp, PgDn, Backspace, F1, each apart ('P P')",
                   tok);
            continue;
        }
        lesson_act *na = grow(s->acts, s->nacts, sizeof *na);
        if (!na) {
            err_at(ps, w, "out of memory");
            return;
        }
        s->acts = na;
        s->acts[s->nacts++] = (lesson_act){key, 0, ps->line, col_of(ps, w)};
    }
}

static void parse_step(parse *ps, lesson_stop *s, const char *arg)
{
    char *e;
    unsigned long long v = strtoull(arg, &e, 10);
    if (*arg < '0' || *arg > '9' || *e || v > UINT32_MAX) {
        err_at(ps, arg, "'step' needs a step number (0 to the graph's last step), not '%s'", arg);
        return;
    }
    lesson_act *na = grow(s->acts, s->nacts, sizeof *na);
    if (!na) return;
    s->acts = na;
    s->acts[s->nacts++] = (lesson_act){LESSON_STEP_KEY, (uint32_t)v, ps->line, col_of(ps, arg)};
}

static void add_say(parse *ps, lesson_stop *s, const char *arg)
{
    size_t have = strlen(s->say), add = strlen(arg);
    if (have + add + 2 > sizeof s->say) {
        err_at(ps, arg, "the stop's narration is over %d bytes", LESSON_SAY_MAX - 2);
        return;
    }
    if (!ps->say_line || !have) ps->say_line = ps->line;
    if (have) s->say[have++] = ' ';
    memcpy(s->say + have, arg, add + 1);
}

/* policy, compare, placer: the header's defaults, or the stop's own. */
static void parse_setting(parse *ps, lesson_stop *s, const char *word, const char *arg)
{
    char names[512];
    if (!strcmp(word, "placer")) {
        const placer *p = placer_find(arg);
        if (!p) {
            placer_names(names, sizeof names);
            err_at(ps, arg, "unknown placer '%s' (one of: %s)", arg, names);
        } else if (s) s->plc = p;
        else ps->plc = p;
        return;
    }
    int cmp = !strcmp(word, "compare");
    const policy *p =
        cmp && (!strcmp(arg, "none") || !strcmp(arg, "off")) ? NULL : policy_find(arg);
    if (!p && !(cmp && (!strcmp(arg, "none") || !strcmp(arg, "off")))) {
        policy_names(names, sizeof names);
        err_at(ps, arg, "unknown policy '%s' (one of: %s%s)", arg, names, cmp ? ", or none" : "");
        return;
    }
    if (cmp) {
        if (s) s->cmp = p;
        else ps->cmp = p;
    } else if (s) s->pol = p;
    else ps->pol = p;
}

static void start_stop(parse *ps, const char *arg)
{
    end_stop(ps);
    lesson *ls = ps->ls;
    if (ls->nstops == LESSON_MAX_STOPS) {
        err_at(ps, NULL, "a stop past the %d a lesson may have: split the lesson",
               LESSON_MAX_STOPS);
        ps->stop = 1;
        return;
    }
    lesson_stop *ns = grow(ls->stops, ls->nstops, sizeof *ns);
    if (!ns) {
        err_at(ps, NULL, "out of memory");
        return;
    }
    ls->stops = ns;
    lesson_stop *s = &ls->stops[ls->nstops++];
    memset(s, 0, sizeof *s);
    snprintf(s->title, sizeof s->title, "%s", arg);
    s->pol = ps->pol;
    s->cmp = ps->cmp;
    s->plc = ps->plc;
    s->line = ps->line;
    ps->say_line = 0;
}

static const char *const directives[] = {"title", "graph", "policy", "compare", "placer",
                                         "stop",  "say",   "keys",   "step"};

/* One line, without its line break (NUL-terminated copy). */
static void parse_line(parse *ps, char *line)
{
    ps->start = line;
    /* Text only: valid UTF-8 without control characters (a tab is a space). */
    for (char *p = line; *p;) {
        uint32_t cp;
        int n = utf8_decode(p, NULL, &cp);
        if (!n || (cp < 0x20 && cp != '\t') || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) {
            char b[8];
            snprintf(b, sizeof b, "0x%02X", (unsigned char)*p);
            err_at(ps, p, "byte %s is not %s (a lesson is UTF-8 text)", b,
                   n ? "text" : "valid UTF-8");
            return;
        }
        p += n;
    }
    for (char *p = line; *p; p++)
        if (*p == '\t') *p = ' '; /* a tab is a space (and one column, as in every message) */
    char *p = line, *end = line + strlen(line);
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t')) *--end = 0;
    if (p == end || *p == '#') return;
    char *w = p;
    while (p < end && *p != ' ' && *p != '\t') p++;
    char *arg = p;
    if (p < end) {
        *p = 0;
        arg = p + 1;
        while (*arg == ' ' || *arg == '\t') arg++;
    }
    size_t i = 0, nd = sizeof directives / sizeof directives[0];
    while (i < nd && strcmp(w, directives[i])) i++;
    if (i == nd) {
        err_at(ps, w,
               "unknown directive '%s' (one of: title, graph, policy, compare, placer, stop, say, "
               "keys, step; # begins a comment)",
               w);
        return;
    }
    lesson_stop *s = cur_stop(ps);
    if (!*arg && i != 5) {
        err_at(ps, arg, "'%s' needs %s after it", w,
               i == 1            ? "a PATH"
               : i == 7          ? "the KEYS"
               : i == 8          ? "a step number"
               : i < 2 || i == 6 ? "its TEXT"
                                 : "a NAME");
        return;
    }
    if (i < 2) {
        if (s) {
            err_at(ps, w, "'%s' belongs before the first 'stop'", w);
            return;
        }
        if (ps->header_set[i]) {
            err_at(ps, w, "a second '%s' (the first is on line %d)", w, ps->header_set[i]);
            return;
        }
        ps->header_set[i] = (int)ps->line;
        if (i == 0) snprintf(ps->ls->title, sizeof ps->ls->title, "%s", arg);
        else {
            snprintf(ps->ls->graph, sizeof ps->ls->graph, "%s", arg);
            ps->ls->graph_line = ps->line;
            ps->ls->graph_col = col_of(ps, arg);
        }
    } else if (i < 5) parse_setting(ps, s, w, arg);
    else if (i == 5) start_stop(ps, arg);
    else if (!s) err_at(ps, w, "'%s' belongs to a stop: write a 'stop' line first", w);
    else if (i == 6) add_say(ps, s, arg);
    else if (i == 7) parse_keys(ps, s, arg, arg + strlen(arg));
    else parse_step(ps, s, arg);
}

int lesson_parse(const char *text, size_t len, lesson *ls, diag *d)
{
    memset(ls, 0, sizeof *ls);
    parse ps = {.ls = ls, .d = d, .pol = policy_find("priority"), .plc = placer_find("first-fit")};
    char buf[2048];
    const char *p = text, *end = text + len;
    if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3; /* a byte order mark */
    if (len > LESSON_MAX_BYTES) {
        diag_add(d, DIAG_ERROR, DC_LIMIT, 1, 1,
                 "the lesson is %zu bytes, more than the %u (16 MiB) a lesson may have: split it",
                 len, LESSON_MAX_BYTES);
        return -1;
    }
    while (p < end && !ps.stop) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        ps.line++;
        size_t n = (size_t)(le - p);
        if (n && p[n - 1] == '\r') n--;
        if (n >= sizeof buf || memchr(p, 0, n)) {
            ps.start = p;
            diag_add(d, DIAG_ERROR, DC_SYNTAX, ps.line, 1,
                     n >= sizeof buf ? "the line is over 2047 bytes" : "a NUL byte: not text");
            ps.failed = 1;
        } else {
            memcpy(buf, p, n);
            buf[n] = 0;
            parse_line(&ps, buf);
        }
        p = nl ? nl + 1 : end;
    }
    end_stop(&ps);
    unsigned long last = ps.line ? ps.line : 1;
    if (!ls->graph[0]) {
        diag_add(d, DIAG_ERROR, DC_FIELD, ls->nstops ? ls->stops[0].line : last, 1,
                 "no 'graph PATH' before the first stop: a lesson shows one graph");
        ps.failed = 1;
    }
    if (!ls->nstops) {
        diag_add(d, DIAG_ERROR, DC_FIELD, last, 1,
                 "no 'stop': a lesson needs at least one stop with its 'say TEXT'");
        ps.failed = 1;
    }
    return ps.failed ? -1 : 0;
}

int lesson_check(const lesson *ls, const graph *g, diag *d)
{
    int bad = 0;
    for (size_t i = 0; i < ls->nstops; i++)
        for (size_t j = 0; j < ls->stops[i].nacts; j++) {
            const lesson_act *a = &ls->stops[i].acts[j];
            if (a->key == LESSON_STEP_KEY && a->arg > g->n) {
                diag_add(d, DIAG_ERROR, DC_FIELD, a->line, a->col,
                         "step %" PRIu32 " is past the graph's last step (%" PRIu32 ")", a->arg,
                         g->n);
                bad = -1;
            }
        }
    return bad;
}

void lesson_free(lesson *ls)
{
    for (size_t i = 0; i < ls->nstops; i++) free(ls->stops[i].acts);
    free(ls->stops);
    memset(ls, 0, sizeof *ls);
}

int lesson_wrap(const char *s, int width, void (*line)(const char *, size_t, void *), void *ctx)
{
    int lines = 0;
    const char *row;
    size_t len;
    while (wrap_next(&s, width, &row, &len)) {
        if (line) line(row, len, ctx);
        lines++;
    }
    return lines;
}

int lesson_rows(const lesson *ls, size_t at, int w, int h)
{
    if (!ls || at >= ls->nstops) return 0;
    int text = w - 2 < 1 ? 1 : w - 2;
    int rows = 1 + lesson_wrap(ls->stops[at].say, text, NULL, NULL);
    int room = h - LAYOUT_MIN_H;
    if (rows > room) rows = room;
    return rows < 0 ? 0 : rows;
}

void lesson_room(layout *l, int rows, int h)
{
    l->h = h;
    if (l->too_small || rows <= 0) return;
    l->r[P_WHY].y += rows;
    l->r[P_HINTS].y += rows;
}

rect lesson_rect(const layout *l, int rows)
{
    int y = l->r[P_WHY].y < l->r[P_HINTS].y ? l->r[P_WHY].y : l->r[P_HINTS].y;
    return (rect){0, y - rows, l->w, rows};
}
