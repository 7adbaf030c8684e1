/* bench_core.c: benchmark of the memtris core on graph files: load phases
 * (parse: the single pass, or cJSON for input it gives up on; vs graph build), policy_run per
 * policy, resident memory of the loaded graph and peak RSS. Each run of each file is a fresh child
 * process. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sched/graph/diag.h"
#include "sched/graph/graph.h"
#include "sched/graph/load.h"
#include "sched/policy/policy.h"

static const char *const policy_names[] = {"fifo", "priority", "best"};
#define NPOL (sizeof policy_names / sizeof policy_names[0])

/* One measurement of one file, sent from the child to the parent. */
typedef struct result {
    int ok;
    double file_bytes;
    double nodes, edges;
    double load_s, syntax_s, parse_s, build_s;
    double sched_s[NPOL];        /* best of sched_repeat */
    double peak[NPOL];           /* schedule peak (bytes), a sanity check */
    double rss_base, rss_loaded; /* resident bytes before and after load (after malloc_trim) */
    double maxrss;               /* ru_maxrss in bytes */
    /* Reference pass, no graph work: the same value-at-a-time cJSON parse,
     * timed in batches of BATCH values so clock reads cost nothing. */
    double cj_parse_s, cj_delete_s, cj_values;
    double clock_ns; /* cost of one clock_gettime(CLOCK_MONOTONIC) */
} result;

#define BATCH 512

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double resident_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size = 0, res = 0;
    if (!f) return -1;
    if (fscanf(f, "%lu %lu", &size, &res) != 2) res = 0;
    fclose(f);
    return (double)res * (double)sysconf(_SC_PAGESIZE);
}

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* Parses the value at *pp (advancing it past the value); NULL on error. */
static cJSON *parse_one(const char **pp, const char *end)
{
    const char *stop = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(*pp, (size_t)(end - *pp), &stop, 0);
    if (v) *pp = stop;
    return v;
}

/* The cJSON reference pass: walks the top-level object like the loader
 * (one value of "Nodes"/"Edges" at a time), parsing BATCH values, then
 * deleting them, timing each phase per batch. -1 on a syntax error. */
static int cjson_pass(const char *text, size_t len, result *r)
{
    const char *p = text, *end = text + len;
    cJSON *batch[BATCH];
    p = skip_ws(p, end);
    if (p >= end || *p != '{') return -1;
    p = skip_ws(p + 1, end);
    while (p < end && *p != '}') {
        cJSON *k = parse_one(&p, end); /* key */
        if (!k) return -1;
        cJSON_Delete(k);
        p = skip_ws(p, end);
        if (p >= end || *p != ':') return -1;
        p = skip_ws(p + 1, end);
        if (p < end && *p == '[') {
            p = skip_ws(p + 1, end);
            int done = p < end && *p == ']';
            if (done) p++;
            while (!done) {
                int nb = 0;
                double t0 = now_s();
                while (nb < BATCH) {
                    cJSON *v = parse_one(&p, end);
                    if (!v) return -1;
                    batch[nb++] = v;
                    p = skip_ws(p, end);
                    if (p < end && *p == ',') {
                        p = skip_ws(p + 1, end);
                        continue;
                    }
                    if (p < end && *p == ']') {
                        p++;
                        done = 1;
                        break;
                    }
                    return -1;
                }
                double t1 = now_s();
                for (int i = 0; i < nb; i++) cJSON_Delete(batch[i]);
                r->cj_parse_s += t1 - t0;
                r->cj_delete_s += now_s() - t1;
                r->cj_values += nb;
            }
        } else {
            cJSON *v = parse_one(&p, end);
            if (!v) return -1;
            cJSON_Delete(v);
        }
        p = skip_ws(p, end);
        if (p < end && *p == ',') p = skip_ws(p + 1, end);
    }
    return 0;
}

static void cjson_reference(const char *path, result *r)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || st.st_size == 0) {
        if (fd >= 0) close(fd);
        return;
    }
    char *text = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (text == MAP_FAILED) return;
    if (cjson_pass(text, (size_t)st.st_size, r)) {
        fprintf(stderr, "bench_core: %s: the cJSON reference pass could not walk the file\n", path);
        r->cj_parse_s = r->cj_delete_s = r->cj_values = 0;
    }
    munmap(text, (size_t)st.st_size);

    /* Clock cost: the loader reads the clock twice per value. */
    volatile double sink = 0;
    double t0 = now_s();
    for (int i = 0; i < 1000000; i++) sink += now_s();
    r->clock_ns = (now_s() - t0) * 1e9 / 1000001.0;
    (void)sink;
}

