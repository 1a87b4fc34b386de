/* time_profile.c — time per function per time bin, summed over ranks, and
 * communication over time, with Pipit's definitions (pipit/trace.py):
 * time_profile cuts [first, last timestamp of the trace] into N equal
 * bins (numpy.linspace edges) and gives each call the part of it inside
 * each bin; the idle column is bin width x processes minus the functions'
 * sum.  comm_over_time is numpy.histogram of the sends' entry times (last
 * bin closed), counted and weighted by bytes.  N: option "bins" (the CLI's
 * --bins), 50 by default as in Pipit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/mpi_waits.h"

#define MW_DEFAULT_BINS 50
#define MW_MAX_BINS 100000

static uint32_t bins_option(pw_dataset *ds)
{
    const char *s = pw_ds_option(ds, "bins");
    if (!s)
        return MW_DEFAULT_BINS;
    char *end;
    long n = strtol(s, &end, 10);
    if (*end || end == s || n < 1 || n > MW_MAX_BINS) {
        pw_ds_diag(ds, PW_SEV_WARNING, "option.bins", NULL, -1,
                   "option bins: '%s' is not a number from 1 to %d; %d bins used", s, MW_MAX_BINS,
                   MW_DEFAULT_BINS);
        return MW_DEFAULT_BINS;
    }
    return (uint32_t)n;
}

int mw_bins_init(mw_run *run)
{
    run->n_bins = bins_option(run->ds);
    run->t0 = INT64_MAX;
    run->t1 = INT64_MIN;
    for (size_t i = 0; i < run->n_ranks; i++) {
        const mw_rank *rk = &run->ranks[i];
        run->t0 = rk->t_min < run->t0 ? rk->t_min : run->t0;
        run->t1 = rk->t_max > run->t1 ? rk->t_max : run->t1;
    }
    if (run->windowed) { /* the time profile of the report window */
        run->t0 = run->t0 < run->sel_t0 ? run->sel_t0 : run->t0;
        run->t1 = run->t1 > run->sel_t1 ? run->sel_t1 : run->t1;
    }
    run->bin_step = run->t1 > run->t0 ? ((double)run->t1 - (double)run->t0) / run->n_bins : 0;
    run->bin_per_ns = run->bin_step > 0 ? 1 / run->bin_step : 0;
    run->bins = calloc((size_t)run->workers, sizeof *run->bins);
    run->edges = malloc((run->n_bins + 1) * sizeof *run->edges);
    if (!run->bins || !run->edges)
        return 0;
    for (uint32_t i = 0; i <= run->n_bins; i++) /* as numpy.linspace makes them: the last is the end */
        run->edges[i] = i == run->n_bins ? (double)run->t1 : (double)i * run->bin_step + (double)run->t0;
    for (int w = 0; w < run->workers; w++) {
        mw_bins *b = &run->bins[w];
        b->n = run->n_bins;
        b->fn = calloc(run->ds->n_schemas ? run->ds->n_schemas : 1, sizeof *b->fn);
        b->msgs = calloc(b->n, sizeof *b->msgs);
        b->bytes = calloc(b->n, sizeof *b->bytes);
        if (!b->fn || !b->msgs || !b->bytes)
            return 0;
    }
    return 1;
}

void mw_bins_free(mw_run *run)
{
    for (int w = 0; run->bins && w < run->workers; w++) {
        for (size_t f = 0; run->bins[w].fn && f < run->ds->n_schemas; f++)
            free(run->bins[w].fn[f]);
        free(run->bins[w].fn);
        free(run->bins[w].msgs);
        free(run->bins[w].bytes);
    }
    free(run->bins);
    free(run->edges);
}

/* Bin i's edge (made once by mw_bins_init). */
static double edge(const mw_run *run, uint32_t i) { return run->edges[i]; }

/* The bin holding time t (numpy.histogram: the last bin is closed);
 * *hint: the bin found last for the same rank, tried first (a rank's
 * calls come in time order), then set to the answer. */
static uint32_t bin_of(const mw_run *run, double t, uint32_t *hint)
{
    if (run->bin_step <= 0 || t <= (double)run->t0)
        return 0;
    uint32_t i = *hint;
    /* bin i is the one that starts at or before t (or is the first) and
     * ends after it (or is the last) */
    if (i < run->n_bins && (i == 0 || t >= edge(run, i)) && (i + 1 >= run->n_bins || t < edge(run, i + 1)))
        return i;
    double k = (t - (double)run->t0) * run->bin_per_ns; /* > 0: truncation is floor */
    i = k >= run->n_bins ? run->n_bins - 1 : (uint32_t)k;
    /* the guess may land one off an edge */
    while (i > 0 && t < edge(run, i))
        i--;
    while (i + 1 < run->n_bins && t >= edge(run, i + 1))
        i++;
    return *hint = i;
}

