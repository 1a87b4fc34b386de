/* energy_stats.c — the energy tables of `stats`: repetitions read in
 * parallel (one repetition per work item, its streams one after another),
 * in batches so that each batch is reported (streamed) and its phases freed
 * before the next is read: memory stays flat in the number of repetitions.
 * The baseline repetitions come first, since every other one may need
 * their idle power. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/energy/energy.h"
#include "core/parallel.h"

/* Repetitions per batch and worker: enough to keep the workers busy
 * across uneven repetitions, few enough that their phases stay small. */
#define BATCH_PER_WORKER 16

typedef struct stats_job {
    const energy_run *run;
    energy_result *res;
    const size_t *items; /* indices into the layout's units */
} stats_job;

static void stats_repetition(void *ctx, size_t item, int worker)
{
    (void)worker;
    stats_job *j = ctx;
    size_t i = j->items[item];
    energy_repetition_read(j->run, i, &j->res[i]);
}

void energy_read_units(const energy_run *run, energy_result *res, const size_t *items, size_t n)
{
    stats_job j = {run, res, items};
    pw_parallel_for(n, run->ds->threads, stats_repetition, &j);
}

size_t energy_batch(const energy_run *run, size_t n)
{
    return (size_t)pw_parallel_workers(n, run->ds->threads) * BATCH_PER_WORKER;
}

/* The indices of the baseline (or of the other) repetitions, in order. */
size_t energy_select_units(const pw_energy_layout *lay, int baseline, size_t *items)
{
    size_t n = 0;
    for (size_t i = 0; i < lay->n_units; i++)
        if (!lay->units[i].baseline == !baseline)
            items[n++] = i;
    return n;
}

/* Baselines: read, idle power per group; their phases are not reported. */
static energy_baselines *read_baselines(const energy_run *run, energy_result *res, size_t *items)
{
    size_t n = energy_select_units(run->lay, 1, items);
    energy_read_units(run, res, items, n);
    for (size_t k = 0; k < n; k++)
        energy_result_free(&res[items[k]]);
    return run->lay->subtract_baseline ? energy_baselines_new(run, res) : NULL;
}

/* Hands a repetition's figures to the watcher (a charts sink), with the
 * state it kept while the repetition was read. */
static void watch(const energy_run *run, size_t i, const energy_result *r)
{
    const pw_energy_watch *w = run->ds->run->energy_watch;
    size_t n = r->n_phases;
    pw_energy_span *spans = malloc((n ? n : 1) * sizeof *spans);
    if (!spans)
        n = 0;
    for (size_t k = 0; k < n; k++)
        spans[k] = (pw_energy_span){r->phases[k].name, r->phases[k].index, r->phases[k].begin, r->phases[k].end};
    int p = run->primary;
    pw_energy_figures f = {.unit = i, .ok = r->ok, .begin = r->begin, .end = r->end, .duration_s = r->duration_s,
                           .has_primary = p >= 0 && r->has[p], .primary_j = p >= 0 ? r->energy[p] : 0,
                           .phases = spans, .n_phases = n};
    w->repetition(w->ctx, &f, r->watched);
    free(spans);
}

/* The other repetitions, batch by batch: read, then each reported
 * (energy_report_read). */
static void read_repetitions(const energy_run *run, energy_result *res, size_t *items, energy_baselines *base,
                             pw_rnode *rows)
{
    size_t n = energy_select_units(run->lay, 0, items);
    size_t batch = energy_batch(run, n);
    for (size_t first = 0; first < n; first += batch) {
        size_t len = n - first < batch ? n - first : batch;
        energy_read_units(run, res, items + first, len);
        for (size_t k = first; k < first + len; k++)
            energy_report_read(run, items[k], &res[items[k]], base, rows);
    }
}

void energy_report_read(const energy_run *run, size_t i, energy_result *res, energy_baselines *base, pw_rnode *rows)
{
    const pw_energy_unit *u = &run->lay->units[i];
    energy_baselines_apply(base, run, u, res);
    if (res->ok)
        energy_report_repetition(rows, run, u, res);
    if (run->ds->run->energy_watch)
        watch(run, i, res);
    if (!res->ok)
        energy_result_free(res); /* a reported one's phases wait for the phases table */
}

/* The run's constants: the primary source, the format's finding codes ("<format>.<kind>": the findings are about its files). */
pw_status energy_run_init(energy_run *run, pw_dataset *ds, pw_error *err)
{
    static const char *const kinds[] = {"no-timestamps", "no-window", "open-epoch", "bad-header",
                                        "unreadable", "partial-coverage", "no-gpu-power",
                                        "no-power-column", "no-baseline"};
    const pw_energy_layout *lay = ds->energy;
    *run = (energy_run){.ds = ds, .lay = lay, .primary = -1};
    if (lay->n_sources > ENERGY_MAX_SOURCES)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "more than %d energy sources",
                       ENERGY_MAX_SOURCES);
    for (size_t s = 0; s < lay->n_sources; s++)
        if (lay->sources[s].primary)
            run->primary = (int)s;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        char code[96];
        snprintf(code, sizeof code, "%s.%s", ds->fmt->name, kinds[k]);
        if (!(run->codes[k] = pw_ds_strdup(ds, code)))
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    return PW_OK;
}

pw_status energy_report(pw_dataset *ds, pw_report *r, pw_error *err)
{
    if (!ds->energy)
        return PW_OK;
    energy_run run;
    pw_status s = energy_run_init(&run, ds, err);
    if (s != PW_OK)
        return s;
    size_t n = ds->energy->n_units ? ds->energy->n_units : 1;
    energy_result *res = calloc(n, sizeof *res);
    size_t *items = malloc(n * sizeof *items);
    energy_baselines *base = res && items ? read_baselines(&run, res, items) : NULL;
    if (!res || !items || (ds->energy->subtract_baseline && !base)) {
        s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    } else {
        read_repetitions(&run, res, items, base, pw_report_stream(r, "repetitions"));
        energy_report_end(&run, res, pw_report_root(r));
        for (size_t i = 0; i < ds->energy->n_units; i++)
            energy_result_free(&res[i]);
    }
    energy_baselines_end(base, &run);
    free(items);
    free(res);
    return s;
}
