/* cli_proof.c: what the commands share about policies and optimality: the
 * policies' list for --help, the --time-limit and --max-states options of
 * exact's search, --alpha and --queue-order of the time-aware ones, and proving every run of a
 * graph against the best bound any of them found. */
#include "cli_proof.h"
#include "cli.h"
#include "util/units.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int cli_limit(const char *cmd, int opt, const char *arg, solve_ctx *l)
{
    char *end;
    if (opt == CLI_OPT_TIME_LIMIT) {
        double v = strtod(arg, &end);
        if (end == arg || *end || !isfinite(v) || v <= 0 || v > 1e6) {
            cli_usage_error(cmd, "--time-limit wants seconds above 0, at most 1000000, not '%s'",
                            arg);
            return -1;
        }
        l->seconds = v;
        return 0;
    }
    if (opt == CLI_OPT_MAX_MEMORY) {
        int64_t v = units_parse(arg);
        if (v < 1024 * 1024) {
            cli_usage_error(
                cmd, "--max-memory wants a size of at least 1 MiB (as 512MiB), not '%s'", arg);
            return -1;
        }
        l->max_memory = v;
        return 0;
    }
    unsigned long long v = 0;
    const char *s = arg;
    for (; *s >= '0' && *s <= '9' && v <= CLI_MAX_STATES; s++) v = v * 10 + (unsigned)(*s - '0');
    if (!*arg || *s || v < 1 || v > CLI_MAX_STATES) {
        cli_usage_error(cmd, "--max-states wants a whole number from 1 to %llu, not '%s'",
                        (unsigned long long)CLI_MAX_STATES, arg);
        return -1;
    }
    l->max_states = v;
    return 0;
}

int cli_capacity(const char *cmd, const char *arg, solve_ctx *l)
{
    int64_t v = units_parse(arg);
    if (v < 1) {
        cli_usage_error(
            cmd, "--capacity wants a size of at least 1 byte (as 1048576 or 1MiB), not '%s'", arg);
        return -1;
    }
    l->capacity = v;
    return 0;
}

int cli_param(const char *cmd, int opt, const char *arg, solve_ctx *pp)
{
    char *end;
    if (opt == CLI_OPT_ALPHA) {
        double v = strtod(arg, &end);
        if (end == arg || *end || !(v >= 0 && v <= 1)) {
            cli_usage_error(cmd, "--alpha wants a number from 0 to 1, not '%s'", arg);
            return -1;
        }
        pp->has_alpha = 1;
        pp->alpha = v;
        return 0;
    }
    unsigned seen = 0;
    int k = 0, whole = 0; /* whole: the list ended right after a name */
    for (const char *w = arg; k < QUEUE_COUNT; k++) {
        size_t len = strcspn(w, ",");
        int q = 0;
        while (q < QUEUE_COUNT &&
               (strlen(policy_queue_names[q]) != len || strncmp(w, policy_queue_names[q], len)))
            q++;
        if (q == QUEUE_COUNT || seen & (1u << q)) break;
        seen |= 1u << q;
        pp->order[k] = (uint8_t)q;
        if (!w[len]) {
            whole = 1;
            break;
        }
        w += len + 1;
    }
    if (!whole || seen != (1u << QUEUE_COUNT) - 1) {
        cli_usage_error(cmd,
                        "--queue-order wants compute, transfer and other, each once, "
                        "comma-separated, not '%s'",
                        arg);
        return -1;
    }
    pp->has_order = 1;
    return 0;
}

int64_t cli_prove(const graph *g, run *runs, int n)
{
    int64_t lb = policy_lower_bound(g);
    for (int i = 0; i < n; i++)
        if (runs[i].lower_bound > lb) lb = runs[i].lower_bound;
    for (int i = 0; i < n; i++) policy_prove(&runs[i], lb);
    return lb;
}

/* " (stopped at the time limit)" and the like, "" for a search that finished. */
static const char *search_stop_words(solve_stop s)
{
    switch (s) {
    case SOLVE_DONE: return "";
    case SOLVE_TIME: return " (stopped at the time limit)";
    case SOLVE_STATES: return " (stopped at the state limit)";
    case SOLVE_MEMORY: return " (stopped at the memory limit)";
    case SOLVE_CANCELLED: return " (cancelled)";
    case SOLVE_TOO_LARGE: return " (too large to search)";
    }
    return "";
}

const char *cli_search_words(const run *r, char *out, size_t cap)
{
    if (!r->search.ran) snprintf(out, cap, "search: not needed (%u pieces)", r->search.pieces);
    else
        snprintf(out, cap, "search: %llu states, %u of %u pieces searched to the end%s",
                 (unsigned long long)r->search.states, r->search.solved, r->search.pieces,
                 search_stop_words(r->search.stopped));
    return out;
}

const char *cli_search_stop_word(const run *r) { return solve_stop_name(r->search.stopped); }

void cli_help_entry(const char *name, const char *desc)
{
    printf("  %-11s", name);
    int col = 13; /* the description, wrapped at 79 columns under itself */
    for (const char *w = desc; *w;) {
        size_t len = strcspn(w, " ");
        if (col > 13 && col + 1 + (int)len > 79) {
            printf("\n%13s", "");
            col = 13;
        }
        printf("%s%.*s", col > 13 ? " " : "", (int)len, w);
        col += (col > 13) + (int)len;
        w += len;
        while (*w == ' ') w++;
    }
    printf("\n");
}

void cli_policy_help(void)
{
    printf("\nPolicies (memtris(1), POLICIES, says more):\n");
    for (size_t i = 0; policy_at(i); i++) cli_help_entry(policy_at(i)->name, policy_at(i)->desc);
}

const char *cli_place_stop_word(solve_stop stopped)
{
    switch (stopped) {
    case SOLVE_TIME:
    case SOLVE_STATES:
    case SOLVE_MEMORY: return "limit";
    case SOLVE_CANCELLED: return "cancelled";
    case SOLVE_TOO_LARGE: return "too large";
    case SOLVE_DONE: break;
    }
    return "finished";
}
