/* test_pickle.c: util/pickle.c alone: each type's exact bytes (the opcodes of
 * CPython's Lib/pickle.py, protocol 2), integers at the 32- and 64-bit edges,
 * UTF-8 kept and ill-formed bytes replaced, and a nested document. Every byte
 * string here is one that python3's pickle.loads reads back as the value the
 * comment gives. */
#include "testutil.h"
#include "util/pickle.h"

/* What a case wrote, and its length. */
static char out[4096];
static size_t outn;

static FILE *open_out(void)
{
    FILE *f = fmemopen(out, sizeof out, "wb");
    assert_non_null(f);
    return f;
}

static void close_out(FILE *f)
{
    outn = (size_t)ftell(f);
    assert_false(ferror(f));
    fclose(f);
}

static void expect(const char *bytes, size_t n)
{
    if (outn != n || memcmp(out, bytes, n)) {
        for (size_t i = 0; i < outn; i++) fprintf(stderr, "%02x ", (unsigned char)out[i]);
        fprintf(stderr, "(%zu bytes)\n", outn);
    }
    assert_int_equal(outn, n);
    assert_memory_equal(out, bytes, n);
}
#define EXPECT(lit) expect(lit, sizeof lit - 1)

static void int_bytes(int64_t v, const char *bytes, size_t n)
{
    FILE *f = open_out();
    pk_int(f, v);
    close_out(f);
    expect(bytes, n);
}
#define INT(v, lit) int_bytes(v, lit, sizeof lit - 1)

static void ints_at_the_edges(void **state)
{
    (void)state;
    INT(0, "J\0\0\0\0");
    INT(1, "J\x01\0\0\0");
    INT(-1, "J\xff\xff\xff\xff");
    INT(INT32_MAX, "J\xff\xff\xff\x7f");
    INT(INT32_MIN, "J\0\0\0\x80");
    /* LONG1: the fewest two's complement bytes, the top bit the sign. */
    INT((int64_t)INT32_MAX + 1, "\x8a\x05\0\0\0\x80\0");
    INT((int64_t)INT32_MIN - 1, "\x8a\x05\xff\xff\xff\x7f\xff");
    INT((int64_t)1 << 39, "\x8a\x06\0\0\0\0\x80\0");
    INT(-((int64_t)1 << 39), "\x8a\x05\0\0\0\0\x80");
    INT(0x7f0000000000, "\x8a\x06\0\0\0\0\0\x7f");
    INT(INT64_MAX, "\x8a\x08\xff\xff\xff\xff\xff\xff\xff\x7f");
    INT(INT64_MIN, "\x8a\x08\0\0\0\0\0\0\0\x80");
}

static void scalars(void **state)
{
    (void)state;
    FILE *f = open_out();
    pk_none(f);
    pk_bool(f, 1);
    pk_bool(f, 0);
    pk_float(f, 1.5);
    pk_float(f, -0.25);
    close_out(f);
    EXPECT("N\x88\x89G\x3f\xf8\0\0\0\0\0\0G\xbf\xd0\0\0\0\0\0\0");
}

static void strings_are_utf8(void **state)
{
    (void)state;
    FILE *f = open_out();
    pk_str(f, "");
    pk_str(f, "caf\xc3\xa9 \xf0\x9f\x98\x80");
    pk_str(f, "a\xff"
              "b");            /* ill-formed byte: U+FFFD */
    pk_str(f, "\xed\xa0\x80"); /* a surrogate: three U+FFFD */
    close_out(f);
    EXPECT("X\0\0\0\0"
           "X\x0a\0\0\0caf\xc3\xa9 \xf0\x9f\x98\x80"
           "X\x05\0\0\0a\xef\xbf\xbd"
           "b"
           "X\x09\0\0\0\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
}

/* {"a": [1, (True, None)], "b": {}, "c": [], "d": ()} */
static void nested_document(void **state)
{
    (void)state;
    FILE *f = open_out();
    pk_begin(f);
    pk_dict_begin(f);
    pk_str(f, "a");
    pk_list_begin(f);
    pk_int(f, 1);
    pk_tuple_begin(f);
    pk_bool(f, 1);
    pk_none(f);
    pk_tuple_end(f);
    pk_list_end(f);
    pk_str(f, "b");
    pk_dict_begin(f);
    pk_dict_end(f);
    pk_str(f, "c");
    pk_list_begin(f);
    pk_list_end(f);
    pk_str(f, "d");
    pk_tuple_begin(f);
    pk_tuple_end(f);
    pk_dict_end(f);
    pk_end(f);
    close_out(f);
    EXPECT("\x80\x02}(X\x01\0\0\0a](J\x01\0\0\0(\x88NteX\x01\0\0\0b}(uX\x01\0\0\0c](eX\x01\0\0\0d("
           "tu.");
}

static void key_helpers(void **state)
{
    (void)state;
    FILE *f = open_out();
    pk_key_int(f, "n", 7);
    pk_key_str(f, "s", "x");
    close_out(f);
    EXPECT("X\x01\0\0\0nJ\x07\0\0\0X\x01\0\0\0sX\x01\0\0\0x");
}

int main(int argc, char **argv)
{
    /* One test a line, for tests/CMakeLists.txt. */
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ints_at_the_edges),
        cmocka_unit_test(scalars),
        cmocka_unit_test(strings_are_utf8),
        cmocka_unit_test(nested_document),
        cmocka_unit_test(key_helpers),
    };
    // clang-format on
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
