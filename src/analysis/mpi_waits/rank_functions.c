/* rank_functions.c — the per rank x function profile (calls, time, wait
 * time), idle time per rank and load imbalance per function.  Time and
 * idle time follow Pipit (pipit/trace.py): flat_profile per process sums
 * each call's exclusive time (an MPI call has no children, so its
 * duration); idle_time with mpi_events sums the durations of MPI_Wait,
 * MPI_Waitall and MPI_Recv; load_imbalance is the largest per-process time
 * over the mean of the processes that called the function. */
#include <stdio.h>
#include <stdlib.h>

#include "analysis/mpi_waits/mpi_waits.h"
#include "core/compiler.h"
#include "core/grow.h"
#include "model/filter.h"

static double secs(uint64_t ns) { return (double)ns / 1e9; }

void mw_charge(mw_rank *rk, uint32_t schema, int64_t enter, uint32_t location, mw_wait kind, uint64_t ns,
               int64_t cause)
{
    if (!ns)
        return;
    /* the sums report the wait's part inside the window; the critical
     * path walks the whole wait */
    uint64_t in = mw_in_window(rk, enter, enter + (int64_t)ns);
    rk->wait_total[kind] += in;
    rk->wait_fn[kind][schema] += in;
    rk->wait_ns[schema] += in;
    if (!pw_grow((void **)&rk->waits, rk->n_waits, &rk->cap_waits, sizeof *rk->waits)) {
        rk->failed = 1;
        return;
    }
    rk->waits[rk->n_waits++] = (mw_wait_at){enter, enter + (int64_t)ns, cause, location, kind};
}

/* Under a report window: a call counts where it enters, its time is its
 * part in the window.  Out of line: without a window every call takes
 * the plain path. */
static PW_NOINLINE void profile_call_windowed(mw_rank *rk, const mw_schema *sc, const pw_record *rec)
{
    if (rec->clock != PW_CLOCK_NS || (rec->t >= rk->sel_t0 && rec->t < rk->sel_t1))
        rk->calls[rec->schema]++;
    if (!rec->has_end || rec->clock != PW_CLOCK_NS || rec->t_end < rec->t)
        return;
    uint64_t ns = mw_in_window(rk, rec->t, rec->t_end);
    rk->time_ns[rec->schema] += ns;
    if (sc->idle)
        rk->idle_ns += ns;
}

void mw_profile_call(mw_rank *rk, const mw_schema *sc, const pw_record *rec)
{
    if (rk->windowed) {
        profile_call_windowed(rk, sc, rec);
        return;
    }
    rk->calls[rec->schema]++;
    if (!rec->has_end || rec->clock != PW_CLOCK_NS || rec->t_end < rec->t)
        return;
    uint64_t ns = (uint64_t)(rec->t_end - rec->t);
    rk->time_ns[rec->schema] += ns;
    if (sc->idle)
        rk->idle_ns += ns;
}

/* The rank was in function s in the report window: a call entered there,
 * or one entered before reaches into it. */
static int mw_called(const mw_rank *rk, size_t s) { return rk->calls[s] || rk->time_ns[s]; }

/* Function s's rows are in the report (--type selects rows, never what
 * the replay reads: model/filter.h). */
static int fn_shown(const mw_run *run, size_t s)
{
    return pw_selection_keeps_type(run->ds, run->ds->schemas[s]->name);
}

/* Tables: a row per rank and a row per function that waits, a column per
 * kind (seconds). */
