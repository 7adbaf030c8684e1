/* check.c: what a failed MEMTRIS_ASSERT does (check.h). Exports check_fail. */
#include "check.h"
#include <stdio.h>
#include <stdlib.h>

void check_fail(const char *file, int line, const char *cond)
{
    fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, cond);
    fflush(stderr);
    abort();
}
