/* replay_host.c: the host backend: real allocations in this process (mmap
 * with MAP_POPULATE from 64 KiB up, malloc below), every page resident when
 * allocated and written when a compute step uses it; the reading is the
 * process's resident memory (/proc/self/statm). Exports replay_host_backend. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "replay.h"
#include "replay_backends.h"

#define HOST_MMAP_MIN ((int64_t)64 << 10)

struct replay_dev {
    int mode;
    uint32_t nslots;
    unsigned char **p;   /* [nslots] */
    int64_t *bytes;      /* [nslots] 0: empty */
    int64_t held, limit; /* bytes held; the most it will hold (see host_open) */
    long page;
    int statm; /* fd of /proc/self/statm */
    char err[256];
};

/* MemAvailable from /proc/meminfo, in bytes, or -1. */
static int64_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return -1;
    char line[128];
    int64_t kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %" SCNd64 " kB", &kb) == 1) break;
    fclose(f);
    return kb < 0 ? -1 : kb * 1024;
}

static replay_dev *host_open(int mode, uint32_t nslots, char *err, size_t errcap)
{
    replay_dev *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    d->mode = mode;
    d->nslots = nslots;
    d->p = calloc(nslots ? nslots : 1, sizeof *d->p);
    d->bytes = calloc(nslots ? nslots : 1, sizeof *d->bytes);
    d->page = sysconf(_SC_PAGESIZE);
    d->statm = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (d->p && d->bytes) { /* resident before the baseline, see replay_prefault */
        replay_prefault(d->p, (nslots ? nslots : 1) * sizeof *d->p);
        replay_prefault(d->bytes, (nslots ? nslots : 1) * sizeof *d->bytes);
    }
    if (!d->p || !d->bytes || d->statm < 0) {
        snprintf(err, errcap, d->statm < 0 ? "cannot open /proc/self/statm: %s" : "out of memory",
                 strerror(errno));
        if (d->statm >= 0) close(d->statm);
        free(d->p);
        free(d->bytes);
        free(d);
        return NULL;
    }
    /* Replaying a 80 GiB plan on a 24 GiB machine would end with the kernel's
     * OOM killer: the host backend is out of memory at 90% of what the
     * kernel says is available when it starts, as a device would be at its
     * capacity. */
    int64_t avail = mem_available();
    d->limit = avail > 0 ? avail / 10 * 9 : INT64_MAX;
    return d;
}

static void host_info(replay_dev *d, replay_info *out)
{
    struct utsname u;
    memset(out, 0, sizeof *out);
    if (uname(&u) == 0)
        snprintf(out->device, sizeof out->device, "host: %.40s %.40s %.30s", u.sysname, u.release,
                 u.machine);
    else snprintf(out->device, sizeof out->device, "host");
    long pages = sysconf(_SC_PHYS_PAGES);
    out->total = pages > 0 ? (int64_t)pages * d->page : 0;
    snprintf(out->versions, sizeof out->versions, "page %ld B, holds at most %.1f GiB", d->page,
             (double)d->limit / (1024.0 * 1024 * 1024));
}

/* Writes one byte in every page of [p, p + n). */
static void touch_pages(replay_dev *d, unsigned char *p, int64_t n, unsigned char v)
{
    if (n <= 0) return;
    for (int64_t i = 0; i < n; i += d->page) ((volatile unsigned char *)p)[i] = v;
    ((volatile unsigned char *)p)[n - 1] = v;
}

static int host_alloc(replay_dev *d, uint32_t slot, int64_t bytes, int *oom)
{
    *oom = 0;
    if (slot >= d->nslots || d->bytes[slot]) {
        snprintf(d->err, sizeof d->err, "slot %u is %s", slot,
                 slot >= d->nslots ? "out of range" : "in use");
        return -1;
    }
    if (bytes > d->limit - d->held) {
        *oom = 1;
        snprintf(d->err, sizeof d->err,
                 "the host backend holds at most %" PRId64 " bytes (90%% of the memory "
                 "available when it started)",
                 d->limit);
        return -1;
    }
    void *p;
    if (bytes >= HOST_MMAP_MIN) {
        p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (p == MAP_FAILED) p = NULL;
    } else {
        p = malloc((size_t)bytes);
    }
    if (!p) {
        *oom = errno == ENOMEM || errno == 0;
        snprintf(d->err, sizeof d->err, "%s: %s", bytes >= HOST_MMAP_MIN ? "mmap" : "malloc",
                 strerror(errno));
        return -1;
    }
    d->p[slot] = p;
    d->bytes[slot] = bytes;
    d->held += bytes;
    /* Resident at once, as cudaMalloc commits device memory: mmap populates
     * its pages (one call, not a fault a page), malloc's are written. */
    if (bytes < HOST_MMAP_MIN) touch_pages(d, p, bytes, 1);
    return 0;
}

static int host_release(replay_dev *d, uint32_t slot)
{
    if (slot >= d->nslots || !d->bytes[slot]) {
        snprintf(d->err, sizeof d->err, "slot %u holds nothing", slot);
        return -1;
    }
    if (d->bytes[slot] >= HOST_MMAP_MIN) munmap(d->p[slot], (size_t)d->bytes[slot]);
    else free(d->p[slot]);
    d->held -= d->bytes[slot];
    d->p[slot] = NULL;
    d->bytes[slot] = 0;
    return 0;
}

static int host_touch(replay_dev *d, const replay_region *rg, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const replay_region *x = &rg[i];
        if (x->slot >= d->nslots || !d->bytes[x->slot] || x->off < 0 ||
            x->bytes > d->bytes[x->slot] - x->off) {
            snprintf(d->err, sizeof d->err, "region %" PRId64 "+%" PRId64 " is outside slot %u",
                     x->off, x->bytes, x->slot);
            return -1;
        }
        touch_pages(d, d->p[x->slot] + x->off, x->bytes, 2);
    }
    return 0;
}

static int host_read(replay_dev *d, int64_t *used)
{
    char buf[128];
    ssize_t n = pread(d->statm, buf, sizeof buf - 1, 0);
    long long size, resident;
    if (n <= 0) {
        snprintf(d->err, sizeof d->err, "reading /proc/self/statm: %s",
                 n < 0 ? strerror(errno) : "empty");
        return -1;
    }
    buf[n] = 0;
    if (sscanf(buf, "%lld %lld", &size, &resident) != 2) {
        snprintf(d->err, sizeof d->err, "/proc/self/statm says '%.40s'", buf);
        return -1;
    }
    *used = (int64_t)resident * d->page;
    return 0;
}

static const char *host_error(replay_dev *d) { return d->err; }

static void host_close(replay_dev *d)
{
    for (uint32_t s = 0; s < d->nslots; s++)
        if (d->bytes[s]) host_release(d, s);
    close(d->statm);
    free(d->p);
    free(d->bytes);
    free(d);
}

const replay_backend replay_host_backend = {
    .name = "host",
    .label = "the host",
    .desc =
        "this machine's memory: mmap/malloc, pages touched, resident memory from /proc/self/statm",
    .modes = (1u << REPLAY_RAW) | (1u << REPLAY_ARENA) | (1u << REPLAY_POOL),
    .caps = REPLAY_CAP_MEASURES_SELF,
    .open = host_open,
    .info = host_info,
    .alloc = host_alloc,
    .release = host_release,
    .touch = host_touch,
    .read = host_read,
    .error = host_error,
    .close = host_close,
};