/* Runs in the child: measures one file. */
static int do_reference = 1; /* --no-ref turns the cJSON reference pass off */

static result measure(const char *path, int sched_repeat)
{
    result r;
    memset(&r, 0, sizeof r);
    struct stat st;
    if (stat(path, &st) == 0) r.file_bytes = (double)st.st_size;

    malloc_trim(0);
    r.rss_base = resident_bytes();
    diag d;
    diag_init(&d, path);
    load_stats ls;
    memset(&ls, 0, sizeof ls);
    double t0 = now_s();
    graph *g = load_file(path, &d, NULL, &ls);
    r.load_s = now_s() - t0;
    for (size_t i = 0; i < d.nlines; i++) fprintf(stderr, "%s\n", d.lines[i]);
    diag_free(&d);
    if (!g) return r;
    malloc_trim(0);
    r.rss_loaded = resident_bytes();
    r.syntax_s = ls.syntax_s;
    r.parse_s = ls.parse_s;
    r.build_s = ls.build_s;
    r.nodes = g->n;
    r.edges = g->nedges;

    for (size_t k = 0; k < NPOL; k++) {
        const policy *p = policy_find(policy_names[k]);
        if (!p) {
            fprintf(stderr, "bench_core: no policy '%s'\n", policy_names[k]);
            graph_free(g);
            return r;
        }
        r.sched_s[k] = -1;
        for (int rep = 0; rep < sched_repeat; rep++) {
            run rr;
            char err[256];
            double s0 = now_s();
            if (policy_run(g, p, NULL, &rr, err, sizeof err)) {
                fprintf(stderr, "bench_core: %s: %s\n", path, err);
                graph_free(g);
                return r;
            }
            double dt = now_s() - s0;
            if (r.sched_s[k] < 0 || dt < r.sched_s[k]) r.sched_s[k] = dt;
            r.peak[k] = (double)rr.peak;
            policy_run_free(&rr);
        }
    }
    graph_free(g);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r.maxrss = (double)ru.ru_maxrss * 1024.0;
    if (do_reference) cjson_reference(path, &r); /* after ru_maxrss: it does not count there */
    r.ok = 1;
    return r;
}

