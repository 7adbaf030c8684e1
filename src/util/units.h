/* units.h: byte counts in human units (B, KiB, MiB, GiB, TiB, PiB, EiB), and
 * times in milliseconds. */
#ifndef MEMTRIS_UNITS_H
#define MEMTRIS_UNITS_H
#include <stddef.h>
#include <stdint.h>

/* "512 B", "3.1 MiB"; with sign set, "+3.1 MiB" / "-3.1 MiB" / "0 B". Returns out. */
char *units_bytes(char *out, size_t cap, int64_t bytes, int sign);

/* A size as people write it: a number (decimals allowed) and a unit, B, K,
 * KB, KiB, M, MB, MiB, G..., P... (case ignored; every prefix binary: 1 KB
 * = 1024 B), spaces around; no unit means bytes. Returns the bytes (rounded),
 * or -1 for anything else or past 2^63. */
int64_t units_parse(const char *s);

/* A time given in ms, as people read it: "0 ms", "0.042 ms", "3.14 ms",
 * "314.2 ms", "12.35 s", "12.3 min", "52 h" (three or four significant
 * figures). Returns out. */
char *units_ms(char *out, size_t cap, double ms);
#endif
