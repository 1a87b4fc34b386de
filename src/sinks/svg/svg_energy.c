/* svg_energy.c — SVG charts of the energy analysis for `stats --plot DIR`:
 *   <exp>_<bench>_<run>_<rep>_power.svg   primary power over time, phases shaded;
 *   <exp>_<bench>_energy_time.svg         energy vs time per setting (every
 *                                         repetition, run means, Pareto front).
 * The analysis hands over each repetition's primary power as it reads it
 * (ds->run->energy_watch), reduced here to one mean and one peak per pixel
 * column, so a chart stays small however long the run; its figures follow
 * when it is reported.  The directory is the plot driver's output
 * (sinks/plot/plot.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/energy_layout.h"
#include "sinks/svg/svg_energy.h"

#define PLOT_W 900
#define PLOT_H 360
#define PLOT_X0 70  /* left margin: axis labels */
#define PLOT_Y0 30
#define PLOT_COLS 800

typedef struct plot_box {
    double x_min, x_max, y_min, y_max;
} plot_box;

static double px(const plot_box *b, double x)
{
    return PLOT_X0 + (x - b->x_min) / (b->x_max - b->x_min) * PLOT_COLS;
}

static double py(const plot_box *b, double y)
{
    return PLOT_Y0 + (1.0 - (y - b->y_min) / (b->y_max - b->y_min)) * (PLOT_H - 2 * PLOT_Y0);
}

/* dir/<parts joined by '_'>, with characters unsafe in file names as '_'. */
static FILE *open_chart(const char *dir, const char *const *parts, size_t n, const char *suffix,
                        char *path, size_t cap)
{
    size_t o = (size_t)snprintf(path, cap, "%s/", dir);
    for (size_t i = 0; i < n && o < cap; i++)
        for (const char *s = parts[i]; *s && o + 1 < cap; s++)
            path[o++] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                                (*s >= '0' && *s <= '9') || strchr(".,-", *s)
                            ? *s
                            : '_';
    if (o < cap)
        snprintf(path + o, cap - o, "%s", suffix);
    return fopen(path, "w");
}

/* Directory names may hold XML specials. */
static void svg_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

static void svg_begin(FILE *f, const char *title, const plot_box *b, const char *xl, const char *yl)
{
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n", PLOT_W + 40, PLOT_H + 20);
    fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"14\">", PLOT_X0);
    svg_escaped(f, title);
    fputs("</text>\n", f);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n",
            PLOT_X0, PLOT_Y0, PLOT_COLS, PLOT_H - 2 * PLOT_Y0);
    for (int i = 0; i <= 4; i++) {
        double y = b->y_min + (b->y_max - b->y_min) * i / 4, x = b->x_min + (b->x_max - b->x_min) * i / 4;
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.4g</text>\n", PLOT_X0 - 4, py(b, y) + 4, y);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.4g</text>\n", px(b, x), PLOT_H - PLOT_Y0 + 16, x);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>\n", PLOT_X0 + PLOT_COLS / 2, PLOT_H + 12, xl);
    fprintf(f, "<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\">%s</text>\n", PLOT_H / 2, PLOT_H / 2, yl);
}

/* Mean and peak power per pixel column over one repetition's window,
 * filled on the worker that reads it. */
typedef struct power_columns {
    int64_t begin, end;
    int seen; /* some reading of the primary source: a chart */
    double sum[PLOT_COLS], peak[PLOT_COLS];
    uint32_t n[PLOT_COLS];
} power_columns;

/* What the benchmark charts need of each repetition, kept until the end. */
typedef struct plot_point {
    int usable; /* not a baseline, window known, primary energy known */
    double duration_s, energy_j;
} plot_point;

typedef struct svg_plot {
    const pw_energy_layout *lay;
    const char *dir;
    pw_energy_watch watch;
    pw_dataset *ds;
    plot_point *points; /* per unit */
    int failed;         /* a chart could not be written */
    pw_error err;
} svg_plot;

/* A chart that cannot be created fails the whole output (noted once). */
static FILE *chart(svg_plot *p, const char *const *parts, size_t n, const char *suffix, char *path,
                   size_t cap)
{
    FILE *f = open_chart(p->dir, parts, n, suffix, path, cap);
    if (!f && !p->failed++)
        pw_fail_errno(&p->err, path, "cannot create");
    return f;
}

