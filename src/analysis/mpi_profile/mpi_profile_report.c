/* mpi_profile_report.c — the mpiP-style profile of an MPI trace: per
 * function (calls, time, share of MPI time, spread over ranks), per rank
 * (span from MPI_Init to MPI_Finalize, time in MPI), the point-to-point
 * matrix in world ranks with message sizes, and collectives per
 * communicator.  The format gathered the rank profiles
 * (model/mpi_profile.h), or mpi_profile_records.c made them of what a
 * filter selects; communicators are reconstructed here from all
 * ranks' dup/split calls (model/mpi_comms.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_profile/mpi_profile.h"
#include "core/error.h"
#include "model/mpi_profile.h"

typedef struct stats_run {
    pw_dataset *ds;
    const pw_mpi_profiles *mp;
    size_t n_world;            /* 1 + the highest rank */
    pw_mpi_tracker **trackers; /* per world rank */
    pw_mpi_tracker empty;      /* for ranks without a file */
    pw_mpi_comms comms;
} stats_run;

static double secs(uint64_t ns) { return (double)ns / 1e9; }

static const char *clock_name(int clock) { return clock == 1 ? "wall" : clock == 0 ? "cpu" : "none"; }

static pw_status report_functions(stats_run *run, pw_rnode *root, uint64_t all_mpi_ns, pw_error *err)
{
    int nf = (int)run->mp->n_functions, n = 0;
    int *order = malloc((size_t)nf * sizeof *order);
    uint64_t *total = calloc((size_t)nf, sizeof *total), *calls = calloc((size_t)nf, sizeof *calls);
    if (!order || !total || !calls) {
        free(order);
        free(total);
        free(calls);
        return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    }
    pw_rnode *arr = pw_rnode_array(root, "functions");
    for (int l = 0; l < nf; l++) {
        for (size_t i = 0; i < run->mp->n_ranks; i++) {
            total[l] += run->mp->ranks[i].fns[l].time_ns;
            calls[l] += run->mp->ranks[i].fns[l].calls;
        }
        if (calls[l] || total[l]) /* under a window: time of calls entered before it */
            order[n++] = l;
    }
    /* Most time first (ties: most calls, then label). */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && (total[order[j]] > total[order[j - 1]] ||
                                  (total[order[j]] == total[order[j - 1]] && calls[order[j]] > calls[order[j - 1]]));
             j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int k = 0; k < n; k++) {
        int l = order[k];
        uint64_t mn = UINT64_MAX, mx = 0, rmin_t = UINT64_MAX, rmax_t = 0;
        int rmin = -1, rmax = -1;
        for (size_t i = 0; i < run->mp->n_ranks; i++) {
            const pw_mpi_rank_profile *p = &run->mp->ranks[i];
            if (!p->fns[l].calls && !p->fns[l].time_ns)
                continue;
            if (p->fns[l].calls) {
                mn = p->fns[l].min_ns < mn ? p->fns[l].min_ns : mn;
                mx = p->fns[l].max_ns > mx ? p->fns[l].max_ns : mx;
            }
            if (p->fns[l].time_ns < rmin_t || rmin < 0) {
                rmin_t = p->fns[l].time_ns;
                rmin = run->mp->ranks[i].rank;
            }
            if (p->fns[l].time_ns > rmax_t || rmax < 0) {
                rmax_t = p->fns[l].time_ns;
                rmax = run->mp->ranks[i].rank;
            }
        }
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_str(o, "function", run->mp->function_name((uint32_t)l));
        pw_rnode_uint(o, "calls", calls[l]);
        pw_rnode_num(o, "time_s", secs(total[l]));
        pw_rnode_num(o, "mean_s", calls[l] ? (double)total[l] / 1e9 / (double)calls[l] : 0);
        pw_rnode_num(o, "min_s", calls[l] ? secs(mn) : 0);
        pw_rnode_num(o, "max_s", secs(mx));
        pw_rnode_num(o, "mpi_pct", all_mpi_ns ? 100.0 * (double)total[l] / (double)all_mpi_ns : 0);
        pw_rnode_int(o, "min_rank", rmin);
        pw_rnode_num(o, "min_rank_s", secs(rmin_t));
        pw_rnode_int(o, "max_rank", rmax);
        pw_rnode_num(o, "max_rank_s", secs(rmax_t));
    }
    free(order);
    free(total);
    free(calls);
    return PW_OK;
}

