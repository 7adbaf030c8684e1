/* fuzz_cli.c: libFuzzer harness of the command line: the input is an argv,
 * one argument per line, run through cli_main in-process; the status must be
 * 0, 1 or 2, nothing may exit() or leak. Standard output and error go to
 * /dev/null (so view refuses: no terminal), memtris runs in a scratch folder
 * of its own (whatever it writes lands there and is removed after each
 * input), and the files it reads are prepared there once.
 *
 * Input format: lines. Leading directive lines: "<NAME" takes standard input
 * from the prepared file NAME (else it is empty), ">full" sends standard
 * output to /dev/full. Every other line is one argument. "@IN/" at the start
 * of an argument is the folder of prepared files, "@OUT/" the scratch folder
 * memtris runs in. Elsewhere '/' becomes '_' (no path leaves the scratch
 * folders), and a run of more than 3 digits is cut to 3 unless the argument
 * is one of a few large values (so gen makes at most 999 nodes, besides its
 * default of 1000).
 * Exports LLVMFuzzerTestOneInput and LLVMFuzzerInitialize. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "cli/cli_main.h"
#include "fuzz_util.h"

#define MAX_ARGS    16
#define MAX_ARG_LEN 256

static char scratch[256], in_dir[300], out_dir[300];
static int home_fd = -1;

/* ------------------------------------------------------------ prepared files */

typedef struct prepared {
    const char *name;
    const char *from; /* a file of the repository, or NULL */
    const char *text; /* or this text (NULL with from NULL: made by make_replays) */
    char *data;       /* the contents, to restore them when a command overwrote them */
    size_t len;
    struct stat st;
} prepared;

