/* atomic_sweep.c: stale temporary files of atomic_out removed by the next
 * writer of their target, and the lock that tells a live writer's file
 * apart (atomic_sweep.h). Exports atomic_sweep, atomic_sweep_lock. */
#define _GNU_SOURCE
#include "atomic_sweep.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define SUFFIX 6 /* the characters mkstemp puts for "XXXXXX" */

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int atomic_sweep_lock(int fd, const char *name)
{
    int rc;
    while ((rc = flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {}
    if (rc) return errno == EWOULDBLOCK ? 1 : 0; /* ENOLCK, EOPNOTSUPP...: no locks here */
    /* a sweep that locked the file between mkstemp and here unlinked it
     * before it let go: the name then leads nowhere (or elsewhere) */
    struct stat mine, now;
    if (fstat(fd, &mine) || lstat(name, &now) || !same_file(&mine, &now)) return 1;
    return 0;
}

/* Whether the folder open as dirfd is on a file system whose locks may not
 * be seen by every host that writes in it. */
static int networked(int dirfd)
{
    static const unsigned long types[] = {
        0x6969,     /* NFS */
        0x517B,     /* SMB */
        0xFF534D42, /* CIFS */
        0xFE534D42, /* SMB2 */
        0x00C36400, /* Ceph */
        0x0BD00BD0, /* Lustre */
        0x5346414F, /* AFS */
        0x6B414653, /* kAFS */
        0x73757245, /* Coda */
        0x01021997, /* 9P */
        0x65735546, /* FUSE (sshfs and the like) */
        0x564C,     /* NCP */
    };
    struct statfs fs;
    if (fstatfs(dirfd, &fs)) return 1; /* unknown: as if networked */
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if ((unsigned long)fs.f_type == types[i]) return 1;
    return 0;
}

/* Whether name is prefix and SUFFIX letters or digits, as mkstemp makes. */
static int temp_named(const char *name, const char *prefix, size_t plen)
{
    if (strlen(name) != plen + SUFFIX || strncmp(name, prefix, plen)) return 0;
    for (const char *c = name + plen; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
            return 0;
    return 1;
}

/* Removes name in dirfd if it is a stale temporary file: 1, else 0. */
static int sweep_one(int dirfd, const char *name)
{
    struct stat st, locked;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode) ||
        st.st_uid != geteuid() || st.st_nlink != 1)
        return 0;
    int flags = O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
    int fd = openat(dirfd, name, O_RDONLY | flags);
    if (fd < 0) fd = openat(dirfd, name, O_WRONLY | flags); /* a write-only mode (no O_TRUNC) */
    if (fd < 0) return 0;
    int gone = 0;
    /* the file opened is the one looked at; no live writer holds its lock;
     * and, locked, the name still leads to it: unlinked before the lock
     * goes (until then the name is taken, so no mkstemp can make another
     * file of it in between) */
    if (!fstat(fd, &locked) && same_file(&st, &locked) && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        !fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && same_file(&st, &locked))
        gone = unlinkat(dirfd, name, 0) == 0;
    close(fd);
    return gone;
}

int atomic_sweep(const char *dir, const char *template)
{
    size_t plen = strlen(template);
    if (plen <= SUFFIX || strcmp(template + plen - SUFFIX, "XXXXXX")) return 0;
    plen -= SUFFIX;
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0) return 0;
    int list = networked(dirfd) ? -1 : fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
    DIR *d = list >= 0 ? fdopendir(list) : NULL;
    if (!d && list >= 0) close(list);
    int removed = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (temp_named(e->d_name, template, plen)) removed += sweep_one(dirfd, e->d_name);
    if (d) closedir(d);
    close(dirfd);
    return removed;
}