int mw_bins_call(mw_run *run, mw_bins *b, const pw_record *rec, uint32_t *hint)
{
    if (!rec->has_end || rec->clock != PW_CLOCK_NS || rec->t_end <= rec->t)
        return 1;
    double enter = (double)rec->t, exit = (double)rec->t_end;
    mw_bin_sum *row = b->fn[rec->schema];
    if (!row && !(row = b->fn[rec->schema] = calloc(b->n, sizeof *row)))
        return 0;
    uint32_t at = *hint;
    if (at < b->n && enter > edge(run, at) && exit < edge(run, at + 1)) {
        row[at].ns += rec->t_end - rec->t; /* most calls: inside the rank's latest bin, no edge cut */
        return 1;
    }
    for (uint32_t i = bin_of(run, enter, hint); i < b->n; i++) {
        double start = edge(run, i), end = edge(run, i + 1);
        if (start >= exit)
            break;
        if (end <= enter) /* Pipit's in_bin: exit > start and enter < end */
            continue;
        /* min(exit, end) - max(enter, start), its ends kept apart */
        if (exit < end)
            row[i].ns += rec->t_end - run->t0;
        else
            row[i].hi_edges++;
        if (enter > start)
            row[i].ns -= rec->t - run->t0;
        else
            row[i].lo_edges++;
    }
    return 1;
}

void mw_bins_message(mw_run *run, mw_bins *b, int64_t t, uint64_t bytes, uint32_t *hint)
{
    if (t < run->t0 || t > run->t1)
        return;
    uint32_t i = bin_of(run, (double)t, hint);
    b->msgs[i] += 1;
    b->bytes[i] += bytes;
}

/* Has some rank a record of schema s (its function gets a column)? */
static int seen_anywhere(const mw_run *run, size_t s)
{
    for (size_t i = 0; i < run->n_ranks; i++)
        if (run->ranks[i].seen[s])
            return 1;
    return 0;
}

/* Function s's time in bin i: its integer part and its edges' parts,
 * from t0, in long double (a rounding of its own, the same for any
 * order the calls were added in). */
static double bin_ns(const mw_run *run, const mw_bins *b, size_t s, uint32_t i)
{
    if (!b->fn[s])
        return 0;
    const mw_bin_sum *x = &b->fn[s][i];
    long double t0 = (long double)run->t0;
    long double hi = (long double)edge(run, i + 1) - t0, lo = (long double)edge(run, i) - t0;
    return (double)((long double)x->ns + (long double)x->hi_edges * hi - (long double)x->lo_edges * lo);
}

static void add_bin(mw_bin_sum *into, const mw_bin_sum *b)
{
    into->ns += b->ns;
    into->hi_edges += b->hi_edges;
    into->lo_edges += b->lo_edges;
}

void mw_bins_sum_workers(mw_run *run)
{
    mw_bins *into = &run->bins[0];
    for (int w = 1; w < run->workers; w++) {
        mw_bins *b = &run->bins[w];
        for (size_t f = 0; f < run->ds->n_schemas; f++) {
            if (!into->fn[f]) { /* the row moves over */
                into->fn[f] = b->fn[f];
                b->fn[f] = NULL;
            }
            for (uint32_t i = 0; b->fn[f] && i < b->n; i++)
                add_bin(&into->fn[f][i], &b->fn[f][i]);
            free(b->fn[f]);
            b->fn[f] = NULL;
        }
        for (uint32_t i = 0; i < b->n; i++) {
            into->msgs[i] += b->msgs[i];
            into->bytes[i] += b->bytes[i];
            b->msgs[i] = b->bytes[i] = 0;
        }
    }
}

/* A bin's number and start, in seconds from the first call. */
static void bin_start(const mw_run *run, pw_rnode *row, uint32_t i)
{
    pw_rnode_uint(row, "bin", i);
    pw_rnode_num(row, "start_s", (edge(run, i) - (double)run->t0) / 1e9);
}

/* Tables: a row per bin, a column per function (seconds in it). */
static void profile_tables(const mw_run *run, const mw_bins *b, pw_rnode *root, const double *idle)
{
    pw_rnode *arr = pw_rnode_array(root, "time_profile");
    pw_rnode *comm = pw_rnode_array(root, "comm_over_time");
    for (uint32_t i = 0; i < b->n; i++) {
        pw_rnode *o = pw_rnode_object(arr, NULL);
        bin_start(run, o, i);
        for (size_t s = 0; s < run->ds->n_schemas; s++)
            if (seen_anywhere(run, s))
                pw_rnode_num(o, run->ds->schemas[s]->name, bin_ns(run, b, s, i) / 1e9);
        /* busy time summed in doubles can leave a rounding residue */
        pw_rnode_num(o, "idle", fabs(idle[i]) < 1e-3 ? 0 : idle[i] / 1e9);
        pw_rnode *c = pw_rnode_object(comm, NULL);
        bin_start(run, c, i);
        pw_rnode_uint(c, "messages", (uint64_t)b->msgs[i]);
        pw_rnode_uint(c, "bytes", (uint64_t)b->bytes[i]);
    }
}

void mw_report_time_profile(mw_run *run, pw_rnode *root)
{
    mw_bins_sum_workers(run);
    const mw_bins *b = &run->bins[0];
    size_t processes = 0;
    for (size_t i = 0; i < run->n_ranks; i++)
        processes += run->ranks[i].t_max >= run->ranks[i].t_min;
    double *idle = calloc(b->n, sizeof *idle);
    if (!idle)
        return;
    for (uint32_t i = 0; i < b->n; i++) {
        double busy = 0;
        for (size_t f = 0; f < run->ds->n_schemas; f++)
            busy += bin_ns(run, b, f, i);
        idle[i] = run->bin_step * (double)processes - busy;
    }
    profile_tables(run, b, root, idle);
    free(idle);
}
