/* textpos.c: line and column of a place in a text (textpos.h). */
#include "textpos.h"

void textpos_init(textpos *t, const char *text, size_t len)
{
    t->text = text;
    t->len = len;
    t->off = 0;
    t->line = 1;
    t->col = 1;
}

void textpos_at(textpos *t, const char *p, unsigned long *line, unsigned long *col)
{
    size_t off = p > t->text ? (size_t)(p - t->text) : 0;
    if (off > t->len) off = t->len;
    if (off < t->off) textpos_init(t, t->text, t->len);
    for (size_t i = t->off; i < off; i++) {
        if (t->text[i] == '\n') {
            t->line++;
            t->col = 1;
        } else if (((unsigned char)t->text[i] & 0xC0) != 0x80) {
            t->col++;
        }
    }
    t->off = off;
    *line = t->line;
    *col = t->col;
}