static void close_chart(svg_plot *p, FILE *f, const char *path)
{
    if ((ferror(f) | fclose(f)) && !p->failed++)
        pw_fail_errno(&p->err, path, "write failed");
}

static void plot_repetition(svg_plot *pl, const pw_energy_unit *rep, const pw_energy_figures *r,
                            const power_columns *pc)
{
    plot_box b = {0, r->duration_s > 0 ? r->duration_s : 1, 0, 1};
    for (int c = 0; c < PLOT_COLS; c++)
        b.y_max = pc->n[c] && pc->peak[c] * 1.1 > b.y_max ? pc->peak[c] * 1.1 : b.y_max;
    const char *parts[] = {rep->experiment, "_", rep->benchmark, "_", rep->run, "_", rep->repetition};
    char path[4096], title[512];
    FILE *f = chart(pl, parts, 7, "_power.svg", path, sizeof path);
    if (!f)
        return;
    snprintf(title, sizeof title, "%s / %s / %s / %s: GPU power", rep->experiment, rep->benchmark, rep->run,
             rep->repetition);
    svg_begin(f, title, &b, "time since experiment_begin (s)", "power (W)");
    for (size_t i = 0; i < r->n_phases; i++) { /* phases under the curve */
        const pw_energy_span *p = &r->phases[i];
        double x0 = px(&b, (double)(p->begin - r->begin) * 1e-9), x1 = px(&b, (double)(p->end - r->begin) * 1e-9);
        int first = !strcmp(p->name, pl->lay->phase_kinds[0].name);
        fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" opacity=\"0.25\"/>\n", x0,
                PLOT_Y0 + (first ? 0 : 12), x1 - x0, PLOT_H - 2 * PLOT_Y0 - (first ? 0 : 12),
                first ? "#cfe3f7" : p->index % 2 ? "#f7d9a8" : "#f2c27b");
        if (!first)
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\">%s %lld</text>\n", x0 + 2, PLOT_Y0 + 10,
                    p->name, (long long)p->index);
    }
    fputs("<polyline fill=\"none\" stroke=\"#c0392b\" stroke-width=\"1\" points=\"", f);
    for (int c = 0; c < PLOT_COLS; c++)
        if (pc->n[c])
            fprintf(f, "%d,%.1f ", PLOT_X0 + c, py(&b, pc->sum[c] / pc->n[c]));
    fputs("\"/>\n</svg>\n", f);
    close_chart(pl, f, path);
}

/* Energy vs duration of every repetition of one benchmark, run means
 * marked, the Pareto front of the means joined. */
static void plot_benchmark(svg_plot *pl, size_t first, size_t end)
{
    const pw_energy_unit *units = pl->lay->units;
    const plot_point *pt = pl->points;
    plot_box b = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (size_t i = first; i < end; i++) {
        if (!pt[i].usable)
            continue;
        b.x_min = fmin(b.x_min, pt[i].duration_s);
        b.x_max = fmax(b.x_max, pt[i].duration_s);
        b.y_min = fmin(b.y_min, pt[i].energy_j);
        b.y_max = fmax(b.y_max, pt[i].energy_j);
    }
    if (!isfinite(b.x_min))
        return;
    double dx = (b.x_max - b.x_min) * 0.1 + 1e-3 * fabs(b.x_max) + 1e-9, dy = (b.y_max - b.y_min) * 0.1 + 1e-3 * fabs(b.y_max) + 1e-9;
    b = (plot_box){b.x_min - dx, b.x_max + dx, b.y_min - dy, b.y_max + dy};
    const pw_energy_unit *r0 = &units[first];
    const char *parts[] = {r0->experiment, "_", r0->benchmark};
    char path[4096], title[512];
    FILE *f = chart(pl, parts, 3, "_energy_time.svg", path, sizeof path);
    if (!f)
        return;
    snprintf(title, sizeof title, "%s / %s: GPU energy vs time per setting", r0->experiment, r0->benchmark);
    svg_begin(f, title, &b, "duration (s)", "energy (J)");
    double mx[256], my[256];
    const char *names[256];
    size_t n = 0;
    for (size_t i = first; i < end;) { /* one run at a time */
        size_t j = i, k = 0;
        double sx = 0, sy = 0;
        for (; j < end && !strcmp(units[j].run, units[i].run); j++) {
            if (!pt[j].usable)
                continue;
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#7f8c8d\"/>\n", px(&b, pt[j].duration_s),
                    py(&b, pt[j].energy_j));
            sx += pt[j].duration_s;
            sy += pt[j].energy_j;
            k++;
        }
        if (k && n < 256) {
            mx[n] = sx / (double)k;
            my[n] = sy / (double)k;
            names[n++] = units[i].run;
        }
        i = j;
    }
    size_t front[256], nf = 0;
    for (size_t i = 0; i < n; i++) {
        int on = 1;
        for (size_t j = 0; j < n && on; j++)
            on = !(j != i && mx[j] <= mx[i] && my[j] <= my[i] && (mx[j] < mx[i] || my[j] < my[i]));
        size_t at = nf++; /* insertion by duration: the front is drawn left to right */
        for (; on && at > 0 && mx[front[at - 1]] > mx[i]; at--)
            front[at] = front[at - 1];
        if (on)
            front[at] = i;
        else
            nf--;
    }
    fputs("<polyline fill=\"none\" stroke=\"#27ae60\" stroke-width=\"2\" points=\"", f);
    for (size_t i = 0; i < nf; i++)
        fprintf(f, "%.1f,%.1f ", px(&b, mx[front[i]]), py(&b, my[front[i]]));
    fputs("\"/>\n", f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#2980b9\"/><text x=\"%.1f\" y=\"%.1f\">",
                px(&b, mx[i]), py(&b, my[i]), px(&b, mx[i]) + 7, py(&b, my[i]) - 7);
        svg_escaped(f, names[i]);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
    close_chart(pl, f, path);
}

