/* mpi_waits.c — the driver: ranks gathered from the locations, the
 * census, the replay of every rank together (replay.c), the critical
 * path, then the report (mpi_waits.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/critical_path_forward.h"
#include "views/timeline_flows.h"
#include "views/timeline.h"
#include "core/error.h"
#include "core/parallel.h"
#include "model/filter.h"
#include "model/report.h"

mw_rank *mw_rank_of(const mw_run *run, int64_t world)
{
    if (world < 0 || (size_t)world >= run->n_world || run->rank_slot[world] < 0)
        return NULL;
    return &run->ranks[run->rank_slot[world]];
}

/* A rank slot per world rank with records, and its locations: every
 * rank, those the report leaves out too (what a reported rank waits for
 * is on them: model/filter.h). */
static int gather_ranks(mw_run *run)
{
    pw_dataset *ds = run->ds;
    run->n_world = 0;
    for (uint32_t l = 0; l < ds->n_locs; l++) {
        int64_t r = pw_ds_history_has_records(ds, l) ? pw_tl_rank_of(ds, l) : -1;
        if (r >= 0 && r < (1 << 24) && (size_t)r + 1 > run->n_world)
            run->n_world = (size_t)r + 1;
    }
    run->rank_slot = malloc((run->n_world ? run->n_world : 1) * sizeof *run->rank_slot);
    if (!run->rank_slot)
        return 0;
    memset(run->rank_slot, 0xff, (run->n_world ? run->n_world : 1) * sizeof *run->rank_slot);
    for (uint32_t l = 0; l < ds->n_locs; l++) {
        int64_t r = pw_ds_history_has_records(ds, l) ? pw_tl_rank_of(ds, l) : -1;
        if (r >= 0 && r < (1 << 24) && run->rank_slot[r] < 0)
            run->rank_slot[r] = (int64_t)run->n_ranks++;
    }
    run->ranks = calloc(run->n_ranks ? run->n_ranks : 1, sizeof *run->ranks);
    if (!run->ranks)
        return 0;
    for (size_t w = 0; w < run->n_world; w++)
        if (run->rank_slot[w] >= 0)
            run->ranks[run->rank_slot[w]].rank = (int64_t)w;
    for (uint32_t l = 0; l < ds->n_locs; l++) {
        int64_t r = pw_ds_history_has_records(ds, l) ? pw_tl_rank_of(ds, l) : -1;
        if (r < 0 || r >= (1 << 24))
            continue;
        mw_rank *rk = &run->ranks[run->rank_slot[r]];
        uint32_t *p = realloc(rk->locs, (rk->n_locs + 1) * sizeof *p);
        if (!p)
            return 0;
        rk->locs = p;
        rk->locs[rk->n_locs++] = l;
        rk->reported |= pw_selection_keeps_location(ds, l);
    }
    return 1;
}

/* The report window every rank clips its sums to (model/filter.h). */
static void select_window(mw_run *run)
{
    run->windowed = pw_selection_window_ns(run->ds, &run->sel_t0, &run->sel_t1);
    if (!run->windowed) {
        run->sel_t0 = INT64_MIN;
        run->sel_t1 = INT64_MAX;
    }
    for (size_t i = 0; i < run->n_ranks; i++) {
        run->ranks[i].sel_t0 = run->sel_t0;
        run->ranks[i].sel_t1 = run->sel_t1;
        run->ranks[i].windowed = run->windowed;
    }
}

static int rank_init(mw_rank *rk, size_t n_schemas)
{
    pw_msgmatch_init(&rk->mm);
    rk->t_min = INT64_MAX;
    rk->t_max = INT64_MIN;
    rk->finalize_exit = -1;
    rk->mine = 1;
    size_t n = n_schemas ? n_schemas : 1;
    rk->seen = calloc(n, 1);
    rk->calls = calloc(n, sizeof *rk->calls);
    rk->time_ns = calloc(n, sizeof *rk->time_ns);
    rk->wait_ns = calloc(n, sizeof *rk->wait_ns);
    rk->cp_ns = calloc(n, sizeof *rk->cp_ns);
    int ok = rk->seen && rk->calls && rk->time_ns && rk->wait_ns && rk->cp_ns;
    for (int k = 0; k < MW_N_WAITS; k++)
        ok &= (rk->wait_fn[k] = calloc(n, sizeof *rk->wait_fn[k])) != NULL;
    return ok;
}

