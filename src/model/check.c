/* check.c — deep validation: every record of every location (of this
 * process's share) is read in parallel, then the format's own consistency
 * checks run.  pw_check (src/analysis/check.c) adds the analyses' checks. */
#include <pthread.h>

#include "core/parallel.h"
#include "model/dataset.h"

typedef struct check_job {
    pw_dataset *ds;
    const uint32_t *locs;
    pthread_mutex_t lock;
    pw_error fault;           /* the first system fault (I/O, memory), if any */
} check_job;

/* A system fault (a file that cannot be opened, changes or fails to read)
 * is no finding about the data: check ends with its status (exit 3). */
static void note_fault(check_job *j, const pw_error *e)
{
    if (e->status != PW_E_IO && e->status != PW_E_NOMEM)
        return;
    pthread_mutex_lock(&j->lock);
    if (j->fault.status == PW_OK)
        j->fault = *e;
    pthread_mutex_unlock(&j->lock);
}

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
        note_fault(j, &e);
        return;
    }
    const pw_record *rec;
    while ((s = pw_cursor_next(c, &rec, &e)) == PW_OK)
        (void)pw_record_fields(rec); /* decoding is part of what we check */
    if (s != PW_END)
        note_fault(j, &e);
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

pw_status pw_check_records(pw_dataset *ds, pw_error *err)
{
    size_t n;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    if (!locs)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    size_t first, end;
    pw_ds_share(ds, n, &first, &end);
    check_job job = {.ds = ds, .locs = locs + first};
    pthread_mutex_init(&job.lock, NULL);
    pw_error_clear(&job.fault);
    pw_parallel_for(end - first, ds->threads, check_location, &job);
    pthread_mutex_destroy(&job.lock);
    if (job.fault.status != PW_OK) {
        if (err)
            *err = job.fault;
        return job.fault.status;
    }
    /* Cross-file checks once over all shares: by the first. */
    if (ds->fmt->check && ds->share_index == 0) {
        pw_status s = ds->fmt->check(ds, err);
        if (s != PW_OK && s != PW_E_DATA)
            return s;
    }
    return PW_OK;
}
