/* test_utf8.c: util/utf8.h's printable text, the one way memtris shows user
 * text (names, ops, CSV fields, file names, option values) on a terminal:
 * control bytes (C0, DEL, C1) and ill-formed UTF-8 as \xNN, valid text
 * (CJK too) as it is, a cut at a character with "..." when out of room, and
 * the unbounded writer to a FILE with and without line breaks kept; and
 * JSON's escapes (util/json.h), which keep the string and drop no control. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "util/json.h"
#include "util/utf8.h"

/* utf8_printable of s with room for 256 bytes. */
static const char *shown(const char *s)
{
    static char out[256];
    return utf8_printable(s, out, sizeof out);
}

static void controls_escaped(void **state)
{
    (void)state;
    assert_string_equal(shown("plain name.1"), "plain name.1");
    assert_string_equal(shown("\x1b[?1049h"), "\\x1b[?1049h");
    assert_string_equal(shown("\x1b]2;pwned\x07"), "\\x1b]2;pwned\\x07");
    assert_string_equal(shown("a\rb\nc\td"), "a\\x0db\\x0ac\\x09d");
    assert_string_equal(shown("del\x7f"), "del\\x7f");
    /* C1 controls as UTF-8 (U+009B is CSI), each byte shown */
    assert_string_equal(shown("csi\xc2\x9b"
                              "31m \xc2\x80"),
                        "csi\\xc2\\x9b31m \\xc2\\x80");
    assert_string_equal(shown("nbsp\xc2\xa0."), "nbsp\xc2\xa0."); /* U+00A0: text */
    assert_string_equal(shown("back\\slash"), "back\\slash");
    assert_string_equal(shown(""), "");
}

static void invalid_utf8_escaped(void **state)
{
    (void)state;
    assert_string_equal(shown("raw \x9b csi"), "raw \\x9b csi"); /* a stray continuation */
    assert_string_equal(shown("ff \xff\xfe"), "ff \\xff\\xfe");
    assert_string_equal(shown("cut \xe4\xb8"), "cut \\xe4\\xb8");          /* truncated 3-byte */
    assert_string_equal(shown("cut \xf0\x9f\x98"), "cut \\xf0\\x9f\\x98"); /* truncated 4-byte */
    assert_string_equal(shown("cut \xe4\xb8x"), "cut \\xe4\\xb8x");        /* cut, then text */
    assert_string_equal(shown("long \xc0\xaf"), "long \\xc0\\xaf");        /* overlong '/' */
    assert_string_equal(shown("sur \xed\xa0\x80"), "sur \\xed\\xa0\\x80"); /* U+D800 */
    /* a NUL inside a counted span */
    char out[32];
    assert_string_equal(utf8_printable_n("a\0b", 3, out, sizeof out), "a\\x00b");
}

