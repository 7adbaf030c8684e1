/* test_atomic_out.c: util/atomic_out.h, output files whole or absent: a new
 * file and its mode, an old one untouched until the commit (its mode kept),
 * abandoned, a write error, SIGINT, SIGTERM and SIGHUP mid-write (no
 * temporary file left), an ignored signal left ignored, devices and a
 * symbolic link written through, the files fopen would refuse, and the
 * temporary files a killed writer left, removed by the next writer when no
 * live one holds their lock (atomic_sweep.h). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "util/atomic_out.h"
#include "util/atomic_sweep.h"

static char dir[64];
static char path[128];

/* Empties the scratch folder (each test starts with it). */
static void clean(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[512];
    chmod(dir, 0755);
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    if (d) closedir(d);
}

static int group_setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/memtris-atomic.XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(path, sizeof path, "%s/out.txt", dir);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    clean();
    rmdir(dir);
    return 0;
}

static void write_text(const char *p, const char *text)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The file's text ("" when absent). */
static const char *text_of(const char *p)
{
    static char buf[256];
    buf[0] = 0;
    FILE *f = fopen(p, "r");
    if (!f) return buf;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* The entries of dir, "." and ".." aside. */
static int entries(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static mode_t mode_of(const char *p)
{
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    return st.st_mode & 07777;
}

static void new_file(void **state)
{
    (void)state;
    clean();
    mode_t old = umask(022);
    atomic_out o;
    assert_int_equal(atomic_out_open(&o, path), 0);
    assert_int_equal(o.mode, ATOMIC_OUT_TEMP);
    fputs("new\n", o.f);
    assert_int_equal(entries(), 1); /* the temporary file alone */
    assert_int_equal(atomic_out_commit(&o), 0);
    assert_string_equal(text_of(path), "new\n");
    assert_int_equal(mode_of(path), 0644);
    assert_int_equal(entries(), 1);
    umask(old);
}

static void replace_at_commit(void **state)
{
    (void)state;
    clean();
    write_text(path, "old\n");
    assert_int_equal(chmod(path, 0640), 0);
    atomic_out o;
    assert_int_equal(atomic_out_open(&o, path), 0);
    fputs("new and longer\n", o.f);
    fflush(o.f);
    assert_string_equal(text_of(path), "old\n");
    assert_int_equal(entries(), 2);
    assert_memory_equal(strrchr(o.temp, '/'), "/.out.txt.", 10);
    assert_int_equal(atomic_out_commit(&o), 0);
    assert_string_equal(text_of(path), "new and longer\n");
    assert_int_equal(mode_of(path), 0640);
    assert_int_equal(entries(), 1);
}

static void abandon_keeps_old(void **state)
{
    (void)state;
    clean();
    write_text(path, "old\n");
    atomic_out o;
    assert_int_equal(atomic_out_open(&o, path), 0);
    fputs("half", o.f);
    atomic_out_abandon(&o);
    assert_string_equal(text_of(path), "old\n");
    assert_int_equal(entries(), 1);
    /* a new file abandoned: nothing left */
    unlink(path);
    assert_int_equal(atomic_out_open(&o, path), 0);
    fputs("half", o.f);
    atomic_out_abandon(&o);
    assert_int_equal(entries(), 0);
}

/* A child writes over the old file and gets sig (ignoring SIGXFSZ and past
 * a file size limit when sig is 0, its commit failing): the old file stays
 * whole, no temporary file is left. */
static void child_writes(int sig)
{
    write_text(path, "old\n");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        atomic_out o;
        if (sig) signal(sig, SIG_DFL); /* as a shell's background job may not have it */
        if (atomic_out_open(&o, path)) _exit(3);
        if (!sig) {
            signal(SIGXFSZ, SIG_IGN);
            struct rlimit r = {4096, 4096};
            setrlimit(RLIMIT_FSIZE, &r);
        }
        for (int i = 0; i < 10000; i++) fputs("new new new new\n", o.f);
        if (sig) raise(sig);
        _exit(atomic_out_commit(&o) == 0 ? 0 : 4);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (sig) {
        assert_true(WIFSIGNALED(status));
        assert_int_equal(WTERMSIG(status), sig);
    } else {
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 4);
    }
    assert_string_equal(text_of(path), "old\n");
    assert_int_equal(entries(), 1);
}

static void signals_remove_temp(void **state)
{
    (void)state;
    clean();
    child_writes(SIGINT);
    child_writes(SIGTERM);
    child_writes(SIGHUP);
}

static void write_error_keeps_old(void **state)
{
    (void)state;
    clean();
    child_writes(0);
}

static void handlers_come_and_go(void **state)
{
    (void)state;
    clean();
    struct sigaction sa;
    void (*prev)(int) = signal(SIGHUP, SIG_IGN);
    atomic_out o;
    assert_int_equal(atomic_out_open(&o, path), 0);
    sigaction(SIGHUP, NULL, &sa);
    assert_true(sa.sa_handler == SIG_IGN); /* ignored stays ignored (nohup) */
    sigaction(SIGTERM, NULL, &sa);
    assert_true(sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN);
    assert_int_equal(atomic_out_commit(&o), 0);
    sigaction(SIGTERM, NULL, &sa);
    assert_true(sa.sa_handler == SIG_DFL);
    sigaction(SIGINT, NULL, &sa);
    assert_true(sa.sa_handler == SIG_DFL);
    signal(SIGHUP, prev);
}

static void devices_in_place(void **state)
{
    (void)state;
    clean();
    atomic_out o;
    assert_int_equal(atomic_out_open(&o, "/dev/null"), 0);
    assert_int_equal(o.mode, ATOMIC_OUT_DEVICE);
    fputs("x\n", o.f);
    assert_int_equal(atomic_out_commit(&o), 0);
    struct stat st;
    if (access("/dev/full", W_OK)) return;
    assert_int_equal(atomic_out_open(&o, "/dev/full"), 0);
    fputs("full\n", o.f); /* in the buffer until the commit flushes it */
    assert_int_equal(atomic_out_commit(&o), -1);
    assert_int_equal(errno, ENOSPC);
    assert_int_equal(stat("/dev/full", &st), 0);
    assert_true(S_ISCHR(st.st_mode)); /* a device is never removed */
}

static void through_a_link(void **state)
{
    (void)state;
    clean();
    char real[160];
    snprintf(real, sizeof real, "%s/real.txt", dir);
    write_text(real, "old\n");
    assert_int_equal(symlink("real.txt", path), 0);
    atomic_out o;
    assert_int_equal(atomic_out_open(&o, path), 0);
    fputs("new\n", o.f);
    assert_int_equal(atomic_out_commit(&o), 0);
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(text_of(real), "new\n");
    assert_int_equal(entries(), 2);
}

static void refused_as_fopen_would(void **state)
{
    (void)state;
    clean();
    atomic_out o;
    char p[160];
    snprintf(p, sizeof p, "%s/no/such.txt", dir);
    assert_int_equal(atomic_out_open(&o, p), -1);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(atomic_out_open(&o, dir), -1); /* a folder */
    assert_int_equal(errno, EISDIR);
    if (geteuid() == 0) return; /* root writes anything */
    write_text(path, "old\n");
    assert_int_equal(chmod(path, 0444), 0);
    assert_int_equal(atomic_out_open(&o, path), -1);
    assert_int_equal(errno, EACCES);
    assert_string_equal(text_of(path), "old\n");
    /* a folder without write permission: the writable file is written in place */
    assert_int_equal(chmod(path, 0644), 0);
    assert_int_equal(chmod(dir, 0555), 0);
    assert_int_equal(atomic_out_open(&o, path), 0);
    assert_int_equal(o.mode, ATOMIC_OUT_IN_PLACE);
    fputs("new\n", o.f);
    assert_int_equal(atomic_out_commit(&o), 0);
    assert_int_equal(chmod(dir, 0755), 0);
    assert_string_equal(text_of(path), "new\n");
}

/* dir/name made with text. */
static void put(const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    write_text(p, text);
}

/* Whether dir/name is there (a link not followed). */
static int there(const char *name)
{
    char p[512];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return lstat(p, &st) == 0;
}

static void stale_temps_swept(void **state)
{
    (void)state;
    clean();
    write_text(path, "old\n");
    put(".out.txt.AbC123", "left by a writer killed outright");
    put(".out.txt.zzzzzz", "another");
    /* not of the pattern: kept */
    static const char *const others[] = {
        ".out.txt.AbC12",    /* five characters */
        ".out.txt.AbCd1234", /* eight, as Python's tempfile (tools/graphkit.py) */
        ".out.txt.Ab-123",   /* not a letter or a digit */
        ".out.tx.AbC123",    /* another target's */
        "out.txt.AbC123",    /* no dot first */
        ".out.txt.AbC123.x",
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) put(others[i], "kept");
    char p[512], q[512];
    snprintf(p, sizeof p, "%s/.out.txt.DirABC", dir);
    assert_int_equal(mkdir(p, 0700), 0); /* not a regular file */
    snprintf(p, sizeof p, "%s/.out.txt.LnkABC", dir);
    assert_int_equal(symlink("out.txt", p), 0);
    put("hard", "two names");
    snprintf(p, sizeof p, "%s/hard", dir);
    snprintf(q, sizeof q, "%s/.out.txt.HrdABC", dir);
    assert_int_equal(link(p, q), 0); /* a second link: not one memtris made */
    atomic_out o;
    assert_int_equal(atomic_out_open(&o, path), 0);
    assert_false(there(".out.txt.AbC123"));
    assert_false(there(".out.txt.zzzzzz"));
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) assert_true(there(others[i]));
    assert_true(there(".out.txt.DirABC") && there(".out.txt.LnkABC") && there(".out.txt.HrdABC"));
    fputs("new\n", o.f);
    assert_int_equal(atomic_out_commit(&o), 0);
    assert_string_equal(text_of(path), "new\n");
    assert_int_equal(entries(), 11); /* out.txt, hard and the nine kept */
    snprintf(p, sizeof p, "%s/.out.txt.DirABC", dir);
    rmdir(p);
}

