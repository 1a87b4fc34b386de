/* energy_plot.c — SVG charts of the energy analysis for `stats --plot DIR`:
 *   <exp>_<bench>_<run>_<rep>_power.svg   primary power over time, phases shaded;
 *   <exp>_<bench>_energy_time.svg         energy vs time per setting (every
 *                                         repetition, run means, Pareto front).
 * The analysis hands each repetition's figures over as it reports them
 * (ds->energy_watch); power is re-read through the primary source's cursor
 * and reduced to one mean and one peak per pixel column, so a chart stays
 * small however long the run.  The directory is one output
 * (sinks/output.c): written under a temporary name, renamed when complete. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/energy_layout.h"
#include "sinks/output.h"

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

/* Mean and peak power per pixel column over the window. */
typedef struct power_columns {
    double sum[PLOT_COLS], peak[PLOT_COLS];
    uint32_t n[PLOT_COLS];
} power_columns;

/* What the benchmark charts need of each repetition, kept until the end. */
typedef struct plot_point {
    int usable; /* not a baseline, window known, primary energy known */
    double duration_s, energy_j;
} plot_point;

struct pw_plot {
    pw_dataset *ds;
    pw_output *out;
    pw_energy_watch watch;
    power_columns columns; /* scratch, reused from one repetition to the next */
    plot_point *points;    /* per unit */
    int failed;            /* a chart could not be written */
    pw_error err;
};

/* The primary source's stream of a unit and the source. */
static const pw_energy_stream *primary_stream(const pw_energy_layout *lay, const pw_energy_unit *u,
                                              const pw_energy_source **src)
{
    for (size_t i = 0; i < u->n_streams; i++) {
        const pw_energy_stream *st = &u->streams[i];
        for (uint32_t k = 0; k < st->n_sources; k++)
            if (lay->sources[st->first_source + k].primary) {
                *src = &lay->sources[st->first_source + k];
                return st;
            }
    }
    return NULL;
}

static int read_columns(pw_dataset *ds, const pw_energy_unit *u, const pw_energy_figures *r, power_columns *pc)
{
    const pw_energy_source *src = NULL;
    const pw_energy_stream *st = primary_stream(ds->energy, u, &src);
    pw_cursor *c = NULL;
    pw_error e;
    if (!st || st->first_loc < 0 || st->n_locs != 1 || pw_cursor_open(ds, (uint32_t)st->first_loc, &c, &e) != PW_OK)
        return -1;
    double span = (double)(r->end - r->begin), scale = 0;
    int field = -1, rows = 0, seen = 0;
    while (span > 0 && pw_cursor_step(c, &e) == PW_OK) {
        if (!rows++) {
            const pw_schema *sc = ds->schemas[c->rec.schema];
            field = pw_field_index(sc, src->field);
            scale = field >= 0 ? pw_energy_si_factor(src->unit ? src->unit : sc->fields[field].unit) : 0;
        }
        const pw_value *v = field >= 0 ? &pw_record_fields(&c->rec)[field] : NULL;
        if (!v || !v->present)
            continue;
        seen = 1;
        double x = (double)(c->rec.t - r->begin) / span * PLOT_COLS, p = v->v.f * scale;
        if (x < 0 || x >= PLOT_COLS)
            continue;
        int col = (int)x;
        pc->sum[col] += p;
        pc->peak[col] = pc->n[col]++ && pc->peak[col] > p ? pc->peak[col] : p;
    }
    pw_cursor_close(c);
    return seen ? 0 : -1; /* no power: no chart */
}

/* A chart that cannot be created fails the whole output (noted once). */
static FILE *chart(pw_plot *p, const char *const *parts, size_t n, const char *suffix)
{
    char path[4096];
    FILE *f = open_chart(p->out->work, parts, n, suffix, path, sizeof path);
    if (!f && !p->failed++) {
        pw_fail_errno(&p->err, path, "cannot create");
        pw_output_rename_in(p->out, &p->err);
    }
    return f;
}

static void close_chart(pw_plot *p, FILE *f)
{
    if ((ferror(f) | fclose(f)) && !p->failed++)
        pw_fail_errno(&p->err, p->out->final, "write failed");
}

