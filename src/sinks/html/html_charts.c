/* html_charts.c — bars, columns and areas for the report's figures
 * (html_charts.h).  Every chart lays out in the same frame: a left margin
 * for labels, a plot box, a legend below. */
#include <math.h>
#include <string.h>

#include "sinks/html/html_charts.h"
#include "sinks/html/html_svg.h"

#define LEFT 170.0  /* labels of bars / ticks of a value axis */
#define RIGHT 24.0
#define TOP 14.0
#define PLOT_H 210.0
#define BAR_H 18.0

static double max_of(const double *v, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

int chart_hbars_height(size_t n)
{
    return (int)(TOP + BAR_H * (double)n + 30);
}

void chart_hbars(FILE *f, double y, const chart_data *d)
{
    double w = SVG_W - LEFT - RIGHT - 70, top = max_of(d->values, d->n);
    char tip[512], val[48];
    if (top <= 0)
        top = 1;
    for (size_t i = 0; i < d->n; i++) {
        double v = d->values[i], by = y + TOP + BAR_H * (double)i;
        fmt_si(val, sizeof val, v, d->y_unit);
        snprintf(tip, sizeof tip, "%s: %s", d->labels[i], val);
        char label[40];
        snprintf(label, sizeof label, "%.30s%s", d->labels[i], strlen(d->labels[i]) > 30 ? "…" : "");
        svg_text(f, LEFT - 6, by + 13, "end", label);
        svg_box(f, LEFT, by + 2, v > 0 ? w * v / top : 0, BAR_H - 4, d->colours ? d->colours[i] : svg_colour(0),
                tip);
        svg_text(f, LEFT + (v > 0 ? w * v / top : 0) + 4, by + 13, "start", val);
    }
}

/* The legend of a chart's layers under its plot box; the height it took. */
static double layer_legend(FILE *f, double y, const chart_data *d)
{
    return d->k > 1 ? svg_legend(f, LEFT, y, SVG_W - LEFT - RIGHT, d->names, d->colours, d->k) : 0;
}

void chart_columns(FILE *f, const chart_data *d)
{
    double w = SVG_W - LEFT - RIGHT, top = 0, step = w / (double)(d->n ? d->n : 1);
    char tip[512], val[48];
    for (size_t i = 0; i < d->n; i++) {
        double sum = 0;
        for (size_t l = 0; l < d->k; l++)
            sum += d->values[l * d->n + i];
        top = sum > top ? sum : top;
    }
    svg_axis(f, 1, LEFT, TOP, PLOT_H, 0, top > 0 ? top : 1, d->y_unit);
    if (d->y_title)
        svg_text_up(f, 14, TOP + PLOT_H / 2, d->y_title);
    size_t widest = 1, every;
    for (size_t i = 0; i < d->n; i++)
        widest = strlen(d->labels[i]) > widest ? strlen(d->labels[i]) : widest;
    every = (size_t)ceil(7.0 * (double)widest / step); /* labels that do not overlap */
    every = every ? every : 1;
    for (size_t i = 0; i < d->n; i++) {
        double base = TOP + PLOT_H, x = LEFT + step * (double)i + (step > 4 ? 1 : 0);
        for (size_t l = 0; l < d->k; l++) {
            double v = d->values[l * d->n + i], h = top > 0 ? PLOT_H * v / top : 0;
            if (h <= 0)
                continue;
            fmt_si(val, sizeof val, v, d->y_unit);
            snprintf(tip, sizeof tip, "%s — %s: %s", d->labels[i], d->names[l], val);
            svg_box(f, x, base - h, step > 4 ? step - 2 : step, h, d->colours[l], tip);
            base -= h;
        }
        if (i % every == 0)
            svg_text(f, x + step / 2, TOP + PLOT_H + 14, "middle", d->labels[i]);
    }
    svg_line(f, LEFT, TOP + PLOT_H, LEFT + w, TOP + PLOT_H, "#666", 0);
    if (d->x_title)
        svg_text(f, LEFT + w / 2, TOP + PLOT_H + 30, "middle", d->x_title);
    layer_legend(f, TOP + PLOT_H + 50, d);
}

static double x_at(const chart_data *d, size_t i)
{
    return d->x ? d->x[i] : (double)i;
}

void chart_area(FILE *f, const chart_data *d, int stacked)
{
    double w = SVG_W - LEFT - RIGHT - 20, top = 0, x0 = d->n ? x_at(d, 0) : 0, x1 = d->n ? x_at(d, d->n - 1) : 1;
    double sums[4096];
    size_t n = d->n < 4096 ? d->n : 4096;
    if (!(x1 > x0))
        x1 = x0 + 1;
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t l = 0; l < d->k; l++)
            s = stacked ? s + d->values[l * d->n + i] : fmax(s, d->values[l * d->n + i]);
        top = s > top ? s : top;
    }
    if (top <= 0)
        top = 1;
    svg_axis(f, 1, LEFT, TOP, PLOT_H, 0, top, d->y_unit);
    svg_axis(f, 0, LEFT, TOP + PLOT_H, w, x0, x1, d->x_unit);
    if (d->y_title)
        svg_text_up(f, 14, TOP + PLOT_H / 2, d->y_title);
    if (d->x_title)
        svg_text(f, LEFT + w / 2, TOP + PLOT_H + 32, "middle", d->x_title);
    memset(sums, 0, sizeof sums);
    for (size_t l = 0; l < d->k; l++) {
        fprintf(f, "<path fill=\"%s\" fill-opacity=\"%s\" stroke=\"%s\" stroke-width=\"%s\" d=\"",
                stacked ? d->colours[l] : "none", stacked ? "0.85" : "0", d->colours[l], stacked ? "0.5" : "2");
        for (size_t i = 0; i < n; i++) {
            double v = d->values[l * d->n + i] + (stacked ? sums[i] : 0);
            fprintf(f, "%s%.1f %.1f", i ? "L" : "M", LEFT + w * (x_at(d, i) - x0) / (x1 - x0),
                    TOP + PLOT_H - PLOT_H * v / top);
        }
        for (size_t i = n; stacked && i-- > 0;)
            fprintf(f, "L%.1f %.1f", LEFT + w * (x_at(d, i) - x0) / (x1 - x0), TOP + PLOT_H - PLOT_H * sums[i] / top);
        fprintf(f, "%s\"><title>", stacked ? "Z" : "");
        html_escaped(f, d->names[l]);
        fputs("</title></path>\n", f);
        for (size_t i = 0; stacked && i < n; i++)
            sums[i] += d->values[l * d->n + i];
    }
    layer_legend(f, TOP + PLOT_H + 52, d);
}
