/* gpupower_plot.c — SVG charts for `stats --plot DIR`:
 *   <exp>_<bench>_<run>_<rep>_power.svg   GPU power over time, phases shaded;
 *   <exp>_<bench>_energy_time.svg         energy vs time per setting (every
 *                                         repetition, run means, Pareto front).
 * Power is re-read from gpu-power.csv and reduced to one mean and one peak
 * per pixel column, so a chart stays small however long the run. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/gpupower/gpupower_result.h"

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

/* Mean and peak power per pixel column over the experiment window. */
typedef struct power_columns {
    double sum[PLOT_COLS], peak[PLOT_COLS];
    uint32_t n[PLOT_COLS];
} power_columns;

/* Scratch of the power charts, reused from one repetition to the next. */
struct gp_plotter {
    power_columns columns;
};

static int read_columns(const gp_dataset *gd, const gp_rep *rep, const gp_result *r, power_columns *pc)
{
    char *path = gp_rep_file(rep, "gpu-power.csv");
    gp_table *t = malloc(sizeof *t);
    pw_error e;
    int ok = path && t && gp_table_open(t, NULL, path, GP_FILE_GPU, &gd->tz, GP_WINDOW_STREAM, &e) == PW_OK &&
             t->has_value[GP_POWER];
    double span = (double)(r->end - r->begin);
    while (ok && span > 0 && gp_table_next(t, &e) == PW_OK) {
        double x = (double)(t->t - r->begin) / span * PLOT_COLS, p = t->v[GP_POWER] * 1e-3;
        if (x < 0 || x >= PLOT_COLS || isnan(p))
            continue;
        int c = (int)x;
        pc->sum[c] += p;
        pc->peak[c] = pc->n[c]++ && pc->peak[c] > p ? pc->peak[c] : p;
    }
    if (t)
        gp_table_close(t);
    free(t);
    free(path);
    return ok ? 0 : -1;
}

static void plot_repetition(pw_dataset *ds, const gp_dataset *gd, const gp_rep *rep, const gp_result *r,
                            power_columns *pc)
{
    memset(pc, 0, sizeof *pc);
    if (read_columns(gd, rep, r, pc) != 0)
        return;
    plot_box b = {0, r->duration_s > 0 ? r->duration_s : 1, 0, 1};
    for (int c = 0; c < PLOT_COLS; c++)
        b.y_max = pc->n[c] && pc->peak[c] * 1.1 > b.y_max ? pc->peak[c] * 1.1 : b.y_max;
    const char *parts[] = {rep->experiment, "_", rep->benchmark, "_", rep->run, "_", rep->repetition};
    char path[4096], title[512];
    FILE *f = open_chart(gd->plot_dir, parts, 7, "_power.svg", path, sizeof path);
    if (!f) {
        pw_ds_diag(ds, PW_SEV_WARNING, "gpupower.plot", path, PW_NO_OFFSET, "cannot create: %s", strerror(errno));
        return;
    }
    snprintf(title, sizeof title, "%s / %s / %s / %s: GPU power", rep->experiment, rep->benchmark, rep->run,
             rep->repetition);
    svg_begin(f, title, &b, "time since experiment_begin (s)", "power (W)");
    for (size_t i = 0; i < r->n_phases; i++) { /* phases under the curve */
        const gp_phase *p = &r->phases[i];
        double x0 = px(&b, (double)(p->begin - r->begin) * 1e-9), x1 = px(&b, (double)(p->end - r->begin) * 1e-9);
        int train = !strcmp(p->name, "train");
        fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" opacity=\"0.25\"/>\n", x0,
                PLOT_Y0 + (train ? 0 : 12), x1 - x0, PLOT_H - 2 * PLOT_Y0 - (train ? 0 : 12),
                train ? "#cfe3f7" : p->index % 2 ? "#f7d9a8" : "#f2c27b");
        if (!train)
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\">epoch %lld</text>\n", x0 + 2, PLOT_Y0 + 10,
                    (long long)p->index);
    }
    fputs("<polyline fill=\"none\" stroke=\"#c0392b\" stroke-width=\"1\" points=\"", f);
    for (int c = 0; c < PLOT_COLS; c++)
        if (pc->n[c])
            fprintf(f, "%d,%.1f ", PLOT_X0 + c, py(&b, pc->sum[c] / pc->n[c]));
    fputs("\"/>\n</svg>\n", f);
    fclose(f);
}

/* Energy vs duration of every repetition of one benchmark, run means
 * marked, the Pareto front of the means joined. */
