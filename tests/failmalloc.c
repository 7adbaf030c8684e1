/* failmalloc.c: an LD_PRELOAD library for tests: malloc, calloc and realloc
 * of more than $MEMTRIS_FAILMALLOC_OVER bytes fail with ENOMEM, so a test can
 * make memtris run out of memory at a chosen allocation (a large screen). */
#include <errno.h>
#include <stdlib.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);

static size_t limit(void)
{
    static size_t over;
    static int known;
    if (!known) {
        const char *s = getenv("MEMTRIS_FAILMALLOC_OVER");
        over = s ? strtoul(s, NULL, 10) : 0;
        known = 1;
    }
    return over;
}

static int refuse(size_t n)
{
    size_t over = limit();
    if (over && n > over) {
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

void *malloc(size_t n) { return refuse(n) ? NULL : __libc_malloc(n); }

void *calloc(size_t n, size_t size)
{
    if (size && n > (size_t)-1 / size) return __libc_calloc(n, size); /* its own overflow check */
    return refuse(n * size) ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n) { return refuse(n) ? NULL : __libc_realloc(p, n); }