/* Forks a child for one run so that peak RSS and the heap start clean. */
static int measure_in_child(const char *path, int sched_repeat, result *out)
{
    int fd[2];
    if (pipe(fd)) {
        perror("pipe");
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        result r = measure(path, sched_repeat);
        ssize_t w = write(fd[1], &r, sizeof r);
        _exit(w == (ssize_t)sizeof r && r.ok ? 0 : 1);
    }
    close(fd[1]);
    result r;
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t k = read(fd[0], (char *)&r + got, sizeof r - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        got += (size_t)k;
    }
    close(fd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (got != sizeof r || !r.ok) return -1;
    *out = r;
    return 0;
}

static double mn(double a, double b) { return a < b ? a : b; }
static double mx(double a, double b) { return a > b ? a : b; }

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

#define MB(x) ((x) / 1e6)

static void print_header(void)
{
    printf("%-18s %8s %8s %8s %7s %7s %7s %6s %8s %8s %7s %7s %8s %6s\n", "graph", "MB", "nodes",
           "edges", "syntax", "parse", "build", "b/p", "fifo", "priority", "load", "graphMB",
           "B/(n+e)", "maxMB");
    printf("%-18s %8s %8s %8s %7s %7s %7s %6s %8s %8s %7s %7s %8s %6s\n", "", "", "", "", "s", "s",
           "s", "%", "s", "s", "s", "", "", "");
}

static void print_row(const char *name, const result *b, const result *w, int runs)
{
    double graph_b = b->rss_loaded - b->rss_base;
    printf("%-18s %8.1f %8.0f %8.0f %7.3f %7.3f %7.3f %6.1f %8.4f %8.4f %7.3f %7.1f %8.1f %6.0f\n",
           name, MB(b->file_bytes), b->nodes, b->edges, b->syntax_s, b->parse_s, b->build_s,
           100.0 * b->build_s / b->parse_s, b->sched_s[0], b->sched_s[1], b->load_s, MB(graph_b),
           graph_b / (b->nodes + b->edges), MB(b->maxrss));
    if (runs > 1)
        printf("%-18s %8s %8s %8s %7.3f %7.3f %7.3f %6s %8.4f %8.4f %7.3f   (worst of %d runs)\n",
               "", "", "", "", w->syntax_s, w->parse_s, w->build_s, "", w->sched_s[0],
               w->sched_s[1], w->load_s, runs);
}

/* Clock reads by the loader: it times parse and delete (two reads each) of
 * the first 4096 values, then of 1 value in 16, and scales. */
static double clock_reads(const result *b)
{
    double v = b->cj_values, first = v < 4096 ? v : 4096;
    return 4.0 * (first + (v - first) / 16.0);
}
static double clock_overhead_s(const result *b) { return clock_reads(b) * b->clock_ns * 1e-9; }

static void print_cjson(const result *b, const result *w, int runs)
{
    if (b->cj_values <= 0) return;
    printf("%-18s cJSON alone (%.0f values, batches of %d): parse %.3f s (worst %.3f), "
           "delete %.3f s (worst %.3f)%s\n",
           "", b->cj_values, BATCH, b->cj_parse_s, w->cj_parse_s, b->cj_delete_s, w->cj_delete_s,
           runs > 1 ? "" : " (1 run)");
    printf("%-18s build / cJSON-alone (parse + delete) %.1f%%; clock reads in load: %.1f ns x %.0f "
           "= %.3f s\n",
           "", 100.0 * b->build_s / (b->cj_parse_s + b->cj_delete_s), b->clock_ns, clock_reads(b),
           clock_overhead_s(b));
}

static void print_md_cjson_header(void)
{
    printf("| graph | JSON values | cJSON alone: parse s | cJSON alone: delete s | build / "
           "cJSON-alone (parse + delete) "
           "| clock read ns | clock reads in load s |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
}

static void print_md_cjson_row(const char *name, const result *b)
{
    printf("| %s | %.0f | %.3f | %.3f | %.1f%% | %.1f | %.3f |\n", name, b->cj_values,
           b->cj_parse_s, b->cj_delete_s, 100.0 * b->build_s / (b->cj_parse_s + b->cj_delete_s),
           b->clock_ns, clock_overhead_s(b));
}

static void print_md_header(void)
{
    printf(
        "| graph | JSON MB | nodes | edges | syntax check s | parse s (the single pass, or cJSON "
        "parse + delete) | build s | build / parse | fifo s | "
        "priority s | load s | graph MB | B/(node+edge) | peak RSS MB |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
}

static void print_md_row(const char *name, const result *b)
{
    double graph_b = b->rss_loaded - b->rss_base;
    printf("| %s | %.1f | %.0f | %.0f | %.3f | %.3f | %.3f | %.1f%% | %.4f | %.4f | %.3f | %.1f | "
           "%.1f | %.0f |\n",
           name, MB(b->file_bytes), b->nodes, b->edges, b->syntax_s, b->parse_s, b->build_s,
           100.0 * b->build_s / b->parse_s, b->sched_s[0], b->sched_s[1], b->load_s, MB(graph_b),
           graph_b / (b->nodes + b->edges), MB(b->maxrss));
}

static const char usage[] =
    "Usage: bench_core [--runs N] [--sched-repeat K] [--md] [--no-ref] FILE...\n"
    "Loads each memtris graph FILE in N fresh processes (default 3) and reports the\n"
    "best (and worst) of: time in cJSON (parse and delete, sampled by the loader),\n"
    "graph build time, policy_run time for\n"
    "fifo and priority (best of K runs each, default 3), resident memory of the\n"
    "loaded graph (after malloc_trim) and peak RSS. Times in seconds, MB = 10^6 bytes.\n"
    "Then, in the same process, a reference pass parses the file value by value with\n"
    "cJSON alone (no graph work, clock read once per 512 values) and times parse and\n"
    "delete separately; it also measures the cost of one clock read.\n"
    "  --md       also print the results as markdown tables\n"
    "  --no-ref   skip the cJSON reference pass (for profiling)\n";

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"runs", required_argument, 0, 'r'}, {"sched-repeat", required_argument, 0, 'k'},
        {"md", no_argument, 0, 'm'},         {"no-ref", no_argument, 0, 'n'},
        {"help", no_argument, 0, 'h'},       {0, 0, 0, 0},
    };
    int runs = 3, sched_repeat = 3, md = 0, c;
    while ((c = getopt_long(argc, argv, "r:k:mnh", opts, NULL)) != -1) {
        switch (c) {
        case 'r': runs = atoi(optarg); break;
        case 'k': sched_repeat = atoi(optarg); break;
        case 'm': md = 1; break;
        case 'n': do_reference = 0; break;
        case 'h': fputs(usage, stdout); return 0;
        default: fputs(usage, stderr); return 2;
        }
    }
    if (optind >= argc || runs < 1 || sched_repeat < 1) {
        fputs(usage, stderr);
        return 2;
    }
    int nfiles = argc - optind, failed = 0;
    result *best = calloc((size_t)nfiles, sizeof *best);
    int *ok = calloc((size_t)nfiles, sizeof *ok);
    if (!best || !ok) {
        perror("calloc");
        return 1;
    }

    print_header();
    for (int f = 0; f < nfiles; f++) {
        const char *path = argv[optind + f];
        result b, w, r;
        memset(&b, 0, sizeof b);
        memset(&w, 0, sizeof w);
        int got = 0;
        for (int i = 0; i < runs; i++) {
            if (measure_in_child(path, sched_repeat, &r)) {
                fprintf(stderr, "bench_core: %s: run %d failed\n", path, i + 1);
                continue;
            }
            if (!got++) {
                b = r;
                w = r;
                continue;
            }
            b.load_s = mn(b.load_s, r.load_s);
            w.load_s = mx(w.load_s, r.load_s);
            b.parse_s = mn(b.parse_s, r.parse_s);
            w.parse_s = mx(w.parse_s, r.parse_s);
            b.syntax_s = mn(b.syntax_s, r.syntax_s);
            w.syntax_s = mx(w.syntax_s, r.syntax_s);
            b.build_s = mn(b.build_s, r.build_s);
            w.build_s = mx(w.build_s, r.build_s);
            for (size_t k = 0; k < NPOL; k++) {
                b.sched_s[k] = mn(b.sched_s[k], r.sched_s[k]);
                w.sched_s[k] = mx(w.sched_s[k], r.sched_s[k]);
            }
            if (r.rss_loaded - r.rss_base < b.rss_loaded - b.rss_base) {
                b.rss_loaded = r.rss_loaded;
                b.rss_base = r.rss_base;
            }
            b.maxrss = mn(b.maxrss, r.maxrss);
            b.cj_parse_s = mn(b.cj_parse_s, r.cj_parse_s);
            w.cj_parse_s = mx(w.cj_parse_s, r.cj_parse_s);
            b.cj_delete_s = mn(b.cj_delete_s, r.cj_delete_s);
            w.cj_delete_s = mx(w.cj_delete_s, r.cj_delete_s);
            b.clock_ns = mn(b.clock_ns, r.clock_ns);
        }
        if (!got) {
            failed = 1;
            continue;
        }
        best[f] = b;
        ok[f] = 1;
        print_row(base_name(path), &b, &w, got);
        printf("%-18s peak fifo %.0f B, priority %.0f B\n", "", b.peak[0], b.peak[1]);
        print_cjson(&b, &w, got);
        fflush(stdout);
    }
    if (md) {
        printf("\n");
        print_md_header();
        for (int f = 0; f < nfiles; f++)
            if (ok[f]) print_md_row(base_name(argv[optind + f]), &best[f]);
        if (do_reference) {
            printf("\n");
            print_md_cjson_header();
        }
        for (int f = 0; f < nfiles; f++)
            if (do_reference && ok[f] && best[f].cj_values > 0)
                print_md_cjson_row(base_name(argv[optind + f]), &best[f]);
    }
    free(best);
    free(ok);
    return failed;
}
