/* check.h: MEMTRIS_ASSERT(cond), the internal invariants checked in the
 * sanitizer and fuzz builds (CMake defines MEMTRIS_CHECKS there) and compiled
 * out elsewhere. Exports check_fail and the MEMTRIS_ASSERT* macros. */
#ifndef MEMTRIS_CHECK_H
#define MEMTRIS_CHECK_H
#include <stdint.h>

/* Prints "FILE:LINE: invariant failed: COND" to stderr and aborts. */
_Noreturn void check_fail(const char *file, int line, const char *cond);

#ifdef MEMTRIS_CHECKS
#define MEMTRIS_CHECKING 1
/* On: a false cond stops the program where it was found. */
#define MEMTRIS_ASSERT(cond) ((cond) ? (void)0 : check_fail(__FILE__, __LINE__, #cond))
/* The same, but only at the 1st, 2nd, 4th, 8th... call counted in *ops
 * (a uint64_t): an O(n) check there, n at most the calls so far, costs O(1)
 * amortised per call. */
#define MEMTRIS_ASSERT_SAMPLED(ops, cond) (check_due(ops) ? MEMTRIS_ASSERT(cond) : (void)0)
static inline int check_due(uint64_t *ops)
{
    uint64_t n = ++*ops;
    return (n & (n - 1)) == 0;
}
#else
#define MEMTRIS_CHECKING                  0
/* Off: cond is compiled (so it stays correct) but never evaluated. */
#define MEMTRIS_ASSERT(cond)              ((void)(0 && (cond)))
#define MEMTRIS_ASSERT_SAMPLED(ops, cond) ((void)(0 && (ops) && (cond)))
#endif

#endif
