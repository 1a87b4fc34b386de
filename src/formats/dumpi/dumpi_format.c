/* dumpi_format.c — the SST DUMPI entry of the format registry. */
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "formats/dumpi/dumpi_profile.h"

/* One schema per label, so that a record's schema index is its label. */
static pw_status add_schemas(pw_dataset *ds, pw_error *err)
{
    for (int l = 0; l < DUMPI_N_LABELS; l++) {
        const dumpi_function *fn = &dumpi_functions[l];
        if (pw_ds_add_schema(ds, fn->name, "MPI call (entry and exit)", PW_REC_SPAN, fn->fields,
                             DUMPI_PREFIX_FIELDS + (size_t)fn->n_args) != l)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
        pw_ds_schema_mpi_fields(ds, l, fn->mpi_fields);
    }
    return PW_OK;
}

/* The library version from the first rank with a header. */
static pw_status set_version(pw_dataset *ds, const dumpi_dataset *dd, pw_error *err)
{
    for (size_t i = 0; i < dd->n_ranks; i++) {
        const dumpi_rank *r = &dd->ranks[i];
        if (r->has_header) {
            char v[48];
            snprintf(v, sizeof v, "%d.%d.%d", r->version[0], r->version[1], r->version[2]);
            return pw_ds_set_version(ds, v, err);
        }
    }
    return pw_ds_set_version(ds, "unknown", err);
}

static pw_status dumpi_open(pw_dataset *ds, pw_error *err)
{
    dumpi_dataset *dd = calloc(1, sizeof *dd);
    if (!dd)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    ds->impl = dd;
    pw_status s = add_schemas(ds, err);
    if (s == PW_OK)
        s = dumpi_layout_open(ds, dd, err);
    if (s == PW_OK)
        s = set_version(ds, dd, err);
    ds->own_subtree = 1; /* time_ordered: dumpi_layout_finish */
    return s;
}

static void dumpi_close(pw_dataset *ds)
{
    dumpi_dataset *dd = ds->impl;
    if (!dd)
        return;
    for (size_t i = 0; i < dd->n_ranks; i++) {
        dumpi_rankfile_free(&dd->ranks[i]);
        free(dd->ranks[i].records_of);
        if (dd->profiles)
            pw_mpi_rank_profile_free(&dd->profiles[i]);
    }
    free(dd->profiles);
    free(dd->uses);
    free(dd->ranks);
    free(dd);
    ds->impl = NULL;
}

static const pw_format_option dumpi_options[] = {
    {"bins", "bins", "N", "stats: time bins of the MPI time profile (default 50)"},
    {"waits", "waits", NULL, "convert: MPI wait states as slices inside their calls (Perfetto, Chrome)"},
    {"profile_only", "profile-only", NULL, "stats: the mpiP-style profile only, without the MPI wait analyses"},
    {NULL, NULL, NULL, NULL},
};

const pw_format_ops pw_format_dumpi = {
    .name = "dumpi",
    .description = "SST DUMPI MPI traces (.meta + one .bin per rank; libdumpi 0.6 - 13)",
    .probe = dumpi_probe_path,
    .open = dumpi_open,
    .cursor_open = dumpi_cursor_open,
    .check = dumpi_check,
    .close = dumpi_close,
    .share_found = dumpi_share_found,
    .share_complete = dumpi_share_complete,
    .options = dumpi_options,
    .analyses = (const char *const[]){"mpi_profile", "mpi_waits", NULL},
    .summary_by_analyses = 1, /* the MPI profile (dumpi_profile.c) */
};
