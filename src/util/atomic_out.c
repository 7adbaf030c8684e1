/* atomic_out.c: output files that are whole or absent (atomic_out.h). */
#define _GNU_SOURCE
#include "atomic_out.h"
#include "atomic_sweep.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary files open now, for the signal handler: a slot's name is
 * made by mkstemp in place after the slot is marked live, so that a signal
 * at any moment finds every file made (or a name that is not there yet). */
#define NSLOTS 8
static char temps[NSLOTS][PATH_MAX];
static volatile sig_atomic_t live[NSLOTS];
static int nlive;

static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSIGNALS (sizeof signals / sizeof signals[0])
static int ours[NSIGNALS]; /* the handler below is installed (over SIG_DFL) */

void atomic_out_unlink_temps(void)
{
    for (int i = 0; i < NSLOTS; i++)
        if (live[i]) unlink(temps[i]);
}

static void on_signal(int sig)
{
    atomic_out_unlink_temps();
    /* the default action, delivered when this handler returns */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    raise(sig);
}

/* Installs on_signal where a signal has its default action. */
static void catch_signals(void)
{
    for (size_t i = 0; i < NSIGNALS; i++) {
        struct sigaction sa, old;
        if (ours[i] || sigaction(signals[i], NULL, &old) || old.sa_handler != SIG_DFL) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        ours[i] = sigaction(signals[i], &sa, NULL) == 0;
    }
}

/* Gives the default action back where on_signal is still installed. */
static void release_signals(void)
{
    for (size_t i = 0; i < NSIGNALS; i++) {
        struct sigaction old;
        if (!ours[i] || sigaction(signals[i], NULL, &old)) continue;
        ours[i] = 0;
        if (old.sa_handler != on_signal) continue; /* someone else's now */
        old.sa_handler = SIG_DFL;
        sigaction(signals[i], &old, NULL);
    }
}

/* A free slot marked live with name (a mkstemp template), or -1. */
static int take_slot(const char *name)
{
    for (int i = 0; i < NSLOTS; i++) {
        if (live[i]) continue;
        memcpy(temps[i], name, strlen(name) + 1);
        atomic_signal_fence(memory_order_seq_cst); /* the name before the mark */
        live[i] = 1;
        if (nlive++ == 0) catch_signals();
        return i;
    }
    return -1;
}

/* Ends o's temporary file's time: its slot, and its lock (let go after
 * the rename or the unlink). */
static void free_slot(atomic_out *o)
{
    if (o->lock >= 0) close(o->lock);
    o->lock = -1;
    if (o->slot < 0) return;
    live[o->slot] = 0;
    o->slot = -1;
    if (--nlive == 0) release_signals();
}