static void report_ranks(stats_run *run, pw_rnode *root)
{
    pw_rnode *arr = pw_rnode_array(root, "ranks");
    for (size_t i = 0; i < run->mp->n_ranks; i++) {
        const pw_mpi_rank_profile *p = &run->mp->ranks[i];
        uint64_t n = 0;
        for (size_t l = 0; l < run->mp->n_functions; l++)
            n += p->fns[l].calls;
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_int(o, "rank", run->mp->ranks[i].rank);
        pw_rnode_uint(o, "calls", n);
        pw_rnode_num(o, "mpi_s", secs(p->mpi_ns));
        if (p->has_init && p->has_finalize && p->finalize_ns >= p->init_ns) {
            uint64_t span = p->finalize_ns - p->init_ns;
            pw_rnode_num(o, "span_s", secs(span));
            pw_rnode_num(o, "mpi_pct", span ? 100.0 * (double)p->mpi_ns / (double)span : 0);
        } else {
            pw_rnode_null(o, "span_s");
            pw_rnode_null(o, "mpi_pct");
        }
    }
}

/* Sends resolved to (world source, world destination). */
static void report_p2p(stats_run *run, pw_rnode *root)
{
    pw_pair_counts matrix = {0};
    uint64_t msgs = 0, bytes = 0, unresolved = 0, unresolved_bytes = 0, proc_null = 0;
    for (size_t i = 0; i < run->mp->n_ranks; i++) {
        const pw_mpi_rank_profile *p = &run->mp->ranks[i];
        size_t src = (size_t)run->mp->ranks[i].rank;
        proc_null += p->proc_null;
        for (size_t k = 0; k < p->sends.cap; k++) {
            const pw_pair_count *c = &p->sends.slots[k];
            if (!c->used)
                continue;
            int64_t dst = pw_mpi_world_rank(&run->comms, src, (uint32_t)(c->key >> 32), (int32_t)(uint32_t)c->key);
            msgs += c->msgs;
            bytes += c->bytes;
            if (dst < 0) {
                unresolved += c->msgs;
                unresolved_bytes += c->bytes;
            } else {
                pw_pair_counts_add(&matrix, pw_pair_key((uint32_t)src, (uint32_t)dst), c->msgs, c->bytes);
            }
        }
    }
    pw_rnode *o = pw_rnode_object(root, "point_to_point");
    pw_rnode_uint(o, "messages", msgs);
    pw_rnode_uint(o, "bytes", bytes);
    pw_rnode_uint(o, "unresolved_messages", unresolved);
    pw_rnode_uint(o, "unresolved_bytes", unresolved_bytes);
    pw_rnode_uint(o, "proc_null_sends", proc_null);
    pw_rnode *arr = pw_rnode_array(root, "comm_matrix");
    pw_pair_count *sorted = pw_pair_counts_sorted(&matrix);
    for (size_t k = 0; sorted && k < matrix.n; k++) {
        pw_rnode *m = pw_rnode_object(arr, NULL);
        pw_rnode_uint(m, "source", sorted[k].key >> 32);
        pw_rnode_uint(m, "dest", sorted[k].key & 0xffffffffu);
        pw_rnode_uint(m, "messages", sorted[k].msgs);
        pw_rnode_uint(m, "bytes", sorted[k].bytes);
    }
    free(sorted);
    pw_pair_counts_free(&matrix);
}

