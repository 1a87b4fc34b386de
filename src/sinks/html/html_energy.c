/* html_energy.c — the figures of GPU power data (the energy analysis's
 * repetitions, phases, benchmarks and settings tables, a phase or setting
 * joined to its repetition or benchmark by their key columns): power per phase over time with the
 * power cap, energy per setting, and the energy-time Pareto front. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/html/html_charts.h"
#include "sinks/html/html_figures.h"
#include "sinks/html/html_svg.h"

#define MAX_REPS 12

const char *const html_benchmark_keys[] = {"experiment", "benchmark", NULL};
static const char *const repetition_keys[] = {"experiment", "benchmark", "run", "repetition", NULL};

int html_same_keys(const json_t *row, const json_t *of, const char *const *keys)
{
    for (; *keys; keys++)
        if (strcmp(jstr(row, *keys), jstr(of, *keys)))
            return 0;
    return 1;
}

/* The repetition's GPU energy (the first energy source it names). */
static double energy_of(const json_t *o)
{
    const json_t *e = json_object_get(o, "energy_j");
    if (json_is_number(e))
        return json_number_value(e);
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)e, key, v) if (json_is_number(v)) return json_number_value(v);
    return 0;
}

#define MAX_PHASE_NAMES 12

/* A phase name's colour: its rank among the names met so far. */
static size_t phase_colour(const char **names, size_t *n, const char *name)
{
    size_t i;
    for (i = 0; i < *n && strcmp(names[i], name); i++)
        ;
    if (i == *n && *n < MAX_PHASE_NAMES)
        names[(*n)++] = name;
    return i;
}

/* The measured power: the mean of each column as a line, over the
 * repetition's band (x0..x0+w, base up, k px per W). */
static void power_curve(FILE *f, const html_power *p, double x0, double base, double w, double k)
{
    int any = 0;
    fputs("<path fill=\"none\" stroke=\"#2f4b7c\" stroke-width=\"1.6\" d=\"", f);
    for (size_t c = 0; c < HTML_POWER_COLS; c++) {
        if (!p->n[c])
            continue;
        fprintf(f, "%s%.1f %.1f", any++ ? "L" : "M", x0 + w * ((double)c + 0.5) / HTML_POWER_COLS,
                base - k * p->sum[c] / p->n[c]);
    }
    fputs("\"><title>measured power (mean per column)</title></path>\n", f);
}

/* One band per repetition: its phases as boxes whose height is their mean
 * power, the repetition's mean as a line, its cap dashed. */
