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
/* Frees the phases; the repetition's own figures stay for the aggregates. */
void gp_result_free(gp_result *res);

/* gpupower_stats.c: repetitions items[0 .. n) read into res in parallel;
 * the stats report of res, which holds every repetition already. */
void gp_read_repetitions(pw_dataset *ds, gp_result *res, const size_t *items, size_t n);
pw_status gp_stats_report(pw_dataset *ds, gp_result *res, pw_report *r, pw_error *err);

/* gpupower_baseline.c: each experiment's idle power (from its `_baseline`
 * repetitions, read first), subtracted repetition by repetition;
 * gp_baselines_end warns about the repetitions that had none. */
typedef struct gp_baselines gp_baselines;
gp_baselines *gp_baselines_new(const gp_dataset *gd, const gp_result *res);
void gp_baselines_apply(gp_baselines *b, const gp_rep *rep, gp_result *res);
void gp_baselines_end(gp_baselines *b, pw_dataset *ds);

/* gpupower_report.c: the report, streamed: the summary, then each
 * repetition as it is read (phases included), then the runs, benchmarks
 * and baselines from the figures every repetition keeps. */
void gp_report_begin(pw_dataset *ds, const gp_dataset *gd, pw_rnode *root);
void gp_report_repetition(pw_rnode *rows, const gp_rep *rep, const gp_result *r);
void gp_report_end(const gp_dataset *gd, const gp_result *res, pw_rnode *root);

/* gpupower_plot.c: SVG charts into gd->plot_dir, a power chart per
 * repetition while its phases are known, the energy/time charts at the end. */
typedef struct gp_plotter gp_plotter;
pw_status gp_plot_begin(const gp_dataset *gd, gp_plotter **out, pw_error *err);
void gp_plot_repetition(gp_plotter *p, pw_dataset *ds, const gp_dataset *gd, size_t i, const gp_result *r);
void gp_plot_end(gp_plotter *p, pw_dataset *ds, const gp_dataset *gd, const gp_result *res);
#endif
