/* test_ui_explain.c: the TUI's explanations whole: the one wrapper of its narration (never a
 * number from its unit, never after "="), the why line wrapped in rows taken from the panels, w's
 * lists by ALLOC name (largest first, "and N more (X)" only past the room), and the ready
 * queue's name and key kept, numbered from 1 as the why numbers. */
#define _GNU_SOURCE
#include "uiutil.h"
#include "util/wrap.h"
#include "ui/layout.h"

/* The rows of s in width columns, joined by '|'. */
static const char *rows_of(const char *s, int width, char *out, size_t cap)
{
    const char *row;
    size_t len, at = 0;
    out[0] = 0;
    while (wrap_next(&s, width, &row, &len) && at + len + 2 < cap)
        at += (size_t)snprintf(out + at, cap - at, "%s%.*s", at ? "|" : "", (int)len, row);
    return out;
}

static void test_wrap_words_and_units(void **state)
{
    (void)state;
    char got[512];
    assert_string_equal(rows_of("one two three  four", 9, got, sizeof got), "one two|three|four");
    /* a number keeps its unit, a sentence's "=" what follows it */
    assert_string_equal(rows_of("a buffer of 64 KiB", 14, got, sizeof got), "a buffer of|64 KiB");
    assert_string_equal(rows_of("acc is live: 1 + 10 = 11.0 MiB.", 24, got, sizeof got),
                        "acc is live: 1 + 10|= 11.0 MiB.");
    assert_string_equal(rows_of("frees 2.0 MiB, then 3 ms (12%) later", 11, got, sizeof got),
                        "frees|2.0 MiB,|then 3 ms|(12%) later");
    assert_string_equal(rows_of("peak 103.6 MiB) and", 13, got, sizeof got), "peak|103.6 MiB)|and");
    /* a unit after a word, not a number, is an ordinary word */
    assert_string_equal(rows_of("the B side", 4, got, sizeof got), "the|B|side");
    /* a group longer than the row breaks at a space all the same; a word longer, cut */
    assert_string_equal(rows_of("12345 MiB", 6, got, sizeof got), "12345|MiB");
    assert_string_equal(rows_of("fiftyfifty", 4, got, sizeof got), "fift|yfif|ty");
    /* columns are characters, not bytes */
    assert_string_equal(rows_of("caf\xc3\xa9 caf\xc3\xa9", 9, got, sizeof got),
                        "caf\xc3\xa9 caf\xc3\xa9");
    assert_int_equal(wrap_count("", 9), 0);
    assert_int_equal(wrap_count("   ", 9), 0);
    assert_int_equal(wrap_count("a b c", 0), 3); /* under 1 column counts as 1 */
}

/* layout_wrap draws the wrapper's rows, the last shortened with a mark where rows run out,
 * never between a number and its unit. */
static void test_layout_wrap_rows(void **state)
{
    (void)state;
    canvas cv;
    assert_int_equal(canvas_init(&cv, 20, 3, 1), 0);
    assert_int_equal(layout_wrap(&cv, 0, 0, 14, 3, ST_NORMAL, "a buffer of 64 KiB is live"), 2);
    char line[64];
    for (int x = 0; x < 14; x++) line[x] = (char)cv.c[x].ch;
    line[14] = 0;
    assert_string_equal(line, "a buffer of   ");
    for (int x = 0; x < 14; x++) line[x] = (char)cv.c[20 + x].ch;
    assert_string_equal(line, "64 KiB is live");
    assert_int_equal(layout_wrap(NULL, 0, 0, 14, 1, ST_NORMAL, "a buffer of 64 KiB is live"), 1);
    assert_int_equal(layout_wrap(NULL, 0, 0, 14, 9, ST_NORMAL, ""), 0);
    canvas_free(&cv);
}

