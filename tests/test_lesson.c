/* test_lesson.c: the lesson file format (src/ui/lesson.c): a good file's stops, settings and keys;
 * each kind of bad line with its exact FILE:LINE:COLUMN message; the narration's wrapping and its
 * room on the screen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ui/keys.h"
#include "ui/lesson.h"

/* Parses text as "t.lesson"; returns parse's result, the messages joined by newlines in out. */
static int parse_into(const char *text, lesson *ls, char *out, size_t cap)
{
    diag d;
    diag_init(&d, "t.lesson");
    int rc = lesson_parse(text, strlen(text), ls, &d);
    size_t n = 0;
    out[0] = 0;
    for (size_t i = 0; i < d.nlines && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s\n", d.lines[i]);
    diag_free(&d);
    return rc;
}

/* text is refused with exactly the message want (one line, newline added). */
static void expect_error(const char *text, const char *want)
{
    lesson ls;
    char got[4096], line[1024];
    int rc = parse_into(text, &ls, got, sizeof got);
    lesson_free(&ls);
    snprintf(line, sizeof line, "%s\n", want);
    if (rc != -1 || strcmp(got, line))
        fail_msg("for:\n%s\nexpected: %s\ngot (rc %d): %s", text, want, rc, got);
}

static const char good[] = "# a comment\n"
                           "title Two peaks\n"
                           "graph ../demo.json\n"
                           "compare fifo\r\n"
                           "\n"
                           "stop Where fifo peaks\n"
                           "  keys P P   Space Left\n"
                           "say fifo starts every branch\n"
                           "say before it finishes any.\n"
                           "stop\n"
                           "policy fifo\n"
                           "compare none\n"
                           "placer best\n"
                           "step 12\n"
                           "keys l Tab\n"
                           "say the live list.\n";

static void test_good_file(void **state)
{
    (void)state;
    lesson ls;
    char msgs[1024];
    assert_int_equal(parse_into(good, &ls, msgs, sizeof msgs), 0);
    assert_string_equal(msgs, "");
    assert_string_equal(ls.title, "Two peaks");
    assert_string_equal(ls.graph, "../demo.json");
    assert_int_equal(ls.graph_line, 3);
    assert_int_equal(ls.graph_col, 7);
    assert_int_equal(ls.nstops, 2);
    const lesson_stop *s = &ls.stops[0];
    assert_string_equal(s->title, "Where fifo peaks");
    assert_string_equal(s->say, "fifo starts every branch before it finishes any.");
    assert_ptr_equal(s->pol, policy_find("priority"));
    assert_ptr_equal(s->cmp, policy_find("fifo"));
    assert_ptr_equal(s->plc, placer_find("first-fit"));
    assert_int_equal(s->nacts, 4);
    assert_int_equal(s->acts[0].key, 'P');
    assert_int_equal(s->acts[1].key, 'P');
    assert_int_equal(s->acts[2].key, ' ');
    assert_int_equal(s->acts[3].key, K_LEFT);
    assert_int_equal(s->acts[2].line, 7);
    assert_int_equal(s->acts[2].col, 14);
    s = &ls.stops[1];
    assert_string_equal(s->title, "");
    assert_ptr_equal(s->pol, policy_find("fifo"));
    assert_null(s->cmp);
    assert_ptr_equal(s->plc, placer_find("best"));
    assert_int_equal(s->nacts, 3);
    assert_int_equal(s->acts[0].key, LESSON_STEP_KEY);
    assert_int_equal(s->acts[0].arg, 12);
    assert_int_equal(s->acts[1].key, 'l');
    assert_int_equal(s->acts[2].key, K_TAB);
    lesson_free(&ls);
}

/* A byte order mark, tabs and CRLF line ends are a text editor's, not errors. */
static void test_editors_text(void **state)
{
    (void)state;
    lesson ls;
    char msgs[1024];
    assert_int_equal(
        parse_into("\xEF\xBB\xBFgraph\tg.json\r\nstop\r\nsay\ta\tb\r\nkeys\tP\tFOO\r\n", &ls, msgs,
                   sizeof msgs),
        -1);
    assert_string_equal(msgs, "t.lesson:4:8: error: unknown key 'FOO': a character, or Space, Tab, "
                              "Shift-Tab, Esc, Enter, Home, End, Left, Right, Up, Down, PgUp, "
                              "PgDn, Backspace, F1, each apart ('P P')\n");
    assert_string_equal(ls.graph, "g.json");
    assert_string_equal(ls.stops[0].say, "a b");
    lesson_free(&ls);
}

static void test_bad_lines(void **state)
{
    (void)state;
    const char *head = "graph g.json\nstop\nsay hi\n";
    char text[512];
#define BAD(tail, want)                                  \
    do {                                                 \
        snprintf(text, sizeof text, "%s%s", head, tail); \
        expect_error(text, want);                        \
    } while (0)
    BAD("frob 1\n", "t.lesson:4:1: error: unknown directive 'frob' (one of: title, graph, policy, "
                    "compare, placer, stop, say, keys, step; # begins a comment)");
    BAD("  keys P PP\n", "t.lesson:4:10: error: unknown key 'PP': a character, or Space, Tab, "
                         "Shift-Tab, Esc, Enter, Home, End, Left, Right, Up, Down, PgUp, PgDn, "
                         "Backspace, F1, each apart ('P P')");
    BAD("keys P q\n", "t.lesson:4:8: error: 'q' would end the lesson: a stop's keys cannot quit");
    BAD("keys F10\n", "t.lesson:4:6: error: 'F10' would end the lesson: a stop's keys cannot quit");
    BAD("step x2\n",
        "t.lesson:4:6: error: 'step' needs a step number (0 to the graph's last step), not 'x2'");
    BAD("step\n", "t.lesson:4:5: error: 'step' needs a step number after it");
    BAD("keys\n", "t.lesson:4:5: error: 'keys' needs the KEYS after it");
    BAD("policy speedy\n", "t.lesson:4:8: error: unknown policy 'speedy' (one of: fifo, priority, "
                           "dfs, postorder, lpmf, bfs, best, exact, weighted, multiqueue, given)");
    BAD("graph h.json\n", "t.lesson:4:1: error: 'graph' belongs before the first 'stop'");
    BAD("compare priority\n", "t.lesson:2:1: error: this stop compares priority with itself: "
                              "'compare' needs another policy (or 'none')");
    BAD("say caf\xc3\xa9 \x1b[2J\n",
        "t.lesson:4:10: error: byte 0x1B is not text (a lesson is UTF-8 text)");
    BAD("say \xff\n", "t.lesson:4:5: error: byte 0xFF is not valid UTF-8 (a lesson is UTF-8 text)");
    BAD("keys \xc3\n",
        "t.lesson:4:6: error: byte 0xC3 is not valid UTF-8 (a lesson is UTF-8 text)");
    BAD("keys a \xe2\x82\n",
        "t.lesson:4:8: error: byte 0xE2 is not valid UTF-8 (a lesson is UTF-8 text)");
    BAD("keys \xed\xa0\x80\n", /* a surrogate */
        "t.lesson:4:6: error: byte 0xED is not valid UTF-8 (a lesson is UTF-8 text)");
    BAD("keys \xc3\xa9\xc3\xa9\n",
        "t.lesson:4:6: error: unknown key '\xc3\xa9\xc3\xa9': a character, or Space, Tab, "
        "Shift-Tab, Esc, Enter, Home, End, Left, Right, Up, Down, PgUp, PgDn, Backspace, F1, each "
        "apart ('P P')");
    BAD("stop\n",
        "t.lesson:4:1: error: this stop has no narration: add a 'say TEXT' line after it");
#undef BAD
    expect_error("say hi\ngraph g.json\nstop\nsay x\n",
                 "t.lesson:1:1: error: 'say' belongs to a stop: write a 'stop' line first");
    expect_error("title a\ntitle b\ngraph g\nstop\nsay x\n",
                 "t.lesson:2:1: error: a second 'title' (the first is on line 1)");
    expect_error("\nstop\nsay x\n",
                 "t.lesson:2:1: error: no 'graph PATH' before the first stop: a lesson shows one "
                 "graph");
    expect_error("graph g.json\n# nothing more\n",
                 "t.lesson:2:1: error: no 'stop': a lesson needs at least one stop with its 'say "
                 "TEXT'");
    expect_error("graph g.json\nplacer tetris\nstop\nsay x\n",
                 "t.lesson:2:8: error: unknown placer 'tetris' (one of: first-fit, best-fit, pool, "
                 "coloring, greedy-size, xla, greedy-conflicts, best, exact)");
}

/* Every error of a file, each at its own line, in the file's order. */
static void test_errors_all_told(void **state)
{
    (void)state;
    lesson ls;
    char got[4096];
    assert_int_equal(parse_into("graph g\nstop\nsay a\nkeys ZZ\nstep -1\n", &ls, got, sizeof got),
                     -1);
    lesson_free(&ls);
    assert_non_null(strstr(got, "t.lesson:4:6: error: unknown key 'ZZ'"));
    assert_non_null(strstr(got, "t.lesson:5:6: error: 'step' needs a step number"));
    assert_true(strstr(got, "t.lesson:4:") < strstr(got, "t.lesson:5:"));
}

/* A narration over 5 lines at 80 columns is refused at its first 'say'. */
static void test_long_narration(void **state)
{
    (void)state;
    char text[2048] = "graph g\nstop\n";
    for (int i = 0; i < 6; i++)
        strcat(text, "say aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn "
                     "oooo pppp\n");
    strcat(text, "keys P\n");
    expect_error(text, "t.lesson:3:1: error: the stop's narration takes 7 lines at 80 columns, at "
                       "most 5 fit: shorten it or split the stop");
}

static void test_step_past_graph(void **state)
{
    (void)state;
    lesson ls;
    char got[1024];
    assert_int_equal(
        parse_into("graph g\nstop\nsay a\nstep 7\nstop\nsay b\nstep 8\n", &ls, got, sizeof got), 0);
    graph g = {.n = 7};
    diag d;
    diag_init(&d, "t.lesson");
    assert_int_equal(lesson_check(&ls, &g, &d), -1);
    assert_int_equal(d.nlines, 1);
    assert_string_equal(d.lines[0],
                        "t.lesson:7:6: error: step 8 is past the graph's last step (7)");
    diag_free(&d);
    lesson_free(&ls);
}

typedef struct lines {
    char line[16][128];
    int n;
} lines;

static void keep_line(const char *s, size_t len, void *ctx)
{
    lines *l = ctx;
    snprintf(l->line[l->n++], sizeof l->line[0], "%.*s", (int)len, s);
}

static void test_wrap_at_words(void **state)
{
    (void)state;
    lines l = {0};
    assert_int_equal(lesson_wrap("one two three  four fiftyfifty", 9, keep_line, &l), 5);
    assert_string_equal(l.line[0], "one two");
    assert_string_equal(l.line[1], "three");
    assert_string_equal(l.line[2], "four");
    assert_string_equal(l.line[3], "fiftyfift"); /* longer than a line: cut */
    assert_string_equal(l.line[4], "y");
    memset(&l, 0, sizeof l);
    assert_int_equal(lesson_wrap("caf\xc3\xa9 caf\xc3\xa9", 9, keep_line, &l), 1); /* columns */
    assert_int_equal(lesson_wrap("", 9, NULL, NULL), 0);
}

/* The narration's rows: its title line and text, never leaving the panels
 * less than LAYOUT_MIN_H rows; the why line and the key bar go below it. */
static void test_room(void **state)
{
    (void)state;
    lesson ls;
    char got[512];
    assert_int_equal(parse_into("graph g\nstop\nsay one two three\n", &ls, got, sizeof got), 0);
    assert_int_equal(lesson_rows(&ls, 0, 80, 24), 2);
    assert_int_equal(lesson_rows(&ls, 0, 8, 24), 4); /* one word a line at 6 columns */
    assert_int_equal(lesson_rows(&ls, 0, 80, LAYOUT_MIN_H + 1), 1);
    assert_int_equal(lesson_rows(&ls, 1, 80, 24), 0);
    assert_int_equal(lesson_rows(NULL, 0, 80, 24), 0);
    layout l;
    layout_compute(80, 22, 0, &l);
    lesson_room(&l, 2, 24);
    assert_int_equal(l.h, 24);
    assert_int_equal(l.r[P_WHY].y, 22);
    assert_int_equal(l.r[P_HINTS].y, 23);
    rect r = lesson_rect(&l, 2);
    assert_int_equal(r.y, 20);
    assert_int_equal(r.h, 2);
    assert_int_equal(r.w, 80);
    lesson_free(&ls);
}

/* A key may be any one UTF-8 character: its key is its code point, as the
 * TUI reads it (get_wch); the named keys keep their codes past Unicode. */
static void test_utf8_keys(void **state)
{
    (void)state;
    lesson ls;
    char got[1024];
    assert_int_equal(parse_into("graph g\nstop\nsay a\nkeys / \xc3\xa9 \xe2\x82\xac "
                                "\xf0\x9f\x98\x80 a Enter\n",
                                &ls, got, sizeof got),
                     0);
    assert_string_equal(got, "");
    const lesson_stop *s = &ls.stops[0];
    assert_int_equal(s->nacts, 6);
    const int want[] = {'/', 0xE9, 0x20AC, 0x1F600, 'a', K_ENTER};
    const unsigned long cols[] = {6, 8, 10, 12, 14, 16}; /* code points from 1 */
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(s->acts[i].key, want[i]);
        assert_int_equal(s->acts[i].col, cols[i]);
    }
    assert_true(K_UP > 0x10FFFF); /* no character's key is a named key's */
    lesson_free(&ls);
    /* a C1 control is no character: refused as the line's bytes are */
    expect_error("graph g\nstop\nsay a\nkeys \xc2\x85\n",
                 "t.lesson:4:6: error: byte 0xC2 is not text (a lesson is UTF-8 text)");
}

