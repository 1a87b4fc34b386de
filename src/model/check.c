/* check.c — deep validation: every record of every location (of this
 * process's share) is read in parallel, then the format's own consistency
 * checks run.  pw_check (src/drivers/check.c) adds the analyses' checks. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
    if (j->ds->run->read_to_end && j->ds->run->read_to_end[j->locs[item]])
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
    if (!ds->run->read_to_end)
        ds->run->read_to_end = calloc(ds->n_locs ? ds->n_locs : 1, 1);
    return ds->run->read_to_end ? PW_OK : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
}

/* Under several processes (collectives set), the analyses ran on share 0
 * over every location: its marks go to every process, so that a share
 * does not read (and report the damage of) a location share 0's merge
 * read already.  In chunks through a buffer on the stack: every process
 * takes part, whatever memory it has left (read_to_end NULL: nothing
 * marked). */
static void share_reads(pw_dataset *ds)
{
    if (!ds->run->collectives || !ds->run->collectives->broadcast)
        return;
    uint8_t chunk[4096];
    for (size_t at = 0; at < ds->n_locs; at += sizeof chunk) {
        size_t n = ds->n_locs - at < sizeof chunk ? ds->n_locs - at : sizeof chunk;
        if (ds->run->read_to_end)
            memcpy(chunk, ds->run->read_to_end + at, n);
        else
            memset(chunk, 0, n);
        ds->run->collectives->broadcast(ds->run->collectives->ctx, chunk, n);
        if (ds->run->read_to_end)
            memcpy(ds->run->read_to_end + at, chunk, n);
    }
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
    if (ds->fmt->check && ds->run->share_index == 0) {
        pw_status s = ds->fmt->check(ds, err);
        if (s != PW_OK && s != PW_E_DATA)
            return s;
    }
    return PW_OK;
}

/* The read-through's findings follow the analyses' (the damage their
 * merges met among them, in time order): under several processes rank 0
 * prints its own, then every other share's, the serial order. */
pw_status pw_check_records(pw_dataset *ds, pw_error *err)
{
    share_reads(ds);
    return read_through(ds, err);
}
