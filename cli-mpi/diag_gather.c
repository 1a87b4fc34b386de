/* diag_gather.c — diagnostics of all processes, joined on rank 0 in rank
 * order and printed there, at most as many as one process keeps. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_mpi.h"

/* As src/model/diag.c keeps: later findings are only counted. */
#define MAX_DIAGS 1000

/* One diagnostic as bytes: severity, has_offset, offset (8 bytes), then
 * code, file and message each ended by a NUL. */
static size_t diag_size(const pw_diag *d)
{
    return 10 + strlen(d->code) + 1 + strlen(d->file ? d->file : "") + 1 + strlen(d->message) + 1;
}

static char *put_string(char *p, const char *s)
{
    size_t n = strlen(s) + 1;
    memcpy(p, s, n);
    return p + n;
}

static char *serialize(const pw_dataset *ds, size_t from, int *size)
{
    size_t n = pw_dataset_diag_count(ds), total = 0;
    for (size_t i = from; i < n; i++)
        total += diag_size(pw_dataset_diag(ds, i));
    char *buf = malloc(total ? total : 1), *p = buf;
    for (size_t i = from; buf && i < n; i++) {
        const pw_diag *d = pw_dataset_diag(ds, i);
        *p++ = (char)d->severity;
        *p++ = (char)d->has_offset;
        memcpy(p, &d->offset, 8);
        p = put_string(p + 8, d->code);
        p = put_string(p, d->file ? d->file : "");
        p = put_string(p, d->message);
    }
    *size = buf ? (int)total : 0;
    return buf;
}

/* Prints the diagnostics in buf[0 .. n); counts what it prints and what it
 * leaves out beyond the limit. */
static void print_all(const char *buf, size_t n, size_t *printed, uint64_t *dropped, size_t *errors,
                      size_t *warnings)
{
    const char *p = buf, *end = buf + n;
    while (p + 10 < end) {
        pw_diag d = {0};
        d.severity = (pw_severity)p[0];
        d.has_offset = p[1];
        memcpy(&d.offset, p + 2, 8);
        d.code = p + 10;
        d.file = d.code + strlen(d.code) + 1;
        d.message = d.file + strlen(d.file) + 1;
        p = d.message + strlen(d.message) + 1;
        if (*printed >= MAX_DIAGS) {
            (*dropped)++;
            continue;
        }
        cli_print_diag(&d);
        (*printed)++;
        *errors += d.severity == PW_SEV_ERROR;
        *warnings += d.severity == PW_SEV_WARNING;
    }
}

int mpi_report_diags(const mpi_world *w, const pw_dataset *ds, size_t n_open, size_t *errors,
                     size_t *warnings)
{
    int size;
    char *mine = serialize(ds, w->rank ? n_open : 0, &size);
    int *sizes = w->rank ? NULL : calloc((size_t)w->size, sizeof *sizes);
    int *displs = w->rank ? NULL : calloc((size_t)w->size, sizeof *displs);
    MPI_Gather(&size, 1, MPI_INT, sizes, 1, MPI_INT, 0, MPI_COMM_WORLD);
    char *all = NULL;
    size_t total = 0;
    if (!w->rank) {
        for (int r = 0; r < w->size; r++) {
            displs[r] = (int)total;
            total += (size_t)sizes[r];
        }
        all = malloc(total ? total : 1);
    }
    MPI_Gatherv(mine, size, MPI_CHAR, all, sizes, displs, MPI_CHAR, 0, MPI_COMM_WORLD);
    mpi_bytes_sent += w->rank ? (unsigned long long)size : 0;
    unsigned long long dropped = pw_dataset_diag_dropped(ds), all_dropped = 0;
    MPI_Reduce(&dropped, &all_dropped, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    int worst = pw_dataset_worst_severity(ds), all_worst = -1;
    MPI_Allreduce(&worst, &all_worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    *errors = *warnings = 0;
    if (!w->rank) {
        size_t printed = 0;
        uint64_t over = all_dropped;
        print_all(all, total, &printed, &over, errors, warnings);
        cli_print_dropped(over);
    }
    free(mine);
    free(all);
    free(sizes);
    free(displs);
    return all_worst >= PW_SEV_ERROR ? EXIT_DAMAGED : EXIT_OK;
}

unsigned long long mpi_bytes_sent;
double mpi_work_cpu_s;
static double work_started;

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void mpi_work_begin(void) { work_started = cpu_now(); }
void mpi_work_end(void) { mpi_work_cpu_s += cpu_now() - work_started; }

int mpi_max_code(int code)
{
    int max = code;
    MPI_Allreduce(&code, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return max;
}
