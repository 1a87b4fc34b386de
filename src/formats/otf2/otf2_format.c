/* otf2_format.c — the OTF2 entry of the format registry: an archive is
 * its anchor file (traces.otf2) or the directory holding one; open reads
 * the global definitions and builds the locations and schemas. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/otf2/otf2.h"
#include "formats/otf2/otf2_power_track.h"

/* The anchor of `path`: itself, or DIR/traces.otf2 (malloc'd). */
static char *anchor_of(const char *path)
{
    struct stat st;
    size_t n = strlen(path);
    char *a = malloc(n + 16);
    if (!a)
        return NULL;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(a, n + 16, "%s/traces.otf2", path);
    else
        memcpy(a, path, n + 1);
    return a;
}

/* An anchor file starts with a length byte and "OTF2" (libotf2's magic).
 * Only a regular file is opened: opening a FIFO would wait for a writer. */
static int ot_probe(const char *path)
{
    char *a = anchor_of(path);
    struct stat st;
    FILE *f = a && stat(a, &st) == 0 && S_ISREG(st.st_mode) ? fopen(a, "rb") : NULL;
    free(a);
    if (!f)
        return 0;
    unsigned char head[8] = {0};
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return got >= 6 && !memcmp(head + 2, "OTF2", 4) ? 100 : 0;
}

static pw_status set_props(pw_dataset *ds, ot_dataset *od, OTF2_Reader *rd, pw_error *err)
{
    char *creator = NULL;
    uint8_t major = 0, minor = 0, bugfix = 0;
    OTF2_Reader_GetCreator(rd, &creator);
    OTF2_Reader_GetVersion(rd, &major, &minor, &bugfix);
    char version[32];
    snprintf(version, sizeof version, "%u.%u.%u", major, minor, bugfix);
    pw_status st = pw_ds_set_version(ds, version, err);
    if (st == PW_OK && creator)
        st = pw_ds_set_prop(ds, "otf2.creator", creator, err);
    free(creator);
    if (st == PW_OK)
        st = pw_ds_set_propf(ds, err, "otf2.timer_resolution", "%" PRIu64, od->resolution);
    if (st == PW_OK)
        st = pw_ds_set_propf(ds, err, "otf2.global_offset", "%" PRIu64, od->offset);
    if (st == PW_OK)
        st = pw_ds_set_propf(ds, err, "otf2.trace_length_ns", "%" PRId64, ot_ns(od, od->offset + od->length));
    if (st == PW_OK)
        st = pw_ds_set_propf(ds, err, "otf2.locations", "%" PRIu32, od->n_locs);
    if (st == PW_OK)
        st = pw_ds_set_propf(ds, err, "otf2.regions", "%" PRIu32, od->regions.n);
    return st;
}

/* A location whose event file is missing is a finding; its cursor fails. */
static void note_missing_files(pw_dataset *ds)
{
    uint64_t total = 0;
    for (size_t i = 0; i < ds->n_locs; i++) {
        struct stat st;
        const char *f = ds->locs[i].file;
        if (!f)
            continue;
        if (stat(f, &st) != 0)
            pw_ds_diag(ds, PW_SEV_ERROR, "otf2.missing-event-file", f, -1,
                       "the event file of location %" PRId64 " expected, none found", ds->locs[i].id);
        else
            total += (uint64_t)st.st_size;
    }
    ds->progress_total = total;
}

static pw_status ot_open(pw_dataset *ds, pw_error *err)
{
    ot_dataset *od = calloc(1, sizeof *od);
    if (!od)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    ds->impl = od;
    od->anchor = anchor_of(ds->path);
    if (!od->anchor)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    OTF2_Reader *rd = ot_reader_open(od->anchor, err);
    if (!rd)
        return PW_E_DATA;
    pw_status st = ot_read_global_defs(ds, od, rd, err);
    if (st == PW_OK)
        st = set_props(ds, od, rd, err);
    OTF2_Reader_Close(rd);
    if (st == PW_OK)
        st = ot_locations_build(ds, od, err);
    if (st == PW_OK)
        st = ot_schemas_build(ds, od, err);
    if (st == PW_OK)
        st = ot_mpi_profiles_offer(ds, od, err);
    if (st == PW_OK)
        st = ot_calls_offer(ds, od, err);
    if (st == PW_OK)
        st = ot_power_track_offer(ds, od, err);
    if (st == PW_OK)
        note_missing_files(ds);
    return st;
}

static void ot_close(pw_dataset *ds)
{
    ot_dataset *od = ds->impl;
    if (!od)
        return;
    ot_calls_free(od);
    ot_power_track_free(od);
    ot_mpi_profiles_free(od);
    ot_tables_free(od);
    free(od->anchor);
    free(od);
    ds->impl = NULL;
}

/* The options of the MPI analyses, which archives with MPI ranks feed,
 * and which metrics hold power for energy_by_region. */
static const pw_format_option ot_options[] = {
    {"bins", "bins", "N", "stats: time bins of the MPI time profile (default 50)"},
    {"waits", "waits", NULL, "convert: MPI wait states as slices inside their calls (Perfetto, Chrome)"},
    {"profile_only", "profile-only", NULL, "stats: the mpiP-style profile only, without the MPI wait analyses"},
    {"power", "otf2-power", "METRIC:UNIT[,...]",
     "metrics (globs on their names) that hold power (W, mW, uW) or energy (J, mJ, uJ) whatever their unit says"},
    {NULL, NULL, NULL, NULL},
};

const pw_format_ops pw_format_otf2 = {
    .name = "otf2",
    .description = "OTF2 archives (Score-P, EZTrace, APEX) through libotf2",
    .probe = ot_probe,
    .open = ot_open,
    .cursor_open = ot_cursor_open,
    .stats = ot_stats,
    .stats_filtered = 1,
    .tables = ot_table_decls,
    .check = ot_check,
    .close = ot_close,
    .options = ot_options,
};
