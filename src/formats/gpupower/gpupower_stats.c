/* gpupower_stats.c — `stats`: every repetition read in parallel (one
 * repetition per work item, its files one after another through bounded
 * windows), then baselines, the report and, when asked, the charts. */
#include <stdlib.h>

#include "core/parallel.h"
#include "formats/gpupower/gpupower_result.h"

typedef struct stats_job {
    pw_dataset *ds;
    gp_result *res;
} stats_job;

static void stats_repetition(void *ctx, size_t item, int worker)
{
    (void)worker;
    stats_job *j = ctx;
    const gp_dataset *gd = j->ds->impl;
    gp_repetition_read(j->ds, &gd->reps[item], &j->res[item]);
}

pw_status gp_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    gp_dataset *gd = ds->impl;
    gp_result *res = calloc(gd->n_reps ? gd->n_reps : 1, sizeof *res);
    if (!res)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    stats_job j = {ds, res};
    pw_parallel_for(gd->n_reps, ds->threads, stats_repetition, &j);
    if (gd->subtract_baseline)
        gp_baseline_subtract(ds, gd, res);
    gp_report_fill(ds, gd, res, pw_report_root(r));
    pw_status s = gd->plot_dir ? gp_plot_write(ds, gd, res, err) : PW_OK;
    for (size_t i = 0; i < gd->n_reps; i++)
        gp_result_free(&res[i]);
    free(res);
    return s;
}
