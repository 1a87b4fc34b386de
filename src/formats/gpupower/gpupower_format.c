/* gpupower_format.c — the gpupower entry of the format registry and its
 * options. */
#include <stdlib.h>
#include <string.h>

#include "formats/gpupower/gpupower.h"

static const pw_format_option gp_options[] = {
    {"external_unit", "external-unit", "mW|cW|W",
     "unit of power-external.csv values (default cW, as the tool's own analysis reads them)"},
    {"tz", "tz", "ZONE",
     "zone of timestamps without one: local (default), UTC, +HH:MM"},
    {"subtract_baseline", "subtract-baseline", NULL,
     "subtract the idle power of the experiment's _baseline runs from energies"},
    /* Read by `stats` (the charts sink, src/sinks/plot/), not by the format. */
    {"plot", "plot", "DIR", "stats also writes SVG charts (power over time, energy vs time) to DIR"},
    {NULL, NULL, NULL, NULL},
};

static int gp_probe(const char *path) { return gp_layout_probe(path); }

/* Reads the options into gd; PW_E_USAGE for values it does not know. */
static pw_status read_options(pw_dataset *ds, gp_dataset *gd, pw_error *err)
{
    const char *unit = pw_ds_option(ds, "external_unit");
    gd->external_unit = unit ? unit : "cW";
    if (!strcmp(gd->external_unit, "cW"))
        gd->external_w_per_unit = 0.01;
    else if (!strcmp(gd->external_unit, "mW"))
        gd->external_w_per_unit = 0.001;
    else if (!strcmp(gd->external_unit, "W"))
        gd->external_w_per_unit = 1.0;
    else
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET,
                       "--external-unit wants mW, cW or W, not '%s'", gd->external_unit);
    const char *tz = pw_ds_option(ds, "tz");
    gd->tz_text = tz ? tz : "local";
    if (gp_tz_parse(gd->tz_text, &gd->tz) != 0)
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET,
                       "--tz wants local, UTC or an offset such as +01:00, not '%s'", gd->tz_text);
    const char *sub = pw_ds_option(ds, "subtract_baseline");
    gd->subtract_baseline = sub && strcmp(sub, "0");
    return PW_OK;
}

static pw_status gp_open(pw_dataset *ds, pw_error *err)
{
    gp_dataset *gd = calloc(1, sizeof *gd);
    if (!gd)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    ds->impl = gd;
    pw_status s = read_options(ds, gd, err);
    if (s == PW_OK)
        s = gp_schemas_build(ds, gd, err);
    if (s == PW_OK)
        s = gp_layout_open(ds, gd, err);
    if (s == PW_OK)
        s = gp_energy_describe(ds, gd, err);
    return s;
}

static void gp_close(pw_dataset *ds)
{
    gp_dataset *gd = ds->impl;
    if (!gd)
        return;
    free(gd->reps);
    free(gd->locinfo);
    free(gd);
    ds->impl = NULL;
}

const pw_format_ops pw_format_gpupower = {
    .name = "gpupower",
    .description = "GPU power benchmark trees (gpyjoules: gpu-power.csv, power-external.csv, ...)",
    .probe = gp_probe,
    .open = gp_open,
    .cursor_open = gp_cursor_open,
    .stats = gp_stats,
    .check = NULL,
    .close = gp_close,
    .options = gp_options,
    .tables = gp_table_decls,
    .analyses = (const char *const[]){"energy", NULL},
};
