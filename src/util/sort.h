/* sort.h: one in-place sort for arrays of any type, defined per type by a
 * macro so that the comparison inlines (the greedy placer sorts on every
 * query). Exports SORT_DEFINE. */
#ifndef MEMTRIS_SORT_H
#define MEMTRIS_SORT_H
#include <stdint.h>

/* Defines `static void NAME(TYPE *a, uint32_t k)`, which sorts a[0..k) so
 * that LESS(&a[i], &a[i - 1]) holds for no i; LESS(x, y) is an expression of
 * two `const TYPE *`. Insertion sort for short runs, else quicksort (median
 * of three), recursing on the smaller side and looping on the larger. Not
 * stable, but deterministic: equal elements always end in the same order
 * for the same input. */
#define SORT_DEFINE(NAME, TYPE, LESS)                                  \
    static void NAME(TYPE *a, uint32_t k)                              \
    {                                                                  \
        TYPE t;                                                        \
        while (k > 16) {                                               \
            TYPE *m = a + k / 2, *z = a + k - 1;                       \
            if (LESS(m, a)) {                                          \
                t = *m;                                                \
                *m = *a;                                               \
                *a = t;                                                \
            }                                                          \
            if (LESS(z, m)) {                                          \
                t = *z;                                                \
                *z = *m;                                               \
                *m = t;                                                \
                if (LESS(m, a)) {                                      \
                    t = *m;                                            \
                    *m = *a;                                           \
                    *a = t;                                            \
                }                                                      \
            }                                                          \
            TYPE pv = *m;                                              \
            uint32_t i = 0, j = k - 1;                                 \
            for (;;) {                                                 \
                while (LESS(&a[i], &pv)) i++;                          \
                while (LESS(&pv, &a[j])) j--;                          \
                if (i >= j) break;                                     \
                t = a[i];                                              \
                a[i] = a[j];                                           \
                a[j] = t;                                              \
                i++;                                                   \
                j--;                                                   \
            }                                                          \
            /* a[0..j] <= pv <= a[j+1..k) */                           \
            uint32_t left = j + 1, right = k - j - 1;                  \
            if (left < right) {                                        \
                NAME(a, left);                                         \
                a += left;                                             \
                k = right;                                             \
            } else {                                                   \
                NAME(a + left, right);                                 \
                k = left;                                              \
            }                                                          \
        }                                                              \
        for (uint32_t i = 1; i < k; i++) {                             \
            t = a[i];                                                  \
            uint32_t j = i;                                            \
            for (; j > 0 && LESS(&t, &a[j - 1]); j--) a[j] = a[j - 1]; \
            a[j] = t;                                                  \
        }                                                              \
    }

#endif
