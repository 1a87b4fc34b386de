/* stats.c — pw_stats: the format's own summary, or the generic one. */
#include <stdlib.h>

#include "core/parallel.h"
#include "model/dataset.h"

pw_status pw_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    /* A format's own summary that reads its files past the cursors would
     * ignore a filter: the generic counts (through cursors) serve then,
     * and the report says why. */
    if (ds->fmt->stats && (!ds->filter || ds->fmt->stats_filtered))
        return ds->fmt->stats(ds, r, err);
    if (ds->fmt->stats)
        pw_rnode_str(pw_report_root(r), "filtered",
                     "records per type and location only: this format's summary reads the whole trace");
    return pw_stats_generic(ds, r, err);
}

typedef struct generic_job {
    pw_dataset *ds;
    const uint32_t *locs;
    uint64_t *per_loc;     /* records per listed location */
    uint64_t *per_schema;  /* [worker][schema] */
} generic_job;

static void generic_count(void *ctx, size_t item, int worker)
{
    generic_job *j = ctx;
    uint64_t *counts = j->per_schema + (size_t)worker * j->ds->n_schemas;
    pw_cursor *c;
    pw_error e;
    if (pw_cursor_open(j->ds, j->locs[item], &c, &e) != PW_OK) {
        pw_ds_diag_error(j->ds, PW_SEV_ERROR, "unreadable", &e);
        return;
    }
    const pw_record *rec;
    uint64_t n = 0;
    while (pw_cursor_next(c, &rec, &e) == PW_OK) {
        counts[rec->schema]++;
        n++;
    }
    j->per_loc[item] = n;
    pw_cursor_close(c);
}

pw_status pw_stats_generic(pw_dataset *ds, pw_report *r, pw_error *err)
{
    size_t n;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    int workers = pw_parallel_workers(n, ds->threads);
    generic_job j = {ds, locs, calloc(n ? n : 1, sizeof(uint64_t)),
                     calloc((size_t)workers * (ds->n_schemas ? ds->n_schemas : 1), sizeof(uint64_t))};
    if (!locs || !j.per_loc || !j.per_schema) {
        free(j.per_loc);
        free(j.per_schema);
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    pw_parallel_for(n, workers, generic_count, &j);
    pw_rnode *root = pw_report_root(r);
    pw_rnode *types = pw_rnode_array(root, "record_types");
    for (size_t s = 0; s < ds->n_schemas; s++) {
        uint64_t total = 0;
        for (int w = 0; w < workers; w++)
            total += j.per_schema[(size_t)w * ds->n_schemas + s];
        if (!total)
            continue;
        pw_rnode *o = pw_rnode_object(types, NULL);
        pw_rnode_str(o, "type", ds->schemas[s]->name);
        pw_rnode_uint(o, "records", total);
    }
    pw_rnode *locations = pw_rnode_array(root, "locations");
    for (size_t i = 0; i < n; i++) {
        pw_rnode *o = pw_rnode_object(locations, NULL);
        pw_rnode_str(o, "location", ds->locs[locs[i]].path);
        pw_rnode_uint(o, "records", j.per_loc[i]);
    }
    free(j.per_loc);
    free(j.per_schema);
    return PW_OK;
}