/* A child holds the lock on dir/name (as a live writer does) until killed
 * by SIGKILL; *pid: the child. */
static void child_holds(const char *name, pid_t *pid)
{
    char p[512];
    int sync[2];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    assert_int_equal(pipe(sync), 0);
    *pid = fork();
    assert_true(*pid >= 0);
    if (*pid == 0) {
        int fd = open(p, O_RDWR | O_CREAT, 0600);
        if (fd < 0 || flock(fd, LOCK_EX)) _exit(3);
        (void)!write(sync[1], "x", 1);
        for (;;) pause();
    }
    char c;
    close(sync[1]);
    assert_int_equal(read(sync[0], &c, 1), 1);
    close(sync[0]);
}

static void live_temps_kept(void **state)
{
    (void)state;
    clean();
    pid_t pid;
    child_holds(".out.txt.Live01", &pid);
    atomic_out o;
    assert_int_equal(atomic_out_open(&o, path), 0);
    assert_true(there(".out.txt.Live01")); /* its writer lives */
    /* this writer's own file is locked too: a second writer keeps it */
    atomic_out o2;
    assert_int_equal(atomic_out_open(&o2, path), 0);
    assert_true(there(strrchr(o.temp, '/') + 1));
    fputs("one\n", o.f);
    fputs("two\n", o2.f);
    assert_int_equal(atomic_out_commit(&o), 0);
    assert_int_equal(atomic_out_commit(&o2), 0);
    assert_string_equal(text_of(path), "two\n");
    assert_true(there(".out.txt.Live01"));
    /* killed outright: its lock goes with it, and so does its file */
    kill(pid, SIGKILL);
    assert_int_equal(waitpid(pid, NULL, 0), pid);
    assert_int_equal(atomic_out_open(&o, path), 0);
    assert_false(there(".out.txt.Live01"));
    atomic_out_abandon(&o);
    assert_int_equal(entries(), 1);
}