static void power_timeline(const html_run *run, const json_t *reps, const json_t *phases)
{
    size_t n = json_array_size(reps), shown = n > MAX_REPS ? MAX_REPS : n, i, j;
    double longest = 0, top = 0, band = 60, x0 = 200, w = SVG_W - x0 - 30;
    const json_t *rep, *ph;
    char id[64], tip[400], a[48], label[160];
    const char *names[MAX_PHASE_NAMES], *colours[MAX_PHASE_NAMES];
    size_t n_names = 0;
    for (i = 0; i < shown; i++) {
        rep = json_array_get(reps, i);
        const html_power *pw = html_power_of(run->watch, rep);
        for (j = 0; pw && j < HTML_POWER_COLS; j++)
            top = fmax(top, pw->n[j] ? pw->sum[j] / pw->n[j] : 0);
        longest = fmax(longest, jnum(rep, "duration_s"));
        top = fmax(top, fmax(jnum(rep, "peak_power_w"), jnum(json_object_get(rep, "settings"), "power_limit_w")));
    }
    if (longest <= 0 || top <= 0)
        longest = top = 1;
    svg_figure_open(run->f, fig_id(run, "power-timeline", id, sizeof id),
                    "Power over each repetition: measured power, phases, mean and power cap", SVG_W,
                    (int)(band * (double)shown + 80));
    for (i = 0; i < shown; i++) {
        rep = json_array_get(reps, i);
        double y = 8 + band * (double)i, base = y + band - 8, k = (band - 14) / top;
        snprintf(label, sizeof label, "%.14s %.16s #%.4s", jstr(rep, "benchmark"), jstr(rep, "run"),
                 jstr(rep, "repetition"));
        svg_text(run->f, x0 - 6, y + band / 2, "end", label);
        svg_box(run->f, x0, y, w * jnum(rep, "duration_s") / longest, band - 8, "#f3f3f3", NULL);
        json_array_foreach(phases, j, ph) if (html_same_keys(ph, rep, repetition_keys))
        {
            double d = jnum(ph, "duration_s"), p = d > 0 ? energy_of(ph) / d : 0;
            size_t colour = phase_colour(names, &n_names, jstr(ph, "phase"));
            fmt_si(a, sizeof a, p, "W");
            snprintf(tip, sizeof tip, "%s %.0f: %.3g s from %.3g s, mean %s", jstr(ph, "phase"), jnum(ph, "index"), d,
                     jnum(ph, "start_s"), a);
            /* with the measured curve, phases are bands behind it */
            double box_top = html_power_of(run->watch, rep) ? y : base - k * p;
            fprintf(run->f, "<g fill-opacity=\"%s\">", html_power_of(run->watch, rep) ? "0.3" : "1");
            svg_box(run->f, x0 + w * jnum(ph, "start_s") / longest, box_top, w * d / longest, base - box_top,
                    svg_colour(colour), tip);
            fputs("</g>\n", run->f);
        }
        const html_power *pw = html_power_of(run->watch, rep);
        if (pw)
            power_curve(run->f, pw, x0, base, w * jnum(rep, "duration_s") / longest, k);
        double mean = jnum(rep, "mean_power_w"), cap = jnum(json_object_get(rep, "settings"), "power_limit_w");
        svg_line(run->f, x0, base - k * mean, x0 + w * jnum(rep, "duration_s") / longest, base - k * mean, "#222", 0);
        if (cap > 0)
            svg_line(run->f, x0, base - k * cap, x0 + w, base - k * cap, svg_colour(3), 1);
    }
    svg_axis(run->f, 0, x0, 8 + band * (double)shown, w, 0, longest, "s");
    for (i = 0; i < n_names; i++)
        colours[i] = svg_colour(i);
    svg_legend(run->f, x0, 8 + band * (double)shown + 40, w, names, colours, n_names);
    char note[320];
    snprintf(note, sizeof note, "%s Black: the repetition's mean; red dashes: the power cap.%s",
             html_power_of(run->watch, json_array_get(reps, 0))
                 ? "Blue: the measured GPU power (mean per pixel); bands: the phases (hover for their mean power)."
                 : "Boxes: the phases at their mean GPU power (a phase within another drawn over it).",
             n > shown ? " The first 12 repetitions are shown." : "");
    svg_figure_close(run->f, note);
}

static void energy_per_setting(const html_run *run, const json_t *benches, const json_t *settings)
{
    size_t n = 0, i, j;
    const json_t *b, *s;
    json_array_foreach(benches, i, b) json_array_foreach(settings, j, s) n += html_same_keys(s, b, html_benchmark_keys);
    const char **labels = calloc(n + 1, sizeof *labels), **colours = calloc(n + 1, sizeof *colours);
    char(*names)[160] = calloc(n + 1, sizeof *names), id[64];
    double *v = calloc(n + 1, sizeof *v);
    size_t k = 0;
    if (labels && colours && names && v) {
        json_array_foreach(benches, i, b) json_array_foreach(settings, j, s) if (html_same_keys(s, b, html_benchmark_keys))
        {
            snprintf(names[k], sizeof names[k], "%s %s", jstr(b, "benchmark"), jstr(s, "run"));
            labels[k] = names[k];
            v[k] = jnum(s, "energy_j");
            colours[k++] = svg_colour(i);
        }
        chart_data d = {k, 1, labels, NULL, colours, v, NULL, "", "J", NULL, NULL};
        svg_figure_open(run->f, fig_id(run, "energy-per-setting", id, sizeof id),
                        "Energy per setting (mean over repetitions)", SVG_W, chart_hbars_height(k));
        chart_hbars(run->f, 0, &d);
        svg_figure_close(run->f, NULL);
    }
    free(labels);
    free(colours);
    free(names);
    free(v);
}