static void *on_unit_begin(void *ctx, size_t unit, int64_t begin, int64_t end)
{
    (void)ctx;
    (void)unit;
    power_columns *pc = calloc(1, sizeof *pc); /* no memory: no chart */
    if (pc) {
        pc->begin = begin;
        pc->end = end;
    }
    return pc;
}

static void on_sample(void *state, int64_t t, double watts)
{
    power_columns *pc = state;
    double span = (double)(pc->end - pc->begin), x = (double)(t - pc->begin) / span * PLOT_COLS;
    pc->seen = 1;
    if (span <= 0 || x < 0 || x >= PLOT_COLS)
        return;
    int c = (int)x;
    pc->sum[c] += watts;
    pc->peak[c] = pc->n[c]++ && pc->peak[c] > watts ? pc->peak[c] : watts;
}

static void on_repetition(void *ctx, const pw_energy_figures *f, void *state)
{
    svg_plot *p = ctx;
    power_columns *pc = state;
    p->points[f->unit] = (plot_point){.usable = f->ok && f->has_primary, .duration_s = f->duration_s,
                                      .energy_j = f->primary_j};
    if (f->ok && pc && pc->seen)
        plot_repetition(p, &p->lay->units[f->unit], f, pc);
    free(pc);
}

pw_status svg_energy_begin(pw_dataset *ds, const char *dir, void **state, pw_error *err)
{
    *state = NULL;
    if (!ds->energy) /* nothing to draw */
        return PW_OK;
    svg_plot *p = calloc(1, sizeof *p);
    if (!p || !(p->points = calloc(ds->energy->n_units + 1, sizeof *p->points))) {
        free(p);
        return pw_fail(err, PW_E_NOMEM, dir, PW_NO_OFFSET, "out of memory");
    }
    p->lay = ds->energy;
    p->dir = dir;
    p->ds = ds;
    p->watch = (pw_energy_watch){on_unit_begin, on_sample, on_repetition, p};
    ds->run->energy_watch = &p->watch;
    *state = p;
    return PW_OK;
}

/* One energy/time chart per benchmark (adjacent units of one experiment
 * and benchmark). */
pw_status svg_energy_end(void *state, int ok, pw_error *err)
{
    svg_plot *p = state;
    const pw_energy_layout *lay = p->lay;
    size_t first = 0, n = ok ? lay->n_units : 0;
    for (size_t i = 0; i < n; i++) {
        const pw_energy_unit *a = &lay->units[first], *c = &lay->units[i];
        if (strcmp(a->experiment, c->experiment) || strcmp(a->benchmark, c->benchmark)) {
            plot_benchmark(p, first, i);
            first = i;
        }
    }
    if (n)
        plot_benchmark(p, first, n);
    p->ds->run->energy_watch = NULL;
    pw_status s = PW_OK;
    if (ok && p->failed) {
        *err = p->err;
        s = err->status;
    }
    free(p->points);
    free(p);
    return s;
}
