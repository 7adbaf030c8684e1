/* write_clock.c: an LD_PRELOAD shim for bench_write.sh that times a command's
 * writing phase, from its first fwrite or write of output (anything but
 * standard error) to its last one, and on to its exit: wall and CPU
 * (user+sys, CLOCK_PROCESS_CPUTIME_ID) seconds, appended to the file
 * $WRITE_CLOCK_OUT as "wall cpu wall_to_exit cpu_to_exit first_bytes": the
 * bytes of the first call were formatted before the clock started. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int started;
static double w0, c0, w1, c1; /* at the first and the last output call */
static size_t first_bytes;

static double now(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Called before each output call: the phase starts at the first, and the
 * last one's time is taken after it returns (mark_end). */
static void mark_start(size_t n)
{
    if (started) return;
    started = 1;
    first_bytes = n;
    w0 = now(CLOCK_MONOTONIC);
    c0 = now(CLOCK_PROCESS_CPUTIME_ID);
}

static void mark_end(void)
{
    w1 = now(CLOCK_MONOTONIC);
    c1 = now(CLOCK_PROCESS_CPUTIME_ID);
}

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    static size_t (*real)(const void *, size_t, size_t, FILE *);
    if (!real) real = (size_t(*)(const void *, size_t, size_t, FILE *))dlsym(RTLD_NEXT, "fwrite");
    if (f == stderr) return real(p, size, n, f);
    mark_start(size * n);
    size_t k = real(p, size, n, f);
    mark_end();
    return k;
}

ssize_t write(int fd, const void *p, size_t n)
{
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (fd == 2) return real(fd, p, n);
    mark_start(n);
    ssize_t k = real(fd, p, n);
    mark_end();
    return k;
}

__attribute__((destructor)) static void report(void)
{
    const char *out = getenv("WRITE_CLOCK_OUT");
    if (!started || !out) return;
    double we = now(CLOCK_MONOTONIC), ce = now(CLOCK_PROCESS_CPUTIME_ID);
    FILE *f = fopen(out, "a");
    if (!f) return;
    fprintf(f, "%.4f %.4f %.4f %.4f %zu\n", w1 - w0, c1 - c0, we - w0, ce - c0, first_bytes);
    fclose(f);
}
