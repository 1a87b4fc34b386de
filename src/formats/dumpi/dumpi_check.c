/* dumpi_check.c — what `check` verifies across the files of a trace,
 * beyond reading every record: each rank's header agrees with the .meta
 * file (library version, start time) that every rank wrote. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "formats/dumpi/dumpi.h"

/* The .meta value of key as a number, or -1 when absent. */
static long long meta_number(const pw_dataset *ds, const char *key)
{
    const char *v = pw_dataset_prop_get(ds, key);
    return v ? strtoll(v, NULL, 10) : -1;
}

pw_status dumpi_check(pw_dataset *ds, pw_error *err)
{
    (void)err;
    const dumpi_dataset *dd = ds->impl;
    long long version[3] = {meta_number(ds, "version"), meta_number(ds, "subversion"),
                            meta_number(ds, "subsubversion")};
    long long start = meta_number(ds, "startime"); /* sic: the tracer's spelling */
    for (size_t i = 0; i < dd->n_ranks; i++) {
        const dumpi_rank *r = &dd->ranks[i];
        if (!r->has_header)
            continue;
        if (version[0] >= 0 && (r->version[0] != version[0] || r->version[1] != version[1] ||
                                r->version[2] != version[2]))
            pw_ds_diag(ds, PW_SEV_ERROR, "dumpi.version-mismatch", r->file, (int64_t)r->off_header,
                       "header version %d.%d.%d differs from the .meta file's %lld.%lld.%lld", r->version[0],
                       r->version[1], r->version[2], version[0], version[1], version[2]);
        if (start >= 0 && (long long)r->starttime != start)
            pw_ds_diag(ds, PW_SEV_ERROR, "dumpi.starttime-mismatch", r->file, (int64_t)r->off_header + 3,
                       "header start time %llu differs from the .meta file's %lld",
                       (unsigned long long)r->starttime, start);
    }
    return PW_OK;
}
