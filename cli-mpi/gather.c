/* gather.c — the collectives the commands share: the dataset opened by
 * every process, the largest exit code, and the CPU clock of each
 * process's own work (the gathers are in collectives.c). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli_mpi.h"

unsigned long long mpi_bytes_sent;
int mpi_rank;
double mpi_work_cpu_s;
static double work_started; /* CPU seconds at mpi_work_begin */

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int working; /* between mpi_work_begin and mpi_work_end */

void mpi_work_begin(void)
{
    work_started = cpu_now();
    working = 1;
}

void mpi_work_end(void)
{
    mpi_work_cpu_s += cpu_now() - work_started;
    working = 0;
}

int mpi_work_pause(void)
{
    int was = working;
    if (was)
        mpi_work_end();
    return was;
}

void mpi_work_resume(int was)
{
    if (was)
        mpi_work_begin();
}

/* An opener with standard error held back in a temporary file (*held, NULL
 * when it could not be made: then nothing is held back). */
static pw_dataset *open_held_back(const mpi_world *w, cli_args *a, int *code, int *opened, mpi_opener open,
                                  FILE **held)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    *held = saved >= 0 ? tmpfile() : NULL;
    if (*held)
        dup2(fileno(*held), STDERR_FILENO);
    pw_dataset *ds = open(w, a, code, opened);
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, STDERR_FILENO);
        close(saved);
    }
    return ds;
}

/* Copies what was held back to standard error. */
static void release(FILE *held)
{
    char buf[4096];
    size_t n;
    rewind(held);
    while ((n = fread(buf, 1, sizeof buf, held)) > 0)
        fwrite(buf, 1, n, stderr);
}

pw_dataset *mpi_open_with(const mpi_world *w, cli_args *a, int *code, mpi_opener open)
{
    /* What rank 0 says about opening (a warning, why it failed) every
     * process would say: the others' words are printed only when rank 0
     * opened and they did not. */
    FILE *held = NULL;
    int opened = 0;
    mpi_work_begin();
    pw_dataset *ds = w->rank ? open_held_back(w, a, code, &opened, open, &held) : open(w, a, code, &opened);
    mpi_work_end();
    int rank0_opened = opened;
    MPI_Bcast(&rank0_opened, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (held && !opened && rank0_opened)
        release(held);
    if (held)
        fclose(held);
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
