/* html_charts.h — the chart shapes the report's figures share (drawn with
 * html_svg.h into an open <svg> of width SVG_W): horizontal bars, stacked
 * columns, stacked areas and lines over x, each with axes, a legend and a
 * hover value on every mark. */
#ifndef PW_SINKS_HTML_CHARTS_H
#define PW_SINKS_HTML_CHARTS_H
#include <stddef.h>
#include <stdio.h>

/* Series of a chart: k layers over n points, values[layer * n + i]. */
typedef struct chart_data {
    size_t n, k;
    const char *const *labels; /* per point (a bar's name), or NULL */
    const char *const *names;  /* per layer */
    const char *const *colours; /* per layer */
    const double *values;
    const double *x;           /* per point, for areas and lines; NULL: 0..n-1 */
    const char *x_unit, *y_unit;
    const char *x_title, *y_title;
} chart_data;

/* The height each shape takes for its data. */
int chart_hbars_height(size_t n);
#define CHART_H 330

/* One bar per point (layer 0) from a left column of labels, at y; the
 * value written at each bar's end. */
void chart_hbars(FILE *f, double y, const chart_data *d);
/* A column per point, its layers stacked, with a legend under the axis. */
void chart_columns(FILE *f, const chart_data *d);
/* Layers stacked as areas (stacked = 1) or drawn as lines over x. */
void chart_area(FILE *f, const chart_data *d, int stacked);
#endif
