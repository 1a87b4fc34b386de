/* html_svg.h — the drawing primitives of the HTML report's figures: inline
 * SVG (no namespace, no URL: the HTML5 parser knows <svg>), escaped text,
 * one palette, axes and legends, and hover values as <title> children. */
#ifndef PW_SINKS_HTML_SVG_H
#define PW_SINKS_HTML_SVG_H
#include <stddef.h>
#include <stdio.h>

/* The width every figure is drawn for (the page scales it). */
#define SVG_W 960

/* Text as HTML/SVG character data or attribute value. */
void html_escaped(FILE *f, const char *s);
/* Colour i of the palette (cycles); the grey of "other" and "none". */
const char *svg_colour(size_t i);
#define SVG_GREY "#c8c8c8"

/* <figure id=ID> with its caption, then an <svg> of w x h user units. */
void svg_figure_open(FILE *f, const char *id, const char *caption, int w, int h);
/* </svg>, an optional note under it, </figure>. */
void svg_figure_close(FILE *f, const char *note);

/* A filled box with a hover value (tip may be NULL). */
void svg_box(FILE *f, double x, double y, double w, double h, const char *fill, const char *tip);
/* Text at (x, y); anchor "start", "middle" or "end". */
void svg_text(FILE *f, double x, double y, const char *anchor, const char *text);
/* Text turned a quarter left (a vertical axis' title). */
void svg_text_up(FILE *f, double x, double y, const char *text);
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, int dashed);

/* A value axis from 0 (or lo) to hi along a box: ticks, grid, labels with
 * the unit; `vertical` for a y axis at x0 spanning [y0, y0 + len]. */
void svg_axis(FILE *f, int vertical, double x0, double y0, double len, double lo, double hi,
              const char *unit);
/* A row of coloured keys from (x, y); returns the height used. */
double svg_legend(FILE *f, double x, double y, double width, const char *const *names,
                  const char *const *colours, size_t n);

/* A number in at most 3 significant digits with an SI prefix and unit:
 * "1.25 ms", "3.4 GB", "12 %". */
void fmt_si(char *buf, size_t cap, double v, const char *unit);
#endif
