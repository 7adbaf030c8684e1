/* app_replay.c: the TUI's background replay (the R key): starts the job,
 * polls it, takes its result or its failure, falls back to the host once
 * when an unnamed device does not open, cancels it. Exports app_replay_*. */
#include "app_replay.h"
#include <stdio.h>
#include <string.h>
#include "util/units.h"

void app_replay_init(app_replay *rp)
{
    memset(rp, 0, sizeof *rp);
    rp->be = replay_backend_local();
    rp->mode = REPLAY_RAW;
}

/* Starts the job on backend be with rp's mode; -1 with msg set. */
static int start_job(app_replay *rp, const replay_backend *be, const graph *g, const policy *pol,
                     const placer *plc, const solve_ctx *c, char *msg, size_t cap)
{
    char err[256];
    replay_job *j = replay_job_start(g, pol, plc, be, rp->mode, c, err, sizeof err);
    if (!j) {
        snprintf(msg, cap, "cannot start the replay: %.150s", err);
        return -1;
    }
    rp->job = j;
    rp->running = 1;
    rp->job_be = be;
    rp->job_mode = rp->mode;
    rp->cancelled = 0;
    rp->done = rp->total = 0;
    return 0;
}

int app_replay_start(app_replay *rp, const graph *g, const policy *pol, const placer *plc,
                     const solve_ctx *c, char *msg, size_t cap)
{
    if (rp->job) {
        snprintf(msg, cap, "a replay is already running (Esc cancels it)");
        return -1;
    }
    const replay_backend *be = rp->be ? rp->be : replay_backend_local();
    rp->note[0] = 0;
    if (start_job(rp, be, g, pol, plc, c, msg, cap)) return -1;
    snprintf(msg, cap, "replaying %s on %s (%s) in the background; Esc cancels", pol->name,
             be->name, replay_mode_name(rp->mode));
    return 0;
}

/* The finished job's result becomes the overlay (or its failure the
 * message); a backend that was not named and could not open is replaced by
 * the host backend once. Returns APP_REPLAY_* beyond CHANGED. */
static unsigned take_result(app_replay *rp, const graph *g, const policy *pol, const placer *plc,
                            const solve_ctx *c, replay_result *out, char *msg, size_t cap)
{
    replay_result res;
    char err[512], mp[32], pp[32], ex[32];
    int rc = replay_job_finish(rp->job, &res, err, sizeof err);
    const replay_backend *be = rp->job_be, *next = replay_fallback(be, !rp->be_auto);
    int mode = rp->job_mode, cancelled = rp->cancelled;
    rp->job = NULL;
    rp->running = 0;
    rp->cancelled = 0;
    if (rc == REPLAY_CANCELLED) {
        if (res.total) snprintf(msg, cap, "replay cancelled at step %u of %u", res.n, res.total);
        else snprintf(msg, cap, "replay cancelled before its first step");
        replay_result_free(&res);
        return 0;
    }
    if (rc == REPLAY_FAILED) {
        /* The device never opened: the fallback, when there is one. */
        if (res.unavailable[0] && !cancelled && next && (next->modes & (1u << mode))) {
            char why[sizeof res.unavailable];
            snprintf(why, sizeof why, "%s", res.unavailable);
            snprintf(rp->note, sizeof rp->note, "%s unavailable", be->name);
            replay_result_free(&res);
            if (start_job(rp, next, g, pol, plc, c, msg, cap)) return 0;
            snprintf(msg, cap, "%s cannot be used (%.120s); replaying on %s instead", be->name, why,
                     next->name);
            return APP_REPLAY_STARTED;
        }
        if (res.n)
            snprintf(msg, cap, "replay failed: %.130s (the curve shows the %u steps measured)", err,
                     res.n);
        else snprintf(msg, cap, "replay failed: %.180s", err);
        if (!res.n) {
            replay_result_free(&res);
            return 0;
        }
        *out = res;
        return APP_REPLAY_RESULT;
    }
    if (!res.n) {
        snprintf(msg, cap, "nothing to replay: the schedule has no steps");
        replay_result_free(&res);
        return 0;
    }
    snprintf(
        msg, cap,
        "%sreplay on %s (%s%s%s): measured peak %s at step %u, predicted %s; excess at most %s",
        cancelled ? "finished before Esc: " : "", res.backend, res.mode, rp->note[0] ? "; " : "",
        rp->note, units_bytes(mp, sizeof mp, res.measured_peak, 0), res.measured_peak_step + 1,
        units_bytes(pp, sizeof pp, res.predicted_peak, 0),
        units_bytes(ex, sizeof ex, res.max_excess, 1));
    *out = res;
    return APP_REPLAY_RESULT;
}

unsigned app_replay_poll(app_replay *rp, const graph *g, const policy *pol, const placer *plc,
                         const solve_ctx *c, replay_result *out, char *msg, size_t cap)
{
    if (!rp->job) return 0;
    uint32_t done, total;
    int fin = replay_job_poll(rp->job, &done, &total);
    unsigned r = done != rp->done || total != rp->total ? APP_REPLAY_CHANGED : 0;
    rp->done = done;
    rp->total = total;
    if (fin) r = APP_REPLAY_CHANGED | take_result(rp, g, pol, plc, c, out, msg, cap);
    return r;
}

int app_replay_cancel(app_replay *rp, char *msg, size_t cap)
{
    if (!rp->job || rp->cancelled) return 0;
    replay_job_cancel(rp->job);
    rp->cancelled = 1;
    snprintf(msg, cap, "cancelling the replay...");
    return 1;
}

void app_replay_stop(app_replay *rp)
{
    if (!rp->job) return;
    replay_result res;
    char err[512];
    replay_job_cancel(rp->job);
    replay_job_finish(rp->job, &res, err, sizeof err);
    replay_result_free(&res);
    rp->job = NULL;
    rp->running = 0;
}

int app_replay_measures_self(const app_replay *rp)
{
    return rp->job && (rp->job_be->caps & REPLAY_CAP_MEASURES_SELF);
}