static void valid_text_kept(void **state)
{
    (void)state;
    const char *cjk =
        "\xe5\x8d\xb7\xe7\xa7\xaf\xe5\xb1\x82.\xe6\x9d\x83\xe9\x87\x8d"; /* 卷积层.权重 */
    assert_string_equal(shown(cjk), cjk);
    assert_string_equal(shown("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
                        "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

static void cut_at_capacity(void **state)
{
    (void)state;
    char out[8];
    assert_string_equal(utf8_printable("1234567", out, sizeof out), "1234567"); /* fits */
    assert_string_equal(utf8_printable("12345678", out, sizeof out), "1234...");
    /* never inside a character: a 3-byte one that does not fit before "..." */
    assert_string_equal(utf8_printable("ab\xe5\x8d\xb7\xe7\xa7\xaf", out, sizeof out), "ab...");
    assert_string_equal(utf8_printable("a\xe5\x8d\xb7\xe7\xa7\xaf", out, sizeof out),
                        "a\xe5\x8d\xb7\xe7\xa7\xaf"); /* 7 bytes: fits */
    assert_string_equal(utf8_printable("a\xe5\x8d\xb7\xe7\xa7\xaf!", out, sizeof out),
                        "a\xe5\x8d\xb7...");
    /* nor inside an escape */
    assert_string_equal(utf8_printable("\x1b\x1b\x1b", out, sizeof out), "\\x1b...");
    assert_string_equal(utf8_printable("a\x1b\x1b", out, sizeof out), "a...");
    char big[12];
    assert_string_equal(utf8_printable("\x1b\x1b\x1b", big, sizeof big), "\\x1b\\x1b...");
    assert_string_equal(utf8_printable("ab\x1b\x1b", big, sizeof big), "ab\\x1b\\x1b");
    /* a long name: cut, bounded, still valid */
    char name[600], cut[64];
    for (size_t i = 0; i + 3 < sizeof name; i += 3) memcpy(name + i, "\xe5\x8d\xb7", 3);
    name[sizeof name - 3] = 0;
    utf8_printable(name, cut, sizeof cut);
    size_t n = strlen(cut);
    assert_true(n < sizeof cut);
    assert_string_equal(cut + n - 3, "...");
    assert_int_equal((n - 3) % 3, 0);
}

/* What utf8_fputs_printable writes for s. */
static const char *written(const char *s, int lines)
{
    static char out[512];
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(utf8_fputs_printable(s, f, lines), 0);
    rewind(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    fclose(f);
    return out;
}

static void written_unbounded(void **state)
{
    (void)state;
    assert_string_equal(written("a\x1b[2Jb\n", 0), "a\\x1b[2Jb\\x0a");
    assert_string_equal(written("line one\nline \x07two\n", 1), "line one\nline \\x07two\n");
    assert_string_equal(written("\r\xc2\x9b\xff\xe4\xb8\xad", 1),
                        "\\x0d\\xc2\\x9b\\xff\xe4\xb8\xad");
    char name[400];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = 0;
    assert_string_equal(written(name, 0), name); /* no limit */
    FILE *full = fopen("/dev/full", "w");
    if (full) { /* a write error is said */
        setvbuf(full, NULL, _IONBF, 0);
        assert_int_equal(utf8_fputs_printable("x\x1b", full, 0), EOF);
        fclose(full);
    }
}

static void put(void *ctx, const char *p, size_t n) { strncat(ctx, p, n); }

/* JSON output stays exact, with every control as \u00XX: the same string. */
static void json_escapes_controls(void **state)
{
    (void)state;
    char out[256] = "";
    json_string_to("a\x1b]2;t\x07\x7f\xc2\x9b"
                   "b\xc2\xa0\xe5\x8d\xb7\"\\",
                   put, out);
    assert_string_equal(out, "\"a\\u001b]2;t\\u0007\\u007f\\u009bb\xc2\xa0\xe5\x8d\xb7\\\"\\\\\"");
}

/* Bytes that are not UTF-8 (a file name from the command line) become
 * U+FFFD each, so the output is always valid JSON; emoji stay as they are. */
static void json_replaces_invalid(void **state)
{
    (void)state;
    char out[256] = "";
    json_string_to("g\xff\xfe.json \xe5\x8d x\xf0\x9f\x98\x80\xed\xa0\x80", put, out);
    assert_string_equal(out, "\"g\\ufffd\\ufffd.json \\ufffd\\ufffd x\xf0\x9f\x98\x80"
                             "\\ufffd\\ufffd\\ufffd\"");
}

/* A long name shortened from the left keeps its end; widths count characters. */
static void fit_left(void **state)
{
    (void)state;
    char out[64], tiny[5];
    assert_string_equal(utf8_fit_left("layer4.weight", 20, out, sizeof out), "layer4.weight");
    assert_string_equal(utf8_fit_left("layer4.weight", 13, out, sizeof out), "layer4.weight");
    assert_string_equal(utf8_fit_left("layer4.weight", 7, out, sizeof out), "\xe2\x80\xa6weight");
    assert_string_equal(utf8_fit_left("\xe5\x8d\xb7\xe5\x8d\xb7"
                                      "ab",
                                      3, out, sizeof out),
                        "\xe2\x80\xa6"
                        "ab");
    assert_string_equal(utf8_fit_left("\xe5\x8d\xb7\xe5\x8d\xb7\xe5\x8d\xb7"
                                      "ab",
                                      4, out, sizeof out),
                        "\xe2\x80\xa6\xe5\x8d\xb7"
                        "ab");
    assert_int_equal(utf8_count(utf8_fit_left("abcdefgh", 5, out, sizeof out)), 5);
    assert_string_equal(utf8_fit_left("abc", 0, out, sizeof out), "");
    assert_string_equal(utf8_fit_left("abcdefgh", 3, tiny, sizeof tiny), "\xe2\x80\xa6g");
}

/* A code point encoded: what utf8_decode reads back; no bytes for a non-character. */
static void encode_round_trip(void **state)
{
    (void)state;
    const uint32_t cps[] = {0x41,   0x7F,   0x80,    0xE9,    0x7FF,   0x800,
                            0x20AC, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF};
    const int lens[] = {1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4};
    for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
        char out[8];
        uint32_t back;
        assert_int_equal(utf8_encode(cps[i], out), lens[i]);
        assert_int_equal(strlen(out), lens[i]);
        assert_int_equal(utf8_decode(out, NULL, &back), lens[i]);
        assert_int_equal(back, cps[i]);
    }
    char out[8] = "x";
    assert_int_equal(utf8_encode(0xD800, out), 0);
    assert_string_equal(out, "");
    assert_int_equal(utf8_encode(0x110000, out), 0);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(controls_escaped),      /* C0, DEL, C1 */
        cmocka_unit_test(invalid_utf8_escaped),  /* bytes that are not text */
        cmocka_unit_test(valid_text_kept),       /* CJK, emoji */
        cmocka_unit_test(cut_at_capacity),       /* "..." at a character */
        cmocka_unit_test(written_unbounded),     /* to a FILE */
        cmocka_unit_test(json_escapes_controls), /* JSON's escapes */
        cmocka_unit_test(json_replaces_invalid), /* always valid JSON */
        cmocka_unit_test(fit_left),              /* "…weight" */
        cmocka_unit_test(encode_round_trip),     /* code point -> UTF-8 */
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
