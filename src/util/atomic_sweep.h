/* atomic_sweep.h: the temporary files of atomic_out that a process killed
 * outright (SIGKILL, a crash, a power cut) left beside a target, found and
 * removed by the next writer of that target (atomic_sweep.c). Exports
 * atomic_sweep, atomic_sweep_lock. */
#ifndef MEMTRIS_ATOMIC_SWEEP_H
#define MEMTRIS_ATOMIC_SWEEP_H

/* Removes the stale temporary files of template (".NAME.XXXXXX", as
 * atomic_out makes them) in the folder dir: each entry named ".NAME." and six letters
 * or digits that is a regular file of one link, owned by this user, on
 * which an exclusive flock(2) is free (a live writer holds one until its
 * rename, and the kernel drops it when the writer dies), unlinked while
 * that lock is held and only if the name still leads to the file locked.
 * Nothing is removed on a network file system (NFS, SMB, Ceph, Lustre,
 * AFS, 9P, FUSE), where a lock taken on one host may be unseen on another.
 * Best effort: returns the number of files removed. */
int atomic_sweep(const char *dir, const char *template);

/* Takes the writer's lock on fd, the temporary file just made as name:
 * 0 (held, or this file system has no locks), or 1 when a sweep locked
 * it first and removed it (the caller closes fd and makes another). */
int atomic_sweep_lock(int fd, const char *name);

#endif
