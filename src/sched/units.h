/* units.h: byte counts in human units (B, KiB, MiB, GiB, TiB, PiB, EiB). */
#ifndef MEMTRIS_UNITS_H
#define MEMTRIS_UNITS_H
#include <stddef.h>
#include <stdint.h>

/* "512 B", "3.1 MiB"; with sign set, "+3.1 MiB" / "-3.1 MiB" / "0 B". Returns out. */
char *units_bytes(char *out, size_t cap, int64_t bytes, int sign);

#endif