/* "DIR/.NAME.XXXXXX" beside target in o->temp: 0, or -1 (ENAMETOOLONG). */
static int temp_name(atomic_out *o)
{
    const char *slash = strrchr(o->target, '/');
    int dirlen = slash ? (int)(slash - o->target) + 1 : 0;
    const char *base = slash ? slash + 1 : o->target;
    /* the name stays within NAME_MAX (255) with its dot and suffix */
    int n = snprintf(o->temp, sizeof o->temp, "%.*s.%.200s.XXXXXX", dirlen, o->target, base);
    if (n < 0 || (size_t)n >= sizeof o->temp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

/* The permissions a new file gets from fopen: 0666 less the umask. */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

static int open_in_place(atomic_out *o, const char *path, atomic_out_mode mode)
{
    o->mode = mode;
    o->f = fopen(path, "w");
    return o->f ? 0 : -1;
}

static int folder_of(const char *path, char *dir, size_t cap);

/* Makes the temporary file o->temp (a template) with its lock held (see
 * atomic_sweep.h), in o->slot: its descriptor, or -1 with errno set. */
static int make_locked(atomic_out *o)
{
    char template[PATH_MAX];
    memcpy(template, o->temp, sizeof template);
    for (int tries = 0; tries < 100; tries++) {
        memcpy(o->temp, template, sizeof template);
        int slot = take_slot(o->temp);
        int fd = mkostemp(slot >= 0 ? temps[slot] : o->temp, O_CLOEXEC);
        if (slot >= 0) memcpy(o->temp, temps[slot], sizeof o->temp);
        o->slot = slot;
        if (fd < 0 || !atomic_sweep_lock(fd, o->temp)) return fd;
        /* a sweep took it between mkstemp and the lock, and removed it */
        close(fd);
        free_slot(o);
    }
    errno = EBUSY;
    return -1;
}

/* Makes the temporary file for o->target (exists: its stat), first
 * removing the stale ones a killed writer left: 0, -1 with errno, or 1
 * when the folder refuses it (write in place instead). */
static int open_temp(atomic_out *o, const struct stat *old)
{
    if (temp_name(o)) return -1;
    char dir[PATH_MAX];
    const char *base = strrchr(o->temp, '/');
    if (!folder_of(o->target, dir, sizeof dir)) atomic_sweep(dir, base ? base + 1 : o->temp);
    int fd = make_locked(o);
    if (fd < 0) {
        int e = errno;
        free_slot(o);
        errno = e;
        return e == EACCES || e == EPERM || e == EROFS ? 1 : -1;
    }
    /* the lock stays with a copy of fd until the rename (fclose comes first) */
    o->lock = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (old && (old->st_uid != geteuid() || old->st_gid != getegid()))
        (void)!fchown(fd, old->st_uid, old->st_gid); /* where allowed */
    if (fchmod(fd, old ? old->st_mode & 07777 : new_file_mode()) || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlink(o->temp);
        free_slot(o);
        errno = e;
        return -1;
    }
    o->mode = ATOMIC_OUT_TEMP;
    return 0;
}

int atomic_out_open(atomic_out *o, const char *path)
{
    o->f = NULL;
    o->slot = -1;
    o->lock = -1;
    o->temp[0] = 0;
    if (!*path) {
        errno = ENOENT; /* as fopen("") */
        return -1;
    }
    struct stat st, lst;
    int exists = stat(path, &st) == 0;
    if (!exists && errno != ENOENT) return open_in_place(o, path, ATOMIC_OUT_DEVICE);
    if (exists && !S_ISREG(st.st_mode)) return open_in_place(o, path, ATOMIC_OUT_DEVICE);
    /* a file fopen could not write stays so (renaming over it could) */
    if (exists && eaccess(path, W_OK)) return -1;
    int is_link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
    /* through a symbolic link: its target is replaced, the link kept; one
     * that leads nowhere yet is written as fopen would */
    if (is_link && (!exists || !realpath(path, o->target)))
        return open_in_place(o, path, ATOMIC_OUT_DEVICE);
    if (!is_link) {
        if (strlen(path) >= sizeof o->target) {
            errno = ENAMETOOLONG;
            return -1;
        }
        strcpy(o->target, path);
    }
    int rc = open_temp(o, exists ? &st : NULL);
    if (rc == 1) return open_in_place(o, path, ATOMIC_OUT_IN_PLACE);
    return rc;
}

/* The folder that holds path, in dir: 0, or ENAMETOOLONG. */
static int folder_of(const char *path, char *dir, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, cap, ".");
    else if ((size_t)(slash - path) >= cap) return ENAMETOOLONG;
    else snprintf(dir, cap, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    return 0;
}

/* Best effort: the rename itself on disk. */
static void sync_folder(const char *target)
{
    char dir[PATH_MAX];
    if (folder_of(target, dir, sizeof dir)) return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    (void)fsync(fd);
    close(fd);
}

int atomic_out_refusal(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return EISDIR;
        if (S_ISREG(st.st_mode) && eaccess(path, W_OK)) return errno;
        return 0; /* a device or a FIFO: opened as it is */
    }
    if (errno != ENOENT) return errno;
    /* a new file: its folder must be there and writable */
    char dir[PATH_MAX];
    if (folder_of(path, dir, sizeof dir)) return ENAMETOOLONG;
    if (stat(dir, &st)) return errno;
    if (!S_ISDIR(st.st_mode)) return ENOTDIR;
    if (eaccess(dir, W_OK | X_OK)) return errno;
    return 0;
}

int atomic_out_commit(atomic_out *o)
{
    int e = 0;
    errno = 0;
    if (fflush(o->f) || ferror(o->f)) e = errno ? errno : EIO;
    if (!e && o->mode == ATOMIC_OUT_TEMP && fsync(fileno(o->f))) e = errno;
    if (fclose(o->f) && !e) e = errno ? errno : EIO;
    o->f = NULL;
    if (!e && o->mode == ATOMIC_OUT_TEMP && rename(o->temp, o->target)) e = errno;
    if (e) {
        if (o->mode == ATOMIC_OUT_TEMP) unlink(o->temp);
        else if (o->mode == ATOMIC_OUT_IN_PLACE) unlink(o->target);
        free_slot(o);
        errno = e;
        return -1;
    }
    free_slot(o);
    if (o->mode == ATOMIC_OUT_TEMP) sync_folder(o->target);
    return 0;
}

void atomic_out_abandon(atomic_out *o)
{
    if (!o->f) return;
    fclose(o->f);
    o->f = NULL;
    if (o->mode == ATOMIC_OUT_TEMP) unlink(o->temp);
    else if (o->mode == ATOMIC_OUT_IN_PLACE) unlink(o->target);
    free_slot(o);
}