/* The limits the man page gives: LESSON_MAX_STOPS stops, LESSON_MAX_BYTES bytes. */
static void test_limits(void **state)
{
    (void)state;
    size_t cap = (size_t)(LESSON_MAX_STOPS + 2) * 16 + 64, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    n += (size_t)snprintf(text, cap, "graph g\n");
    for (int i = 0; i < LESSON_MAX_STOPS; i++)
        n += (size_t)snprintf(text + n, cap - n, "stop\nsay a\n");
    lesson ls;
    char got[1024];
    assert_int_equal(parse_into(text, &ls, got, sizeof got), 0); /* as many as it may have */
    assert_int_equal(ls.nstops, LESSON_MAX_STOPS);
    lesson_free(&ls);
    n += (size_t)snprintf(text + n, cap - n, "stop\nsay a\nstop\nsay b\n");
    assert_int_equal(parse_into(text, &ls, got, sizeof got), -1); /* one more: one error */
    char want[256];
    snprintf(want, sizeof want,
             "t.lesson:%d:1: error: a stop past the 100000 a lesson may have: split the lesson\n",
             2 * LESSON_MAX_STOPS + 2);
    assert_string_equal(got, want);
    lesson_free(&ls);
    free(text);

    size_t big = LESSON_MAX_BYTES + 1;
    text = malloc(big + 1);
    assert_non_null(text);
    for (size_t i = 0; i < big; i++) text[i] = i % 64 == 63 ? '\n' : '#'; /* comments */
    text[big] = 0;
    assert_int_equal(parse_into(text, &ls, got, sizeof got), -1);
    assert_string_equal(got, "t.lesson:1:1: error: the lesson is 16777217 bytes, more than the "
                             "16777216 (16 MiB) a lesson may have: split it\n");
    lesson_free(&ls);
    text[big - 1] = 0; /* 16 MiB of comment: read, no stop in it */
    assert_int_equal(parse_into(text, &ls, got, sizeof got), -1);
    assert_string_equal(got, "t.lesson:262144:1: error: no 'graph PATH' before the first stop: "
                             "a lesson shows one graph\n"
                             "t.lesson:262144:1: error: no 'stop': a lesson needs at least one "
                             "stop with its 'say TEXT'\n");
    lesson_free(&ls);
    free(text);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) cmocka_set_test_filter(argv[i]);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_file),
        cmocka_unit_test(test_editors_text),
        cmocka_unit_test(test_bad_lines),
        cmocka_unit_test(test_errors_all_told),
        cmocka_unit_test(test_long_narration),
        cmocka_unit_test(test_step_past_graph),
        cmocka_unit_test(test_wrap_at_words),
        cmocka_unit_test(test_room),
        cmocka_unit_test(test_utf8_keys),
        cmocka_unit_test(test_limits),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
