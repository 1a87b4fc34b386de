/* gpupower_energy.c — the tree as the energy analysis reads it
 * (model/energy_layout.h): each repetition directory a unit, named by its
 * experiment / benchmark / run / repetition, the run's setting from its
 * name; the power it measures in three streams (gpu-power.csv: power and
 * the NVML total-energy counter; power-external.csv: the meter's channels
 * summed, in the unit the option names; total_power_samples.csv); the
 * window and phases from timestamps.csv (issue #6: experiment, train,
 * epochs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/gpupower/gpupower.h"

/* The report's sources, in its order (issue #6).  The external meter's raw
 * cells are summed before scaling, as the tool's own analysis does; their
 * unit is the option's (set per dataset below). */
enum { SRC_GPU = 0, SRC_NVML, SRC_EXTERNAL, SRC_SAMPLES, N_SOURCES };
static const pw_energy_source gp_sources[N_SOURCES] = {
    [SRC_GPU] = {.name = "gpu", .field = "power", .primary = 1, .required = 1},
    [SRC_NVML] = {.name = "nvml_counter", .field = "total-energy", .counter = 1},
    [SRC_EXTERNAL] = {.name = "external", .field = "raw"},
    [SRC_SAMPLES] = {.name = "samples", .field = "value"},
};

static const pw_energy_phase_kind gp_phase_kinds[] = {{"train", 0}, {"epoch", 1}};

/* The file of location loc, or (when the file is missing) its path inside
 * the repetition, living with the dataset. */
static const char *rep_path(pw_dataset *ds, const gp_rep *rep, int32_t loc, const char *name)
{
    if (loc >= 0)
        return ds->locs[loc].file;
    char *p = gp_rep_file(rep, name);
    const char *kept = p ? pw_ds_strdup(ds, p) : NULL;
    free(p);
    return kept;
}

static int describe_settings(pw_dataset *ds, const gp_rep *rep, pw_energy_unit *u)
{
    pw_energy_setting *s = pw_ds_alloc(ds, 3 * sizeof *s);
    if (!s)
        return -1;
    size_t n = 0;
    if (rep->has_power_limit)
        s[n++] = (pw_energy_setting){"power_limit_w", rep->power_limit_w};
    if (rep->has_clocks) {
        s[n++] = (pw_energy_setting){"mem_clock_mhz", rep->mem_clock_mhz};
        s[n++] = (pw_energy_setting){"sm_clock_mhz", rep->sm_clock_mhz};
    }
    u->settings = s;
    u->n_settings = n;
    return 0;
}

/* gpu-power.csv always (its absence is a finding), the external meter when
 * its header was good, the total-power samples when present. */
static int describe_streams(pw_dataset *ds, const gp_rep *rep, pw_energy_unit *u)
{
    pw_energy_stream *st = pw_ds_alloc(ds, 3 * sizeof *st);
    if (!st)
        return -1;
    size_t n = 0;
    st[n++] = (pw_energy_stream){.file = rep_path(ds, rep, rep->gpu_loc, "gpu-power.csv"), .first_loc = rep->gpu_loc,
                                 .n_locs = 1, .required = 1, .first_source = SRC_GPU, .n_sources = 2};
    if (rep->external_ok)
        st[n++] = (pw_energy_stream){.file = rep_path(ds, rep, rep->external_loc, "power-external.csv"),
                                     .first_loc = rep->external_loc, .n_locs = rep->external_channels,
                                     .first_source = SRC_EXTERNAL, .n_sources = 1};
    if (rep->total_power_samples)
        st[n++] = (pw_energy_stream){.file = rep->total_power_samples, .first_loc = rep->samples_loc,
                                     .n_locs = 1, .first_source = SRC_SAMPLES, .n_sources = 1};
    for (size_t i = 0; i < n; i++)
        if (!st[i].file)
            return -1;
    u->streams = st;
    u->n_streams = n;
    return 0;
}

pw_status gp_energy_describe(pw_dataset *ds, gp_dataset *gd, pw_error *err)
{
    pw_energy_source *src = pw_ds_alloc(ds, sizeof gp_sources);
    pw_energy_unit *units = pw_ds_alloc(ds, (gd->n_reps ? gd->n_reps : 1) * sizeof *units);
    if (!src || !units)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    memcpy(src, gp_sources, sizeof gp_sources);
    src[SRC_EXTERNAL].unit = gd->external_unit;
    for (size_t i = 0; i < gd->n_reps; i++) {
        const gp_rep *rep = &gd->reps[i];
        pw_energy_unit *u = &units[i];
        *u = (pw_energy_unit){.experiment = rep->experiment, .benchmark = rep->benchmark, .run = rep->run,
                              .repetition = rep->repetition, .dir = rep->dir, .baseline = rep->baseline,
                              .baseline_group = rep->baseline_group, .phases_loc = rep->phases_loc,
                              .phases_file = rep_path(ds, rep, rep->phases_loc, "timestamps.csv")};
        if (!u->phases_file || describe_settings(ds, rep, u) != 0 || describe_streams(ds, rep, u) != 0)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    gd->energy = (pw_energy_layout){.sources = src, .n_sources = N_SOURCES, .units = units,
                                    .n_units = gd->n_reps, .window = "experiment",
                                    .phase_kinds = gp_phase_kinds,
                                    .n_phase_kinds = sizeof gp_phase_kinds / sizeof *gp_phase_kinds,
                                    .index_field = "data", .subtract_baseline = gd->subtract_baseline};
    ds->energy = &gd->energy;
    return PW_OK;
}
