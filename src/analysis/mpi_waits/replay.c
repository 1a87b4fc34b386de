/* replay.c — every rank replayed together, once.  Time is cut into
 * windows; in each, every rank (ranks in parallel) handles its records up
 * to the window's end, so that the two sides of a message, or the members
 * of a collective, are replayed at about the same moment and what one
 * leaves for the other (channels.c, waits_coll.c) is taken soon after.
 * A rank's record past the window waits in its cursor for the next one.
 * Windows hold about MW_WINDOW_RECORDS records per rank, ranks in
 * parallel or not: the workers meeting per window cost less than the
 * messages a larger window keeps in flight (pending calls, cache misses).
 * Each worker is one thread for the whole replay and replays a block of
 * neighbouring ranks, always the same (mw_rank.worker): its ranks' state
 * stays in its core's cache, and a channel between two ranks of one
 * block needs no lock. */
#include <stdlib.h>

#include "analysis/mpi_waits/critical_path_forward.h"
#include "analysis/mpi_waits/exchange.h"
#include "views/timeline_flows.h"
#include "core/error.h"
#include "core/parallel.h"

#define MW_WINDOW_RECORDS 1024
/* Each window is a point where every process waits for the slowest. */
#define MW_EXCHANGE_WINDOW_RECORDS 8192
#define MW_MAX_WINDOWS 65536
/* Each rank's cursor window: every rank's window together stays within a
 * core's L2 cache (8 ranks x 64 KiB), so the bytes read() copies are
 * still there when the walk parses them (256 KiB each: 7 % more CPU). */
#define MW_CURSOR_WINDOW ((size_t)64 << 10)

typedef struct window_job {
    mw_run *run;
    uint64_t windows;
    int64_t t0;    /* the run's first time (not the time profile's: that is the report window's) */
    double step;   /* a window's length */
    int exchanged; /* 0: another process failed, every worker stops */
} window_job;

/* The fields the replay reads of rec: the schema's integer view when it
 * has one and the format gives it (the cursor's ints op), else every
 * field decoded. */
static const pw_value *call_fields(mw_rank *rk, const mw_schema *sc, const pw_record *rec)
{
    pw_cursor *c = rec->cursor;
    if (!sc->n_ints || !c->ops->ints)
        return pw_record_fields(rec);
    c->ops->ints(c, sc->ints, sc->n_ints, rk->ints_view);
    return rk->ints_view;
}

/* One record: its messages and collectives, profile, bins, compute gap. */
static void handle(mw_run *run, mw_rank *rk, mw_bins *bins, const pw_record *rec)
{
    const mw_schema *sc = &run->schemas[rec->schema];
    int coll = sc->tl.mpi.op != PW_COLL_NONE;
    if (run->timed_only && (rec->clock != PW_CLOCK_NS || !rec->has_end))
        return; /* what the timeline does not draw, its replay never sees */
    const pw_value *v = sc->p2p || coll ? call_fields(rk, sc, rec) : NULL;
    rk->seen[rec->schema] = 1;
    if (sc->finalize && rec->has_end && rec->clock == PW_CLOCK_NS && rec->t_end > rk->finalize_exit)
        rk->finalize_exit = rec->t_end;
    mw_profile_call(rk, sc, rec);
    mw_compute_call(rk, rec, &rk->ends);
    if (!mw_bins_call(run, bins, rec, &rk->bin_hint))
        rk->failed = 1;
    if (sc->p2p)
        mw_waits_p2p(run, rk, sc, rec, v);
    if (coll)
        mw_waits_coll(run, rk, sc, rec, v);
    int in_window = !run->windowed || (rec->t >= run->sel_t0 && rec->t < run->sel_t1);
    int f_dest = sc->tl.mpi.f_dest;
    if (f_dest >= 0 && rec->clock == PW_CLOCK_NS && in_window && mw_field_int(v, f_dest, -1) >= 0) {
        uint64_t sent;
        if (pw_mpi_calls_sent(&run->calls, rec, v, &sent))
            mw_bins_message(run, bins, rec->t, sent, &rk->bin_hint);
    }
    pw_comm_replay_feed(&run->comms, rec); /* after the call's own lookups */
}

/* The rank's next record in its cursor (rk->cur->rec), its locations one
 * after the other; 0 when it has no more. */
static int next_record(mw_run *run, mw_rank *rk)
{
    pw_error err;
    while (rk->loc < rk->n_locs) {
        if (!rk->cur) {
            /* the whole run, whatever the filter: the report clips (model/filter.h) */
            if (pw_cursor_open_whole_run(run->ds, rk->locs[rk->loc], MW_CURSOR_WINDOW, &rk->cur, &err) != PW_OK) {
                rk->cur = NULL;
                rk->loc++;
                continue; /* damage is the reader's to report */
            }
            rk->cur->args_only = 1; /* every time read here is rec->t / rec->t_end */
            rk->cur->mpi_calls = 1;
            rk->ends.open_from = rk->ends.n; /* the threads met so far are over */
        }
        if (mw_reread_step(rk->cur, &err) == PW_OK)
            return 1;
        pw_cursor_close(rk->cur);
        rk->cur = NULL;
        rk->loc++;
    }
    return 0;
}

