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
 * pw_cursor_next (and cursor_open failures here).  A location an
 * analysis's merge read already is not read again: its damage would be
 * said twice (the merge decodes only the fields asked for, but decoding
 * finds no damage: decoders have no way to report any). */
static void check_location(void *ctx, size_t item, int worker)
{
    (void)worker;
    check_job *j = ctx;
    if (j->ds->read_to_end && j->ds->read_to_end[j->locs[item]])
        return;
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

pw_status pw_check_note_reads(pw_dataset *ds, pw_error *err)
{
    ds->diags_at_check = ds->n_diags;
    ds->analyses_checking = 1;
    if (!ds->read_to_end)
        ds->read_to_end = pw_ds_alloc(ds, ds->n_locs ? ds->n_locs : 1);
    return ds->read_to_end ? PW_OK : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
}

static void diags_reverse(pw_diag *d, size_t from, size_t end)
{
    for (; from + 1 < end; from++, end--) {
        pw_diag t = d[from];
        d[from] = d[end - 1];
        d[end - 1] = t;
    }
}

/* The read-through's findings (from `mid` on) go before the analyses'
 * (from ds->diags_at_check), as check has always listed them. */
static void diags_before_analyses(pw_dataset *ds, size_t mid)
{
    if (!ds->analyses_checking)
        return; /* no analyses ran first */
    ds->analyses_checking = 0;
    pthread_mutex_lock(&ds->diag_lock);
    size_t from = ds->diags_at_check < mid ? ds->diags_at_check : mid;
    diags_reverse(ds->diags, from, mid);
    diags_reverse(ds->diags, mid, ds->n_diags);
    diags_reverse(ds->diags, from, ds->n_diags);
    pthread_mutex_unlock(&ds->diag_lock);
}

/* Reads the share's locations (those no analysis read) in parallel. */
static pw_status read_through(pw_dataset *ds, pw_error *err)
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

pw_status pw_check_records(pw_dataset *ds, pw_error *err)
{
    size_t mid = ds->n_diags;
    pw_status s = read_through(ds, err);
    diags_before_analyses(ds, mid);
    return s;
}
