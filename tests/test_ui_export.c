/* test_ui_export.c: e on a training step writes what the screen shows: the curve stacked by
 * Category (C) with every category the graph has in a legend, the measured peak's line, the
 * backward's first step and the budget's line (m), each labelled; and no label is struck
 * through: every label box (data-box) is clear of every line (the cursor's, the peak's, the
 * backward's, the measured's, the budget's, the lower bound's) and of the curve's outline, read
 * back from the SVG's own geometry, at cursor steps all over the run. */
#include <math.h>
#include <unistd.h>
#include "sched/policy/bycat.h"
#include "util/units.h"
#include "uiutil.h"

#define TRAIN "resnet18_train.json"

/* The segments an SVG draws as lines: its <line> elements of a class (or any class) and the
 * outline of its "curve" path (its V and H steps). */
typedef struct seg {
    double x0, y0, x1, y1;
    char cls[16];
} seg;

static double attr(const char *el, const char *name)
{
    char key[32];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = strstr(el, key);
    assert_non_null(p);
    return strtod(p + strlen(key), NULL);
}

/* The <line class="..."> elements and the curve path's segments; returns how many. */
static int segments(const char *svg, seg *out, int cap)
{
    int n = 0;
    for (const char *p = strstr(svg, "<line class=\""); p; p = strstr(p + 1, "<line class=\"")) {
        assert_true(n < cap);
        seg *s = &out[n++];
        sscanf(p + 13, "%15[^\"]", s->cls);
        s->x0 = attr(p, "x1");
        s->y0 = attr(p, "y1");
        s->x1 = attr(p, "x2");
        s->y1 = attr(p, "y2");
    }
    const char *c = strstr(svg, "<path class=\"curve\" d=\"M");
    assert_non_null(c);
    char *e;
    double x = strtod(c + 24, &e), y = strtod(e + 1, &e);
    while (*e == 'V' || *e == 'H') {
        int v = *e == 'V';
        double t = strtod(e + 1, &e);
        assert_true(n < cap);
        out[n++] = (seg){x, y, v ? x : t, v ? t : y, "outline"};
        if (v) y = t;
        else x = t;
    }
    return n;
}

/* Every label: apart from the others and from every segment (a vertical one's x outside the
 * box or its span clear of it; a horizontal one's y likewise). Returns how many labels. */
static int labels_clear(const char *svg, const seg *s, int ns, uint32_t k)
{
    double b[32][4];
    int n = svg_label_boxes(svg, b, 32, k);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < ns; j++) {
            double lx = fmin(s[j].x0, s[j].x1), hx = fmax(s[j].x0, s[j].x1);
            double ly = fmin(s[j].y0, s[j].y1), hy = fmax(s[j].y0, s[j].y1);
            if (hx > b[i][0] && lx < b[i][2] && hy > b[i][1] && ly < b[i][3])
                fail_msg("step %u: the %s line (%.1f,%.1f)-(%.1f,%.1f) strikes label %d "
                         "(%.1f %.1f %.1f %.1f)",
                         k, s[j].cls, s[j].x0, s[j].y0, s[j].x1, s[j].y1, i, b[i][0], b[i][1],
                         b[i][2], b[i][3]);
        }
    return n;
}

static int count(const char *svg, const char *what)
{
    int n = 0;
    for (const char *p = strstr(svg, what); p; p = strstr(p + 1, what)) n++;
    return n;
}

/* The first backward step, worked out here from the phases. */
static uint32_t first_backward(const graph *g, const run *r)
{
    for (uint32_t t = 0; t < r->n; t++)
        if (graph_phase(g, r->order[t]) == GRAPH_PHASE_BACKWARD) return t + 1;
    return 0;
}

