/* clock.h: seconds on the monotonic clock, for limits and durations (never
 * the date). Exports clock_seconds. */
#ifndef MEMTRIS_CLOCK_H
#define MEMTRIS_CLOCK_H

/* Seconds since some fixed moment (CLOCK_MONOTONIC). */
double clock_seconds(void);

#endif
