/* test_stateset.c: the set of bit-set states the exact searches keep
 * (util/stateset.h): numbers in the order added, finds against a model
 * through many adds and growths, a state written in the room for the next
 * one, clearing, and stateset_check catching corruption. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "util/stateset.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint32_t rnd(uint32_t n) /* uniform enough below n > 0 */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)((rng >> 16) % n);
}

#define W  3    /* words of a state */
#define NS 5000 /* states drawn */

/* State x of the draw: few bits set, so that many draws repeat. */
static void state_of(uint32_t x, uint64_t *b)
{
    memset(b, 0, W * sizeof *b);
    b[x % W] = (uint64_t)1 << (x % 61);
    b[(x / 7) % W] |= (uint64_t)1 << (x / 3 % 64);
}

static void numbers_in_the_order_added_through_growth(void **state)
{
    (void)state;
    stateset s;
    stateset_init(&s, W);
    uint32_t *num = malloc(NS * sizeof *num), *first = malloc(NS * sizeof *first), held = 0;
    assert_non_null(num);
    assert_non_null(first);
    assert_int_equal(stateset_find(&s, (uint64_t[W]){0}), UINT32_MAX); /* no room yet */
    for (uint32_t i = 0; i < NS; i++) num[i] = UINT32_MAX;
    for (uint32_t op = 0; op < 4 * NS; op++) {
        uint32_t x = rnd(NS);
        uint64_t b[W];
        state_of(x, b);
        uint32_t k = stateset_find(&s, b);
        if (num[x] != UINT32_MAX) { /* held: found, under its number */
            assert_int_equal(k, num[x]);
            continue;
        }
        if (k != UINT32_MAX) { /* another draw of the same bits */
            assert_memory_equal(stateset_at(&s, k), b, sizeof b);
            num[x] = k;
            continue;
        }
        if (s.n == s.cap) assert_int_equal(stateset_reserve(&s, s.cap ? 2 * s.cap : 4), 0);
        uint64_t *room = stateset_at(&s, s.n);
        memcpy(room, b, sizeof b);
        num[x] = stateset_add(&s, room); /* written in the room first */
        assert_int_equal(num[x], held);
        first[held++] = x;
        assert_int_equal(stateset_check(&s), 0);
    }
    assert_int_equal(s.n, held);
    assert_true(s.mask + 1 >= 2 * (size_t)s.cap);
    for (uint32_t i = 0; i < held; i++) { /* each at its number, whatever the growths */
        uint64_t b[W];
        state_of(first[i], b);
        assert_memory_equal(stateset_at(&s, i), b, sizeof b);
    }
    uint32_t cap = s.cap;
    stateset_clear(&s);
    assert_int_equal(s.n, 0);
    assert_int_equal(s.cap, cap);
    assert_int_equal(stateset_check(&s), 0);
    for (uint32_t i = 0; i < held; i++) {
        uint64_t b[W];
        state_of(first[i], b);
        assert_int_equal(stateset_find(&s, b), UINT32_MAX);
    }
    uint64_t b[W];
    state_of(first[held - 1], b);
    assert_int_equal(stateset_add(&s, b), 0); /* numbered from 0 again */
    assert_int_equal(stateset_find(&s, b), 0);
    stateset_free(&s);
    free(num);
    free(first);
}

static void reserve_sizes_the_table(void **state)
{
    (void)state;
    stateset s;
    stateset_init(&s, 1);
    assert_int_equal(stateset_reserve(&s, 264), 0);
    assert_int_equal(s.mask + 1, 1024); /* the least power of two at or above 2 cap */
    assert_int_equal(stateset_reserve(&s, 512), 0);
    assert_int_equal(s.mask + 1, 1024);
    assert_int_equal(stateset_reserve(&s, 513), 0);
    assert_int_equal(s.mask + 1, 2048);
    stateset_free(&s);
}

static void some_set(stateset *s)
{
    stateset_init(s, 2);
    assert_int_equal(stateset_reserve(s, 64), 0);
    for (uint64_t x = 0; x < 40; x++) stateset_add(s, (uint64_t[2]){x * 7919, x & 1});
    assert_int_equal(stateset_check(s), 0);
}

/* The slot of state i. */
static size_t slot_of(const stateset *s, uint32_t i)
{
    size_t h = 0;
    while (s->slot[h] != i) h++;
    return h;
}

static void check_catches_corruption(void **state)
{
    (void)state;
    stateset s;

    some_set(&s); /* a state in no slot */
    s.slot[slot_of(&s, 5)] = UINT32_MAX;
    assert_true(stateset_check(&s) > 0);
    stateset_free(&s);

    some_set(&s); /* a slot naming a state not held */
    s.slot[slot_of(&s, 5)] = 40;
    assert_true(stateset_check(&s) > 0);
    stateset_free(&s);

    some_set(&s); /* two states equal: the later one's path meets the first */
    memcpy(stateset_at(&s, 9), stateset_at(&s, 3), 2 * sizeof(uint64_t));
    assert_true(stateset_check(&s) > 0);
    stateset_free(&s);

    some_set(&s); /* a state changed in place: its slot is not on its path */
    stateset_at(&s, 7)[0] ^= 0x5555;
    assert_true(stateset_check(&s) > 0);
    stateset_free(&s);

    some_set(&s); /* more states than room */
    s.n = s.cap + 1;
    assert_true(stateset_check(&s) > 0);
    s.n = 0;
    stateset_free(&s);

    some_set(&s); /* a table smaller than twice the room */
    s.cap = (uint32_t)s.mask;
    assert_true(stateset_check(&s) > 0);
    stateset_free(&s);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers_in_the_order_added_through_growth),
        cmocka_unit_test(reserve_sizes_the_table),
        cmocka_unit_test(check_catches_corruption),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