static void plot_benchmark(const gp_dataset *gd, const gp_result *res, size_t first, size_t end, pw_dataset *ds)
{
    plot_box b = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (size_t i = first; i < end; i++) {
        if (gd->reps[i].baseline || !res[i].ok || !res[i].has[GP_SRC_GPU])
            continue;
        b.x_min = fmin(b.x_min, res[i].duration_s);
        b.x_max = fmax(b.x_max, res[i].duration_s);
        b.y_min = fmin(b.y_min, res[i].energy[GP_SRC_GPU]);
        b.y_max = fmax(b.y_max, res[i].energy[GP_SRC_GPU]);
    }
    if (!isfinite(b.x_min))
        return;
    double dx = (b.x_max - b.x_min) * 0.1 + 1e-3 * fabs(b.x_max) + 1e-9, dy = (b.y_max - b.y_min) * 0.1 + 1e-3 * fabs(b.y_max) + 1e-9;
    b = (plot_box){b.x_min - dx, b.x_max + dx, b.y_min - dy, b.y_max + dy};
    const gp_rep *r0 = &gd->reps[first];
    const char *parts[] = {r0->experiment, "_", r0->benchmark};
    char path[4096], title[512];
    FILE *f = open_chart(gd->plot_dir, parts, 3, "_energy_time.svg", path, sizeof path);
    if (!f) {
        pw_ds_diag(ds, PW_SEV_WARNING, "gpupower.plot", path, PW_NO_OFFSET, "cannot create: %s", strerror(errno));
        return;
    }
    snprintf(title, sizeof title, "%s / %s: GPU energy vs time per setting", r0->experiment, r0->benchmark);
    svg_begin(f, title, &b, "duration (s)", "energy (J)");
    double mx[256], my[256];
    const char *names[256];
    size_t n = 0;
    for (size_t i = first; i < end;) { /* one run at a time */
        size_t j = i, k = 0;
        double sx = 0, sy = 0;
        for (; j < end && !strcmp(gd->reps[j].run, gd->reps[i].run); j++) {
            if (gd->reps[j].baseline || !res[j].ok || !res[j].has[GP_SRC_GPU])
                continue;
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#7f8c8d\"/>\n", px(&b, res[j].duration_s),
                    py(&b, res[j].energy[GP_SRC_GPU]));
            sx += res[j].duration_s;
            sy += res[j].energy[GP_SRC_GPU];
            k++;
        }
        if (k && n < 256) {
            mx[n] = sx / (double)k;
            my[n] = sy / (double)k;
            names[n++] = gd->reps[i].run;
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
    for (size_t i = 0; i < n; i++)
    {
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#2980b9\"/><text x=\"%.1f\" y=\"%.1f\">",
                px(&b, mx[i]), py(&b, my[i]), px(&b, mx[i]) + 7, py(&b, my[i]) - 7);
        svg_escaped(f, names[i]);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
    fclose(f);
}

/* The directory exists (or is made) before any chart: a failure is known
 * before the report starts going out. */
pw_status gp_plot_begin(const gp_dataset *gd, gp_plotter **out, pw_error *err)
{
    *out = NULL;
    if (mkdir(gd->plot_dir, 0777) != 0 && errno != EEXIST)
        return pw_fail_errno(err, gd->plot_dir, "cannot create the plot directory");
    *out = malloc(sizeof **out);
    if (!*out)
        return pw_fail(err, PW_E_NOMEM, gd->plot_dir, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

void gp_plot_repetition(gp_plotter *p, pw_dataset *ds, const gp_dataset *gd, size_t i, const gp_result *r)
{
    if (!gd->reps[i].baseline && r->ok)
        plot_repetition(ds, gd, &gd->reps[i], r, &p->columns);
}

/* One energy/time chart per benchmark, from the figures every repetition
 * keeps (its phases are gone by then). */
void gp_plot_end(gp_plotter *p, pw_dataset *ds, const gp_dataset *gd, const gp_result *res)
{
    size_t first = 0, n = res ? gd->n_reps : 0;
    for (size_t i = 0; i < n; i++) {
        const gp_rep *a = &gd->reps[first], *c = &gd->reps[i];
        if (strcmp(a->experiment, c->experiment) || strcmp(a->benchmark, c->benchmark)) {
            plot_benchmark(gd, res, first, i, ds);
            first = i;
        }
    }
    if (n)
        plot_benchmark(gd, res, first, n, ds);
    free(p);
}
