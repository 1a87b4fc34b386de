/* stats.c — the generic summary (records per type and per location) for
 * formats without one of their own; pw_stats is in src/drivers/stats.c. */
#include <stdlib.h>

#include "core/parallel.h"
#include "model/dataset.h"

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

int pw_ds_summary_in_parts(const pw_dataset *ds)
{
    /* a filter makes a summary that reads files past the cursors give way
     * to the generic counts (pw_stats), which the join computes alone */
    return ds->fmt->stats_part && (!ds->filter || ds->fmt->stats_filtered);
}

pw_status pw_ds_summary_part(pw_dataset *ds, void **part, size_t *size, pw_error *err)
{
    *part = NULL;
    *size = 0;
    if (!pw_ds_summary_in_parts(ds))
        return PW_OK; /* the join computes everything (pw_stats_join) */
    size_t n, first, end;
    if (!pw_ds_record_locations(ds, &n))
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    pw_ds_share(ds, n, &first, &end);
    return ds->fmt->stats_part(ds, first, end, part, size, err);
}

