/* solve.h: what every solver of the core is given and says back: the context
 * (limits, the policies' parameters, a watcher that may cancel and follows
 * progress, a clock), passed in the open; and why a search stopped, one enum.
 * Exports solve_*. NULL for a context means every default. */
#ifndef MEMTRIS_SOLVE_H
#define MEMTRIS_SOLVE_H
#include <stdint.h>

#define SOLVE_TIME_LIMIT 10.0     /* seconds of a search, by default */
#define SOLVE_MAX_STATES 4000000u /* states a search keeps, by default */
#define SOLVE_ALPHA      0.7      /* weighted's weight of memory, by default */
/* A search's own memory, by default: a quarter of the machine's, at most this. */
#define SOLVE_MAX_MEMORY_CAP (2LL << 30)

/* multiqueue's queues, in the order it serves them by default. */
enum { QUEUE_COMPUTE, QUEUE_TRANSFER, QUEUE_OTHER, QUEUE_COUNT };

/* Why a search stopped. */
typedef enum solve_stop {
    SOLVE_DONE,      /* it finished: what it says is proven */
    SOLVE_TIME,      /* at the time limit */
    SOLVE_STATES,    /* at the limit of states */
    SOLVE_MEMORY,    /* at the limit of its own memory */
    SOLVE_CANCELLED, /* asked to stop (Esc, q) */
    SOLVE_TOO_LARGE  /* the problem is past what the search takes on */
} solve_stop;
/* Its one name, as JSON outputs say it: "done", "time", "states", "memory",
 * "cancelled", "too-large". */
const char *solve_stop_name(solve_stop s);

struct solve_watch; /* solve_watch.h: shared with a watching thread */

typedef struct solve_ctx {
    double seconds;      /* a search's wall-clock budget; <= 0: SOLVE_TIME_LIMIT */
    uint64_t max_states; /* 0: SOLVE_MAX_STATES (the exact placer: time alone) */
    int64_t max_memory;  /* bytes a search may hold; <= 0: solve_max_memory's default */
    int64_t capacity; /* > 0: the placers' question "does it fit in this many bytes?": exact stops
                       * at the first plan within it, or proves that none is */
    int has_alpha;    /* else weighted uses SOLVE_ALPHA */
    double alpha;     /* weighted's weight of memory, in [0, 1] */
    int has_order;    /* else multiqueue serves compute, transfer, other */
    uint8_t order[QUEUE_COUNT]; /* QUEUE_* in the order multiqueue serves them each round */
    double deadline; /* > 0: a time on the clock past which a solver stops with the best it has
                      * (set by a search for the solvers it calls, so all share its limit) */
    struct solve_watch *watch; /* NULL: nobody watches (nothing cancels) */
    double (*clock)(void); /* seconds on a monotonic clock; NULL: clock_seconds (tests inject) */
} solve_ctx;

double solve_seconds(const solve_ctx *c); /* the time limit, the default filled in */
uint64_t solve_max_states(const solve_ctx *c);
/* The bytes a search may hold for its own states: c->max_memory, or a
 * quarter of the machine's memory, at most SOLVE_MAX_MEMORY_CAP. A search
 * that reaches it stops with SOLVE_MEMORY and its best answer. */
int64_t solve_max_memory(const solve_ctx *c);
/* The time left before the limit, counted from start (a solve_now reading):
 * what the later parts of a solver may still spend. Never below 0. */
double solve_left(const solve_ctx *c, double start);
double solve_alpha(const solve_ctx *c);
void solve_order(const solve_ctx *c, uint8_t order[QUEUE_COUNT]);
double solve_now(const solve_ctx *c);    /* the context's clock */
int solve_cancelled(const solve_ctx *c); /* whether the watcher asked it to stop */
int solve_expired(const solve_ctx *c);   /* whether c has a deadline and the clock is past it */
/* For the watcher: what the solver does now (a static string), and how a
 * search stands (states so far, the best found and the proven bound). */
void solve_doing(const solve_ctx *c, const char *what);
void solve_progress(const solve_ctx *c, uint64_t states, int64_t best, int64_t bound);

#endif
