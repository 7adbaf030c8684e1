/* cli_pool.c: the options of the pool simulation, shared by iterate and the
 * TUI (--iterations, --scale, --seed), each checked with a usage error that
 * names it. Exports cli_pool_defaults and cli_pool_opt. */
#include "cli_pool.h"
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "defaults.h"

void cli_pool_defaults(pool_params *pp)
{
    *pp = (pool_params){DEFAULT_ITERATIONS, DEFAULT_SCALE_MIN, DEFAULT_SCALE_MAX, DEFAULT_SEED};
}

/* A finite number, the whole of s (spaces aside); 0 or -1. */
static int number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    while (*end == ' ') end++;
    return end == s || *end || errno == ERANGE || !isfinite(*v) ? -1 : 0;
}

static int scale(const char *cmd, const char *arg, pool_params *pp)
{
    const char *colon = strchr(arg, ':');
    char lo[64];
    double a, b;
    if (!colon || (size_t)(colon - arg) >= sizeof lo)
        return cli_usage_error(cmd, "--scale needs MIN:MAX, two numbers (as 0.25:1), not '%s'",
                               arg);
    memcpy(lo, arg, (size_t)(colon - arg));
    lo[colon - arg] = 0;
    if (number(lo, &a) || number(colon + 1, &b))
        return cli_usage_error(cmd, "--scale '%s': MIN and MAX must be finite numbers", arg);
    if (a <= 0)
        return cli_usage_error(cmd, "--scale '%s': MIN must be above 0 (a buffer's factor)", arg);
    if (a > b) return cli_usage_error(cmd, "--scale '%s': MIN is above MAX", arg);
    pp->min = a;
    pp->max = b;
    return 0;
}

int cli_pool_opt(const char *cmd, int opt, const char *arg, pool_params *pp)
{
    char *end;
    if (opt == CLI_OPT_SCALE) return scale(cmd, arg, pp) ? -1 : 0;
    int digits = arg[0] >= '0' && arg[0] <= '9'; /* strtoull takes "-1" as 2^64-1 */
    errno = 0;
    unsigned long long v = strtoull(arg, &end, 10);
    int bad = !digits || *end || errno == ERANGE;
    if (opt == CLI_OPT_SEED && bad) {
        cli_usage_error(cmd, "--seed needs a whole number from 0 to %" PRIu64 ", not '%s'",
                        UINT64_MAX, arg);
        return -1;
    }
    if (opt == CLI_OPT_SEED) {
        pp->seed = v;
        return 0;
    }
    if (bad || v < 1 || v > POOL_MAX_ITERATIONS) {
        cli_usage_error(cmd, "--iterations needs a whole number from 1 to %u, not '%s'",
                        POOL_MAX_ITERATIONS, arg);
        return -1;
    }
    pp->iterations = (uint32_t)v;
    return 0;
}