static prepared files[] = {
    {"seed.json", MEMTRIS_SOURCE_DIR "/samples/seed-example.json", NULL, NULL, 0, {0}},
    {"demo.json", MEMTRIS_SOURCE_DIR "/samples/demo.json", NULL, NULL, 0, {0}},
    {"branches.json", MEMTRIS_SOURCE_DIR "/tests/data/branches.json", NULL, NULL, 0, {0}},
    {"chain.json", MEMTRIS_SOURCE_DIR "/tests/data/chain.json", NULL, NULL, 0, {0}},
    {"huge.json", MEMTRIS_SOURCE_DIR "/tests/data/huge.json", NULL, NULL, 0, {0}},
    {"bad-line3.json", MEMTRIS_SOURCE_DIR "/tests/data/bad-line3.json", NULL, NULL, 0, {0}},
    {"repeated-edge.json", MEMTRIS_SOURCE_DIR "/tests/data/repeated-edge.json", NULL, NULL, 0, {0}},
    {"greedy.json", MEMTRIS_SOURCE_DIR "/samples/greedy-not-optimal.json", NULL, NULL, 0, {0}},
    {"empty.json", NULL, "", NULL, 0, {0}},
    {"nothing.json", NULL, "{\"Nodes\": [], \"Edges\": []}", NULL, 0, {0}},
    {"cycle.json",
     NULL,
     "{\"Nodes\": [{\"Id\": 1, \"Op\": \"X\"}, {\"Id\": 2, \"Op\": \"X\"}], \"Edges\": [[1, 2], "
     "[2, 1]]}",
     NULL,
     0,
     {0}},
    {"order.json",
     NULL,
     "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 1, \"BufId\": 1}, "
     "{\"Id\": 1, \"Op\": \"FREE\", \"BufId\": 1}], \"Edges\": []}",
     NULL,
     0,
     {0}},
    {"quote.json",
     NULL,
     "{\"Nodes\": [{\"Id\": 0, \"Op\": \"A,B\", \"Name\": \"say \\\"hi\\\"\\n\\u00e9\"}], "
     "\"Edges\": []}",
     NULL,
     0,
     {0}},
    {"zero.json",
     NULL,
     "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 0, \"BufId\": 0}, {\"Id\": 1, \"Op\": "
     "\"FREE\", \"BufId\": 0}], \"Edges\": [[0, 1]]}",
     NULL,
     0,
     {0}},
    {"overflow.json",
     NULL,
     "{\"Nodes\": [{\"Id\": 0, \"Op\": \"ALLOC\", \"Size\": 9007199254740991, \"BufId\": 0}, "
     "{\"Id\": 1, \"Op\": \"ALLOC\", \"Size\": 9007199254740991, \"BufId\": 1}], \"Edges\": []}",
     NULL,
     0,
     {0}},
    {"bad.replay.json",
     NULL,
     "{\"backend\": \"host\", \"mode\": \"raw\", \"steps\": [",
     NULL,
     0,
     {0}},
    {"empty.replay.json",
     NULL,
     "{\"backend\": \"host\", \"mode\": \"raw\", \"policy\": \"priority\", \"device\": \"\", "
     "\"device_total\": 0, \"versions\": \"\", \"steps\": [], \"baseline\": 0, \"residual\": 0, "
     "\"held\": 0, "
     "\"complete\": true, \"total_steps\": 0}",
     NULL,
     0,
     {0}},
    /* Numbers at the edges of what place reads and writes back: an end of
     * 2^53-1 (refused: its upper would pass 2^53-1), offsets past 2^53. */
    {"end53.csv",
     NULL,
     "id,lower,end,size\na,0,9007199254740991,5\nb,1,9007199254740990,7\n",
     NULL,
     0,
     {0}},
    {"near53.csv",
     NULL,
     "id,lower,upper,size\na,0,9007199254740991,9007199254740991\nb,0,9007199254740991,"
     "9007199254740991\nc,0,5,9007199254740991\nd,4,6,1\n",
     NULL,
     0,
     {0}},
    /* Made at start (make_near63): 1024 buffers of 2^53-1 bytes never freed,
     * an arena of 2^63-1024, whose memory-viz addresses pass 2^63-1. */
    {"near63.json", NULL, NULL, NULL, 0, {0}},
    /* Saved replays made at start by memtris replay itself. */
    {"seed.replay.json", NULL, NULL, NULL, 0, {0}},
    {"demo-fifo.replay.json", NULL, NULL, NULL, 0, {0}},
};
#define NFILES (sizeof files / sizeof files[0])

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f != NULL, "cannot open %s", path);
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len + 4096 > cap) {
            cap = (*len + 4096) * 2;
            buf = realloc(buf, cap);
            FUZZ_CHECK(buf != NULL, "out of memory");
        }
        size_t k = fread(buf + *len, 1, cap - *len, f);
        if (!k) break;
        *len += k;
    }
    fclose(f);
    return buf;
}

static void put_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f && fwrite(data, 1, len, f) == len && fclose(f) == 0, "cannot write %s", path);
}

static void path_in(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", in_dir, name);
}

/* Writes prepared file i and remembers what it looks like. */
static void prepare(size_t i)
{
    char p[512];
    path_in(p, sizeof p, files[i].name);
    unlink(p);
    put_file(p, files[i].data, files[i].len);
    FUZZ_CHECK(lstat(p, &files[i].st) == 0, "lstat %s", p);
}

/* The special entries: a folder where a file is expected, a dangling
 * symbolic link, and in the scratch folder a link to /dev/null (given as an
 * output, never the device itself: a bug that removes its output then
 * removes only a link). No link to /dev/full: read as a graph it is an
 * endless stream of zeros (load_file reads until memory runs out; its size
 * limit is another issue), so write errors come from ">full" only. */
static void prepare_specials(void)
{
    char p[512];
    path_in(p, sizeof p, "dir.json");
    mkdir(p, 0755);
    path_in(p, sizeof p, "dangling.json");
    if (symlink("no-such-target.json", p) && errno != EEXIST) FUZZ_CHECK(0, "symlink %s", p);
    snprintf(p, sizeof p, "%s/null", out_dir);
    if (symlink("/dev/null", p) && errno != EEXIST) FUZZ_CHECK(0, "symlink %s", p);
}

/* Whether a name in the folder of prepared files is one of them. */
static int kept_in(const char *name)
{
    if (!strcmp(name, "dir.json") || !strcmp(name, "dangling.json")) return 1;
    for (size_t i = 0; i < NFILES; i++)
        if (!strcmp(name, files[i].name)) return 1;
    return 0;
}

