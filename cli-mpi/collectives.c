/* collectives.c — the library's pw_collectives over MPI_COMM_WORLD, for
 * outputs the processes write together (OTF2): a broadcast from rank 0, a
 * sum of counters, and libotf2's own MPI collective callbacks (its header
 * OTF2_MPI_Collectives.h implements them over a communicator). */
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
    MPI_Bcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
    mpi_bytes_sent += w->rank ? 0 : n * (unsigned long long)(w->size - 1);
}

static void sum(void *ctx, uint64_t *values, size_t n)
{
    const mpi_world *w = ctx;
    MPI_Allreduce(MPI_IN_PLACE, values, (int)n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
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

/* --- alltoallv: the analyses computed together (pw_stats_together) ---
 * MPI counts bytes in int: the counts are exchanged first, and every
 * process gives up (returns 0) when any count, or any process's total,
 * does not fit, or memory runs out. */

/* Counts and displacements of n processes' byte sizes as int; 0 when
 * they do not fit. */
static int int_counts(const size_t *bytes, int n, int *counts, int *displs)
{
    size_t at = 0;
    for (int q = 0; q < n; q++) {
        if (bytes[q] > INT_MAX || at > (size_t)INT_MAX - bytes[q])
            return 0;
        counts[q] = (int)bytes[q];
        displs[q] = (int)at;
        at += bytes[q];
    }
    return 1;
}

/* The CPU time a process spends in its exchanges: mostly waiting for
 * the others (Open MPI polls), so that work can be told from waiting. */
double mpi_exchange_cpu_s;

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int exchange(void *ctx, const void *send, const size_t *send_bytes, void **recv, size_t *recv_bytes);

static int alltoallv(void *ctx, const void *send, const size_t *send_bytes, void **recv, size_t *recv_bytes)
{
    double t = cpu_seconds();
    int ok = exchange(ctx, send, send_bytes, recv, recv_bytes);
    mpi_exchange_cpu_s += cpu_seconds() - t;
    return ok;
}

static int exchange(void *ctx, const void *send, const size_t *send_bytes, void **recv, size_t *recv_bytes)
{
    const mpi_world *w = ctx;
    int n = w->size;
    int *v = malloc(4 * (size_t)n * sizeof *v);
    unsigned long long *sizes = malloc(2 * (size_t)n * sizeof *sizes);
    if (!v || !sizes) { /* the others are in the exchange already: none can go on */
        fprintf(stderr, "perfweave-mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    }
    for (int q = 0; q < n; q++)
        sizes[q] = send_bytes[q];
    MPI_Alltoall(sizes, 1, MPI_UNSIGNED_LONG_LONG, sizes + n, 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
    size_t total = 0;
    for (int q = 0; q < n; q++)
        total += recv_bytes[q] = (size_t)sizes[n + q];
    *recv = total ? malloc(total) : NULL;
    int ok = (!total || *recv) && int_counts(send_bytes, n, v, v + n) && int_counts(recv_bytes, n, v + 2 * n, v + 3 * n);
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (ok) {
        MPI_Alltoallv(send, v, v + n, MPI_BYTE, *recv, v + 2 * n, v + 3 * n, MPI_BYTE, MPI_COMM_WORLD);
        for (int q = 0; q < n; q++)
            mpi_bytes_sent += q == w->rank ? 0 : send_bytes[q];
    } else {
        free(*recv);
        *recv = NULL;
    }
    free(v);
    free(sizes);
    return ok;
}

pw_collectives mpi_collectives(const mpi_world *w)
{
    return (pw_collectives){(void *)w, broadcast, sum, otf2_archive, alltoallv};
}
