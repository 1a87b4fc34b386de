/* summarize.c — pw_summarize: record counts and time span, in parallel:
 * a run driver that reads every record once, beside info (info.c). */
#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "model/dataset.h"

typedef struct summary_job {
    pw_dataset *ds;
    const uint32_t *locs;
    pw_summary *per_worker;
    uint8_t *seen;          /* [worker][schema]: a record of it was read */
} summary_job;

/* Folds one record's time into a summary.  The span ends where the last
 * record ends: a call's exit, not its entry (a record with an end). */
static void summary_add(pw_summary *s, const pw_record *r)
{
    s->records++;
    int ended = r->kind == PW_REC_SPAN && r->has_end;
    if (r->clock == PW_CLOCK_NS) {
        int64_t last = ended && r->t_end > r->t ? r->t_end : r->t;
        if (!s->has_ns || r->t < s->t_min)
            s->t_min = r->t;
        if (!s->has_ns || last > s->t_max)
            s->t_max = last;
        s->has_ns = 1;
    } else if (r->clock == PW_CLOCK_VIRTUAL) {
        double last = ended && r->vt_end > r->vt ? r->vt_end : r->vt;
        if (!s->has_virtual || r->vt < s->vt_min)
            s->vt_min = r->vt;
        if (!s->has_virtual || last > s->vt_max)
            s->vt_max = last;
        s->has_virtual = 1;
    }
}

static void summary_location(void *ctx, size_t item, int worker)
{
    summary_job *j = ctx;
    pw_summary *s = &j->per_worker[worker];
    pw_cursor *c;
    pw_error e;
    if (pw_cursor_open(j->ds, j->locs[item], &c, &e) != PW_OK) {
        pw_ds_diag_error(j->ds, PW_SEV_ERROR, "unreadable", &e);
        return;
    }
    s->locations_read++;
    const pw_record *r;
    uint8_t *seen = j->seen + (size_t)worker * j->ds->n_schemas;
    while (pw_cursor_next(c, &r, &e) == PW_OK) {
        summary_add(s, r);
        if (r->schema < j->ds->n_schemas)
            seen[r->schema] = 1;
    }
    pw_cursor_close(c);
}

/* Folds worker b into a. */
static void summary_merge(pw_summary *a, const pw_summary *b)
{
    a->records += b->records;
    a->locations_read += b->locations_read;
    if (b->has_ns) {
        a->t_min = a->has_ns && a->t_min < b->t_min ? a->t_min : b->t_min;
        a->t_max = a->has_ns && a->t_max > b->t_max ? a->t_max : b->t_max;
        a->has_ns = 1;
    }
    if (b->has_virtual) {
        a->vt_min = a->has_virtual && a->vt_min < b->vt_min ? a->vt_min : b->vt_min;
        a->vt_max = a->has_virtual && a->vt_max > b->vt_max ? a->vt_max : b->vt_max;
        a->has_virtual = 1;
    }
}

pw_status pw_summarize(pw_dataset *ds, pw_summary *out, pw_error *err)
{
    memset(out, 0, sizeof *out);
    size_t n;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    int workers = pw_parallel_workers(n, ds->threads);
    summary_job j = {ds, locs, calloc((size_t)workers, sizeof(pw_summary)),
                     calloc((size_t)workers * (ds->n_schemas ? ds->n_schemas : 1), 1)};
    if (!locs || !j.per_worker || !j.seen) {
        free(j.per_worker);
        free(j.seen);
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    pw_parallel_for(n, workers, summary_location, &j);
    for (int w = 0; w < workers; w++)
        summary_merge(out, &j.per_worker[w]);
    for (size_t sc = 0; sc < ds->n_schemas; sc++) {
        int any = 0;
        for (int w = 0; w < workers; w++)
            any |= j.seen[(size_t)w * ds->n_schemas + sc];
        out->record_types += (uint64_t)any;
    }
    free(j.per_worker);
    free(j.seen);
    return PW_OK;
}