/* Empties folder dir but for the names keep() accepts. */
static void sweep(const char *dir, int (*keep)(const char *name))
{
    DIR *d = opendir(dir);
    FUZZ_CHECK(d != NULL, "opendir %s", dir);
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || keep(e->d_name)) continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        FUZZ_CHECK(unlink(p) == 0 || rmdir(p) == 0, "cannot remove %s", p);
    }
    closedir(d);
}

static int kept_out(const char *name) { return !strcmp(name, "null"); }

/* Removes what the last command wrote (in the scratch folder, or in the
 * folder of prepared files through @IN/) and restores any prepared file it
 * overwrote or removed. */
static void restore(void)
{
    sweep(out_dir, kept_out);
    sweep(in_dir, kept_in);
    for (size_t i = 0; i < NFILES; i++) {
        char p[512];
        struct stat st;
        path_in(p, sizeof p, files[i].name);
        if (lstat(p, &st) || st.st_ino != files[i].st.st_ino || st.st_size != files[i].st.st_size ||
            st.st_mtim.tv_sec != files[i].st.st_mtim.tv_sec ||
            st.st_mtim.tv_nsec != files[i].st.st_mtim.tv_nsec)
            prepare(i);
    }
    prepare_specials();
}

static void remove_scratch(void)
{
    char p[1024];
    restore();
    for (size_t i = 0; i < NFILES; i++) {
        path_in(p, sizeof p, files[i].name);
        unlink(p);
    }
    path_in(p, sizeof p, "dir.json");
    rmdir(p);
    path_in(p, sizeof p, "dangling.json");
    unlink(p);
    snprintf(p, sizeof p, "%s/null", out_dir);
    unlink(p);
    rmdir(in_dir);
    rmdir(out_dir);
    rmdir(scratch);
}

/* ------------------------------------------------------------ running memtris */

static FILE *null_out;

/* Runs cli_main on argv (argv[0] included) with standard input from file
 * stdin_path (NULL: empty) and standard output to /dev/full when full;
 * returns its status. */
static int run_cli(int argc, char **argv, const char *stdin_path, int full)
{
    FILE *saved_in = stdin, *saved_out = stdout, *saved_err = stderr;
    int in_fd = open(stdin_path ? stdin_path : "/dev/null", O_RDONLY);
    if (in_fd < 0) in_fd = open("/dev/null", O_RDONLY);
    FUZZ_CHECK(in_fd >= 0 && dup2(in_fd, STDIN_FILENO) == STDIN_FILENO, "stdin");
    close(in_fd);
    /* stdin's FILE afresh, so that nothing read for the last input stays buffered */
    FILE *in = fdopen(dup(STDIN_FILENO), "r");
    FILE *out = full ? fopen("/dev/full", "w") : null_out;
    FUZZ_CHECK(in && out, "cannot open the standard streams");
    stdin = in;
    stdout = out;
    stderr = null_out;
    optind = 0; /* glibc: getopt starts afresh */
    FUZZ_CHECK(chdir(out_dir) == 0, "chdir %s", out_dir);
    int rc = cli_main(argc, argv);
    FUZZ_CHECK(fchdir(home_fd) == 0, "fchdir");
    stdin = saved_in;
    stdout = saved_out;
    stderr = saved_err;
    fclose(in);
    if (full) fclose(out);
    fflush(null_out);
    clearerr(null_out);
    int dn = open("/dev/null", O_RDONLY);
    FUZZ_CHECK(dn >= 0 && dup2(dn, STDIN_FILENO) == STDIN_FILENO, "stdin");
    close(dn);
    return rc;
}