static void rank_free(mw_rank *rk)
{
    pw_msgmatch_free(&rk->mm);
    pw_keymap_free(&rk->post_t);
    pw_keymap_free(&rk->sync_reqs);
    free(rk->chan);
    free(rk->coll_pos);
    free(rk->pend);
    free(rk->ends.e);
    if (rk->cur)
        pw_cursor_close(rk->cur);
    free(rk->locs);
    free(rk->seen);
    free(rk->calls);
    free(rk->time_ns);
    free(rk->wait_ns);
    free(rk->cp_ns);
    free(rk->waits);
    free(rk->path);
    for (int k = 0; k < MW_N_WAITS; k++)
        free(rk->wait_fn[k]);
}

/* Whether any schema is an MPI call the analyses read. */
static int has_mpi(const mw_run *run)
{
    for (size_t s = 0; s < run->ds->n_schemas; s++)
        if (run->ds->schemas[s]->kind == PW_REC_SPAN && (run->schemas[s].p2p || run->schemas[s].tl.mpi.op != PW_COLL_NONE))
            return 1;
    return 0;
}

void mw_assign_workers(mw_run *run, int workers)
{
    run->workers = workers;
    run->parallel = workers > 1;
    for (size_t i = 0; i < run->n_ranks; i++) /* neighbours together: most channels stay on one worker */
        run->ranks[i].worker = (int)(i * (size_t)workers / run->n_ranks);
}

pw_status mw_prepare(mw_run *run, pw_error *err)
{
    pw_status st = pw_comm_replay_init_fed(&run->comms, run->ds, err);
    if (st != PW_OK)
        return st;
    if (!pw_mpi_calls_init(&run->calls, run->ds) || !gather_ranks(run))
        return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < run->n_ranks; i++)
        if (!rank_init(&run->ranks[i], run->ds->n_schemas))
            return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    select_window(run);
    mw_assign_workers(run, pw_parallel_workers(run->n_ranks, run->ds->threads));
    if ((st = mw_census(run, err)) != PW_OK)
        return st;
    if (!mw_comms_init(run) || !mw_bins_init(run) || !mw_handoffs_init(run))
        return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

static pw_status analyse(mw_run *run, pw_report *r, pw_error *err)
{
    pw_status st = mw_prepare(run, err);
    if (st == PW_OK && !mw_forward_init(run))
        st = pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    if (st == PW_OK)
        st = mw_replay(run, err); /* the critical path computed as it goes */
    if (st != PW_OK)
        return st;
    for (size_t i = 0; i < run->n_ranks; i++)
        run->failed |= run->ranks[i].failed;
    if (run->failed)
        return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    mw_report(run, r);
    return PW_OK;
}

void mw_report(mw_run *run, pw_report *r)
{
    pw_rnode *root = pw_report_root(r);
    pw_rnode *summary = mw_report_summary(run, root);
    mw_report_waits(run, root);
    mw_report_critical_path(run, root, summary);
    mw_report_rank_functions(run, root);
    mw_report_time_profile(run, root);
}

void mw_run_free(mw_run *run)
{
    mw_forward_free(run);
    for (size_t i = 0; run->ranks && i < run->n_ranks; i++)
        rank_free(&run->ranks[i]);
    free(run->ranks);
    free(run->rank_slot);
    mw_comms_free(run);
    mw_channels_free(run);
    pthread_mutex_destroy(&run->links_lock);
    mw_bins_free(run);
    mw_handoffs_free(run);
    pw_mpi_calls_free(&run->calls);
    pw_comm_replay_free(&run->comms);
    free(run->schemas);
}

int mw_run_init(mw_run *run, pw_dataset *ds)
{
    memset(run, 0, sizeof *run);
    pthread_mutex_init(&run->links_lock, NULL);
    run->ds = ds;
    run->schemas = calloc(ds->n_schemas ? ds->n_schemas : 1, sizeof *run->schemas);
    if (!run->schemas)
        return -1;
    if (!mw_schemas_classify(ds, run->schemas))
        return -1;
    return has_mpi(run);
}

pw_status pw_mpi_waits_report(pw_dataset *ds, pw_report *r, pw_error *err)
{
    if (pw_ds_option(ds, "profile_only"))
        return PW_OK;
    mw_run *held = pw_ds_take(ds, &mw_held_key);
    if (held) { /* computed with the other processes (waits_together.c) */
        mw_report(held, r);
        mw_held_free(held);
        return PW_OK;
    }
    mw_run run;
    int mpi = mw_run_init(&run, ds);
    pw_status st = mpi < 0 ? pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory")
                   : mpi   ? analyse(&run, r, err)
                           : PW_OK;
    mw_run_free(&run);
    return st;
}
