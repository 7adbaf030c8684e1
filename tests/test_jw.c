/* test_jw.c: util/jw.h's fast paths write what its general ones do: strings
 * with nothing to escape copied whole, and every other byte through
 * json_string_to; keys, integers, doubles and [a, b] pairs at every offset of
 * a small buffer (so each piece meets a flush); jw_file_big's document. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "util/json.h"
#include "util/jw.h"

typedef struct text {
    char p[1 << 16];
    size_t n;
} text;

static int to_text(void *ctx, const char *d, size_t n)
{
    text *t = ctx;
    assert_true(t->n + n < sizeof t->p);
    memcpy(t->p + t->n, d, n);
    t->n += n;
    t->p[t->n] = 0;
    return 0;
}

static void put(void *ctx, const char *p, size_t n) { to_text(ctx, p, n); }

/* s as json_string_to writes it, and as jw_string does through a buffer of cap bytes. */
static void check_string(const char *s, size_t cap)
{
    static text want, got;
    want.n = got.n = 0;
    json_string_to(s, put, &want);
    char mem[256];
    outbuf o;
    outbuf_init(&o, mem, cap, to_text, &got);
    jw w;
    jw_init(&w, &o);
    jw_string(&w, s);
    outbuf_flush(&o);
    assert_int_equal(got.n, want.n);
    assert_memory_equal(got.p, want.p, want.n);
}

static void strings_as_json_string(void **state)
{
    (void)state;
    char s[8];
    for (int c = 1; c < 256; c++) { /* every byte alone and inside plain text */
        snprintf(s, sizeof s, "%c", c);
        check_string(s, 256);
        snprintf(s, sizeof s, "ab%cd", c);
        check_string(s, 256);
    }
    check_string("", 256);
    check_string("conv1.weight.grad_input2", 256);
    check_string("caf\xc3\xa9 \xe4\xb8\xad \xc2\x9b \xff", 256);
    uint64_t r = 5;
    for (int i = 0; i < 20000; i++) { /* random text, half of it plain ASCII, small buffers */
        char t[40];
        size_t n = 1 + (size_t)i % 38;
        for (size_t k = 0; k < n; k++) {
            r = r * 6364136223846793005u + 1442695040888963407u;
            unsigned b = (unsigned)(r >> 56);
            t[k] = (char)(i & 1 ? 0x20 + b % 95 : 1 + b % 255);
        }
        t[n] = 0;
        check_string(t, 1 + (size_t)i % 64);
    }
}

/* One document of keys, integers, doubles, pairs and strings through a buffer of cap bytes. */
static void document(text *t, size_t cap)
{
    char mem[256];
    outbuf o;
    outbuf_init(&o, mem, cap, to_text, t);
    jw w;
    jw_init(&w, &o);
    jw_object(&w);
    jw_kint(&w, "min", INT64_MIN);
    jw_kuint(&w, "max", UINT64_MAX);
    jw_kg(&w, "ms", 3609.696347, 12);
    jw_kg(&w, "third", 1.0 / 3, 17);
    jw_kstring(&w, "name", "rw.node0.out");
    jw_key(&w, "Edges");
    jw_array(&w);
    jw_break(&w, "\n");
    jw_pair(&w, 0, 1);
    jw_pair(&w, INT64_MAX, INT64_MIN);
    jw_break(&w, "\n");
    jw_pair(&w, -7, 123456789);
    jw_array_end(&w);
    jw_object_end(&w);
    jw_end(&w);
}

static void pieces_at_every_offset(void **state)
{
    (void)state;
    const char *want = "{\"min\": -9223372036854775808, \"max\": 18446744073709551615, \"ms\": "
                       "3609.696347, \"third\": 0.33333333333333331, \"name\": \"rw.node0.out\", "
                       "\"Edges\": [\n[0, 1], [9223372036854775807, -9223372036854775808],\n"
                       "[-7, 123456789]]}\n";
    for (size_t cap = 1; cap <= 256; cap++) {
        static text t;
        t.n = 0;
        document(&t, cap);
        assert_string_equal(t.p, want);
    }
}

static void file_big_document(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    jw w;
    jw_file_big(&w, f);
    jw_array(&w);
    for (int64_t i = 0; i < 100000; i++) jw_int(&w, i * 1000003);
    jw_array_end(&w);
    assert_int_equal(jw_end(&w), 0);
    fclose(f);
    char *p = buf;
    assert_int_equal(*p++, '[');
    for (int64_t i = 0; i < 100000; i++) {
        char want[32];
        int k = snprintf(want, sizeof want, "%s%" PRId64, i ? ", " : "", i * 1000003);
        assert_memory_equal(p, want, (size_t)k);
        p += k;
    }
    assert_string_equal(p, "]\n");
    free(buf);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strings_as_json_string),
        cmocka_unit_test(pieces_at_every_offset),
        cmocka_unit_test(file_big_document),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
