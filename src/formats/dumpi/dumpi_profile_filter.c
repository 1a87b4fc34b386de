/* dumpi_profile_filter.c — the profiles of what a filter keeps.  The
 * open-time pass profiles every call (unless the open's intent leaves stats out);
 * with a filter set, or no profile made at open, the mpi_profile analysis
 * asks for the rank profiles again (pw_mpi_profiles.refilter), made from
 * the calls the filter keeps (all without one), while the communicators
 * follow every call (a window after an MPI_Comm_split still knows the
 * split).  Under a window a call's time is its part inside it, and it is
 * counted (with its messages) where it enters, as the MPI replay's
 * rank x function table counts. */
#include <stdlib.h>

#include "core/error.h"
#include "core/parallel.h"
#include "formats/dumpi/dumpi_profile.h"
#include "model/filter.h"

typedef struct refilter_job {
    pw_dataset *ds;
    dumpi_dataset *dd;
    pw_mpi_rank_profile *fresh;
    int windowed;      /* a report window is set: */
    int64_t window[2]; /* [start, end) ns */
} refilter_job;

/* Under a window: a call of the selected ranks and types that reaches
 * into it (its time there is profiled, dumpi_profile_call), or has no
 * time (always kept). */
static int reaches_window(const refilter_job *j, const pw_record *rec)
{
    if (!pw_selection_keeps_location(j->ds, rec->location) || !pw_selection_keeps_type(j->ds, rec->type))
        return 0;
    if (rec->clock != PW_CLOCK_NS)
        return 1;
    int64_t end = rec->has_end && rec->t_end > rec->t ? rec->t_end : rec->t;
    return rec->t < j->window[1] && (end > j->window[0] || rec->t >= j->window[0]);
}

static void refilter_rank(void *ctx, size_t slot, int worker)
{
    (void)worker;
    refilter_job *j = ctx;
    dumpi_rank *r = &j->dd->ranks[slot];
    pw_mpi_rank_profile *p = &j->fresh[slot];
    dumpi_stream s;
    pw_error e;
    if (!r->usable || dumpi_stream_init(&s, r, PW_WINDOW_DEFAULT_CAP, NULL, &e) != PW_OK)
        return; /* damage was reported by the open-time pass */
    const char *code = NULL;
    pw_record rec = {0};
    while (dumpi_stream_next(&s, &code, &e) == PW_OK) {
        dumpi_stream_record(&s, &rec);
        if (j->windowed ? reaches_window(j, &rec) : pw_filter_keeps_record(j->ds, &rec))
            dumpi_profile_call(r, p, &s, j->dd->uses, j->windowed ? j->window : NULL);
        else
            dumpi_profile_track(p, &s, j->dd->uses);
    }
    dumpi_stream_fini(&s);
}

static void free_profiles(pw_mpi_rank_profile *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pw_mpi_rank_profile_free(&p[i]);
}

pw_status dumpi_profiles_filter(pw_dataset *ds, pw_error *err)
{
    dumpi_dataset *dd = ds->impl;
    refilter_job j = {ds, dd, calloc(dd->n_ranks ? dd->n_ranks : 1, sizeof *j.fresh), 0, {0, 0}};
    j.windowed = pw_selection_window_ns(ds, &j.window[0], &j.window[1]);
    int ok = j.fresh != NULL;
    for (size_t i = 0; ok && i < dd->n_ranks; i++)
        ok = dumpi_profile_init(&j.fresh[i], dd->ranks[i].rank);
    if (!ok) {
        if (j.fresh)
            free_profiles(j.fresh, dd->n_ranks);
        free(j.fresh);
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    pw_parallel_for(dd->n_ranks, ds->threads, refilter_rank, &j);
    free_profiles(dd->profiles, dd->n_ranks);
    for (size_t i = 0; i < dd->n_ranks; i++)
        dd->profiles[i] = j.fresh[i];
    free(j.fresh);
    return PW_OK;
}
