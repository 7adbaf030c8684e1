/* test_ui_term.c: whether the TUI draws UTF-8 (braille, box drawing) or ASCII only
 * (src/ui/style.c: style_utf8, style_term_ascii): --ascii, the locale's codeset and
 * TERM each decide it; the terminals without braille are the man page's list. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "ui/style.h"

/* The terminals that cannot draw braille, as the man page lists them, with suffixes. */
static void term_ascii_names(void **state)
{
    (void)state;
    static const char *const ascii[] = {
        "vt52",   "vt100",    "vt102",    "vt220",  "vt320",     "vt100-am",      "vt220-8bit",
        "dumb",   "ansi",     "ansi.sys", "ansi-m", "linux",     "linux-16color", "linux-c-nc",
        "cons25", "cons25-m", "pcansi",   "sun",    "sun-color", "wsvt25"};
    for (size_t i = 0; i < sizeof ascii / sizeof *ascii; i++)
        if (!style_term_ascii(ascii[i])) fail_msg("TERM=%s should draw ASCII", ascii[i]);
}

/* Terminals that draw UTF-8, including names that only look like the list's. */
static void term_utf8_names(void **state)
{
    (void)state;
    static const char *const utf8[] = {"xterm",
                                       "xterm-256color",
                                       "screen",
                                       "screen-256color",
                                       "tmux",
                                       "tmux-256color",
                                       "rxvt-unicode-256color",
                                       "vte",
                                       "vte-256color",
                                       "alacritty",
                                       "foot",
                                       "kitty",
                                       "putty",
                                       "st-256color",
                                       "sunterm",
                                       "xterm-vt220",
                                       "konsole",
                                       "vt",
                                       "dumbo"};
    for (size_t i = 0; i < sizeof utf8 / sizeof *utf8; i++)
        if (style_term_ascii(utf8[i])) fail_msg("TERM=%s should draw UTF-8", utf8[i]);
}

/* Unset or empty TERM: ASCII (the TUI refuses it anyway). */
static void term_unset(void **state)
{
    (void)state;
    assert_int_equal(style_term_ascii(NULL), 1);
    assert_int_equal(style_term_ascii(""), 1);
    assert_int_equal(style_utf8(0, "UTF-8", NULL), 0);
}

/* UTF-8 only when not asked for ASCII, in a UTF-8 locale, on a terminal that draws it. */
static void utf8_decision(void **state)
{
    (void)state;
    assert_int_equal(style_utf8(0, "UTF-8", "xterm-256color"), 1);
    assert_int_equal(style_utf8(1, "UTF-8", "xterm-256color"), 0);          /* --ascii */
    assert_int_equal(style_utf8(0, "ANSI_X3.4-1968", "xterm-256color"), 0); /* LANG=C */
    assert_int_equal(style_utf8(0, "ISO-8859-1", "xterm-256color"), 0);
    assert_int_equal(style_utf8(0, NULL, "xterm-256color"), 0);
    assert_int_equal(style_utf8(0, "UTF-8", "vt100"), 0); /* TERM=vt100 */
    assert_int_equal(style_utf8(0, "UTF-8", "linux"), 0);
    assert_int_equal(style_utf8(0, "UTF-8", "tmux-256color"), 1);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) cmocka_set_test_filter(argv[i]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(term_ascii_names),
        cmocka_unit_test(term_utf8_names),
        cmocka_unit_test(term_unset),
        cmocka_unit_test(utf8_decision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
