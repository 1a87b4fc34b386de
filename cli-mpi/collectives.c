/* collectives.c — the library's pw_collectives over MPI_COMM_WORLD, for
 * outputs the processes write together (OTF2): a broadcast from rank 0, a
 * sum of counters, libotf2's own MPI collective callbacks (its header
 * OTF2_MPI_Collectives.h implements them over a communicator), bytes
 * exchanged between every pair of processes, and bytes gathered to rank 0
 * (or to every process) and scattered back from it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli_mpi.h"

#ifdef PW_HAVE_OTF2
#include <otf2/otf2.h>

#include <otf2/OTF2_MPI_Collectives.h>
#endif

static void broadcast(void *ctx, void *buf, size_t n)
{
    const mpi_world *w = ctx;
    int was = mpi_work_pause();
    MPI_Bcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
    mpi_work_resume(was);
    mpi_bytes_sent += w->rank ? 0 : n * (unsigned long long)(w->size - 1);
}

static void sum(void *ctx, uint64_t *values, size_t n)
{
    const mpi_world *w = ctx;
    int was = mpi_work_pause();
    MPI_Allreduce(MPI_IN_PLACE, values, (int)n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    mpi_work_resume(was);
    mpi_bytes_sent += w->size > 1 ? n * sizeof *values : 0;
}

static int otf2_archive(void *ctx, void *archive)
{
    (void)ctx;
#ifdef PW_HAVE_OTF2
    return OTF2_MPI_Archive_SetCollectiveCallbacks(archive, MPI_COMM_WORLD, MPI_COMM_NULL) == OTF2_SUCCESS;
#else
    (void)archive;
    return 0;
#endif
}

/* --- alltoallv: the analyses computed together (pw_stats_together) and
 * the timeline's message ends (timeline_share.c) --- */

/* The CPU time a process spends in its exchanges: mostly waiting for
 * the others (Open MPI polls), kept apart from its work. */
double mpi_exchange_cpu_s;

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Byte counts as MPI's ints, or 0 when one does not fit. */
static int as_ints(const size_t *bytes, int *ints, int *displs, int n)
{
    size_t at = 0;
    for (int j = 0; j < n; j++) {
        if (bytes[j] > INT_MAX || at > INT_MAX)
            return 0;
        ints[j] = (int)bytes[j];
        displs[j] = (int)at;
        at += bytes[j];
    }
    return at <= INT_MAX;
}

/* An exchange begins: its CPU time is counted apart from the work
 * (returns whether work was being counted, for exchange_end). */
static int exchange_begin(double *started)
{
    int was = mpi_work_pause();
    *started = cpu_seconds();
    return was;
}

static void exchange_end(int was, double started)
{
    mpi_exchange_cpu_s += cpu_seconds() - started;
    mpi_work_resume(was);
}

/* Whether every process could take part (ok on each). */
static int all_could(int ok)
{
    int all_ok = ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all_ok;
}

/* MPI_Alltoall of the sizes, then MPI_Alltoallv of the bytes; every
 * process learns whether any could not take part (memory, a count beyond
 * MPI's int), so all return the same answer. */
