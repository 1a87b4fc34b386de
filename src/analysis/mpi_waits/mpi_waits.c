/* mpi_waits.c — the driver: ranks gathered from the locations, pass 1 on
 * every rank in parallel, the serial link of both sides of every message
 * and collective, pass 2 in parallel, the critical path's walk back, pass 3
 * in parallel, then the report (mpi_waits.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/mpi_waits.h"
#include "analysis/timeline_flows.h"
#include "analysis/timeline.h"
#include "core/error.h"
#include "core/parallel.h"
#include "model/report.h"

typedef struct pass_job {
    mw_run *run;
    int pass;
} pass_job;

/* One record of a rank, in pass 1 or 2. */
static void on_record(mw_run *run, mw_rank *rk, int pass, mw_bins *bins, mw_thread_ends *ends,
                      const pw_record *rec)
{
    const mw_schema *sc = &run->schemas[rec->schema];
    int coll = sc->coll.op != PW_COLL_NONE;
    if (run->timed_only && (rec->clock != PW_CLOCK_NS || !rec->has_end))
        return; /* what the timeline does not draw, the live replay never sees */
    const pw_value *v = sc->p2p || coll ? pw_record_fields(rec) : NULL;
    if (pass == 1) {
        rk->seen[rec->schema] = 1;
        if (rec->clock == PW_CLOCK_NS) {
            int64_t end = rec->has_end && rec->t_end > rec->t ? rec->t_end : rec->t;
            rk->t_min = rec->t < rk->t_min ? rec->t : rk->t_min;
            rk->t_max = end > rk->t_max ? end : rk->t_max;
        }
        if (sc->p2p)
            mw_collect_p2p(run, rk, sc, rec, v);
        if (coll)
            mw_collect_coll(run, rk, sc, rec, v);
    } else {
        if (sc->finalize && rec->has_end && rec->clock == PW_CLOCK_NS && rec->t_end > rk->finalize_exit)
            rk->finalize_exit = rec->t_end;
        mw_profile_call(rk, sc, rec);
        mw_compute_call(rk, rec, ends);
        mw_bins_call(run, bins, rec);
        if (sc->p2p)
            mw_waits_p2p(run, rk, sc, rec, v);
        if (coll)
            mw_waits_coll(run, rk, sc, rec, v);
        if (sc->tl.f_dest >= 0 && rec->clock == PW_CLOCK_NS && tl_field_int(v, sc->tl.f_dest, -1) >= 0) {
            pw_mpi_call call;
            if (pw_mpi_calls_read(&run->calls, rec, &call))
                mw_bins_message(run, bins, rec->t, call.sent);
        }
    }
    pw_comm_replay_feed(&run->comms, rec); /* after the call's own lookups */
}

/* The cursor's next record, without noting damage: the reader reported
 * it when the trace was read (pw_cursor_step would report it again). */
static pw_status reread_step(pw_cursor *c, pw_error *err)
{
    c->decoded = 0;
    c->err_code = NULL;
    return c->ops->next(c, err);
}

/* Every location of the rank, one after the other. */
static void rank_pass(void *ctx, size_t item, int worker)
{
    pass_job *job = ctx;
    mw_run *run = job->run;
    mw_rank *rk = &run->ranks[item];
    mw_thread_ends ends = {0};
    if (job->pass == 3 && !rk->n_path)
        return; /* the critical path never comes here */
    for (size_t i = 0; i < rk->n_locs && !rk->failed; i++) {
        pw_cursor *c;
        pw_error err;
        if (pw_cursor_open(run->ds, rk->locs[i], &c, &err) != PW_OK)
            continue; /* damage is the reader's to report */
        c->args_only = 1; /* every time read here is rec->t / rec->t_end */
        while (!rk->failed && reread_step(c, &err) == PW_OK) {
            if (job->pass == 3)
                mw_critical_path_call(rk, &c->rec, &ends);
            else
                on_record(run, rk, job->pass, job->pass == 2 ? &run->bins[worker] : NULL, &ends, &c->rec);
        }
        pw_cursor_close(c);
    }
    free(ends.e);
}

void mw_run_pass(mw_run *run, int pass)
{
    pass_job job = {run, pass};
    pw_parallel_for(run->n_ranks, run->ds->threads, rank_pass, &job);
    for (size_t i = 0; i < run->n_ranks; i++)
        run->failed |= run->ranks[i].failed;
}

