/* clock.c: seconds on the monotonic clock. */
#include "clock.h"
#include <time.h>

double clock_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
