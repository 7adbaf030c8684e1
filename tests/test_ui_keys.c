/* test_ui_keys.c: the TUI's key table (src/ui/app_keys.c) against man/memtris.1: every key it
 * binds is in KEYS, every key KEYS lists is bound, no key is bound twice in one mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ui/app_keys.h"

#define MAX_NAMES 256

typedef struct names {
    char name[MAX_NAMES][32];
    int n;
} names;

static void add(names *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->name[i], name)) return;
    size_t len = strlen(name);
    assert_true(s->n < MAX_NAMES && len < sizeof s->name[0]); /* a cut name would match wrongly */
    memcpy(s->name[s->n++], name, len + 1);
}

static int has(const names *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->name[i], name)) return 1;
    return 0;
}

/* The bold words of a .B or .BR line: .B's whole text, .BR's odd arguments
 * (troff's \- read as -). */
static void bold_words(const char *line, names *out)
{
    int alternate = !strncmp(line, ".BR ", 4);
    const char *p = line + (alternate ? 4 : 3);
    char words[16][64];
    int n = 0;
    while (*p && n < 16) {
        while (*p == ' ') p++;
        if (!*p || *p == '\n') break;
        int quoted = *p == '"';
        if (quoted) p++;
        int len = 0;
        while (*p && *p != '\n' && (quoted ? *p != '"' : *p != ' ')) {
            if (p[0] == '\\' && p[1] == '-') p++;
            if (len < 63) words[n][len++] = *p;
            p++;
        }
        if (quoted && *p == '"') p++;
        words[n++][len] = 0;
    }
    if (!alternate) { /* .B: one bold text, a key when it is one word */
        if (n == 1) add(out, words[0]);
        return;
    }
    for (int i = 0; i < n; i += 2) add(out, words[i]);
}

/* man/memtris.1's KEYS section: the keys its .TP tags name, and every bold
 * word in it. */
static void man_keys(names *tags, names *bold)
{
    char path[1024], line[1024];
    snprintf(path, sizeof path, "%s/man/memtris.1", MEMTRIS_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int in = 0, tag = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, ".SH ", 4)) {
            in = !strcmp(line, ".SH KEYS\n");
            continue;
        }
        if (!in) continue;
        if (!strncmp(line, ".TP", 3)) {
            tag = 1;
            continue;
        }
        if (!strncmp(line, ".B ", 3) || !strncmp(line, ".BR ", 4)) {
            bold_words(line, bold);
            if (tag) bold_words(line, tags);
        }
        tag = 0;
    }
    fclose(f);
    assert_true(tags->n > 20);
}

/* Whether row r binds an actual key (not "any key", not help words alone). */
static int binds(const app_key_row *r, int j)
{
    return r->act && j < APP_KEYS_MAX && r->keys[j] && r->keys[j] != APP_KEY_ANY;
}

static void test_table_keys_in_man(void **state)
{
    (void)state;
    static names tags, bold;
    man_keys(&tags, &bold);
    for (size_t i = 0; i < app_nkeys; i++)
        for (int j = 0; binds(&app_keys[i], j); j++) {
            char buf[32];
            const char *name = app_key_name(app_keys[i].keys[j], buf, sizeof buf);
            if (!has(&tags, name) && !has(&bold, name))
                fail_msg("key %s (row %zu of the key table) is not in man/memtris.1's KEYS", name,
                         i);
        }
}

static void test_man_keys_in_table(void **state)
{
    (void)state;
    static names tags, bold, table;
    man_keys(&tags, &bold);
    for (size_t i = 0; i < app_nkeys; i++)
        for (int j = 0; binds(&app_keys[i], j); j++) {
            char buf[32];
            add(&table, app_key_name(app_keys[i].keys[j], buf, sizeof buf));
        }
    for (int i = 0; i < tags.n; i++) {
        if (!strcmp(tags.name[i], "Mouse")) continue; /* clicks reach app_click, not the table */
        if (!has(&table, tags.name[i]))
            fail_msg("man/memtris.1's KEYS documents %s, which the key table does not bind",
                     tags.name[i]);
    }
}

static void test_bound_once_a_mode(void **state)
{
    (void)state;
    for (size_t i = 0; i < app_nkeys; i++)
        for (int j = 0; binds(&app_keys[i], j); j++)
            for (size_t k = i + 1; k < app_nkeys; k++)
                for (int l = 0; binds(&app_keys[k], l); l++)
                    if (app_keys[k].keys[l] == app_keys[i].keys[j] &&
                        (app_keys[k].modes & app_keys[i].modes))
                        fail_msg("key %d is bound by rows %zu and %zu in one mode",
                                 app_keys[i].keys[j], i, k);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) cmocka_set_test_filter(argv[i]);
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_keys_in_man),
        cmocka_unit_test(test_man_keys_in_table),
        cmocka_unit_test(test_bound_once_a_mode),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
