/* app_export.c: the TUI's export (e): the curve and the arena of the stepped
 * policy as an SVG picture, drawn as plan --svg draws them, with the cursor's
 * step marked, whole or absent (atomic_out). Exports app_export_name,
 * app_export_svg. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "app.h"
#include "svg.h"
#include "util/atomic_out.h"

void app_export_name(const app *a, char *out, size_t cap)
{
    const char *slash = strrchr(a->title, '/'), *base = slash && slash[1] ? slash + 1 : a->title;
    size_t len = strlen(base);
    if (len > 5 && !strcmp(base + len - 5, ".json")) len -= 5;
    if (len > 64) len = 64;
    snprintf(out, cap, "%.*s-%s-step%u.svg", (int)len, base, a->pol->name, a->st[0].k);
}

int app_export_svg(app *a, const char *path)
{
    atomic_out out;
    if (atomic_out_open(&out, path)) {
        snprintf(a->msg, sizeof a->msg, "cannot write %.120s: %s", path, strerror(errno));
        return -1;
    }
    char err[160] = "";
    svg_plan sp = {.g = a->g,
                   .r = &a->st[0].r,
                   .pl = &a->pl,
                   .policy = a->pol->name,
                   .has_cursor = 1,
                   .cursor = a->st[0].k};
    int rc = svg_write_plan(out.f, &sp, err, sizeof err), e = 0;
    if (rc) atomic_out_abandon(&out);
    else if (atomic_out_commit(&out)) e = errno ? errno : EIO;
    if (rc || e) {
        snprintf(a->msg, sizeof a->msg, "cannot write %.120s: %s", path, rc ? err : strerror(e));
        return -1;
    }
    snprintf(a->msg, sizeof a->msg, "wrote %.120s: the curve and the %s arena of %s at step %u",
             path, a->pl.placer, a->pol->name, a->st[0].k);
    return 0;
}
