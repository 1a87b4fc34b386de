/* dumpi_stats.c — the mpiP-style profile of a DUMPI trace: per function
 * (calls, time, share of MPI time, spread over ranks), per rank (span from
 * MPI_Init to MPI_Finalize, time in MPI), the point-to-point matrix in
 * world ranks with message sizes, and collectives per communicator.
 * The ranks were read in parallel when the trace was opened
 * (dumpi_scan.c, dumpi_profile.c); communicators are reconstructed here
 * from all ranks' dup/split calls (analysis/mpi_comms.h). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "formats/dumpi/dumpi_profile.h"

typedef struct stats_run {
    pw_dataset *ds;
    dumpi_dataset *dd;
    const dumpi_rank_profile *prof; /* per rank slot, from the open-time pass */
    size_t n_world;            /* 1 + the highest rank */
    pw_mpi_tracker **trackers; /* per world rank */
    pw_mpi_tracker empty;      /* for ranks without a file */
    pw_mpi_comms comms;
} stats_run;

static double secs(uint64_t ns) { return (double)ns / 1e9; }

static const char *clock_name(int clock) { return clock == 1 ? "wall" : clock == 0 ? "cpu" : "none"; }

static void report_functions(stats_run *run, pw_rnode *root, uint64_t all_mpi_ns)
{
    pw_rnode *arr = pw_rnode_array(root, "functions");
    int order[DUMPI_N_LABELS], n = 0;
    uint64_t total[DUMPI_N_LABELS] = {0}, calls[DUMPI_N_LABELS] = {0};
    for (int l = 0; l < DUMPI_N_LABELS; l++) {
        for (size_t i = 0; i < run->dd->n_ranks; i++) {
            total[l] += run->prof[i].time_ns[l];
            calls[l] += run->prof[i].calls[l];
        }
        if (calls[l])
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
        for (size_t i = 0; i < run->dd->n_ranks; i++) {
            const dumpi_rank_profile *p = &run->prof[i];
            if (!p->calls[l])
                continue;
            mn = p->min_ns[l] < mn ? p->min_ns[l] : mn;
            mx = p->max_ns[l] > mx ? p->max_ns[l] : mx;
            if (p->time_ns[l] < rmin_t || rmin < 0) {
                rmin_t = p->time_ns[l];
                rmin = run->dd->ranks[i].rank;
            }
            if (p->time_ns[l] > rmax_t || rmax < 0) {
                rmax_t = p->time_ns[l];
                rmax = run->dd->ranks[i].rank;
            }
        }
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_str(o, "function", dumpi_functions[l].name);
        pw_rnode_uint(o, "calls", calls[l]);
        pw_rnode_num(o, "time_s", secs(total[l]));
        pw_rnode_num(o, "mean_us", (double)total[l] / 1e3 / (double)calls[l]);
        pw_rnode_num(o, "min_us", (double)mn / 1e3);
        pw_rnode_num(o, "max_us", (double)mx / 1e3);
        pw_rnode_num(o, "mpi_pct", all_mpi_ns ? 100.0 * (double)total[l] / (double)all_mpi_ns : 0);
        pw_rnode_int(o, "min_rank", rmin);
        pw_rnode_num(o, "min_rank_s", secs(rmin_t));
        pw_rnode_int(o, "max_rank", rmax);
        pw_rnode_num(o, "max_rank_s", secs(rmax_t));
    }
}

static void report_ranks(stats_run *run, pw_rnode *root)
{
    pw_rnode *arr = pw_rnode_array(root, "ranks");
    for (size_t i = 0; i < run->dd->n_ranks; i++) {
        const dumpi_rank_profile *p = &run->prof[i];
        uint64_t n = 0;
        for (int l = 0; l < DUMPI_N_LABELS; l++)
            n += p->calls[l];
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_int(o, "rank", run->dd->ranks[i].rank);
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
    for (size_t i = 0; i < run->dd->n_ranks; i++) {
        const dumpi_rank_profile *p = &run->prof[i];
        size_t src = (size_t)run->dd->ranks[i].rank;
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
    for (int b = 0; b < DUMPI_SIZE_BUCKETS; b++) {
        uint64_t m = 0, by = 0;
        for (size_t i = 0; i < run->dd->n_ranks; i++) {
            m += run->prof[i].size_msgs[b];
            by += run->prof[i].size_bytes[b];
        }
        if (!m)
            continue;
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_uint(o, "min_bytes", b ? 1ull << (b - 1) : 0);
        if (b < DUMPI_SIZE_BUCKETS - 1)
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
    for (size_t i = 0; i < run->dd->n_ranks; i++) {
        const dumpi_rank_profile *p = &run->prof[i];
        size_t rank = (size_t)run->dd->ranks[i].rank;
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
        pw_rnode_str(o, "function", dumpi_functions[label].name);
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
    for (size_t i = 0; i < run->dd->n_ranks; i++) {
        const dumpi_rank_profile *p = &run->prof[i];
        *all_mpi_ns += p->mpi_ns;
        unknown_type += p->unknown_type;
        clock = p->clock > clock ? p->clock : clock;
        created += p->tracker.n_created;
        for (int l = 0; l < DUMPI_N_LABELS; l++)
            calls += p->calls[l];
    }
    pw_rnode *o = pw_rnode_object(root, "trace");
    pw_rnode_uint(o, "ranks", run->dd->n_ranks);
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
    for (size_t i = 0; i < run->dd->n_ranks; i++)
        if ((size_t)run->dd->ranks[i].rank + 1 > run->n_world)
            run->n_world = (size_t)run->dd->ranks[i].rank + 1;
    run->trackers = calloc(run->n_world ? run->n_world : 1, sizeof *run->trackers);
    if (!run->trackers)
        return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    pw_mpi_tracker_init(&run->empty, 2, 3, 1, -32766);
    for (size_t w = 0; w < run->n_world; w++)
        run->trackers[w] = &run->empty;
    for (size_t i = 0; i < run->dd->n_ranks; i++)
        run->trackers[run->dd->ranks[i].rank] = &run->dd->profiles[i].tracker;
    if (pw_mpi_comms_resolve(&run->comms, run->trackers, run->n_world) != 0)
        return pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

pw_status dumpi_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    dumpi_dataset *dd = ds->impl;
    stats_run run = {.ds = ds, .dd = dd, .prof = dd->profiles};
    pw_status st = ds->filter || !dd->profiled ? dumpi_profiles_filter(ds, dd, err) : PW_OK;
    if (st == PW_OK)
        st = resolve_comms(&run, err);
    if (st == PW_OK) {
        pw_rnode *root = pw_report_root(r);
        uint64_t all_mpi_ns = 0;
        report_summary(&run, root, &all_mpi_ns);
        report_functions(&run, root, all_mpi_ns);
        report_ranks(&run, root);
        report_p2p(&run, root);
        report_sizes(&run, root);
        report_collectives(&run, root);
    }
    pw_mpi_comms_free(&run.comms);
    free(run.trackers);
    return st;
}