/* Row y of a rendered screen (its text part), trailing spaces dropped. */
static const char *screen_row(const char *screen, int y, char *out, size_t cap)
{
    const char *p = screen;
    for (int i = 0; i < y && p; i++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    assert_non_null(p);
    size_t n = (size_t)(strchr(p, '\n') - p);
    snprintf(out, cap, "%.*s", (int)n, p);
    n = strlen(out);
    while (n && out[n - 1] == ' ') out[--n] = 0;
    return out;
}

/* The why panel's rows, each less its margin, joined by a space. */
static const char *why_rows(const app *a, const char *screen, char *out, size_t cap)
{
    rect r = a->lay.r[P_WHY];
    size_t at = 0;
    out[0] = 0;
    for (int y = r.y; y < r.y + r.h; y++) {
        char row[1024];
        screen_row(screen, y, row, sizeof row);
        at += (size_t)snprintf(out + at, cap - at, "%s%s", at ? " " : "", row + 1);
    }
    return out;
}

/* The why line at 80x24 says the whole reason in the rows it takes from the panels above (the
 * lesson's stop 2 points at it): priority's pop at step 5 of the demo in compare mode, and a
 * step later, when it needs one row, the panels have their rows back. */
static void test_why_whole(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    app_resize(a, 80, 24);
    app_jump(a, 5);
    assert_int_equal(app_why_follow(a), APP_REDRAW);
    assert_true(strlen(a->why[0]) > 80);
    size_t len;
    char *screen = render(a, 80, 24, 1, 0, &len), got[1024];
    assert_int_equal(a->lay.r[P_WHY].h, 2);
    assert_string_equal(why_rows(a, screen, got, sizeof got), a->why[0]);
    assert_int_equal(a->lay.r[P_HINTS].y, 23);
    assert_int_equal(a->lay.r[P_READY2].y + a->lay.r[P_READY2].h, 21); /* a row less */
    free(screen);
    app_jump(a, 0);
    app_key(a, K_ESC); /* any key: the layout follows the why */
    assert_int_equal(a->lay.r[P_WHY].h, 1);
    assert_int_equal(a->lay.r[P_READY2].y + a->lay.r[P_READY2].h, 22);
    close_app(&f);
}

/* A one-shot message wraps in the why's rows as the why does: its first form that fits them
 * whole, the rows given back once a key takes it away. */
static void test_message_wraps(void **state)
{
    (void)state;
    fixture f;
    app *a = open_sized(&f, "demo.json", 80, 24);
    static const char msg[] = "a message longer than a row of the screen, so that it takes two "
                              "rows of the why line: 64 KiB freed at step 12";
    snprintf(a->msg, sizeof a->msg, "%s", msg); /* one form: wrapped */
    assert_int_equal(app_why_follow(a), APP_REDRAW);
    assert_int_equal(a->lay.r[P_WHY].h, 2);
    size_t len;
    char *screen = render(a, 80, 24, 1, 0, &len), got[1024];
    assert_string_equal(why_rows(a, screen, got, sizeof got), msg);
    free(screen);
    /* A shorter form that fits one row is shown before a longer one is wrapped: the panels
     * keep their rows. */
    snprintf(a->msg, sizeof a->msg, "%s%cthe short form", msg, APP_MSG_ALT);
    screen = render(a, 80, 24, 1, 0, &len);
    assert_int_equal(a->lay.r[P_WHY].h, 1);
    assert_string_equal(why_rows(a, screen, got, sizeof got), "the short form");
    free(screen);
    screen = render(a, 60, 16, 1, 0, &len); /* no row to spare: the form that fits one */
    assert_int_equal(a->lay.r[P_WHY].h, 1);
    assert_string_equal(why_rows(a, screen, got, sizeof got), "the short form");
    free(screen);
    app_resize(a, 80, 24);
    app_key(a, K_ESC);
    assert_int_equal(a->lay.r[P_WHY].h, 1);
    close_app(&f);
}

/* w on the two-buffer graph at 80x24: both buffers by their ALLOC names, largest first, never
 * "and 2 more" for a graph with 2 buffers. */
static void test_better_names_two_buffers(void **state)
{
    (void)state;
    fixture f;
    f.g = tu_load_sample("greedy-not-optimal.json", NULL);
    app *a = &f.a;
    assert_int_equal(
        app_init(a, f.g, "g", policy_find("exact"), policy_find("priority"), 1, NULL, NULL), 0);
    app_resize(a, 80, 24);
    app_key(a, 'w');
    assert_true(a->better);
    size_t len;
    char *screen = render(a, 80, 24, 1, 0, &len);
    assert_non_null(strstr(screen, "priority holds 2 buffers exact does not,"));
    const char *tmp = strstr(screen, "10.0 MiB  tmp"), *acc = strstr(screen, "1.0 MiB  acc");
    if (!tmp || !acc) fail_msg("no names in:\n%s", screen);
    assert_true(tmp < acc); /* the largest first */
    assert_null(strstr(screen, "more ("));
    free(screen);
    close_app(&f);
}

/* w on the demo: fifo's four buffers by name at 80x24 and at 120x40, where the room left also
 * says where the orders part and why; in 9 rows, the names that fit and "and N more (X)". */
static void test_better_names_demo(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    app_key(a, 'w');
    static const char *const names[] = {"2.0 MiB  stem.conv", "2.0 MiB  block1.proj",
                                        "2.0 MiB  block2.b2.reduce", "1.5 MiB  block2.b3.pool"};
    size_t len;
    for (int big = 0; big < 2; big++) {
        char *screen = render(a, big ? 120 : 80, big ? 40 : 24, 1, 0, &len);
        for (size_t i = 0; i < 4; i++)
            if (!strstr(screen, names[i])) fail_msg("no '%s' in:\n%s", names[i], screen);
        assert_null(strstr(screen, "more ("));
        assert_int_equal(big, strstr(screen, "priority took node 41: change -1.0 MiB") != NULL);
        free(screen);
    }
    /* a short panel: the first names, then the rest in a row of their own */
    char *screen = render(a, 80, 17, 1, 0, &len);
    assert_non_null(strstr(screen, "stem.conv"));
    if (!strstr(screen, "and 3 more (5.5 MiB)") && !strstr(screen, "and 2 more (3.5 MiB)"))
        fail_msg("no 'and N more' in:\n%s", screen);
    free(screen);
    close_app(&f);
}

/* The ready queue keeps its name and key columns where the sizes are wide (a training step's
 * priority keys), in compare mode's narrow panels too; the change and the id go first. */
static void test_queue_keeps_name_and_key(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "resnet18_train.json", 0);
    app *a = &f.a;
    app_jump(a, 600);
    for (int cmp = 0; cmp < 2; cmp++) {
        size_t len;
        char *screen = render(a, 80, 24, 1, 0, &len), row[512];
        rect r = a->lay.r[cmp ? P_READY2 : P_READY]; /* priority's queue */
        screen_row(screen, r.y + 1, row, sizeof row);
        if (!strstr(row, "name") || !(strstr(row, "key") || strstr(row, "(change,type,id)")))
            fail_msg("the queue's header lacks the name or the key: %s", row);
        screen_row(screen, r.y + 2, row, sizeof row);
        long long change, id;
        int type;
        int whole = 0; /* (change,type,id), in the queue's columns left of the curve's */
        for (const char *key = strchr(row, '('); key && !whole; key = strchr(key + 1, '('))
            whole = sscanf(key, "(%lld,%d,%lld)", &change, &type, &id) == 3;
        if (!whole) fail_msg("the first row lacks its whole key: %s", row);
        free(screen);
        if (!cmp) app_key(a, 'c');
    }
    close_app(&f);
}

