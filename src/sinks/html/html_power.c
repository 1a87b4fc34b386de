/* html_power.c — what a page keeps of the pw_stats run it reports
 * (pw_html_watch): the states over time (html_strips.c, from the replay of
 * the time-per-state view), and the power samples for the power-timeline
 * figure: a watcher of the energy analysis (ds->run->energy_watch, as the
 * `--plot` charts use it) set before pw_stats, which keeps each
 * repetition's primary power as a mean and a peak per pixel column, so the
 * page draws the measured curve, not only its phases' means.  The columns
 * of one repetition are filled on the worker that reads it and handed to
 * the page on the reporting thread. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "model/energy_layout.h"
#include "sinks/html/html_figures.h"

struct pw_html_watch {
    pw_dataset *ds;
    pw_energy_watch watch;
    html_power **units; /* by the layout's unit index; NULL: not read */
    size_t n_units;
    html_strips *strips; /* NULL: the dataset has no states */
};

static void *on_unit_begin(void *ctx, size_t unit, int64_t begin, int64_t end)
{
    (void)ctx;
    (void)unit;
    html_power *p = end > begin ? calloc(1, sizeof *p) : NULL;
    if (p) {
        p->begin = begin;
        p->end = end;
    }
    return p;
}

static void on_sample(void *state, int64_t t, double watts)
{
    html_power *p = state;
    if (!p || t < p->begin || t > p->end)
        return;
    size_t c = (size_t)((double)(t - p->begin) * HTML_POWER_COLS / (double)(p->end - p->begin));
    c = c < HTML_POWER_COLS ? c : HTML_POWER_COLS - 1;
    p->sum[c] += watts;
    p->peak[c] = p->n[c] && p->peak[c] > watts ? p->peak[c] : watts;
    p->n[c]++;
}

static void on_repetition(void *ctx, const pw_energy_figures *f, void *state)
{
    pw_html_watch *w = ctx;
    if (f->unit < w->n_units && !w->units[f->unit])
        w->units[f->unit] = state;
    else
        free(state);
}

/* Watches the energy analysis for the power samples. */
static void watch_power(pw_html_watch *w, pw_dataset *ds)
{
    w->units = calloc(ds->energy->n_units + 1, sizeof *w->units);
    if (!w->units)
        return;
    w->n_units = ds->energy->n_units;
    w->watch = (pw_energy_watch){on_unit_begin, on_sample, on_repetition, w};
    ds->run->energy_watch = &w->watch;
}

pw_html_watch *pw_html_watch_begin(pw_dataset *ds)
{
    /* strips even when stats' replay is watched already: the report's
     * driver then replays the states for them */
    int power = ds && ds->energy && !ds->run->energy_watch, states = ds && pw_states_source_for(ds);
    pw_html_watch *w = power || states ? calloc(1, sizeof *w) : NULL;
    if (!w)
        return NULL;
    w->ds = ds;
    if (power)
        watch_power(w, ds);
    if (states && (w->strips = html_strips_new(ds)) != NULL)
        html_strips_watch(w->strips);
    return w;
}

html_strips *html_watch_strips(const pw_html_watch *w)
{
    return w ? w->strips : NULL;
}

const pw_states_watch *html_watch_unfed_states(const pw_html_watch *w)
{
    return w ? html_strips_unfed(w->strips) : NULL;
}

void pw_html_watch_free(pw_html_watch *w)
{
    if (!w)
        return;
    if (w->ds->run->energy_watch == &w->watch)
        w->ds->run->energy_watch = NULL;
    html_strips_free(w->strips);
    for (size_t i = 0; i < w->n_units; i++)
        free(w->units[i]);
    free(w->units);
    free(w);
}

const html_power *html_power_of(const pw_html_watch *w, const json_t *rep)
{
    const pw_energy_layout *lay = w ? w->ds->energy : NULL;
    for (size_t i = 0; lay && i < w->n_units; i++) {
        const pw_energy_unit *u = &lay->units[i];
        if (!strcmp(u->experiment, jstr(rep, "experiment")) && !strcmp(u->benchmark, jstr(rep, "benchmark")) &&
            !strcmp(u->run, jstr(rep, "run")) && !strcmp(u->repetition, jstr(rep, "repetition")))
            return w->units[i];
    }
    return NULL;
}
