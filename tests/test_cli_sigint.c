/* test_cli_sigint.c: Ctrl-C in the CLI (cli_sigint.c). During a search the
 * first SIGINT only asks the search to stop (the watcher's flag, as the TUI's
 * Esc) and the process lives on; a second one, one outside a search, or one
 * that stopped a search with nothing found, ends the process as SIGINT does. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "cli/cli_sigint.h"
#include "sched/graph/solve_watch.h"

/* A child raises SIGINT with or without a search begun; the parent reads how
 * it ended: 0 when it lived on with the flag set, else the signal. */
static int child(int searches, int times)
{
    pid_t pid = fork();
    if (pid == 0) {
        solve_ctx s = cli_search_begin(NULL);
        if (!searches) cli_search_end(0);
        for (int i = 0; i < times; i++) raise(SIGINT);
        _exit(solve_cancelled(&s) ? 0 : 3);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st);
}

static void test_first_sigint_stops_the_search(void **state)
{
    (void)state;
    assert_int_equal(child(1, 1), 0); /* lived on; the search was asked to stop */
}

static void test_second_sigint_ends_the_process(void **state)
{
    (void)state;
    assert_int_equal(child(1, 2), SIGINT);
}

static void test_sigint_outside_a_search_ends_the_process(void **state)
{
    (void)state;
    assert_int_equal(child(0, 1), SIGINT);
}

/* A search stopped by Ctrl-C does not stop the next one (plan places after
 * it schedules): end clears the request; the next SIGINT is again a first. */
static void test_the_next_search_runs_anew(void **state)
{
    (void)state;
    pid_t pid = fork();
    if (pid == 0) {
        solve_ctx s = cli_search_begin(NULL);
        raise(SIGINT);
        int first = solve_cancelled(&s);
        cli_search_end(0);
        s = cli_search_begin(NULL);
        int after = solve_cancelled(&s);
        raise(SIGINT); /* a first again: the process lives */
        _exit(first && !after && solve_cancelled(&s) ? 0 : 3);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* In a command of many searches (compare), once a SIGINT has stopped one,
 * the next SIGINT ends the process even in a later search. */
static void test_sticky_second_sigint_ends_the_process(void **state)
{
    (void)state;
    pid_t pid = fork();
    if (pid == 0) {
        cli_search_sticky();
        solve_ctx s = cli_search_begin(NULL);
        raise(SIGINT); /* stops this search */
        int first = solve_cancelled(&s);
        cli_search_end(0);
        s = cli_search_begin(NULL);
        raise(SIGINT); /* a later search: the end */
        _exit(first ? 3 : 4);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGINT);
}

/* A search that the first SIGINT stopped before it found anything (a placer
 * with no plan yet, in compare): nothing to go on with, so the process ends
 * as that SIGINT would have (status 130 in the shell), never with an error.
 * A search that failed without a SIGINT returns as it did. */
static void test_stopped_with_nothing_ends_the_process(void **state)
{
    (void)state;
    pid_t pid = fork();
    if (pid == 0) {
        cli_search_begin(NULL);
        raise(SIGINT);
        cli_search_end(1);
        _exit(3);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGINT);
    pid = fork();
    if (pid == 0) {
        cli_search_begin(NULL);
        cli_search_end(1); /* failed on its own: the caller says why */
        _exit(0);
    }
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* The context given keeps its limits and gets the CLI's watcher. */
static void test_begin_keeps_the_limits(void **state)
{
    (void)state;
    solve_ctx c = {.seconds = 3, .max_states = 7, .capacity = 99};
    solve_ctx s = cli_search_begin(&c);
    cli_search_end(0);
    assert_true(s.seconds == 3);
    assert_int_equal(s.max_states, 7);
    assert_int_equal(s.capacity, 99);
    assert_non_null(s.watch);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_sigint_stops_the_search),
        cmocka_unit_test(test_second_sigint_ends_the_process),
        cmocka_unit_test(test_sigint_outside_a_search_ends_the_process),
        cmocka_unit_test(test_the_next_search_runs_anew),
        cmocka_unit_test(test_sticky_second_sigint_ends_the_process),
        cmocka_unit_test(test_stopped_with_nothing_ends_the_process),
        cmocka_unit_test(test_begin_keeps_the_limits),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