/* Rank `item` up to the window's end: records from `end` on wait for
 * the next window. */
static void advance_rank(mw_run *run, size_t item, int worker, int64_t end)
{
    mw_rank *rk = &run->ranks[item];
    while (rk->mine && !rk->done && !rk->failed) {
        if (!rk->held && !(rk->held = next_record(run, rk))) {
            rk->done = 1;
            break;
        }
        const pw_record *rec = &rk->cur->rec;
        if (rec->clock == PW_CLOCK_NS && rec->t >= end)
            break; /* the next window's */
        handle(run, rk, &run->bins[worker], rec);
        rk->held = 0;
    }
}

/* What every rank's window leaves for the others: the other processes'
 * sides (and this one's to them), then the critical path's waits before
 * the frontier.  Worker 0 alone, every rank stopped. */
static void between_windows(window_job *job)
{
    mw_run *run = job->run;
    job->exchanged = !run->ex || mw_exchange_window(run);
    mw_handoffs_apply(run); /* the window's, and the exchange's */
    if (run->fwd && !mw_forward_settle(run))
        run->failed = 1;
}

/* One worker's part of the replay: its block of ranks (mw_rank.worker)
 * through every window.  The team meets twice a window, the threads
 * staying alive throughout (a thread started per window cost more than
 * the window's work on one core); worker 0 adapts the blocks first when
 * the team came out smaller than planned. */
static void replay_worker(void *ctx, pw_team *team, int worker)
{
    window_job *job = ctx;
    mw_run *run = job->run;
    if (worker == 0 && pw_team_size(team) != run->workers)
        mw_assign_workers(run, pw_team_size(team));
    pw_team_sync(team);
    for (uint64_t w = 1; w <= job->windows && job->exchanged; w++) {
        int64_t end = w == job->windows ? INT64_MAX : job->t0 + (int64_t)(job->step * (double)w);
        for (size_t r = 0; r < run->n_ranks; r++)
            if (run->ranks[r].worker == worker)
                advance_rank(run, r, worker, end);
        pw_team_sync(team); /* every rank at the window's end */
        if (worker == 0)
            between_windows(job);
        pw_team_sync(team);
    }
}

/* Windows of equal time holding about as many records per rank as a
 * window should. */
static uint64_t window_count(const mw_run *run)
{
    uint64_t most = 0;
    for (size_t i = 0; i < run->n_ranks; i++)
        most = run->ranks[i].records > most ? run->ranks[i].records : most;
    /* larger when each window waits for the other processes */
    uint64_t n = most / (run->ex ? MW_EXCHANGE_WINDOW_RECORDS : MW_WINDOW_RECORDS) + 1;
    return n < MW_MAX_WINDOWS ? n : MW_MAX_WINDOWS;
}

/* The run's first and last times, over every rank. */
static void run_bounds(const mw_run *run, int64_t *t0, int64_t *t1)
{
    *t0 = INT64_MAX;
    *t1 = INT64_MIN;
    for (size_t i = 0; i < run->n_ranks; i++) {
        *t0 = run->ranks[i].t_min < *t0 ? run->ranks[i].t_min : *t0;
        *t1 = run->ranks[i].t_max > *t1 ? run->ranks[i].t_max : *t1;
    }
}

pw_status mw_replay(mw_run *run, pw_error *err)
{
    int64_t t1;
    window_job job = {run, 1, 0, 0, 1};
    run_bounds(run, &job.t0, &t1);
    job.windows = t1 > job.t0 ? window_count(run) : 1;
    if (run->ex) /* every process cuts the same windows */
        job.windows = mw_exchange_windows(run, job.windows);
    job.step = job.windows > 1 ? ((double)t1 - (double)job.t0) / (double)job.windows : 0;
    pw_parallel_team(run->workers, replay_worker, &job);
    int exchanged = job.exchanged;
    if (exchanged && run->ex)
        exchanged = mw_exchange_drain(run);
    mw_handoffs_apply(run); /* those of the drain, or of windows cut short */
    mw_replay_finish(run);
    for (size_t i = 0; i < run->n_ranks; i++)
        run->failed |= run->ranks[i].failed;
    if (run->ex) /* the walk on share 0, every process's part of the path */
        run->failed = !exchanged || !mw_exchange_results(run);
    else if (!run->failed)
        run->failed = run->fwd ? !mw_forward_finish(run) : !mw_critical_path_walk(run);
    if (run->failed)
        return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}
