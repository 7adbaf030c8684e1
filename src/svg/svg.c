/* svg.c: what svg/'s pictures share (svg.h): text escaped for XML and the steps of a byte
 * axis. Exports svg_escape and svg_byte_step. */
#include "svg.h"
#include <math.h>
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
