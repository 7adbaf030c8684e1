/* style.c: the color and monochrome schemes for the semantic styles, and whether the
 * terminal draws UTF-8. Exports style_*. */
#include "style.h"
#include <string.h>

enum { BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE };
#define DEF (-1)

static const style_look color[ST_COUNT] = {
    [ST_NORMAL] = {DEF, DEF, 0},
    [ST_BORDER] = {CYAN, DEF, 0},
    [ST_FOCUS] = {YELLOW, DEF, SA_BOLD},
    [ST_TITLE] = {CYAN, DEF, SA_BOLD},
    [ST_HEADER] = {BLACK, GREEN, 0},
    [ST_DIM] = {DEF, DEF, SA_DIM},
    [ST_NEXT] = {BLACK, CYAN, 0},
    [ST_ALLOC] = {RED, DEF, 0},
    [ST_FREE] = {GREEN, DEF, 0},
    [ST_COMPUTE] = {DEF, DEF, 0},
    [ST_CURVE] = {GREEN, DEF, SA_BOLD},
    [ST_FUTURE] = {GREEN, DEF, SA_DIM},
    [ST_CURVE2] = {MAGENTA, DEF, SA_BOLD},
    [ST_FUTURE2] = {MAGENTA, DEF, SA_DIM},
    [ST_CURSOR] = {YELLOW, DEF, SA_BOLD},
    [ST_PEAK] = {RED, DEF, SA_BOLD},
    [ST_AXIS] = {DEF, DEF, SA_DIM},
    [ST_STATUS] = {BLACK, CYAN, 0},
    [ST_STATUS_KEY] = {BLACK, CYAN, SA_BOLD},
    [ST_WHY] = {YELLOW, DEF, 0},
    [ST_HINT] = {BLACK, CYAN, 0},
    [ST_HINT_KEY] = {WHITE, BLACK, SA_BOLD},
    [ST_HWM] = {RED, DEF, SA_BOLD},
    [ST_HOLE] = {DEF, DEF, SA_DIM},
    [ST_WARN] = {RED, DEF, SA_BOLD},
    [ST_GOOD] = {GREEN, DEF, SA_BOLD},
    [ST_PROMPT] = {WHITE, BLUE, SA_BOLD},
    [ST_MEASURED] = {CYAN, DEF, SA_BOLD},
    [ST_BUF0] = {BLACK, BLUE, 0},
    [ST_BUF1] = {BLACK, GREEN, 0},
    [ST_BUF2] = {BLACK, MAGENTA, 0},
    [ST_BUF3] = {BLACK, CYAN, 0},
    [ST_BUF4] = {BLACK, YELLOW, 0},
    [ST_BUF5] = {BLACK, RED, 0},
};

static const style_look mono[ST_COUNT] = {
    [ST_FOCUS] = {DEF, DEF, SA_BOLD},
    [ST_TITLE] = {DEF, DEF, SA_BOLD},
    [ST_HEADER] = {DEF, DEF, SA_REVERSE},
    [ST_DIM] = {DEF, DEF, SA_DIM},
    [ST_NEXT] = {DEF, DEF, SA_REVERSE},
    [ST_ALLOC] = {DEF, DEF, SA_BOLD},
    [ST_CURVE] = {DEF, DEF, SA_BOLD},
    [ST_FUTURE] = {DEF, DEF, SA_DIM},
    [ST_CURVE2] = {DEF, DEF, SA_UNDERLINE},
    [ST_FUTURE2] = {DEF, DEF, SA_DIM},
    [ST_CURSOR] = {DEF, DEF, SA_BOLD},
    [ST_PEAK] = {DEF, DEF, SA_BOLD | SA_UNDERLINE},
    [ST_AXIS] = {DEF, DEF, SA_DIM},
    [ST_STATUS] = {DEF, DEF, SA_REVERSE},
    [ST_STATUS_KEY] = {DEF, DEF, SA_REVERSE | SA_BOLD},
    [ST_WHY] = {DEF, DEF, SA_BOLD},
    [ST_HINT] = {DEF, DEF, SA_REVERSE},
    [ST_HINT_KEY] = {DEF, DEF, SA_BOLD},
    [ST_HWM] = {DEF, DEF, SA_BOLD},
    [ST_HOLE] = {DEF, DEF, SA_DIM},
    [ST_WARN] = {DEF, DEF, SA_BOLD},
    [ST_GOOD] = {DEF, DEF, SA_BOLD},
    [ST_PROMPT] = {DEF, DEF, SA_REVERSE | SA_BOLD},
    [ST_MEASURED] = {DEF, DEF, SA_REVERSE},
};

const style_look *style_look_of(int style, int is_mono)
{
    static const style_look plain = {DEF, DEF, 0};
    if (style < 0 || style >= ST_COUNT) return &plain;
    const style_look *l = is_mono ? &mono[style] : &color[style];
    /* Zero-initialised entries of the mono table mean "plain". */
    if (is_mono && l->fg == 0 && l->bg == 0 && l->attr == 0) return &plain;
    return l;
}

char style_letter(int style)
{
    static const char letters[ST_COUNT + 1] = ".bftHdnAFcCuMmxPaSsyhKwoWgpe012345";
    return style >= 0 && style < ST_COUNT ? letters[style] : '?';
}

unsigned style_buf_glyph(int bufno, int is_mono, int utf8)
{
    static const unsigned shades[STYLE_NBUF] = {0x2588, 0x2593, 0x2592, 0x2591, 0x2586, 0x2584};
    static const char ascii[STYLE_NBUF] = {'#', '%', '=', '+', '*', 'o'};
    if (!is_mono) return ' ';
    return utf8 ? shades[bufno % STYLE_NBUF] : (unsigned)ascii[bufno % STYLE_NBUF];
}

int style_buf(int bufno) { return ST_BUF0 + bufno % STYLE_NBUF; }

int style_term_ascii(const char *term)
{
    static const char *const names[] = {"dumb", "cons25", "pcansi", "sun", "wsvt25"};
    if (!term || !*term) return 1;
    size_t n = strcspn(term, "-."); /* the family, before a suffix */
    if (n > 2 && !strncmp(term, "vt", 2) && term[2] >= '0' && term[2] <= '9') return 1;
    if (!strncmp(term, "ansi", 4) || !strncmp(term, "linux", 5)) return 1;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strlen(names[i]) == n && !strncmp(term, names[i], n)) return 1;
    return 0;
}

int style_utf8(int ascii, const char *codeset, const char *term)
{
    return !ascii && codeset && !strcmp(codeset, "UTF-8") && !style_term_ascii(term);
}