/* Saved replays for view --replay, made by memtris replay. */
static void make_replays(void)
{
    char in[512], out[512];
    static const char *const jobs[][3] = {{"seed.json", "priority", "seed.replay.json"},
                                          {"demo.json", "fifo", "demo-fifo.replay.json"}};
    for (size_t j = 0; j < 2; j++) {
        path_in(in, sizeof in, jobs[j][0]);
        path_in(out, sizeof out, jobs[j][2]);
        char *argv[] = {(char *)(uintptr_t) "memtris",
                        (char *)(uintptr_t) "replay",
                        in,
                        (char *)(uintptr_t) "-p",
                        (char *)(uintptr_t)jobs[j][1],
                        (char *)(uintptr_t) "--backend",
                        (char *)(uintptr_t) "host",
                        (char *)(uintptr_t) "-f",
                        (char *)(uintptr_t) "json",
                        (char *)(uintptr_t) "-o",
                        out,
                        NULL};
        FUZZ_CHECK(run_cli(11, argv, NULL, 0) == 0, "memtris replay %s", jobs[j][0]);
        for (size_t i = 0; i < NFILES; i++)
            if (!strcmp(files[i].name, jobs[j][2])) {
                files[i].data = slurp(out, &files[i].len);
                prepare(i);
            }
    }
}

/* near63.json: a chain of 1024 ALLOCs of 2^53-1 bytes, never freed. */
static void make_near63(void)
{
    size_t cap = 1 << 17, len = 0;
    char *t = malloc(cap);
    FUZZ_CHECK(t != NULL, "out of memory");
    len += (size_t)snprintf(t + len, cap - len, "{\"Nodes\": [");
    for (int i = 0; i < 1024; i++)
        len += (size_t)snprintf(t + len, cap - len,
                                "%s{\"Id\": %d, \"Op\": \"ALLOC\", \"Size\": 9007199254740991, "
                                "\"BufId\": %d}",
                                i ? ", " : "", i, i);
    len += (size_t)snprintf(t + len, cap - len, "], \"Edges\": [");
    for (int i = 1; i < 1024; i++)
        len += (size_t)snprintf(t + len, cap - len, "%s[%d, %d]", i > 1 ? ", " : "", i - 1, i);
    len += (size_t)snprintf(t + len, cap - len, "]}");
    FUZZ_CHECK(len < cap, "near63.json does not fit");
    for (size_t i = 0; i < NFILES; i++)
        if (!strcmp(files[i].name, "near63.json")) {
            files[i].data = t;
            files[i].len = len;
            prepare(i);
        }
}

/* libFuzzer writes a crash's input where -artifact_prefix says, relative to
 * the folder it runs in; memtris runs in the scratch folder, so the prefix is
 * made absolute (the current folder when none was given). */
static void absolute_artifacts(int *argc, char ***argv)
{
    char cwd[4096];
    FUZZ_CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
    char **v = calloc((size_t)*argc + 2, sizeof *v);
    FUZZ_CHECK(v != NULL, "out of memory");
    int given = 0;
    for (int i = 0; i < *argc; i++) {
        const char *a = (*argv)[i];
        static const char *const flags[] = {"-artifact_prefix=", "-exact_artifact_path="};
        v[i] = (*argv)[i];
        for (size_t f = 0; f < 2; f++) {
            size_t k = strlen(flags[f]);
            if (strncmp(a, flags[f], k)) continue;
            given = 1;
            if (a[k] == '/') continue;
            size_t n = strlen(a) + strlen(cwd) + 2;
            v[i] = malloc(n);
            FUZZ_CHECK(v[i] != NULL, "out of memory");
            snprintf(v[i], n, "%s%s/%s", flags[f], cwd, a + k);
        }
    }
    if (!given) {
        size_t n = strlen(cwd) + 32;
        v[*argc] = malloc(n);
        FUZZ_CHECK(v[*argc] != NULL, "out of memory");
        snprintf(v[*argc], n, "-artifact_prefix=%s/", cwd);
        (*argc)++;
    }
    *argv = v;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    absolute_artifacts(argc, argv);
    home_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    FUZZ_CHECK(home_fd >= 0, "cannot open the current folder");
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/fuzz_cli.XXXXXX",
             tmp && *tmp && strlen(tmp) < 200 ? tmp : "/tmp");
    FUZZ_CHECK(mkdtemp(scratch) != NULL, "mkdtemp %s", scratch);
    snprintf(in_dir, sizeof in_dir, "%s/in", scratch);
    snprintf(out_dir, sizeof out_dir, "%s/out", scratch);
    FUZZ_CHECK(mkdir(in_dir, 0755) == 0 && mkdir(out_dir, 0755) == 0, "mkdir in %s", scratch);
    for (size_t i = 0; i < NFILES; i++) {
        if (files[i].from) files[i].data = slurp(files[i].from, &files[i].len);
        else if (files[i].text) {
            files[i].len = strlen(files[i].text);
            files[i].data = malloc(files[i].len + 1);
            FUZZ_CHECK(files[i].data != NULL, "out of memory");
            memcpy(files[i].data, files[i].text, files[i].len + 1);
        } else continue;
        prepare(i);
    }
    prepare_specials();
    /* Standard output is never a terminal (view must refuse), and libFuzzer
     * prints on standard error only. */
    int dn = open("/dev/null", O_WRONLY);
    FUZZ_CHECK(dn >= 0 && dup2(dn, STDOUT_FILENO) == STDOUT_FILENO, "stdout");
    close(dn);
    null_out = fopen("/dev/null", "w");
    FUZZ_CHECK(null_out != NULL, "/dev/null");
    make_replays();
    make_near63();
    atexit(remove_scratch);
    return 0;
}

