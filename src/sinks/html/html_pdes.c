/* html_pdes.c — the figures of optimistic parallel simulation statistics (pe_timeline and pes
 * tables): virtual-time progress, rollbacks over virtual time, and
 * efficiency, per PE. */
#include <math.h>
#include <stdlib.h>

#include "sinks/html/html_charts.h"
#include "sinks/html/html_figures.h"
#include "sinks/html/html_svg.h"

#define MAX_PES 12 /* lines drawn apart */

/* The timeline's rows of each PE, in table order (bins of virtual time). */
typedef struct pe_lines {
    size_t pes, bins;
    double *v, *x;
    const char *names[MAX_PES];
    const char *colours[MAX_PES];
    char labels[MAX_PES][24];
} pe_lines;

/* Fills per PE (at most MAX_PES) and bin: x = what `x_of` gives, v = the
 * column `col` (cumulative when asked). */
static int pe_series(const json_t *tl, const char *col, int cumulative, pe_lines *pl)
{
    size_t i, p;
    const json_t *row;
    pl->pes = 0;
    pl->bins = 0;
    json_array_foreach(tl, i, row)
    {
        p = (size_t)jnum(row, "pe");
        if (p < MAX_PES && p + 1 > pl->pes)
            pl->pes = p + 1;
    }
    pl->bins = pl->pes ? json_array_size(tl) / pl->pes : 0;
    pl->v = calloc(pl->pes * pl->bins + 1, sizeof *pl->v);
    pl->x = calloc(pl->bins + 1, sizeof *pl->x);
    if (!pl->v || !pl->x)
        return -1;
    size_t seen[MAX_PES] = {0};
    json_array_foreach(tl, i, row)
    {
        p = (size_t)jnum(row, "pe");
        if (p >= pl->pes || seen[p] >= pl->bins)
            continue;
        size_t b = seen[p]++;
        double v = jnum(row, col);
        pl->v[p * pl->bins + b] = cumulative && b ? pl->v[p * pl->bins + b - 1] + v : v;
        pl->x[b] = jnum(row, "vt_to");
    }
    for (p = 0; p < pl->pes; p++) {
        snprintf(pl->labels[p], sizeof pl->labels[p], "PE %zu", p);
        pl->names[p] = pl->labels[p];
        pl->colours[p] = svg_colour(p);
    }
    return 0;
}

static void lines_figure(const html_run *run, const json_t *tl, const char *id, const char *caption, const char *col,
                         int cumulative, const char *y_title, const char *note)
{
    pe_lines pl = {0};
    char fid[64];
    if (pe_series(tl, col, cumulative, &pl) == 0) {
        chart_data d = {pl.bins, pl.pes, NULL, pl.names, pl.colours, pl.v, pl.x, "", "", "virtual time", y_title};
        svg_figure_open(run->f, fig_id(run, id, fid, sizeof fid), caption, SVG_W, CHART_H);
        chart_area(run->f, &d, 0);
        svg_figure_close(run->f, note);
    }
    free(pl.v);
    free(pl.x);
}

static void efficiency(const html_run *run, const json_t *pes)
{
    size_t n = json_array_size(pes), i;
    const char **labels = calloc(n + 1, sizeof *labels), **colours = calloc(n + 1, sizeof *colours);
    char(*names)[24] = calloc(n + 1, sizeof *names), id[64];
    double *v = calloc(n + 1, sizeof *v);
    const json_t *row;
    if (labels && colours && names && v) {
        json_array_foreach(pes, i, row)
        {
            snprintf(names[i], sizeof names[i], "PE %.0f", jnum(row, "pe"));
            labels[i] = names[i];
            v[i] = jnum(row, "efficiency");
            colours[i] = v[i] < 50 ? svg_colour(3) : svg_colour(2);
        }
        chart_data d = {n, 1, labels, NULL, colours, v, NULL, "", "%", NULL, NULL};
        svg_figure_open(run->f, fig_id(run, "efficiency-per-pe", id, sizeof id),
                        "Efficiency per PE (committed share of processed events)", SVG_W, chart_hbars_height(n));
        chart_hbars(run->f, 0, &d);
        svg_figure_close(run->f, "Efficiency: 1 − rolled back / committed; below 0 when more events roll back "
                                 "than commit. Red: under 50 %.");
    }
    free(labels);
    free(colours);
    free(names);
    free(v);
}

int html_pdes_figures(const html_run *run)
{
    const json_t *tl = json_object_get(run->root, "pe_timeline"), *pes = json_object_get(run->root, "pes");
    if (!json_array_size(tl) || !json_array_size(pes))
        return 0;
    lines_figure(run, tl, "gvt-progress", "Progress: samples taken by each PE as virtual time advances", "samples", 1,
                 "samples so far",
                 "Samples are taken at each GVT round (gvt mode) or at fixed real-time intervals (rt mode): a steep "
                 "line is a PE that needs many rounds to advance.");
    lines_figure(run, tl, "rollbacks-per-pe", "Rollbacks per PE over virtual time", "rollbacks", 0,
                 "rollbacks per bin", NULL);
    efficiency(run, pes);
    return 3;
}