/* A rank slot per world rank with records, and its locations. */
static int gather_ranks(mw_run *run)
{
    pw_dataset *ds = run->ds;
    run->n_world = 0;
    for (uint32_t l = 0; l < ds->n_locs; l++) {
        int64_t r = ds->locs[l].has_records ? pw_tl_rank_of(ds, l) : -1;
        if (r >= 0 && r < (1 << 24) && (size_t)r + 1 > run->n_world)
            run->n_world = (size_t)r + 1;
    }
    run->rank_slot = malloc((run->n_world ? run->n_world : 1) * sizeof *run->rank_slot);
    if (!run->rank_slot)
        return 0;
    memset(run->rank_slot, 0xff, (run->n_world ? run->n_world : 1) * sizeof *run->rank_slot);
    for (uint32_t l = 0; l < ds->n_locs; l++) {
        int64_t r = ds->locs[l].has_records ? pw_tl_rank_of(ds, l) : -1;
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
        int64_t r = ds->locs[l].has_records ? pw_tl_rank_of(ds, l) : -1;
        if (r < 0 || r >= (1 << 24))
            continue;
        mw_rank *rk = &run->ranks[run->rank_slot[r]];
        uint32_t *p = realloc(rk->locs, (rk->n_locs + 1) * sizeof *p);
        if (!p)
            return 0;
        rk->locs = p;
        rk->locs[rk->n_locs++] = l;
    }
    return 1;
}

static int rank_init(mw_rank *rk, size_t n_schemas)
{
    pw_msgmatch_init(&rk->mm);
    rk->t_min = INT64_MAX;
    rk->t_max = INT64_MIN;
    rk->finalize_exit = -1;
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
    for (uint64_t k = 0; k < rk->n_chan; k++)
        free(rk->chan[k].t);
    free(rk->chan);
    free(rk->chan_link);
    for (uint32_t i = 0; i < rk->n_coll; i++)
        free(rk->coll[i].e);
    free(rk->coll);
    free(rk->coll_seq);
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

int mw_rewind(mw_run *run)
{
    for (size_t i = 0; i < run->n_ranks; i++) {
        mw_rank *rk = &run->ranks[i];
        pw_msgmatch_free(&rk->mm);
        pw_msgmatch_init(&rk->mm);
        pw_keymap_free(&rk->post_t);
        pw_keymap_free(&rk->sync_reqs);
        if (rk->coll_seq)
            memset(rk->coll_seq, 0, rk->n_coll * sizeof *rk->coll_seq);
    }
    return pw_comm_replay_restart(&run->comms);
}

/* Whether any schema is an MPI call the analyses read. */
static int has_mpi(const mw_run *run)
{
    for (size_t s = 0; s < run->ds->n_schemas; s++)
        if (run->ds->schemas[s]->kind == PW_REC_SPAN && (run->schemas[s].p2p || run->schemas[s].coll.op != PW_COLL_NONE))
            return 1;
    return 0;
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
    run->workers = pw_parallel_workers(run->n_ranks, run->ds->threads);
    mw_run_pass(run, 1);
    if (!run->failed && pw_comm_replay_resolve_fed(&run->comms, err) != PW_OK)
        return PW_E_NOMEM;
    if (run->failed || !mw_link_p2p(run) || !mw_link_coll(run) || !mw_rewind(run))
        return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

static pw_status analyse(mw_run *run, pw_report *r, pw_error *err)
{
    pw_status st = mw_prepare(run, err);
    if (st != PW_OK)
        return st;
    if (!mw_bins_init(run))
        return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    mw_run_pass(run, 2);
    if (run->failed || !mw_critical_path_walk(run))
        return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    mw_run_pass(run, 3);
    pw_rnode *root = pw_report_root(r);
    /* Readable tables only for a report opened to be printed as text or
     * CSV; any other report (pw_report_new: diff, bindings) gets the whole
     * tree of the JSON contract. */
    int tables = r->opened && r->style != PW_REPORT_JSON;
    mw_report_waits(run, root, tables);
    mw_report_critical_path(run, root, tables);
    mw_report_rank_functions(run, root);
    mw_report_time_profile(run, root, tables);
    return PW_OK;
}

void mw_run_free(mw_run *run)
{
    for (size_t i = 0; run->ranks && i < run->n_ranks; i++)
        rank_free(&run->ranks[i]);
    free(run->ranks);
    free(run->rank_slot);
    for (size_t c = 0; run->inst && c < run->comms.comms.n_comms; c++)
        free(run->inst[c]);
    free(run->inst);
    free(run->n_inst);
    free(run->link);
    pw_keymap_free(&run->links);
    mw_bins_free(run);
    pw_mpi_calls_free(&run->calls);
    pw_comm_replay_free(&run->comms);
    free(run->schemas);
}

int mw_run_init(mw_run *run, pw_dataset *ds)
{
    memset(run, 0, sizeof *run);
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
    mw_run run;
    int mpi = mw_run_init(&run, ds);
    pw_status st = mpi < 0 ? pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory")
                   : mpi   ? analyse(&run, r, err)
                           : PW_OK;
    mw_run_free(&run);
    return st;
}