/* ------------------------------------------------------------ the input */

/* Large values an argument may be exactly (they fail before any work). */
static const char *const big_ok[] = {
    "1073741824",           "2147483648",           "4294967296",      "100000001",
    "18446744073709551615", "18446744073709551616", "9007199254740993"};

/* One line as an argument (see the top of the file); a malloc'd string. */
static char *argument(const char *s, size_t len)
{
    if (len > MAX_ARG_LEN) len = MAX_ARG_LEN;
    char *a = malloc(len + sizeof in_dir + 2);
    FUZZ_CHECK(a != NULL, "out of memory");
    size_t n = 0;
    if (len >= 4 && !memcmp(s, "@IN/", 4)) {
        n = (size_t)sprintf(a, "%s/", in_dir);
        s += 4;
        len -= 4;
    } else if (len >= 5 && !memcmp(s, "@OUT/", 5)) {
        n = (size_t)sprintf(a, "%s/", out_dir);
        s += 5;
        len -= 5;
    }
    char *body = a + n;
    for (size_t i = 0; i < len; i++) a[n++] = s[i] == '/' || s[i] == 0 ? '_' : s[i];
    a[n] = 0;
    for (size_t i = 0; i < sizeof big_ok / sizeof big_ok[0]; i++)
        if (!strcmp(body, big_ok[i])) return a;
    /* Runs of more than 3 digits are cut to 3. */
    char *w = body;
    int digits = 0;
    for (const char *r = body; *r; r++) {
        digits = *r >= '0' && *r <= '9' ? digits + 1 : 0;
        if (digits <= 3) *w++ = *r;
    }
    *w = 0;
    return a;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = strdup("memtris");
    char stdin_path[512] = "";
    int full = 0, directives = 1;
    const char *p = (const char *)data, *end = p + size;
    while (p < end && argc <= MAX_ARGS) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (directives && len > 1 && p[0] == '<') {
            char *name = argument(p + 1, len - 1);
            path_in(stdin_path, sizeof stdin_path, name);
            free(name);
        } else if (directives && len == 5 && !memcmp(p, ">full", 5)) {
            full = 1;
        } else {
            directives = 0;
            argv[argc++] = argument(p, len);
        }
        p += len + (nl != NULL);
    }
    argv[argc] = NULL;
    /* getopt permutes argv: free the strings from a copy. */
    char *owned[MAX_ARGS + 2];
    memcpy(owned, argv, sizeof argv);
    int owned_n = argc;
    int rc = run_cli(argc, argv, stdin_path[0] ? stdin_path : NULL, full);
    FUZZ_CHECK(rc == EXIT_OK || rc == EXIT_BAD || rc == EXIT_USAGE, "exit status %d", rc);
    for (int i = 0; i < owned_n; i++) free(owned[i]);
    restore();
    return 0;
}
