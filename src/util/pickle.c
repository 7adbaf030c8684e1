/* pickle.c: Python's pickle protocol 2, written (pickle.h): the opcodes of
 * CPython's Lib/pickle.py, no memo (nothing is shared), every container its
 * EMPTY_* or MARK then one APPENDS, SETITEMS or TUPLE. Exports pk_*. */
#include "pickle.h"
#include <string.h>
#include "utf8.h"

enum {
    OP_PROTO = 0x80,
    OP_STOP = '.',
    OP_NONE = 'N',
    OP_TRUE = 0x88,
    OP_FALSE = 0x89,
    OP_BININT = 'J',
    OP_LONG1 = 0x8a,
    OP_BINFLOAT = 'G',
    OP_BINUNICODE = 'X',
    OP_MARK = '(',
    OP_EMPTY_LIST = ']',
    OP_APPENDS = 'e',
    OP_EMPTY_DICT = '}',
    OP_SETITEMS = 'u',
    OP_TUPLE = 't',
};

/* n bytes of v, least significant first. */
static void le(FILE *f, uint64_t v, int n)
{
    for (int i = 0; i < n; i++) fputc((int)((v >> (8 * i)) & 0xff), f);
}

void pk_begin(FILE *f)
{
    fputc(OP_PROTO, f);
    fputc(2, f);
}

void pk_end(FILE *f) { fputc(OP_STOP, f); }
void pk_none(FILE *f) { fputc(OP_NONE, f); }
void pk_bool(FILE *f, int v) { fputc(v ? OP_TRUE : OP_FALSE, f); }

void pk_int(FILE *f, int64_t v)
{
    if (v >= INT32_MIN && v <= INT32_MAX) {
        fputc(OP_BININT, f);
        le(f, (uint64_t)v, 4);
        return;
    }
    /* The fewest bytes whose top bit is v's sign: 5 to 8. */
    int n = 8;
    while (n > 5) {
        int64_t lo = -((int64_t)1 << (8 * (n - 1) - 1));
        if (v < lo || v > -lo - 1) break;
        n--;
    }
    fputc(OP_LONG1, f);
    fputc(n, f);
    le(f, (uint64_t)v, n);
}

void pk_float(FILE *f, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    fputc(OP_BINFLOAT, f);
    for (int i = 7; i >= 0; i--) fputc((int)((u >> (8 * i)) & 0xff), f); /* big-endian */
}

/* Writes s's well-formed sequences and U+FFFD for each ill-formed byte (f
 * NULL: only counts); returns the bytes. */
static size_t utf8_clean(FILE *f, const char *s)
{
    static const char repl[] = "\xef\xbf\xbd";
    size_t n = 0;
    while (*s) {
        uint32_t cp;
        int k = utf8_decode(s, NULL, &cp);
        const char *p = k ? s : repl;
        size_t len = k ? (size_t)k : 3;
        if (f) fwrite(p, 1, len, f);
        n += len;
        s += k ? k : 1;
    }
    return n;
}

void pk_str(FILE *f, const char *s)
{
    size_t n = utf8_clean(NULL, s);
    fputc(OP_BINUNICODE, f);
    le(f, n, 4); /* names are far below 4 GiB */
    utf8_clean(f, s);
}

void pk_list_begin(FILE *f)
{
    fputc(OP_EMPTY_LIST, f);
    fputc(OP_MARK, f);
}

void pk_list_end(FILE *f) { fputc(OP_APPENDS, f); }

void pk_dict_begin(FILE *f)
{
    fputc(OP_EMPTY_DICT, f);
    fputc(OP_MARK, f);
}

void pk_dict_end(FILE *f) { fputc(OP_SETITEMS, f); }
void pk_tuple_begin(FILE *f) { fputc(OP_MARK, f); }
void pk_tuple_end(FILE *f) { fputc(OP_TUPLE, f); }

void pk_key_int(FILE *f, const char *key, int64_t v)
{
    pk_str(f, key);
    pk_int(f, v);
}

void pk_key_str(FILE *f, const char *key, const char *v)
{
    pk_str(f, key);
    pk_str(f, v);
}
