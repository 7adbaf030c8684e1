/* fileio.c: whole inputs into memory (fileio.h). */
#define _GNU_SOURCE
#include "fileio.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The most bytes read into memory from a pipe or a device: half the
 * physical memory. */
static size_t read_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0) return SIZE_MAX;
    return (size_t)pages / 2 * (size_t)size;
}

/* 1 when the text read so far shows its first character (after white
 * space and a byte order mark) and it is not `first`. */
static int wrong_start(const char *t, size_t len, char first, int *looked)
{
    size_t i = len >= 3 && !memcmp(t, "\xEF\xBB\xBF", 3) ? 3 : 0;
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) i++;
    if (i == len) return 0;
    *looked = 1;
    return t[i] != first;
}

/* 1 (and why) when the regular file `was` at the start is not the file of
 * `len` bytes read: another process wrote, grew or shrank it meanwhile. */
static int file_changed(int fd, const struct stat *was, size_t len, char *why, size_t cap)
{
    struct stat now;
    if (fstat(fd, &now)) return 0;
    if ((uint64_t)now.st_size == len && now.st_size == was->st_size &&
        now.st_mtim.tv_sec == was->st_mtim.tv_sec && now.st_mtim.tv_nsec == was->st_mtim.tv_nsec)
        return 0;
    snprintf(why, cap,
             "the file changed while it was read (%lld bytes when opened, %zu read, %lld now); "
             "read it again once it is written",
             (long long)was->st_size, len, (long long)now.st_size);
    return 1;
}

fileio_status fileio_read(const char *path, char first, fileio_text *out, char *why, size_t cap)
{
    memset(out, 0, sizeof *out);
    out->text = "";
    int is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, cap, "cannot open: %s", strerror(errno));
        return FILEIO_CANNOT_OPEN;
    }
    struct stat st;
    memset(&st, 0, sizeof st);
    /* A regular file is read too, not mapped: a file that another process
     * shrinks while it is read then ends early (and fails to parse) instead
     * of killing memtris with SIGBUS. Its size is only the first guess of
     * the room needed, and no limit below it applies. */
    size_t hint = 0, max = read_limit();
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        hint = (uint64_t)st.st_size < SIZE_MAX - 1 ? (size_t)st.st_size + 1 : SIZE_MAX;
        if (hint > max) max = hint;
    }
    fileio_status status = FILEIO_OK;
    size_t len = 0, room = 0;
    char *buf = NULL;
    int looked = !first;
    for (;;) {
        if (!looked && wrong_start(buf, len, first, &looked)) break;
        if (len >= max) {
            snprintf(why, cap,
                     "too large: the input passes %zu bytes (half this machine's memory, or the "
                     "file's size when it started) and is still going",
                     max);
            status = FILEIO_TOO_LARGE;
            break;
        }
        if (len == room) {
            size_t grown = room   ? (room <= SIZE_MAX / 2 ? room * 2 : SIZE_MAX)
                           : hint ? hint
                                  : 65536;
            char *t = realloc(buf, grown);
            if (!t) {
                if (S_ISREG(st.st_mode))
                    snprintf(why, cap, "out of memory: the input's %lld bytes do not fit",
                             (long long)st.st_size);
                else snprintf(why, cap, "out of memory reading the input, after %zu bytes", len);
                status = FILEIO_OUT_OF_MEMORY;
                break;
            }
            buf = t;
            room = grown;
        }
        ssize_t r = read(fd, buf + len, room - len);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            snprintf(why, cap, "cannot read: %s", strerror(errno));
            status = FILEIO_CANNOT_READ;
            break;
        }
        if (r == 0) {
            if (hint && file_changed(fd, &st, len, why, cap)) status = FILEIO_CHANGED;
            break;
        }
        len += (size_t)r;
    }
    if (!is_stdin) close(fd);
    if (status != FILEIO_OK) {
        free(buf);
        return status;
    }
    out->owned = buf;
    out->text = buf ? buf : "";
    out->len = len;
    return FILEIO_OK;
}

void fileio_release(fileio_text *t)
{
    free(t->owned);
    t->text = "";
    t->len = 0;
    t->owned = NULL;
}
