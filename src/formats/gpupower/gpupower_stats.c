/* gpupower_stats.c — `stats`: repetitions read in parallel (one repetition
 * per work item, its files one after another through bounded windows), in
 * batches so that each batch is reported (streamed) and its phases freed
 * before the next is read: memory stays flat in the number of repetitions.
 * The `_baseline` repetitions come first, since every other one may need
 * their idle power.  Several processes read shares of the repetitions
 * (gpupower_parts.c) and report them joined through the same steps. */
#include <stdlib.h>

#include "core/parallel.h"
#include "formats/gpupower/gpupower_result.h"

/* Repetitions per batch and worker: enough to keep the workers busy
 * across uneven repetitions, few enough that their phases stay small. */
#define BATCH_PER_WORKER 16

typedef struct stats_job {
    pw_dataset *ds;
    gp_result *res;
    const size_t *items; /* indices into gd->reps */
} stats_job;

static void stats_repetition(void *ctx, size_t item, int worker)
{
    (void)worker;
    stats_job *j = ctx;
    const gp_dataset *gd = j->ds->impl;
    size_t i = j->items[item];
    gp_repetition_read(j->ds, &gd->reps[i], &j->res[i]);
}

/* The indices of the baseline (or of the other) repetitions, in order. */
static size_t select_reps(const gp_dataset *gd, int baseline, size_t *items)
{
    size_t n = 0;
    for (size_t i = 0; i < gd->n_reps; i++)
        if (!gd->reps[i].baseline == !baseline)
            items[n++] = i;
    return n;
}

void gp_read_repetitions(pw_dataset *ds, gp_result *res, const size_t *items, size_t n)
{
    stats_job j = {ds, res, items};
    pw_parallel_for(n, ds->threads, stats_repetition, &j);
}

/* Baselines: read (unless res holds them already), idle power per group;
 * their phases are not reported. */
static gp_baselines *read_baselines(pw_dataset *ds, gp_dataset *gd, gp_result *res, size_t *items, int read)
{
    size_t n = select_reps(gd, 1, items);
    if (read)
        gp_read_repetitions(ds, res, items, n);
    for (size_t k = 0; k < n; k++)
        gp_result_free(&res[items[k]]);
    return gd->subtract_baseline ? gp_baselines_new(gd, res) : NULL;
}

/* The other repetitions, batch by batch: read (unless res holds them
 * already), baseline subtracted, reported, charted, phases freed. */
static void read_repetitions(pw_dataset *ds, gp_dataset *gd, gp_result *res, size_t *items,
                             gp_baselines *base, gp_plotter *plot, pw_rnode *rows, int read)
{
    size_t n = select_reps(gd, 0, items);
    size_t batch = (size_t)pw_parallel_workers(n, ds->threads) * BATCH_PER_WORKER;
    for (size_t first = 0; first < n; first += batch) {
        size_t len = n - first < batch ? n - first : batch;
        if (read)
            gp_read_repetitions(ds, res, items + first, len);
        for (size_t k = first; k < first + len; k++) {
            size_t i = items[k];
            gp_baselines_apply(base, &gd->reps[i], &res[i]);
            if (res[i].ok)
                gp_report_repetition(rows, &gd->reps[i], &res[i]);
            if (plot)
                gp_plot_repetition(plot, ds, gd, i, &res[i]);
            gp_result_free(&res[i]);
        }
    }
}

/* The report of every repetition into res (zeroed, read here when `read`,
 * else holding every repetition's figures already). */
static pw_status stats_of(pw_dataset *ds, gp_result *res, pw_report *r, pw_error *err, int read)
{
    gp_dataset *gd = ds->impl;
    gp_plotter *plot = NULL;
    pw_status s = gd->plot_dir ? gp_plot_begin(gd, &plot, err) : PW_OK;
    if (s != PW_OK)
        return s;
    size_t *items = malloc((gd->n_reps ? gd->n_reps : 1) * sizeof *items);
    gp_baselines *base = res && items ? read_baselines(ds, gd, res, items, read) : NULL;
    if (!res || !items || (gd->subtract_baseline && !base)) {
        s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    } else {
        pw_rnode *root = pw_report_root(r);
        gp_report_begin(ds, gd, root);
        read_repetitions(ds, gd, res, items, base, plot, pw_report_stream(r, "repetitions"), read);
        gp_report_end(gd, res, root);
    }
    gp_baselines_end(base, ds);
    if (plot)
        gp_plot_end(plot, ds, gd, res);
    free(items);
    return s;
}

pw_status gp_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    gp_dataset *gd = ds->impl;
    gp_result *res = calloc(gd->n_reps ? gd->n_reps : 1, sizeof *res);
    pw_status s = stats_of(ds, res, r, err, 1);
    free(res);
    return s;
}

pw_status gp_stats_report(pw_dataset *ds, gp_result *res, pw_report *r, pw_error *err)
{
    return stats_of(ds, res, r, err, 0);
}