static void report_sizes(stats_run *run, pw_rnode *root)
{
    pw_rnode *arr = pw_rnode_array(root, "message_sizes");
    for (int b = 0; b < PW_MPI_SIZE_BUCKETS; b++) {
        uint64_t m = 0, by = 0;
        for (size_t i = 0; i < run->mp->n_ranks; i++) {
            m += run->mp->ranks[i].size_msgs[b];
            by += run->mp->ranks[i].size_bytes[b];
        }
        if (!m)
            continue;
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_uint(o, "min_bytes", b ? 1ull << (b - 1) : 0);
        if (b < PW_MPI_SIZE_BUCKETS - 1)
            pw_rnode_uint(o, "max_bytes", b ? (1ull << b) - 1 : 0);
        else
            pw_rnode_null(o, "max_bytes");
        pw_rnode_uint(o, "messages", m);
        pw_rnode_uint(o, "bytes", by);
    }
}

/* A communicator's name: world, self, or "comm<k>" in creation order. */
static void comm_name(const stats_run *run, uint32_t g, char *buf, size_t n)
{
    if (g == 0)
        snprintf(buf, n, "MPI_COMM_WORLD");
    else if (g == PW_MPI_UNKNOWN)
        snprintf(buf, n, "unresolved");
    else if (g <= run->n_world)
        snprintf(buf, n, "MPI_COMM_SELF");
    else
        snprintf(buf, n, "comm%u", g - (uint32_t)run->n_world);
}

/* Collectives per (function, communicator): calls and bytes summed over
 * the member ranks; selfs of all ranks count as one MPI_COMM_SELF. */
static void report_collectives(stats_run *run, pw_rnode *root)
{
    pw_pair_counts calls = {0}, time = {0};
    for (size_t i = 0; i < run->mp->n_ranks; i++) {
        const pw_mpi_rank_profile *p = &run->mp->ranks[i];
        size_t rank = (size_t)run->mp->ranks[i].rank;
        for (int which = 0; which < 2; which++) {
            const pw_pair_counts *src = which ? &p->coll_time : &p->coll_calls;
            for (size_t k = 0; k < src->cap; k++) {
                const pw_pair_count *c = &src->slots[k];
                if (!c->used)
                    continue;
                uint32_t g = pw_mpi_comm_of(&run->comms, rank, (uint32_t)c->key);
                if (g != PW_MPI_UNKNOWN && g >= 1 && g <= run->n_world)
                    g = 1; /* one row for all selfs */
                pw_pair_counts_add(which ? &time : &calls, pw_pair_key((uint32_t)(c->key >> 32), g), c->msgs,
                                   c->bytes);
            }
        }
    }
    pw_rnode *arr = pw_rnode_array(root, "collectives");
    pw_pair_count *sorted = pw_pair_counts_sorted(&calls);
    for (size_t k = 0; sorted && k < calls.n; k++) {
        uint32_t label = (uint32_t)(sorted[k].key >> 32), g = (uint32_t)sorted[k].key;
        char name[32];
        comm_name(run, g, name, sizeof name);
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_str(o, "function", run->mp->function_name(label));
        pw_rnode_str(o, "comm", name);
        if (g != PW_MPI_UNKNOWN)
            pw_rnode_uint(o, "comm_size", run->comms.comms[g].size);
        else
            pw_rnode_null(o, "comm_size");
        pw_rnode_uint(o, "calls", sorted[k].msgs);
        uint64_t ns = 0;
        for (size_t j = 0; j < time.cap; j++)
            if (time.slots[j].used && time.slots[j].key == sorted[k].key)
                ns = time.slots[j].msgs;
        pw_rnode_num(o, "time_s", secs(ns));
        pw_rnode_uint(o, "bytes", sorted[k].bytes);
    }
    free(sorted);
    pw_pair_counts_free(&calls);
    pw_pair_counts_free(&time);
}

