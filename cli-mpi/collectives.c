/* collectives.c — the library's pw_collectives over MPI_COMM_WORLD, for
 * outputs the processes write together (OTF2): a broadcast from rank 0, a
 * sum of counters, and libotf2's own MPI collective callbacks (its header
 * OTF2_MPI_Collectives.h implements them over a communicator). */
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

pw_collectives mpi_collectives(const mpi_world *w)
{
    return (pw_collectives){(void *)w, broadcast, sum, otf2_archive};
}
