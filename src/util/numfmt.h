/* numfmt.h: numbers as text without printf in hot loops: decimal integers two
 * digits at a time, and doubles exactly as printf's %.*g writes them (a
 * proven fast path, snprintf for the rest). Exports numfmt_*. */
#ifndef MEMTRIS_NUMFMT_H
#define MEMTRIS_NUMFMT_H
#include <stddef.h>
#include <stdint.h>

/* Room numfmt_g needs: "%.*g" of any double with prec <= 17, and the NUL. */
#define NUMFMT_G_CAP 32

/* Writes v's decimal digits at out (room for 20, no NUL) and returns their end. */
char *numfmt_u64(char *out, uint64_t v);
/* Writes what snprintf(out, NUMFMT_G_CAP, "%.*g", prec, v) writes (1 <= prec
 * <= 17), NUL included, and returns its length. */
size_t numfmt_g(char *out, double v, int prec);
/* numfmt_g's fast path alone: its length, or 0 where it leaves v to snprintf
 * (tests compare the two). */
size_t numfmt_g_fast(char *out, double v, int prec);

#endif
