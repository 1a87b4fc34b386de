/* census.c — what the replay must know before it starts: which
 * communicator each rank's handles name (a message's world channel and a
 * collective's members depend on it) and each rank's first and last time
 * (the time bins' edges depend on them).  A format that tracked both
 * while opening hands them over in its MPI profile (model/mpi_profile.h:
 * DUMPI does, in its open-time pass); otherwise a pass over every rank's
 * records gathers them, decoding only the communicator creations. */
#include <stdlib.h>

#include "analysis/mpi_waits/mpi_waits.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/window.h"
#include "model/mpi_profile.h"

pw_status mw_reread_step(pw_cursor *c, pw_error *err)
{
    c->decoded = 0;
    c->err_code = NULL;
    return c->ops->next(c, err);
}

/* The profiles by world rank (NULL: none), for ranks 0 .. n-1. */
static const pw_mpi_rank_profile **by_world(const pw_mpi_profiles *mp, size_t n)
{
    const pw_mpi_rank_profile **p = calloc(n ? n : 1, sizeof *p);
    for (size_t i = 0; p && i < mp->n_ranks; i++)
        if (mp->ranks[i].rank >= 0 && (size_t)mp->ranks[i].rank < n)
            p[mp->ranks[i].rank] = &mp->ranks[i];
    return p;
}

/* Whether the format's profile covers every call of every rank the
 * replay reads, with the handle values the replay uses. */
static int profile_usable(const mw_run *run, const pw_mpi_rank_profile *const *prof)
{
    const pw_mpi_profiles *mp = run->ds->mpi_profiles;
    if (!mp->complete || !mp->n_ranks)
        return 0;
    const pw_mpi_tracker *t = &mp->ranks[0].tracker;
    if (run->comms.live && (t->world != run->comms.world || t->self != run->comms.self || t->null != run->comms.null))
        return 0;
    for (size_t i = 0; i < run->n_ranks; i++)
        if (!prof[run->ranks[i].rank])
            return 0;
    return 1;
}

/* Communicators from the profile's trackers (an empty one for a world rank
 * without a profile), and the ranks' time bounds. */
static pw_status from_profile(mw_run *run, const pw_mpi_rank_profile *const *prof, pw_error *err)
{
    const pw_mpi_profiles *mp = run->ds->mpi_profiles;
    for (size_t i = 0; i < run->n_ranks; i++) {
        const pw_mpi_rank_profile *p = prof[run->ranks[i].rank];
        run->ranks[i].t_min = p->t_min;
        run->ranks[i].t_max = p->t_max;
        for (size_t f = 0; f < mp->n_functions; f++)
            run->ranks[i].records += p->fns[f].calls;
    }
    if (!run->comms.live)
        return PW_OK;
    const pw_mpi_tracker *t0 = &mp->ranks[0].tracker;
    pw_mpi_tracker empty;
    pw_mpi_tracker_init(&empty, t0->world, t0->self, t0->null, t0->undefined_color);
    pw_mpi_tracker **trackers = malloc((run->comms.n_ranks ? run->comms.n_ranks : 1) * sizeof *trackers);
    pw_status st = trackers ? PW_OK : pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t w = 0; trackers && w < run->comms.n_ranks; w++)
        trackers[w] = w < run->n_world && prof[w] ? (pw_mpi_tracker *)&prof[w]->tracker : &empty;
    if (st == PW_OK)
        st = pw_comm_replay_resolve_from(&run->comms, trackers, err);
    free(trackers);
    pw_mpi_tracker_free(&empty);
    return st;
}

/* One rank's records: its time bounds and its communicator creations. */
static void census_rank(void *ctx, size_t item, int worker)
{
    (void)worker;
    mw_run *run = ctx;
    mw_rank *rk = &run->ranks[item];
    for (size_t i = 0; i < rk->n_locs; i++) {
        pw_cursor *c;
        pw_error err;
        if (pw_cursor_open_whole_run(run->ds, rk->locs[i], PW_WINDOW_DEFAULT_CAP, &c, &err) != PW_OK)
            continue; /* damage is the reader's to report */
        c->args_only = 1;
        c->mpi_calls = 1;
        while (mw_reread_step(c, &err) == PW_OK) {
            const pw_record *rec = &c->rec;
            if (run->timed_only && (rec->clock != PW_CLOCK_NS || !rec->has_end))
                continue; /* what the timeline does not draw, its replay never sees */
            rk->records++;
            if (rec->clock == PW_CLOCK_NS) {
                int64_t end = rec->has_end && rec->t_end > rec->t ? rec->t_end : rec->t;
                rk->t_min = rec->t < rk->t_min ? rec->t : rk->t_min;
                rk->t_max = end > rk->t_max ? end : rk->t_max;
            }
            pw_comm_replay_feed(&run->comms, rec);
        }
        pw_cursor_close(c);
    }
}

pw_status mw_census(mw_run *run, pw_error *err)
{
    if (run->ds->mpi_profiles) {
        const pw_mpi_rank_profile **prof = by_world(run->ds->mpi_profiles, run->n_world);
        if (!prof)
            return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
        int usable = profile_usable(run, prof);
        pw_status st = usable ? from_profile(run, prof, err) : PW_OK;
        free(prof);
        if (usable || st != PW_OK)
            return st;
    }
    pw_parallel_for(run->n_ranks, run->ds->threads, census_rank, run);
    return pw_comm_replay_resolve_fed(&run->comms, err);
}