/* Energy against time, one mark per setting, the front joined. */
static void pareto(const html_run *run, const json_t *benches, const json_t *settings)
{
    size_t i, j;
    const json_t *b, *s;
    double tmin = INFINITY, tmax = 0, emin = INFINITY, emax = 0, x0 = 170, y0 = 14, w = SVG_W - x0 - 160, h = 240;
    char id[64], tip[300], a[48], c[48];
    json_array_foreach(benches, i, b) json_array_foreach(settings, j, s) if (html_same_keys(s, b, html_benchmark_keys))
    {
        tmin = fmin(tmin, jnum(s, "duration_s"));
        tmax = fmax(tmax, jnum(s, "duration_s"));
        emin = fmin(emin, jnum(s, "energy_j"));
        emax = fmax(emax, jnum(s, "energy_j"));
    }
    if (!(tmax > tmin)) {
        tmin = tmax > 0 ? tmax * 0.9 : 0;
        tmax = tmax > 0 ? tmax * 1.1 : 1;
    }
    if (!(emax > emin)) {
        emin = emax > 0 ? emax * 0.9 : 0;
        emax = emax > 0 ? emax * 1.1 : 1;
    }
    double pt = (tmax - tmin) * 0.08, pe = (emax - emin) * 0.08;
    tmin -= pt, tmax += pt, emin -= pe, emax += pe;
    svg_figure_open(run->f, fig_id(run, "pareto-front", id, sizeof id),
                    "Energy against time per setting; the Pareto front joined", SVG_W, (int)h + 70);
    svg_axis(run->f, 1, x0, y0, h, emin, emax, "J");
    svg_axis(run->f, 0, x0, y0 + h, w, tmin, tmax, "s");
    svg_text_up(run->f, 14, y0 + h / 2, "energy");
    svg_text(run->f, x0 + w / 2, y0 + h + 32, "middle", "time");
    json_array_foreach(benches, i, b)
    {
        fprintf(run->f, "<polyline fill=\"none\" stroke=\"%s\" points=\"", svg_colour(i));
        json_array_foreach(settings, j, s) if (html_same_keys(s, b, html_benchmark_keys)) if (json_is_true(json_object_get(s, "pareto")))
            fprintf(run->f, "%.1f,%.1f ", x0 + w * (jnum(s, "duration_s") - tmin) / (tmax - tmin),
                    y0 + h - h * (jnum(s, "energy_j") - emin) / (emax - emin));
        fputs("\"/>\n", run->f);
        json_array_foreach(settings, j, s) if (html_same_keys(s, b, html_benchmark_keys))
        {
            double x = x0 + w * (jnum(s, "duration_s") - tmin) / (tmax - tmin),
                   y = y0 + h - h * (jnum(s, "energy_j") - emin) / (emax - emin);
            fmt_si(a, sizeof a, jnum(s, "energy_j"), "J");
            fmt_si(c, sizeof c, jnum(s, "edp_js"), "J·s");
            snprintf(tip, sizeof tip, "%s %s: %.4g s, %s, EDP %s%s", jstr(b, "benchmark"), jstr(s, "run"),
                     jnum(s, "duration_s"), a, c, json_is_true(json_object_get(s, "pareto")) ? " (Pareto)" : "");
            fprintf(run->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"><title>", x, y,
                    json_is_true(json_object_get(s, "pareto")) ? svg_colour(i) : "#fff");
            html_escaped(run->f, tip);
            fprintf(run->f, "</title></circle>\n<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"none\" stroke=\"%s\"/>\n",
                    x, y, svg_colour(i));
            svg_text(run->f, x + 8, y + 4, "start", jstr(s, "run"));
        }
        char name[200];
        snprintf(name, sizeof name, "%s/%s", jstr(b, "experiment"), jstr(b, "benchmark"));
        svg_box(run->f, x0 + w + 20, y0 + 18 * (double)i, 12, 12, svg_colour(i), NULL);
        svg_text(run->f, x0 + w + 36, y0 + 18 * (double)i + 10, "start", name);
    }
    svg_figure_close(run->f, "Filled: on the Pareto front (no setting is both faster and leaner). Hover a mark "
                             "for its energy-delay product.");
}

int html_energy_figures(const html_run *run)
{
    const json_t *reps = json_object_get(run->root, "repetitions"), *benches = json_object_get(run->root, "benchmarks");
    const json_t *phases = json_object_get(run->root, "phases"), *settings = json_object_get(run->root, "settings");
    int n = 0;
    if (json_array_size(reps) && json_is_array(phases))
        power_timeline(run, reps, phases), n++;
    if (json_array_size(benches)) {
        energy_per_setting(run, benches, settings), n++;
        pareto(run, benches, settings), n++;
    }
    return n;
}