static void report_summary(stats_run *run, pw_rnode *root, uint64_t *all_mpi_ns)
{
    uint64_t calls = 0, unknown_type = 0;
    int clock = -1;
    size_t created = 0;
    for (size_t i = 0; i < run->mp->n_ranks; i++) {
        const pw_mpi_rank_profile *p = &run->mp->ranks[i];
        *all_mpi_ns += p->mpi_ns;
        unknown_type += p->unknown_type;
        clock = p->clock > clock ? p->clock : clock;
        created += p->tracker.n_created;
        for (size_t l = 0; l < run->mp->n_functions; l++)
            calls += p->fns[l].calls;
    }
    pw_rnode *o = pw_rnode_object(root, "trace");
    pw_rnode_uint(o, "ranks", run->mp->n_ranks);
    pw_rnode_uint(o, "calls", calls);
    pw_rnode_str(o, "clock", clock_name(clock));
    pw_rnode_num(o, "mpi_time_s", secs(*all_mpi_ns));
    pw_rnode_uint(o, "communicator_creations", created);
    pw_rnode_uint(o, "unresolved_creations", run->comms.unresolved);
    pw_rnode_uint(o, "communicators", run->comms.n_comms > run->n_world ? run->comms.n_comms - run->n_world : 1);
    pw_rnode_uint(o, "unknown_datatype_sizes", unknown_type);
}

static pw_status resolve_comms(stats_run *run, pw_error *err)
{
    run->n_world = 0;
    for (size_t i = 0; i < run->mp->n_ranks; i++)
        if ((size_t)run->mp->ranks[i].rank + 1 > run->n_world)
            run->n_world = (size_t)run->mp->ranks[i].rank + 1;
    run->trackers = calloc(run->n_world ? run->n_world : 1, sizeof *run->trackers);
    if (!run->trackers)
        return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    const pw_mpi_tracker *t = &run->mp->ranks[0].tracker; /* the format's handle values */
    pw_mpi_tracker_init(&run->empty, t->world, t->self, t->null, t->undefined_color);
    for (size_t w = 0; w < run->n_world; w++)
        run->trackers[w] = &run->empty;
    for (size_t i = 0; i < run->mp->n_ranks; i++)
        run->trackers[run->mp->ranks[i].rank] = &run->mp->ranks[i].tracker;
    int rc = pw_mpi_comms_resolve(&run->comms, run->trackers, run->n_world);
    if (rc == -2)
        return pw_fail(err, PW_E_USAGE, run->ds->path, PW_NO_OFFSET,
                       "a rank's communicator creations name instances it does not have (a damaged part)");
    if (rc != 0)
        return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

pw_status pw_mpi_profile_report(pw_dataset *ds, pw_report *r, pw_error *err)
{
    if (!ds->mpi_profiles)
        return PW_OK;
    pw_mpi_profiles mp;
    pw_status st = pw_mpi_profiles_ready(ds, NULL, &mp, err);
    if (st != PW_OK)
        return st;
    st = pw_mpi_profile_tables(ds, &mp, r, err);
    pw_mpi_profiles_release(ds, &mp);
    return st;
}

pw_status pw_mpi_profile_tables(pw_dataset *ds, const pw_mpi_profiles *mp, pw_report *r, pw_error *err)
{
    stats_run run = {.ds = ds, .mp = mp};
    pw_status st = resolve_comms(&run, err);
    pw_rnode *root = pw_report_root(r);
    uint64_t all_mpi_ns = 0;
    if (st == PW_OK) {
        report_summary(&run, root, &all_mpi_ns);
        st = report_functions(&run, root, all_mpi_ns, err);
    }
    if (st == PW_OK) {
        report_ranks(&run, root);
        report_p2p(&run, root);
        report_sizes(&run, root);
        report_collectives(&run, root);
    }
    pw_mpi_comms_free(&run.comms);
    free(run.trackers);
    return st;
}
