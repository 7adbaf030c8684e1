/* units.h: byte counts in human units (B, KiB, MiB, GiB, TiB, PiB, EiB), both ways (sizes read
 * exactly), and times in milliseconds. */
#ifndef MEMTRIS_UNITS_H
#define MEMTRIS_UNITS_H
#include <stddef.h>
#include <stdint.h>

/* "512 B", "3.1 MiB"; with sign set, "+3.1 MiB" / "-3.1 MiB" / "0 B". Returns out. */
char *units_bytes(char *out, size_t cap, int64_t bytes, int sign);

/* x as units_bytes writes it, and where y, said beside it, would read the same but differs
 * ("8.0 PiB" beside "8.0 PiB"), with its bytes after it: "8.0 PiB (9007199254740992 bytes)".
 * Returns out. */
char *units_bytes_beside(char *out, size_t cap, int64_t x, int64_t y);

/* A size as people write it, read exactly (no double on the way): digits, and a unit, B, K,
 * KB, KiB, M, MB, MiB, G..., T..., P..., E... (case ignored; every prefix binary: 1 KB = 1024
 * B); no unit (or B) means bytes, a whole number; with a prefix, decimals after a point may
 * follow the digits (1.5G), the bytes rounded down. Spaces may stand around the number and
 * between it and its unit ("8 MiB", as memtris writes sizes); no sign, exponent or hex.
 * Returns the bytes, or -1 for anything else or past 2^63 - 1. */
int64_t units_parse(const char *s);

/* A time given in ms, as people read it: "0 ms", "0.042 ms", "3.14 ms",
 * "314.2 ms", "12.35 s", "12.3 min", "52 h" (three or four significant
 * figures). Returns out. */
char *units_ms(char *out, size_t cap, double ms);
#endif
