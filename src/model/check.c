/* check.c — deep validation: every record of every location (of this
 * process's share) is read in parallel, then the format's own consistency
 * checks run. */
#include "core/parallel.h"
#include "model/dataset.h"

typedef struct check_job {
    pw_dataset *ds;
    const uint32_t *locs;
} check_job;

/* Reads one location to its end; damage becomes a diagnostic inside
 * pw_cursor_next (and cursor_open failures here). */
static void check_location(void *ctx, size_t item, int worker)
{
    (void)worker;
    check_job *j = ctx;
    pw_cursor *c;
    pw_error e;
    pw_status s = pw_cursor_open(j->ds, j->locs[item], &c, &e);
    if (s != PW_OK) {
        pw_ds_diag_error(j->ds, PW_SEV_ERROR, "unreadable", &e);
        return;
    }
    const pw_record *rec;
    while (pw_cursor_next(c, &rec, &e) == PW_OK)
        (void)pw_record_fields(rec); /* decoding is part of what we check */
    pw_cursor_close(c);
}

uint32_t *pw_ds_record_locations(pw_dataset *ds, size_t *n)
{
    uint32_t *locs = pw_ds_alloc(ds, (ds->n_locs ? ds->n_locs : 1) * sizeof *locs);
    *n = 0;
    for (size_t i = 0; locs && i < ds->n_locs; i++)
        if (ds->locs[i].has_records)
            locs[(*n)++] = (uint32_t)i;
    return locs;
}

pw_status pw_check(pw_dataset *ds, pw_error *err)
{
    size_t n;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    if (!locs)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    size_t first, end;
    pw_ds_share(ds, n, &first, &end);
    check_job job = {ds, locs + first};
    pw_parallel_for(end - first, ds->threads, check_location, &job);
    /* Cross-file checks once over all shares: by the first. */
    if (ds->fmt->check && ds->share_index == 0) {
        pw_status s = ds->fmt->check(ds, err);
        if (s != PW_OK && s != PW_E_DATA)
            return s;
    }
    if (ds->worst >= PW_SEV_ERROR)
        return pw_fail(err, PW_E_DATA, ds->path, PW_NO_OFFSET, "the data is damaged (%zu findings)",
                       ds->n_diags);
    return PW_OK;
}
