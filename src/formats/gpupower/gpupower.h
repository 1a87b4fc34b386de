/* gpupower.h — the GPU power benchmark tree reader's shared state.
 *
 * A tree (gpu-power-data-model.rst, gpupower-facts.md) is
 * <data root>/<experiment>/<benchmark>/<run setting>/<repetition>/ with CSV
 * and JSON files in each repetition; `_baseline` directories hold idle
 * runs.  Each repetition becomes a location with children: the GPU
 * (gpu-power.csv), one meter location per power-external.csv channel, one
 * per *_samples.csv, and the phases (timestamps.csv) as spans. */
#ifndef PW_GPUPOWER_H
#define PW_GPUPOWER_H
#include <stdint.h>

#include "core/input.h"
#include "formats/gpupower/gpupower_table.h"
#include "formats/gpupower/gpupower_time.h"
#include "model/dataset.h"
#include "model/energy_layout.h"

/* The NVML sample files the tool writes (facts §3.5); others named
 * *_samples.csv are read with a generic schema. */
enum { GP_SAMPLES_TOTAL_POWER = 0, GP_SAMPLES_GPU_UTIL, GP_SAMPLES_MEM_UTIL, GP_SAMPLES_OTHER,
       GP_SAMPLE_KINDS };

/* What a location with records reads. */
typedef struct gp_locinfo {
    gp_file_kind kind;
    int32_t value;   /* external: channel (value index); samples: GP_SAMPLES_* */
    pw_input_id seen; /* the file's identity when the tree was opened */
} gp_locinfo;

/* One repetition directory. */
typedef struct gp_rep {
    const char *dir;
    const char *experiment, *benchmark, *run, *repetition;
    const char *baseline_group; /* baseline reps: the directory holding `_baseline` */
    int baseline;
    int has_power_limit, has_clocks; /* from the run name */
    int64_t power_limit_w, mem_clock_mhz, sm_clock_mhz;
    int32_t loc;                     /* the repetition's location */
    int32_t gpu_loc, phases_loc, samples_loc; /* their locations, or -1 */
    int32_t external_loc;            /* the first channel's location */
    uint32_t external_channels;
    int external_ok;                 /* power-external.csv has a good header */
    const char *total_power_samples; /* its path, or NULL (the samples energy source) */
} gp_rep;

typedef struct gp_dataset {
    gp_rep *reps;
    size_t n_reps, cap_reps;
    gp_locinfo *locinfo;  /* per location index */
    size_t cap_locinfo;
    gp_tz tz;
    const char *tz_text;
    double external_w_per_unit; /* cW: 0.01 */
    const char *external_unit;
    int subtract_baseline;
    pw_energy_layout energy;    /* what the energy analysis reads (gpupower_energy.c) */
    int32_t schema_gpu, schema_external, schema_samples[GP_SAMPLE_KINDS];
    int32_t schema_begin, schema_end, schema_event;
} gp_dataset;

/* gpupower_run_name.c: "150W" and "877MHz,1065MHz" (memory clock first). */
void gp_parse_run_name(const char *name, gp_rep *rep);

/* gpupower_locations.c: walks the tree from any level, fills reps and
 * locations.  The file names of a repetition. */
pw_status gp_layout_open(pw_dataset *ds, gp_dataset *gd, pw_error *err);
int gp_layout_probe(const char *path);
extern const char *const gp_sample_files[GP_SAMPLE_KINDS];
char *gp_rep_file(const gp_rep *rep, const char *name); /* malloc'd path */

/* gpupower_schemas.c */
pw_status gp_schemas_build(pw_dataset *ds, gp_dataset *gd, pw_error *err);

/* gpupower_cursor.c */
pw_status gp_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err);

/* gpupower_stats.c: the options the figures were read with. */
pw_status gp_stats(pw_dataset *ds, pw_report *r, pw_error *err);
/* The tables of its summary (gpupower_stats.c). */
extern const pw_table_decl *const gp_table_decls[];
/* gpupower_energy.c: the energy layout of the tree (gd->energy, ds->energy). */
pw_status gp_energy_describe(pw_dataset *ds, gp_dataset *gd, pw_error *err);
#endif
