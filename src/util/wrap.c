/* wrap.c: narration broken into rows at word boundaries, never between a
 * number and its unit nor after an operator. Exports wrap_next and
 * wrap_count. */
#include "wrap.h"
#include <stdint.h>
#include <string.h>
#include "utf8.h"

/* Whether the len bytes at t are a unit that follows a number: bytes
 * ("B", "KiB" .. "EiB", "kB" .. "TB"), times ("ms", "us", "ns", "s") or a
 * share ("%"), with any closing punctuation after it. */
static int is_unit(const char *t, size_t len)
{
    static const char *const unit[] = {"B",   "KiB", "MiB",       "GiB", "TiB", "PiB",
                                       "EiB", "kB",  "KB",        "MB",  "GB",  "TB",
                                       "ms",  "us",  "\xc2\xb5s", "ns",  "s",   "%"};
    while (len && strchr(",;:.!?)]'", t[len - 1])) len--;
    for (size_t i = 0; i < sizeof unit / sizeof unit[0]; i++)
        if (strlen(unit[i]) == len && !memcmp(unit[i], t, len)) return 1;
    return 0;
}

/* Whether the len bytes at t are an operator that binds to what follows:
 * "=", "+", "-", "<", ">", "~", and their Unicode forms. */
static int is_operator(const char *t, size_t len)
{
    static const char *const op[] = {"=",
                                     "+",
                                     "-",
                                     "<",
                                     ">",
                                     "~",
                                     "<=",
                                     ">=",
                                     "\xe2\x89\x88",
                                     "\xe2\x89\xa4",
                                     "\xe2\x89\xa5",
                                     "\xe2\x88\x92",
                                     "\xe2\x86\x92",
                                     "\xc3\x97"};
    for (size_t i = 0; i < sizeof op / sizeof op[0]; i++)
        if (strlen(op[i]) == len && !memcmp(op[i], t, len)) return 1;
    return 0;
}

/* Whether a row may end at the space at p (the text from start): not
 * between a number and its unit, not after an operator. */
static int may_break(const char *start, const char *p)
{
    const char *a = p;
    while (a > start && a[-1] != ' ') a--;
    const char *b = p;
    while (*b == ' ') b++;
    const char *be = b;
    while (*be && *be != ' ') be++;
    if (a < p && p[-1] >= '0' && p[-1] <= '9' && is_unit(b, (size_t)(be - b))) return 0;
    return !is_operator(a, (size_t)(p - a));
}

int wrap_next(const char **s, int width, const char **row, size_t *len)
{
    const char *p = *s;
    if (width < 1) width = 1;
    while (*p == ' ') p++;
    *row = p;
    *len = 0;
    if (!*p) {
        *s = p;
        return 0;
    }
    const char *start = p, *ok = NULL, *any = NULL;
    int cols = 0;
    for (;;) {
        if (!*p) { /* the rest fits */
            const char *e = p;
            while (e > start && e[-1] == ' ') e--;
            *len = (size_t)(e - start);
            *s = p;
            return 1;
        }
        if (*p == ' ') {
            if (p[-1] != ' ') {
                any = p;
                if (may_break(start, p)) ok = p;
            }
            cols++;
            p++;
            continue;
        }
        if (cols >= width) break; /* the character at p would pass the row's end */
        uint32_t cp;
        int n = utf8_decode(p, NULL, &cp);
        p += n ? n : 1;
        cols++;
    }
    const char *e = ok ? ok : any ? any : p;
    *len = (size_t)(e - start);
    while (*e == ' ') e++;
    *s = e;
    return 1;
}

int wrap_count(const char *s, int width)
{
    const char *row;
    size_t len;
    int n = 0;
    while (wrap_next(&s, width, &row, &len)) n++;
    return n;
}
