/* svg.c: what svg/'s pictures share (svg.h, svg_internal.h): text escaped for XML, the
 * steps of byte and ms axes, and the frame of a chart of bytes across and ms up (its
 * document head and title, gridlines, labels and axis titles), which compare --pareto's and
 * budget --sweep's charts are drawn in. Exports svg_escape, svg_byte_step and, to svg/'s
 * files, svg_ms_step, svg_fx, svg_fy and svg_chart_*. */
#include "svg.h"
#include <math.h>
#include "svg_internal.h"
#include "util/utf8.h"

void svg_escape(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        if (c == '&') {
            fputs("&amp;", f);
            p++;
            continue;
        }
        if (c == '<') {
            fputs("&lt;", f);
            p++;
            continue;
        }
        if (c == '>') {
            fputs("&gt;", f);
            p++;
            continue;
        }
        if (c == '"') {
            fputs("&quot;", f);
            p++;
            continue;
        }
        if (c == '\'') {
            fputs("&apos;", f);
            p++;
            continue;
        }
        if (c < 0x80) { /* XML 1.0 allows tab, LF and CR only among the C0 controls */
            int ctl = (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f;
            fputc(ctl ? '?' : (int)c, f);
            p++;
            continue;
        }
        /* A UTF-8 sequence (utf8.h: shortest form only), not a noncharacter */
        uint32_t cp;
        int len = utf8_decode((const char *)p, NULL, &cp);
        if (!len || cp == 0xFFFE || cp == 0xFFFF) {
            fputc('?', f);
            p++;
            continue;
        }
        if (cp < 0xa0) { /* a C1 control (0x9b is a terminal's CSI), discouraged in XML */
            fputc('?', f);
            p += len;
            continue;
        }
        fwrite(p, 1, (size_t)len, f);
        p += len;
    }
}

double svg_byte_step(double max, double *unit, const char **unit_name)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double m = max > 1 ? max : 1, u = 1;
    int k = 0;
    while (k < 6 && m >= u * 1024) {
        u *= 1024;
        k++;
    }
    double raw = m / u / 5, mag = pow(10, floor(log10(raw))), fr = raw / mag;
    double step = (fr <= 1 ? 1 : fr <= 2 ? 2 : fr <= 2.5 ? 2.5 : fr <= 5 ? 5 : 10) * mag;
    if (k == 0 && step < 1) step = 1;
    *unit = u;
    *unit_name = names[k];
    return step * u;
}

double svg_ms_step(double max)
{
    double raw = (max > 0 ? max : 1) / 5, mag = pow(10, floor(log10(raw))), fr = raw / mag;
    return (fr <= 1 ? 1 : fr <= 2 ? 2 : fr <= 2.5 ? 2.5 : fr <= 5 ? 5 : 10) * mag;
}

double svg_fx(const svg_frame *fr, double bytes) { return fr->l + bytes / fr->xtop * fr->pw; }
double svg_fy(const svg_frame *fr, double ms) { return fr->t + fr->ph - ms / fr->ytop * fr->ph; }

void svg_chart_head(FILE *f, int w, int h, int x, const char *title, const char *source)
{
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
            w, h, w, h, w, h);
    fprintf(f, "<text x=\"%d\" y=\"28\" font-size=\"16\">", x);
    svg_escape(f, title);
    fprintf(f, ": ");
    svg_escape(f, source);
    fprintf(f, "</text>\n");
}

void svg_chart_bytes(FILE *f, const svg_frame *fr, double step, double unit, const char *unit_name)
{
    for (double v = 0; v <= fr->xtop + step / 2; v += step)
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e0e0e0\"/>"
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.4g %s</text>\n",
                svg_fx(fr, v), fr->t, svg_fx(fr, v), fr->t + fr->ph, svg_fx(fr, v),
                fr->t + fr->ph + 18, v / unit, v > 0 ? unit_name : "B");
}

void svg_chart_ms(FILE *f, const svg_frame *fr, double step)
{
    for (double v = 0; v <= fr->ytop + step / 2; v += step)
        fprintf(f,
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.4g ms</text>\n",
                fr->l, svg_fy(fr, v), fr->l + fr->pw, svg_fy(fr, v), fr->l - 6, svg_fy(fr, v) + 4,
                v);
}

void svg_chart_titles(FILE *f, const svg_frame *fr, const char *across, const char *up)
{
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", fr->l + fr->pw / 2,
            fr->t + fr->ph + 44);
    svg_escape(f, across);
    fprintf(f,
            "</text>\n<text x=\"20\" y=\"%d\" transform=\"rotate(-90 20 %d)\" "
            "text-anchor=\"middle\">",
            fr->t + fr->ph / 2, fr->t + fr->ph / 2);
    svg_escape(f, up);
    fprintf(f, "</text>\n");
}
