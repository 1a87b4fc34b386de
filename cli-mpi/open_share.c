/* open_share.c — the dataset opened in two steps (pw_open_share): each
 * process reads in full only its share's files (DUMPI: the rank files'
 * headers are read by all, the record streams by their share), then
 * every process hands every other what its files hold that the open
 * needs (pw_dataset_share_found, joined on every process), so that all
 * end with the locations and opening findings perfweave's open gives. */
#include <stdio.h>
#include <stdlib.h>

#include "cli_mpi.h"

unsigned long long mpi_open_bytes;

/* Every process's findings to every process, then the open's end;
 * returns this process's status. */
static pw_status complete_share(const mpi_world *w, pw_dataset *ds, pw_error *err)
{
    void *found = NULL, *all = NULL;
    size_t size = 0, *each = NULL;
    pw_status s = pw_dataset_share_found(ds, &found, &size, err);
    int failed = mpi_max_code(s != PW_OK); /* every process takes part in the gather, or none */
    const void **parts = calloc((size_t)w->size, sizeof *parts);
    if (!parts) { /* the others are in the gather already */
        fprintf(stderr, "perfweave-mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    }
    if (!failed && !mpi_gather(w, 1, found, size, &all, &each)) {
        s = PW_E_NOMEM;
        *err = (pw_error){.status = PW_E_NOMEM, .message = "out of memory"};
    }
    for (size_t r = 0, at = 0; all && r < (size_t)w->size; at += each[r++])
        parts[r] = (const char *)all + at;
    if (all)
        s = pw_dataset_share_complete(ds, parts, each, (size_t)w->size, err);
    free(found);
    free(all);
    free(each);
    free(parts);
    return s;
}

/* pw_open_share, the exchange, then what cli_open does after opening. */
static pw_dataset *open_share(const mpi_world *w, cli_args *a, int *code, int *opened)
{
    pw_dataset *ds = NULL;
    pw_error err;
    pw_status s = pw_open_share(a->path, &a->opt, (unsigned)w->rank, (unsigned)w->size, &ds, &err);
    if (s != PW_OK)
        *code = cli_fail(&err);
    *opened = s == PW_OK;
    if (mpi_max_code(s != PW_OK)) { /* one could not open: none exchanges */
        pw_close(ds);
        return NULL;
    }
    if ((s = complete_share(w, ds, &err)) != PW_OK) {
        *code = cli_fail(&err);
        *opened = 0;
    }
    if (mpi_max_code(s != PW_OK)) {
        pw_close(ds);
        return NULL;
    }
    mpi_open_bytes = pw_dataset_open_bytes(ds);
    cli_warn_foreign_options(a, ds);
    if ((*code = cli_apply_filter(a, ds)) != 0) {
        *opened = 0;
        pw_close(ds);
        return NULL;
    }
    return ds;
}

pw_dataset *mpi_open_share(const mpi_world *w, cli_args *a, int *code)
{
    return mpi_open_with(w, a, code, open_share);
}