static int alltoallv(void *ctx, const void *send, const size_t *send_bytes, void **recv, size_t *recv_bytes)
{
    const mpi_world *w = ctx;
    double started;
    int was = exchange_begin(&started);
    int n = w->size;
    unsigned long long *sizes = calloc((size_t)n, sizeof *sizes), *got = calloc((size_t)n, sizeof *got);
    int *sc = calloc((size_t)n, sizeof *sc), *sd = calloc((size_t)n, sizeof *sd);
    int *rc = calloc((size_t)n, sizeof *rc), *rd = calloc((size_t)n, sizeof *rd);
    if (!sizes || !got || !sc || !sd || !rc || !rd) { /* the others are in the exchange already */
        fprintf(stderr, "perfweave-mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    }
    for (int j = 0; j < n; j++)
        sizes[j] = send_bytes[j];
    MPI_Alltoall(sizes, 1, MPI_UNSIGNED_LONG_LONG, got, 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
    size_t total = 0;
    for (int j = 0; j < n; j++) {
        recv_bytes[j] = (size_t)got[j];
        total += recv_bytes[j];
    }
    *recv = malloc(total ? total : 1);
    int all_ok = all_could(*recv && as_ints(send_bytes, sc, sd, n) && as_ints(recv_bytes, rc, rd, n));
    if (all_ok) {
        MPI_Alltoallv(send, sc, sd, MPI_BYTE, *recv, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
        for (int j = 0; j < n; j++)
            mpi_bytes_sent += j == w->rank ? 0 : send_bytes[j];
    } else {
        free(*recv);
        *recv = NULL;
    }
    free(sizes);
    free(got);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    exchange_end(was, started);
    return all_ok;
}

/* --- gathers: the OTF2 definitions of shares drawn alone (otf2_unify.c),
 * the stats parts and findings to rank 0, and what a two-step open found
 * to every process (open_share.c) --- */

/* The arrays of one entry per process that a receiving process needs:
 * the sizes as MPI moves them, and as MPI's v-collectives count them.
 * The others are in the exchange already when they cannot be had. */
typedef struct root_counts {
    unsigned long long *sizes;
    int *counts, *displs;
} root_counts;

static root_counts root_counts_of(const mpi_world *w, int receives)
{
    root_counts rc = {0};
    if (!receives)
        return rc;
    rc.sizes = calloc((size_t)w->size, sizeof *rc.sizes);
    rc.counts = calloc((size_t)w->size, sizeof *rc.counts);
    rc.displs = calloc((size_t)w->size, sizeof *rc.displs);
    if (!rc.sizes || !rc.counts || !rc.displs) {
        fprintf(stderr, "perfweave-mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    }
    return rc;
}

static void root_counts_free(root_counts *rc)
{
    free(rc->sizes);
    free(rc->counts);
    free(rc->displs);
}

/* Where the gathered bytes go on a receiving process: the sizes into a
 * new *each, the buffer; 0 when they do not fit (memory, MPI's int). */
static int make_room(const mpi_world *w, const root_counts *rc, void **recv, size_t **each)
{
    size_t total = 0;
    *each = calloc((size_t)w->size, sizeof **each);
    for (int j = 0; *each && j < w->size; j++)
        total += (*each)[j] = (size_t)rc->sizes[j];
    if (!*each || !as_ints(*each, rc->counts, rc->displs, w->size))
        return 0;
    *recv = malloc(total ? total : 1);
    return *recv != NULL;
}

int mpi_gather(const mpi_world *w, int to_all, const void *send, size_t send_bytes, void **recv, size_t **each)
{
    double started;
    int was = exchange_begin(&started);
    int receives = to_all || !w->rank;
    root_counts rc = root_counts_of(w, receives);
    unsigned long long mine = send_bytes;
    if (to_all)
        MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, rc.sizes, 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
    else
        MPI_Gather(&mine, 1, MPI_UNSIGNED_LONG_LONG, rc.sizes, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    *recv = NULL;
    *each = NULL;
    int ok = send_bytes <= INT_MAX && (!receives || make_room(w, &rc, recv, each));
    int all_ok = all_could(ok);
    if (all_ok && to_all)
        MPI_Allgatherv(send, (int)send_bytes, MPI_BYTE, *recv, rc.counts, rc.displs, MPI_BYTE, MPI_COMM_WORLD);
    else if (all_ok)
        MPI_Gatherv(send, (int)send_bytes, MPI_BYTE, *recv, rc.counts, rc.displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (all_ok) {
        mpi_bytes_sent += to_all ? send_bytes * (unsigned long long)(w->size - 1) : w->rank ? send_bytes : 0;
    } else {
        free(*recv);
        free(*each);
        *recv = NULL;
        *each = NULL;
    }
    root_counts_free(&rc);
    exchange_end(was, started);
    return all_ok;
}

/* The library's gather to rank 0 (pw_collectives.gatherv). */
static int gatherv(void *ctx, const void *send, size_t send_bytes, void **recv, size_t **recv_bytes)
{
    return mpi_gather(ctx, 0, send, send_bytes, recv, recv_bytes);
}

/* MPI_Scatter of the sizes from rank 0, then MPI_Scatterv of the bytes;
 * every process learns whether any could not take part (its memory, a
 * count beyond MPI's int). */
static int scatterv(void *ctx, const void *send, const size_t *send_bytes, void **recv, size_t *recv_bytes)
{
    const mpi_world *w = ctx;
    double started;
    int was = exchange_begin(&started);
    root_counts rc = root_counts_of(w, !w->rank);
    int fits = w->rank || as_ints(send_bytes, rc.counts, rc.displs, w->size);
    for (int j = 0; !w->rank && j < w->size; j++)
        rc.sizes[j] = fits ? send_bytes[j] : 0;
    unsigned long long mine = 0;
    MPI_Scatter(rc.sizes, 1, MPI_UNSIGNED_LONG_LONG, &mine, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    *recv_bytes = (size_t)mine;
    *recv = malloc(mine ? (size_t)mine : 1);
    int all_ok = all_could(fits && *recv);
    if (all_ok) {
        MPI_Scatterv(send, rc.counts, rc.displs, MPI_BYTE, *recv, (int)mine, MPI_BYTE, 0, MPI_COMM_WORLD);
        for (int j = 1; !w->rank && j < w->size; j++)
            mpi_bytes_sent += send_bytes[j];
    } else {
        free(*recv);
        *recv = NULL;
    }
    root_counts_free(&rc);
    exchange_end(was, started);
    return all_ok;
}

pw_collectives mpi_collectives(const mpi_world *w)
{
    return (pw_collectives){(void *)w, broadcast, sum, otf2_archive, alltoallv, gatherv, scatterv};
}
