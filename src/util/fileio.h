/* fileio.h: a whole file, or standard input, as one text in memory. Every
 * input is read (never mapped: a file shrunk by another process while it is
 * read must not kill memtris with SIGBUS), stopping early at input that
 * cannot be what the caller wants (its first character) and at half this
 * machine's memory or the file's size when it was opened, the larger (an
 * endless stream, a file that keeps growing). Exports fileio_*. */
#ifndef MEMTRIS_FILEIO_H
#define MEMTRIS_FILEIO_H
#include <stddef.h>

typedef enum {
    FILEIO_OK,
    FILEIO_CANNOT_OPEN, /* the reasons say strerror */
    FILEIO_CANNOT_READ,
    FILEIO_OUT_OF_MEMORY,
    FILEIO_TOO_LARGE,
    FILEIO_CHANGED /* another process wrote the regular file while it was read */
} fileio_status;

typedef struct fileio_text {
    const char *text; /* never NULL once read ("" when empty) */
    size_t len;
    char *owned; /* what to free (read input), or NULL */
} fileio_text;

/* Reads path ("-": standard input). first: the character the text must
 * start with (after white space and a UTF-8 byte order mark) to be worth
 * reading on, or 0; input from a pipe that starts otherwise is read no
 * further (the caller's parser says what it found there). On failure the
 * reason is in why: "cannot open: No such file or directory", "out of
 * memory: the input's 2147483648 bytes do not fit", ... */
fileio_status fileio_read(const char *path, char first, fileio_text *out, char *why, size_t cap);
/* Frees the text; safe to call twice. */
void fileio_release(fileio_text *t);

#endif
