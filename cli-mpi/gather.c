/* gather.c — the collectives the commands share: bytes of every process
 * joined on rank 0 (counted as traffic), the dataset opened by every
 * process, the largest exit code, and the CPU clock of each process's own
 * work. */
#include <stdlib.h>
#include <time.h>

#include "cli_mpi.h"

unsigned long long mpi_bytes_sent;
double mpi_work_cpu_s;
static double work_started; /* CPU seconds at mpi_work_begin */

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void mpi_work_begin(void) { work_started = cpu_now(); }
void mpi_work_end(void) { mpi_work_cpu_s += cpu_now() - work_started; }

char *mpi_gather_bytes(const mpi_world *w, const void *mine, int size, size_t *each, size_t *total)
{
    int *sizes = w->rank ? NULL : calloc((size_t)w->size, sizeof *sizes);
    int *displs = w->rank ? NULL : calloc((size_t)w->size, sizeof *displs);
    MPI_Gather(&size, 1, MPI_INT, sizes, 1, MPI_INT, 0, MPI_COMM_WORLD);
    char *all = NULL;
    *total = 0;
    if (!w->rank) {
        for (int r = 0; r < w->size; r++) {
            displs[r] = (int)*total;
            *total += (size_t)sizes[r];
            if (each)
                each[r] = (size_t)sizes[r];
        }
        all = malloc(*total ? *total : 1);
    }
    MPI_Gatherv(mine, size, MPI_BYTE, all, sizes, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    mpi_bytes_sent += w->rank ? (unsigned long long)size : 0;
    free(sizes);
    free(displs);
    return all;
}

pw_dataset *mpi_open(cli_args *a, int *code)
{
    mpi_work_begin();
    pw_dataset *ds = cli_open(a, code);
    mpi_work_end();
    if (mpi_max_code(ds ? 0 : 1)) {
        pw_close(ds);
        *code = mpi_max_code(*code ? *code : EXIT_SYSTEM);
        return NULL;
    }
    return ds;
}

int mpi_max_code(int code)
{
    int max = code;
    MPI_Allreduce(&code, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return max;
}
