/* diag_gather.c — diagnostics of all processes, joined on rank 0 in rank
 * order and printed there, at most as many as one process keeps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_mpi.h"

/* As a dataset keeps (PW_MAX_DIAGS, src/model/dataset.h; the program
 * sees only the public API): later findings are only counted. */
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

int mpi_report_diags(const mpi_world *w, const pw_dataset *ds, const mpi_opened *opened, size_t *errors,
                     size_t *warnings)
{
    int size;
    char *mine = serialize(ds, w->rank ? opened->diags : 0, &size);
    void *all = NULL;
    size_t *each = NULL, total = 0;
    int gathered = mpi_gather(w, 0, mine, (size_t)size, &all, &each);
    for (int r = 0; each && r < w->size; r++)
        total += each[r];
    unsigned long long dropped = pw_dataset_diag_dropped(ds) - (w->rank ? opened->dropped : 0), all_dropped = 0;
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
    free(each);
    if (!gathered && !w->rank)
        fprintf(stderr, "perfweave-mpi: the processes' findings do not fit one gather to rank 0 (memory)\n");
    if (!gathered)
        return EXIT_SYSTEM; /* findings were lost: the run is not the serial one */
    return all_worst >= PW_SEV_ERROR ? EXIT_DAMAGED : EXIT_OK;
}