static void plot_repetition(pw_plot *pl, const pw_energy_unit *rep, const pw_energy_figures *r)
{
    power_columns *pc = &pl->columns;
    memset(pc, 0, sizeof *pc);
    if (read_columns(pl->ds, rep, r, pc) != 0)
        return;
    plot_box b = {0, r->duration_s > 0 ? r->duration_s : 1, 0, 1};
    for (int c = 0; c < PLOT_COLS; c++)
        b.y_max = pc->n[c] && pc->peak[c] * 1.1 > b.y_max ? pc->peak[c] * 1.1 : b.y_max;
    const char *parts[] = {rep->experiment, "_", rep->benchmark, "_", rep->run, "_", rep->repetition};
    char title[512];
    FILE *f = chart(pl, parts, 7, "_power.svg");
    if (!f)
        return;
    snprintf(title, sizeof title, "%s / %s / %s / %s: GPU power", rep->experiment, rep->benchmark, rep->run,
             rep->repetition);
    svg_begin(f, title, &b, "time since experiment_begin (s)", "power (W)");
    for (size_t i = 0; i < r->n_phases; i++) { /* phases under the curve */
        const pw_energy_span *p = &r->phases[i];
        double x0 = px(&b, (double)(p->begin - r->begin) * 1e-9), x1 = px(&b, (double)(p->end - r->begin) * 1e-9);
        int first = !strcmp(p->name, pl->ds->energy->phase_kinds[0].name);
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
    close_chart(pl, f);
}

/* Energy vs duration of every repetition of one benchmark, run means
 * marked, the Pareto front of the means joined. */
static void plot_benchmark(pw_plot *pl, size_t first, size_t end)
{
    const pw_energy_unit *units = pl->ds->energy->units;
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
    char title[512];
    FILE *f = chart(pl, parts, 3, "_energy_time.svg");
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
    close_chart(pl, f);
}

static void on_repetition(void *ctx, pw_dataset *ds, const pw_energy_figures *f)
{
    pw_plot *p = ctx;
    p->points[f->unit] = (plot_point){.usable = f->ok && f->has_primary, .duration_s = f->duration_s,
                                      .energy_j = f->primary_j};
    if (f->ok)
        plot_repetition(p, &ds->energy->units[f->unit], f);
}

pw_status pw_plot_begin(pw_dataset *ds, const char *dir, unsigned flags, pw_plot **out, pw_error *err)
{
    *out = NULL;
    if (!ds->energy) /* nothing to draw: no output either */
        return PW_OK;
    pw_plot *p = calloc(1, sizeof *p);
    if (!p || !(p->points = calloc(ds->energy->n_units + 1, sizeof *p->points))) {
        free(p);
        return pw_fail(err, PW_E_NOMEM, dir, PW_NO_OFFSET, "out of memory");
    }
    pw_status s = pw_output_begin(dir, flags, PW_SINK_DIRECTORY, &p->out, err);
    if (s == PW_OK && mkdir(p->out->work, 0777) != 0) {
        s = pw_fail_errno(err, dir, "cannot create the plot directory");
        pw_output_discard(p->out);
    }
    if (s != PW_OK) {
        free(p->points);
        free(p);
        return s;
    }
    p->ds = ds;
    p->watch = (pw_energy_watch){on_repetition, p};
    ds->energy_watch = &p->watch;
    *out = p;
    return PW_OK;
}

/* One energy/time chart per benchmark (adjacent units of one experiment
 * and benchmark), then the directory renamed into place. */
pw_status pw_plot_finish(pw_plot *p, int ok, pw_error *err)
{
    if (!p)
        return PW_OK;
    const pw_energy_layout *lay = p->ds->energy;
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
    p->ds->energy_watch = NULL;
    pw_status s = PW_OK;
    if (!ok) {
        pw_output_discard(p->out);
    } else if (p->failed) {
        *err = p->err;
        s = err->status;
        pw_output_discard(p->out);
    } else {
        s = pw_output_finish(p->out, err);
    }
    free(p->points);
    free(p);
    return s;
}
