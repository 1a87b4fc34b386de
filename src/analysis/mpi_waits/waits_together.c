/* waits_together.c — the MPI analyses computed by every process of a
 * program together (pw_stats_together): each replays the ranks of its
 * share and exchanges the sides the others need (exchange.h); share 0
 * ends with every rank's tables and holds its run in the dataset until
 * pw_stats_join reports it (pw_mpi_waits_report). */
#include <stdlib.h>

#include "analysis/mpi_waits/critical_path_forward.h"
#include "analysis/mpi_waits/critical_path_spread.h"
#include "analysis/mpi_waits/exchange.h"
#include "core/error.h"

const char mw_held_key = 0;

void mw_held_free(void *run)
{
    mw_run_free(run);
    free(run);
}

/* The forward critical path, and when spread its questions and answers;
 * 0 when memory runs out, with nothing half made left (spread: the
 * replay goes on without them until every process learns it, in the
 * first round). */
static int forward_path(mw_run *run)
{
    int ok = mw_forward_init(run) && (!run->ex || mw_spread_init(run));
    if (ok)
        return 1;
    mw_forward_free(run);
    if (run->ex) {
        mw_spread_free(run);
        run->ex->failed = 1;
    }
    return 0;
}

pw_status pw_mpi_waits_together(pw_dataset *ds, pw_error *err)
{
    const pw_collectives *co = ds->run->collectives;
    if (pw_ds_option(ds, "profile_only") || !co || !co->alltoallv)
        return PW_OK; /* share 0's report computes them alone */
    mw_run *run = malloc(sizeof *run);
    int mpi = run ? mw_run_init(run, ds) : -1; /* the same answer on every process */
    if (mpi <= 0) {
        if (run)
            mw_held_free(run);
        return mpi < 0 ? pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory") : PW_OK;
    }
    pw_status st = mw_prepare(run, err);
    if (!mw_exchange_init(run, st != PW_OK)) /* every process, failed or not */
        st = st != PW_OK ? st : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    else if (!forward_path(run) && !run->ex) /* alone: the serial analysis */
        st = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    else
        st = mw_replay(run, err); /* spread: share 0 settles the path (critical_path_spread.h) */
    int keep = st == PW_OK && ds->run->share_index == 0;
    if (run->ex)
        mw_exchange_free(run);
    if (keep && !pw_ds_hold(ds, &mw_held_key, run, mw_held_free))
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    if (!keep)
        mw_held_free(run);
    return st;
}