/* The writer's side: its lock taken at once, and a file a sweep took
 * first (locked, or already unlinked) told apart, to be made anew. */
static void writer_lock(void **state)
{
    (void)state;
    clean();
    char t[512];
    snprintf(t, sizeof t, "%s/.out.txt.XXXXXX", dir);
    int fd = mkstemp(t);
    assert_true(fd >= 0);
    assert_int_equal(atomic_sweep_lock(fd, t), 0);
    int other = open(t, O_RDONLY);
    assert_true(other >= 0);
    assert_int_equal(flock(other, LOCK_EX | LOCK_NB), -1); /* held */
    assert_int_equal(errno, EWOULDBLOCK);
    assert_int_equal(atomic_sweep(dir, ".out.txt.XXXXXX"), 0);
    assert_true(there(strrchr(t, '/') + 1));
    close(fd); /* the writer gone: the sweep's */
    assert_int_equal(flock(other, LOCK_EX), 0);
    fd = open(t, O_RDWR);
    assert_int_equal(atomic_sweep_lock(fd, t), 1); /* a sweep holds it */
    unlink(t);
    close(other);
    assert_int_equal(atomic_sweep_lock(fd, t), 1); /* and removed it */
    close(fd);
    assert_int_equal(entries(), 0);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(new_file),
        cmocka_unit_test(replace_at_commit),
        cmocka_unit_test(abandon_keeps_old),
        cmocka_unit_test(signals_remove_temp),
        cmocka_unit_test(write_error_keeps_old),
        cmocka_unit_test(handlers_come_and_go),
        cmocka_unit_test(devices_in_place),
        cmocka_unit_test(through_a_link),
        cmocka_unit_test(refused_as_fopen_would),
        cmocka_unit_test(stale_temps_swept),
        cmocka_unit_test(live_temps_kept),
        cmocka_unit_test(writer_lock),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
