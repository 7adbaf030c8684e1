/* canvas.c: drawing primitives on the off-screen cell grid. Exports canvas_*. */
#define _XOPEN_SOURCE 700
#include "canvas.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include "util/utf8.h"

int canvas_init(canvas *cv, int w, int h, int utf8)
{
    cv->w = w > 0 ? w : 0;
    cv->h = h > 0 ? h : 0;
    cv->utf8 = utf8;
    cv->c = calloc((size_t)cv->w * (size_t)cv->h + 1, sizeof *cv->c);
    if (!cv->c) return -1;
    canvas_clear(cv);
    return 0;
}

void canvas_free(canvas *cv)
{
    free(cv->c);
    cv->c = NULL;
}

void canvas_clear(canvas *cv)
{
    for (int i = 0; i < cv->w * cv->h; i++) cv->c[i] = (cell){' ', ST_NORMAL};
    cv->cuts = 0;
}

void canvas_put(canvas *cv, int x, int y, uint32_t ch, int style)
{
    cell *c = canvas_at(cv, x, y);
    if (!c) return;
    if (!cv->utf8 && ch > 0x7e) ch = '?';
    c->ch = ch;
    c->style = (uint8_t)style;
}

void canvas_style(canvas *cv, int x, int y, int style)
{
    cell *c = canvas_at(cv, x, y);
    if (c) c->style = (uint8_t)style;
}

void canvas_fill(canvas *cv, rect r, uint32_t ch, int style)
{
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++) canvas_put(cv, x, y, ch, style);
}

/* Columns a code point takes. The glyphs memtris draws itself (box drawing,
 * blocks, braille, arrows, shapes) are one column in any UTF-8 locale, even
 * where wcwidth() does not know them (the C locale of tests). */
static int cp_width(uint32_t cp)
{
    if (cp < 0x300 || cp == 0x2026) return 1; /* the mark of a name shortened (utf8_fit_left) */
    if ((cp >= 0x2190 && cp <= 0x21FF) || (cp >= 0x2500 && cp <= 0x25FF) ||
        (cp >= 0x2800 && cp <= 0x28FF))
        return 1;
    return wcwidth((wchar_t)cp);
}

/* Counts a clip inside a word at (x, y) (see canvas.h). */
static void cut_at(canvas *cv, int x, int y)
{
    if (cv->cuts < CANVAS_CUTS) {
        cv->cut[cv->cuts].x = x;
        cv->cut[cv->cuts].y = y;
    }
    cv->cuts++;
}

int canvas_text(canvas *cv, int x, int y, int maxw, int style, const char *s)
{
    int w = 0, drawn = 0, edge = 0;
    uint32_t prev = ' ';
    const unsigned char *p = (const unsigned char *)s;
    while (*p && w < maxw) {
        uint32_t cp;
        int n = utf8_decode((const char *)p, NULL, &cp);
        if (!n) { /* a byte that is not text */
            cp = '?';
            n = 1;
        }
        p += n;
        /* C0 and C1 controls (U+0080..U+009F: 0x9B is CSI to a terminal;
         * found by tests/fuzz in a saved replay's device name) */
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) cp = '?';
        else if (cp == 0x2026 && !cv->utf8) cp = '~'; /* a name shortened, as canvas_fit marks it */
        else if (cp > 0x7e && (!cv->utf8 || cp_width(cp) != 1)) cp = '?';
        if (canvas_at(cv, x + w, y)) {
            canvas_put(cv, x + w, y, cp, style);
            drawn = 1;
        } else if (drawn && !edge) { /* the canvas's right edge cuts the text */
            edge = 1;
            if (prev != ' ' && cp != ' ') cut_at(cv, x + w - 1, y);
        }
        prev = cp;
        w++;
    }
    /* maxw cuts it: clean only at a space or the text's end */
    if (*p && *p != ' ' && drawn && !edge && prev != ' ') cut_at(cv, x + w - 1, y);
    return w;
}

