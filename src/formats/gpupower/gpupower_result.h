/* gpupower_result.h — the figures of one repetition (what `stats` reports
 * per repetition and aggregates per run and per benchmark). */
#ifndef PW_GPUPOWER_RESULT_H
#define PW_GPUPOWER_RESULT_H
#include "formats/gpupower/gpupower.h"

/* Energy sources (issue #6): gpu-power.csv power, the NVML total-energy
 * counter, the external meter summed over channels, the ~50 Hz NVML power
 * samples. */
enum { GP_SRC_GPU = 0, GP_SRC_NVML, GP_SRC_EXTERNAL, GP_SRC_SAMPLES, GP_SOURCES };
extern const char *const gp_source_names[GP_SOURCES];

/* A phase window: train (index 0) or an epoch (its index). */
typedef struct gp_phase {
    const char *name;    /* "train" or "epoch" (static) */
    int64_t index;
    int64_t begin, end;  /* ns */
    double energy[GP_SOURCES];
} gp_phase;

typedef struct gp_result {
    int ok;               /* the experiment window is known */
    int64_t begin, end;   /* experiment_begin, experiment_end (ns) */
    double duration_s;
    int has[GP_SOURCES];
    double energy[GP_SOURCES];
    double peak_w;        /* gpu source */
    gp_phase *phases;
    size_t n_phases;
    double baseline_w[GP_SOURCES]; /* subtracted idle power, when asked */
    int baseline_applied;
} gp_result;

/* gpupower_repetition.c: reads one repetition's files into res. */
void gp_repetition_read(pw_dataset *ds, const gp_rep *rep, gp_result *res);
void gp_result_free(gp_result *res);

/* gpupower_baseline.c: subtracts each experiment's idle power (a warning
 * names repetitions that have no baseline). */
void gp_baseline_subtract(pw_dataset *ds, const gp_dataset *gd, gp_result *res);

/* gpupower_report.c: the report tree. */
void gp_report_fill(pw_dataset *ds, const gp_dataset *gd, const gp_result *res, pw_rnode *root);

/* gpupower_plot.c: SVG charts into gd->plot_dir. */
pw_status gp_plot_write(pw_dataset *ds, const gp_dataset *gd, const gp_result *res, pw_error *err);
#endif
