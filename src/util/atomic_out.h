/* atomic_out.h: an output file that is whole or absent. A regular file (or
 * a name not there yet) is written to a temporary file beside it
 * (".NAME.XXXXXX" in the same folder, with the old file's permissions, or
 * 0666 less the umask for a new one) and renamed over it only once complete
 * and synced; an error, atomic_out_abandon, or SIGINT, SIGTERM or SIGHUP
 * while it is written removes the temporary file and leaves the old one as
 * it was. A device, a FIFO or a folder that cannot hold the temporary file
 * (not writable) is written in place, as fopen(path, "w") would. The
 * temporary file is flock(2)ed while it lives, and opening a target first
 * removes the temporary files a killed writer of it left (atomic_sweep.h).
 * Exports atomic_out_*. */
#ifndef MEMTRIS_ATOMIC_OUT_H
#define MEMTRIS_ATOMIC_OUT_H
#include <limits.h>
#include <stdio.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

typedef enum {
    ATOMIC_OUT_TEMP,    /* a temporary file renamed over target on commit */
    ATOMIC_OUT_DEVICE,  /* not a regular file: written in place */
    ATOMIC_OUT_IN_PLACE /* a regular file whose folder refused a temporary file */
} atomic_out_mode;

typedef struct atomic_out {
    FILE *f;
    atomic_out_mode mode;
    int slot; /* the signal handler's entry for temp, or -1 */
    int lock; /* a copy of temp's descriptor holding its flock, or -1 */
    char target[PATH_MAX];
    char temp[PATH_MAX];
} atomic_out;

/* Opens path for writing: 0, or -1 with errno set (nothing made). While a
 * temporary file is open, SIGINT, SIGTERM and SIGHUP, where they have their
 * default action, remove it before they end the process (one that is
 * ignored stays ignored; a program's own handler that ends the process calls
 * atomic_out_unlink_temps first). */
int atomic_out_open(atomic_out *o, const char *path);
/* Why atomic_out_open(path) would fail, as far as a look that writes
 * nothing tells (an errno: EISDIR, EACCES, ENOENT for a missing folder,
 * ENOTDIR, ...), or 0; for checking an output before any work. */
int atomic_out_refusal(const char *path);
/* Flushes, syncs and closes, then renames the temporary file over the
 * target: 0, or -1 with errno set, the temporary file removed and the old
 * target untouched (written in place: a regular file is removed). */
int atomic_out_commit(atomic_out *o);
/* Closes and removes what was written: the temporary file (the old target
 * untouched), or a regular file written in place. */
void atomic_out_abandon(atomic_out *o);
/* Removes every temporary file open now; async-signal-safe, for a handler
 * about to end the process. */
void atomic_out_unlink_temps(void);

#endif