int canvas_printf(canvas *cv, int x, int y, int maxw, int style, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return canvas_text(cv, x, y, maxw, style, buf);
}

void canvas_box(canvas *cv, rect r, const char *title, int style, int title_style)
{
    if (r.w < 2 || r.h < 2) return;
    uint32_t h = cv->utf8 ? 0x2500 : '-', v = cv->utf8 ? 0x2502 : '|';
    uint32_t tl = cv->utf8 ? 0x250C : '+', tr = cv->utf8 ? 0x2510 : '+';
    uint32_t bl = cv->utf8 ? 0x2514 : '+', br = cv->utf8 ? 0x2518 : '+';
    for (int x = r.x + 1; x < r.x + r.w - 1; x++) {
        canvas_put(cv, x, r.y, h, style);
        canvas_put(cv, x, r.y + r.h - 1, h, style);
    }
    for (int y = r.y + 1; y < r.y + r.h - 1; y++) {
        canvas_put(cv, r.x, y, v, style);
        canvas_put(cv, r.x + r.w - 1, y, v, style);
    }
    canvas_put(cv, r.x, r.y, tl, style);
    canvas_put(cv, r.x + r.w - 1, r.y, tr, style);
    canvas_put(cv, r.x, r.y + r.h - 1, bl, style);
    canvas_put(cv, r.x + r.w - 1, r.y + r.h - 1, br, style);
    /* the title whole, or none */
    if (title && r.w > 4 && utf8_count(title) <= r.w - 4)
        canvas_text(cv, r.x + 2, r.y, r.w - 4, title_style, title);
}

/* Whether a unit of bytes starts at p ("B", "KiB", ... "EiB", then the
 * end of the word): a number and its unit stay together. */
static int unit_follows(const char *p)
{
    if (*p == 'B') p++;
    else if (strchr("KMGTPE", *p) && *p && p[1] == 'i' && p[2] == 'B') p += 3;
    else return 0;
    return !*p || strchr(" ),;:", *p);
}

int canvas_fit(canvas *cv, int x, int y, int maxw, int style, const char *s)
{
    if (maxw <= 0) return 0;
    if (utf8_count(s) <= maxw) return canvas_text(cv, x, y, maxw, style, s);
    /* The most that fits before the mark: up to the last space there, so
     * no word or number is cut; a first word too long for the line (a
     * name) is shortened where the line ends. */
    const char *p = s, *end = s, *space = NULL;
    for (int k = 0; k < maxw - 1 && *p; k++) {
        uint32_t cp;
        int n = utf8_decode(p, NULL, &cp);
        if (*p == ' ' && !unit_follows(p + 1)) space = p;
        p += n ? n : 1;
    }
    if (*p == ' ' && !unit_follows(p + 1)) space = p;
    end = space && space > s ? space : p;
    while (end > s && end[-1] == ' ') end--;
    char buf[512];
    size_t len = (size_t)(end - s) < sizeof buf - 1 ? (size_t)(end - s) : sizeof buf - 1;
    memcpy(buf, s, len);
    buf[len] = 0;
    int w = canvas_text(cv, x, y, maxw - 1, style, buf);
    canvas_put(cv, x + w, y, cv->utf8 ? 0x2026 : '~', style);
    return w + 1;
}

static void put_utf8(FILE *f, uint32_t cp)
{
    char b[8];
    int n = utf8_encode(cp, b); /* a cell holds a character: never 0 bytes */
    fwrite(n ? b : "?", 1, n ? (size_t)n : 1, f);
}

void canvas_dump(const canvas *cv, FILE *f, int styles)
{
    for (int y = 0; y < cv->h; y++) {
        for (int x = 0; x < cv->w; x++) put_utf8(f, cv->c[y * cv->w + x].ch);
        fputc('\n', f);
    }
    if (!styles) return;
    for (int y = 0; y < cv->h; y++) {
        for (int x = 0; x < cv->w; x++) fputc(style_letter(cv->c[y * cv->w + x].style), f);
        fputc('\n', f);
    }
}
