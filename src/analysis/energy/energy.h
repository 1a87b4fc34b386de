/* energy.h — the energy analysis's figures of one repetition (what `stats`
 * reports per repetition and aggregates per run and per benchmark), from
 * the layout a format describes (model/energy_layout.h). */
#ifndef PW_ANALYSIS_ENERGY_H
#define PW_ANALYSIS_ENERGY_H
#include "model/energy_layout.h"

/* Most sources a layout may have. */
#define ENERGY_MAX_SOURCES 8

/* A phase window: an unindexed phase (index 0) or one of an indexed kind. */
typedef struct energy_phase {
    const char *name; /* the phase kind's name */
    int64_t index;
    int64_t begin, end; /* ns */
    double energy[ENERGY_MAX_SOURCES];
} energy_phase;

typedef struct energy_result {
    int ok;             /* the measured window is known */
    int64_t begin, end; /* ns */
    double duration_s;
    int has[ENERGY_MAX_SOURCES];
    double energy[ENERGY_MAX_SOURCES];
    double peak_w;      /* of the primary source */
    energy_phase *phases;
    size_t n_phases;
    double baseline_w[ENERGY_MAX_SOURCES]; /* subtracted idle power, when asked */
    int baseline_applied;
    void *watched; /* the watcher's state of this repetition (ds->run->energy_watch) */
} energy_result;

/* The analysis's state over one stats run. */
typedef struct energy_run {
    pw_dataset *ds;
    const pw_energy_layout *lay;
    int primary;          /* the primary source, or -1 */
    const char *codes[9]; /* the format's finding codes (energy_codes) */
} energy_run;

/* Finding codes: the format's name, then the kind of finding. */
enum { CODE_NO_WINDOW_FILE = 0, CODE_NO_WINDOW, CODE_OPEN_PHASE, CODE_BAD_HEADER, CODE_UNREADABLE,
       CODE_PARTIAL, CODE_NO_FILE, CODE_NO_FIELD, CODE_NO_BASELINE };

/* energy_repetition.c: reads the records of repetition i (a unit of the
 * layout) into res. */
void energy_repetition_read(const energy_run *run, size_t i, energy_result *res);
/* Frees the phases; the repetition's own figures stay for the aggregates. */
void energy_result_free(energy_result *res);

/* energy_selection.c: cuts a read repetition's window and phases to the
 * report's window, or (0) marks it unreported: outside the window, or none
 * of its locations selected.  Baselines stay whole.  Returns res->ok. */
int energy_select_repetition(const energy_run *run, const pw_energy_unit *u, energy_result *res);

/* energy_baseline.c: each experiment's idle power (from its baseline
 * repetitions, read first), subtracted repetition by repetition;
 * energy_baselines_end warns about the repetitions that had none. */
typedef struct energy_baselines energy_baselines;
energy_baselines *energy_baselines_new(const energy_run *run, const energy_result *res);
void energy_baselines_apply(energy_baselines *b, const energy_run *run, const pw_energy_unit *u,
                            energy_result *res);
void energy_baselines_end(energy_baselines *b, const energy_run *run);

/* energy_report.c: each repetition as it is read, then the phases of
 * them all, the runs, benchmarks and baselines from the figures every
 * repetition keeps. */
void energy_report_repetition(pw_rnode *rows, const energy_run *run, const pw_energy_unit *u,
                              const energy_result *r);
void energy_report_end(const energy_run *run, const energy_result *res, pw_rnode *root);
/* The table "phases": every reported repetition's phases, then freed. */

/* energy_stats.c: the report of every repetition. */
pw_status energy_report(pw_dataset *ds, pw_report *r, pw_error *err);
/* What the report and the parts (energy_part.c) share: the run's
 * constants; the baseline (or the other) repetitions' indices in order;
 * how many repetitions to read at once; repetitions items[0..n) read in
 * parallel into res[item]; and one read repetition's baseline subtracted,
 * its row reported, its figures handed to a watcher, its phases freed. */
pw_status energy_run_init(energy_run *run, pw_dataset *ds, pw_error *err);
size_t energy_select_units(const pw_energy_layout *lay, int baseline, size_t *items);
size_t energy_batch(const energy_run *run, size_t n);
void energy_read_units(const energy_run *run, energy_result *res, const size_t *items, size_t n);
void energy_report_read(const energy_run *run, size_t i, energy_result *res, energy_baselines *base, pw_rnode *rows);

/* energy_part.c: the repetitions of a share as a part, and the report of
 * the parts of every share (analysis.h: part/join). */
pw_status energy_part(pw_dataset *ds, void **part, size_t *size, pw_error *err);
pw_status energy_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n, pw_report *r,
                      pw_error *err);
/* The tables of the analysis (energy_report.c). */
extern const pw_table_decl *const energy_table_decls[];
#endif
