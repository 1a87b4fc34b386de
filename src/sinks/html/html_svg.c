/* html_svg.c — the drawing primitives of the HTML report (html_svg.h).
 * Coordinates are printed with one decimal so that pages are byte for
 * byte the same on every run. */
#include <math.h>
#include <string.h>

#include "sinks/html/html_svg.h"

void html_escaped(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* Twelve distinct hues that stay apart when printed in grey too (light
 * and dark alternate). */
static const char *const palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
                                      "#b07aa1", "#ff9da7", "#9c755f", "#2f4b7c", "#8cd17d", "#d37295"};

const char *svg_colour(size_t i)
{
    return palette[i % (sizeof palette / sizeof palette[0])];
}

void svg_figure_open(FILE *f, const char *id, const char *caption, int w, int h)
{
    fprintf(f, "<figure id=\"%s\" class=\"fig\"><figcaption>", id);
    html_escaped(f, caption);
    fprintf(f, "</figcaption>\n<svg viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">\n", w, h, w, h);
}

void svg_figure_close(FILE *f, const char *note)
{
    fputs("</svg>", f);
    if (note) {
        fputs("<p class=\"note\">", f);
        html_escaped(f, note);
        fputs("</p>", f);
    }
    fputs("</figure>\n", f);
}

void svg_box(FILE *f, double x, double y, double w, double h, const char *fill, const char *tip)
{
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"", x, y, w, h, fill);
    if (!tip) {
        fputs("/>\n", f);
        return;
    }
    fputs("><title>", f);
    html_escaped(f, tip);
    fputs("</title></rect>\n", f);
}

void svg_text(FILE *f, double x, double y, const char *anchor, const char *text)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
    html_escaped(f, text);
    fputs("</text>\n", f);
}

void svg_text_up(FILE *f, double x, double y, const char *text)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">", x,
            y, x, y);
    html_escaped(f, text);
    fputs("</text>\n", f);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, int dashed)
{
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>\n", x1, y1, x2, y2,
            stroke, dashed ? " stroke-dasharray=\"4 3\"" : "");
}

void svg_axis(FILE *f, int vertical, double x0, double y0, double len, double lo, double hi, const char *unit)
{
    char buf[48];
    if (!(hi > lo))
        hi = lo + 1;
    for (int i = 0; i <= 4; i++) {
        double v = lo + (hi - lo) * i / 4;
        fmt_si(buf, sizeof buf, v, unit);
        if (vertical) {
            double y = y0 + len - len * i / 4;
            svg_line(f, x0, y, x0 - 4, y, "#666", 0);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" class=\"tick\">%s</text>\n", x0 - 6,
                    y + 4, buf);
        } else {
            double x = x0 + len * i / 4;
            svg_line(f, x, y0, x, y0 + 4, "#666", 0);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"tick\">%s</text>\n", x,
                    y0 + 16, buf);
        }
    }
    if (vertical)
        svg_line(f, x0, y0, x0, y0 + len, "#666", 0);
    else
        svg_line(f, x0, y0, x0 + len, y0, "#666", 0);
}

double svg_legend(FILE *f, double x, double y, double width, const char *const *names,
                  const char *const *colours, size_t n)
{
    double cx = x, cy = y;
    for (size_t i = 0; i < n; i++) {
        double w = 22 + 7.0 * (double)strlen(names[i]);
        if (cx + w > x + width && cx > x) {
            cx = x;
            cy += 18;
        }
        svg_box(f, cx, cy - 10, 12, 12, colours[i], NULL);
        svg_text(f, cx + 16, cy, "start", names[i]);
        cx += w + 8;
    }
    return cy - y + 18;
}

void fmt_si(char *buf, size_t cap, double v, const char *unit)
{
    static const char *const big[] = {"", "k", "M", "G", "T", "P"};
    static const char *const small[] = {"", "m", "µ", "n"};
    double a = fabs(v);
    const char *prefix = "";
    if (!strcmp(unit, "%") || a == 0 || !isfinite(v)) {
        snprintf(buf, cap, "%.3g%s%s", v, *unit == '%' ? " " : unit[0] ? " " : "", unit);
        return;
    }
    if (a >= 1000) {
        size_t i = 0;
        while (a >= 1000 && i + 1 < sizeof big / sizeof big[0]) {
            a /= 1000;
            v /= 1000;
            i++;
        }
        prefix = big[i];
    } else if (a < 1 && *unit) { /* a bare number keeps its decimals: 0.25, not 250 m */
        size_t i = 0;
        while (a < 1 && i + 1 < sizeof small / sizeof small[0]) {
            a *= 1000;
            v *= 1000;
            i++;
        }
        prefix = small[i];
    }
    snprintf(buf, cap, "%.3g %s%s", v, prefix, unit);
}