static void waits_tables(const mw_run *run, pw_rnode *root)
{
    char col[48];
    pw_rnode *arr = pw_rnode_array(root, "wait_states");
    for (size_t i = 0; i < run->n_ranks; i++) {
        if (!run->ranks[i].reported)
            continue;
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_int(o, "rank", run->ranks[i].rank);
        for (int k = 0; k < MW_N_WAITS; k++) {
            snprintf(col, sizeof col, "%s_s", mw_wait_names[k]);
            pw_rnode_num(o, col, secs(run->ranks[i].wait_total[k]));
        }
    }
    arr = pw_rnode_array(root, "wait_states_by_function");
    for (size_t s = 0; s < run->ds->n_schemas; s++) {
        uint64_t ns[MW_N_WAITS] = {0}, any = 0;
        for (int k = 0; k < MW_N_WAITS; k++)
            for (size_t i = 0; i < run->n_ranks; i++)
                ns[k] += run->ranks[i].reported ? run->ranks[i].wait_fn[k][s] : 0;
        for (int k = 0; k < MW_N_WAITS; k++)
            any |= ns[k];
        if (!any || !fn_shown(run, s))
            continue;
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_str(o, "function", run->ds->schemas[s]->name);
        for (int k = 0; k < MW_N_WAITS; k++) {
            snprintf(col, sizeof col, "%s_s", mw_wait_names[k]);
            pw_rnode_num(o, col, secs(ns[k]));
        }
    }
}

void mw_report_waits(const mw_run *run, pw_rnode *root) { waits_tables(run, root); }

/* The largest per-rank time of function s, the mean over the ranks that
 * called it, and the rank with the largest. */
static void imbalance(const mw_run *run, size_t s, uint64_t *max, double *mean, int64_t *max_rank)
{
    uint64_t sum = 0, n = 0;
    *max = 0;
    *max_rank = -1;
    for (size_t i = 0; i < run->n_ranks; i++) {
        const mw_rank *rk = &run->ranks[i];
        if (!rk->reported || !mw_called(rk, s))
            continue;
        sum += rk->time_ns[s];
        n++;
        if (*max_rank < 0 || rk->time_ns[s] > *max) {
            *max = rk->time_ns[s];
            *max_rank = rk->rank;
        }
    }
    *mean = n ? (double)sum / (double)n : 0;
}

void mw_report_rank_functions(const mw_run *run, pw_rnode *root)
{
    pw_rnode *arr = pw_rnode_array(root, "rank_functions");
    for (size_t i = 0; i < run->n_ranks; i++) {
        const mw_rank *rk = &run->ranks[i];
        for (size_t s = 0; rk->reported && s < run->ds->n_schemas; s++) {
            if (!mw_called(rk, s) || !fn_shown(run, s))
                continue;
            pw_rnode *o = pw_rnode_object(arr, NULL);
            pw_rnode_int(o, "rank", rk->rank);
            pw_rnode_str(o, "function", run->ds->schemas[s]->name);
            pw_rnode_uint(o, "calls", rk->calls[s]);
            pw_rnode_num(o, "time_s", secs(rk->time_ns[s]));
            pw_rnode_num(o, "wait_s", secs(rk->wait_ns[s]));
        }
    }
    arr = pw_rnode_array(root, "idle_time");
    for (size_t i = 0; i < run->n_ranks; i++) {
        const mw_rank *rk = &run->ranks[i];
        if (!rk->reported)
            continue;
        uint64_t waits = 0;
        for (int k = 0; k < MW_N_WAITS; k++)
            waits += rk->wait_total[k];
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_int(o, "rank", rk->rank);
        pw_rnode_num(o, "idle_s", secs(rk->idle_ns));
        pw_rnode_num(o, "wait_states_s", secs(waits));
    }
    arr = pw_rnode_array(root, "load_imbalance");
    for (size_t s = 0; s < run->ds->n_schemas; s++) {
        uint64_t max;
        double mean;
        int64_t max_rank;
        imbalance(run, s, &max, &mean, &max_rank);
        if (max_rank < 0 || !fn_shown(run, s))
            continue;
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_str(o, "function", run->ds->schemas[s]->name);
        pw_rnode_num(o, "max_s", secs(max));
        pw_rnode_num(o, "mean_s", mean / 1e9);
        pw_rnode_num(o, "imbalance", mean > 0 ? (double)max / mean : 0);
        pw_rnode_int(o, "max_rank", max_rank);
    }
}
