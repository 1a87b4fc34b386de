/* dumpi_profile_filter.c — the profiles of what a filter keeps.  The
 * open-time pass profiles every call (unless the option "stats" is "0");
 * with a filter set, or no profile made at open, the mpi_profile analysis
 * asks for the rank profiles again (pw_mpi_profiles.refilter), made from
 * the calls the filter keeps (all without one), while the communicators
 * follow every call (a window after an MPI_Comm_split still knows the
 * split). */
#include <stdlib.h>

#include "core/error.h"
#include "core/parallel.h"
#include "formats/dumpi/dumpi_profile.h"
#include "model/filter.h"

typedef struct refilter_job {
    pw_dataset *ds;
    dumpi_dataset *dd;
    pw_mpi_rank_profile *fresh;
} refilter_job;

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
        if (pw_filter_keeps_record(j->ds, &rec))
            dumpi_profile_call(r, p, &s, j->dd->uses);
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
    refilter_job j = {ds, dd, calloc(dd->n_ranks ? dd->n_ranks : 1, sizeof *j.fresh)};
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