static void test_training_slide(void **state)
{
    (void)state;
    fixture f;
    open_app(&f, TRAIN, 0);
    app *a = &f.a;
    app_resize(a, 120, 40);
    app_key(a, 'C'); /* stacked by category */
    assert_true(a->stacked);
    char dir[] = "/tmp/memtris-export-XXXXXX", path[256], want[160], b[32];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/slide.svg", dir);
    const run *r = &a->st[0].r;
    uint32_t n = r->n, bw = first_backward(f.g, r);
    assert_true(bw > 0 && f.g->measured_peak > 0);
    static seg s[4096];
    uint32_t steps[64], ns0 = 0;
    for (uint32_t k = 0; k <= n && ns0 < 60; k += n / 40 + 1) steps[ns0++] = k;
    steps[ns0++] = bw - 1; /* the cursor on the backward's line, beside it, and at the peak */
    steps[ns0++] = bw;
    steps[ns0++] = r->peak_step;
    steps[ns0++] = n;
    for (uint32_t i = 0; i < ns0; i++) {
        uint32_t k = steps[i];
        char *svg = export_at(a, k, path);
        /* every category the graph has: a band (if it has bytes) and a legend entry */
        int has[GRAPH_NCAT] = {0};
        for (uint32_t x = 0; x < f.g->nbufs; x++) has[graph_buf_category(f.g, x)] = 1;
        for (int c = 0; c < GRAPH_NCAT; c++) {
            if (!has[c]) continue;
            snprintf(want, sizeof want, "<rect class=\"swatch-%s\"", bycat_word(c));
            assert_non_null(strstr(svg, want));
            snprintf(want, sizeof want, ">%s</text>", bycat_word(c));
            assert_non_null(strstr(strstr(svg, "class=\"legend-cat\""), want));
        }
        for (const char *w = "weight\0gradient\0activation\0workspace\0"; *w; w += strlen(w) + 1) {
            snprintf(want, sizeof want, "<path class=\"cat cat-%s\"", w);
            assert_int_equal(count(svg, want), 1);
        }
        assert_non_null(strstr(svg, "by category</text>"));
        /* the measured line and its label, the backward's line at its step and its label */
        assert_int_equal(count(svg, "<line class=\"measured\""), 1);
        snprintf(want, sizeof want, ">measured %s</text>",
                 units_bytes(b, sizeof b, f.g->measured_peak, 0));
        assert_non_null(strstr(svg, want));
        const char *bl = strstr(svg, "<line class=\"backward\"");
        assert_non_null(bl);
        assert_true(fabs(attr(bl, "x1") - (96 + (double)(bw - 1) * 836 / n)) < 0.06);
        int ns = segments(svg, s, 4096), nl = labels_clear(svg, s, ns, k);
        assert_true(nl >= 4); /* the peak's or the cursor's at least, measured, arena, bound */
        if (strstr(svg, "backward-label")) assert_non_null(strstr(svg, ">\u25b8backward</text>"));
        free(svg);
    }
    /* a budget (m): its line and label as the screen has them */
    app_key(a, 'm');
    while (a->prompt.buf[0]) app_key(a, K_BACKSPACE);
    type(a, "80%");
    app_key(a, K_ENTER);
    assert_true(a->bud.on);
    for (uint32_t k = 0; k <= a->st[0].r.n; k += 97) {
        char *svg = export_at(a, k, path);
        assert_int_equal(count(svg, "<line class=\"budget\""), 1);
        snprintf(want, sizeof want, ">budget %s</text>",
                 units_bytes(b, sizeof b, a->bud.budget, 0));
        assert_non_null(strstr(svg, want));
        int ns = segments(svg, s, 4096);
        labels_clear(svg, s, ns, k);
        free(svg);
    }
    unlink(path);
    rmdir(dir);
    close_app(&f);
}

/* Not stacked: the plain curve, no bands nor their legend, the measured line still; a graph
 * without Category, Phase or Measured: none of the training marks. */
static void test_plain_slides(void **state)
{
    (void)state;
    char dir[] = "/tmp/memtris-export-XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/slide.svg", dir);
    fixture f;
    open_app(&f, TRAIN, 0);
    char *svg = export_at(&f.a, 100, path);
    assert_null(strstr(svg, "class=\"cat "));
    assert_null(strstr(svg, "legend-cat"));
    assert_int_equal(count(svg, "<line class=\"measured\""), 1);
    assert_int_equal(count(svg, "<line class=\"backward\""), 1);
    static seg s[4096];
    labels_clear(svg, s, segments(svg, s, 4096), 100);
    free(svg);
    close_app(&f);
    open_app(&f, "demo.json", 0);
    svg = export_at(&f.a, 20, path);
    assert_null(strstr(svg, "class=\"measured\""));
    assert_null(strstr(svg, "class=\"backward\""));
    assert_null(strstr(svg, "class=\"budget\""));
    assert_null(strstr(svg, "class=\"cat "));
    labels_clear(svg, s, segments(svg, s, 4096), 20);
    free(svg);
    close_app(&f);
    unlink(path);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    uiu_args(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_training_slide),
        cmocka_unit_test(test_plain_slides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