/* One numbering from 1: fifo's queued key in the queue is the why's "queued 8th". */
static void test_queued_from_one(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, "demo.json", 1);
    app *a = &f.a;
    app_jump(a, 5);
    char why[512];
    assert_non_null(strstr(app_part_why(a, 1, why, sizeof why), "beats node 41's 8th"));
    size_t len;
    char *screen = render(a, 120, 40, 1, 0, &len), row[512];
    rect r = a->lay.r[P_READY]; /* fifo's queue */
    int found = 0;
    for (int y = r.y + 2; y < r.y + r.h - 1; y++) {
        screen_row(screen, y, row, sizeof row);
        if (strstr(row, " 41 ")) found = strstr(row, "(8)") != NULL ? 1 : -1;
    }
    if (found != 1) fail_msg("node 41 is not queued (8) in:\n%s", screen);
    free(screen);
    close_app(&f);
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrap_words_and_units),
        cmocka_unit_test(test_layout_wrap_rows),
        cmocka_unit_test(test_why_whole),
        cmocka_unit_test(test_message_wraps),
        cmocka_unit_test(test_better_names_two_buffers),
        cmocka_unit_test(test_better_names_demo),
        cmocka_unit_test(test_queue_keeps_name_and_key),
        cmocka_unit_test(test_queued_from_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
