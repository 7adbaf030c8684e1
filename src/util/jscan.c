/* jscan.c: recursive-descent JSON syntax check (RFC 8259), no tree built.
 * It runs over the whole input before cJSON, which accepts some invalid JSON
 * (leading zeros, "1.", raw control characters in strings). */
#include "jscan.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "utf8.h"

#define JSCAN_DEPTH 1000 /* cJSON's nesting limit */

typedef struct scan {
    const char *p, *end;
    const char *where, *what;
    int nul; /* the failure is a \u0000 (JSCAN_NUL), not the syntax */
} scan;

static int fail(scan *s, const char *at, const char *what)
{
    s->where = at;
    s->what = at >= s->end ? "unexpected end of input (truncated file?)" : what;
    return -1;
}

static void ws(scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

static int value(scan *s, int depth);

static int string(scan *s)
{
    s->p++; /* opening quote */
    while (s->p < s->end) {
        unsigned char c = (unsigned char)*s->p;
        if (c == '"') {
            s->p++;
            return 0;
        }
        if (c < 0x20) return fail(s, s->p, "control character inside a string");
        if (c >= 0x80) { /* JSON text is UTF-8 (RFC 8259, 8.1) */
            uint32_t cp;
            int n = utf8_decode(s->p, s->end, &cp);
            if (!n) return fail(s, s->p, "invalid UTF-8 inside a string");
            s->p += n;
            continue;
        }
        if (c == '\\') {
            s->p++;
            if (s->p >= s->end) break;
            if (*s->p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (s->p + i >= s->end || !strchr("0123456789abcdefABCDEF", s->p[i]) ||
                        !s->p[i])
                        return fail(s, s->p + i, "bad \\u escape in a string");
                if (!memcmp(s->p + 1, "0000", 4)) {
                    s->nul = 1;
                    return fail(s, s->p - 1,
                                "\\u0000 (a NUL character) inside a string: memtris refuses it, "
                                "as it would cut the string there");
                }
                s->p += 5;
                continue;
            }
            if (!strchr("\"\\/bfnrt", *s->p) || !*s->p)
                return fail(s, s->p, "bad escape in a string");
        }
        s->p++;
    }
    return fail(s, s->end, "unterminated string");
}

static int digits(scan *s)
{
    const char *start = s->p;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9') s->p++;
    return s->p > start ? 0 : fail(s, s->p, "expected a digit in a number");
}

static int number(scan *s)
{
    if (*s->p == '-') s->p++;
    if (s->p < s->end && *s->p == '0') s->p++;
    else if (digits(s)) return -1;
    if (s->p < s->end && *s->p == '.') {
        s->p++;
        if (digits(s)) return -1;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-')) s->p++;
        if (digits(s)) return -1;
    }
    return 0;
}

static int word(scan *s, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i < n; i++)
        if (s->p + i >= s->end || s->p[i] != w[i]) return fail(s, s->p + i, "invalid literal");
    s->p += n;
    return 0;
}

static int container(scan *s, int depth, char close)
{
    if (depth >= JSCAN_DEPTH)
        return fail(s, s->p, "nested more than 1000 levels deep (cJSON's limit)");
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == close) {
        s->p++;
        return 0;
    }
    for (;;) {
        if (close == '}') {
            if (s->p >= s->end || *s->p != '"') return fail(s, s->p, "expected a string key");
            if (string(s)) return -1;
            ws(s);
            if (s->p >= s->end || *s->p != ':') return fail(s, s->p, "expected ':' after a key");
            s->p++;
            ws(s);
        }
        if (value(s, depth + 1)) return -1;
        ws(s);
        if (s->p < s->end && *s->p == ',') {
            s->p++;
            ws(s);
            continue;
        }
        if (s->p < s->end && *s->p == close) {
            s->p++;
            return 0;
        }
        return fail(s, s->p,
                    close == '}' ? "expected ',' or '}' in an object"
                                 : "expected ',' or ']' in an array");
    }
}

static int value(scan *s, int depth)
{
    ws(s);
    if (s->p >= s->end) return fail(s, s->p, "expected a value");
    switch (*s->p) {
    case '{': return container(s, depth, '}');
    case '[': return container(s, depth, ']');
    case '"': return string(s);
    case 't': return word(s, "true");
    case 'f': return word(s, "false");
    case 'n': return word(s, "null");
    default:
        if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9')) return number(s);
        return fail(s, s->p, "expected a value");
    }
}

int jscan_value(const char *p, const char *end, const char **where, const char **what)
{
    return jscan_value_at(p, end, 0, where, what);
}

int jscan_value_at(const char *p, const char *end, int depth, const char **where, const char **what)
{
    scan s = {p, end, NULL, NULL, 0};
    if (value(&s, depth) == 0) {
        *where = s.p;
        return 0;
    }
    *where = s.where;
    *what = s.what;
    return s.nul ? JSCAN_NUL : -1;
}

static int blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void jscan_report_at(textpos *tp, const char *at, const char *what, jscan_report *r)
{
    const char *text = tp->text, *end = text + tp->len, *p = at;
    while (p < end && blank(*p)) p++;
    if (p >= end) { /* the end: a truncation */
        const char *q = end;
        while (q > text && blank(q[-1])) q--;
        textpos_at(tp, q, &r->line, &r->col);
        snprintf(r->msg, sizeof r->msg, "unexpected end of input (truncated file?)");
        return;
    }
    textpos_at(tp, at, &r->line, &r->col);
    const char *q = at; /* the 16 characters from at, on its line */
    for (int chars = 0; q < end && *q != '\n' && *q != '\r' && chars < 16; chars++) {
        uint32_t cp;
        int n = utf8_decode(q, end, &cp);
        q += n ? n : 1;
    }
    char near[136]; /* each of them at most 8 bytes shown (a C1 control: \xc2\x9b) */
    utf8_printable_n(at, (size_t)(q - at), near, sizeof near);
    snprintf(r->msg, sizeof r->msg, "%s, at '%s'", what, near);
}
