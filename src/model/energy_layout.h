/* energy_layout.h — what a format tells the energy analysis about its power
 * measurements (src/analysis/energy/), as ds->mpi_profiles tells the MPI
 * profile: which locations are repetitions of a benchmark run, which of
 * their locations carry power (or an energy counter) in which field and
 * unit, and which records mark the measured window and its phases.  The
 * analysis reads the records through cursors of these locations; it never
 * knows the format.
 *
 * A benchmark campaign, as the analysis sees it: experiments hold
 * benchmarks, a benchmark runs at several settings (a run each), a run is
 * repeated.  `_baseline`-style idle repetitions give the idle power that
 * may be subtracted from the others. */
#ifndef PW_MODEL_ENERGY_LAYOUT_H
#define PW_MODEL_ENERGY_LAYOUT_H
#include <stdint.h>

#include "model/dataset.h"

/* One figure the records carry, a key of every energy object of the
 * report, in the layout's order. */
typedef struct pw_energy_source {
    const char *name;  /* the report's key ("gpu") */
    const char *field; /* the field of the stream's schema */
    /* The field's unit when its schema names none (a raw meter reading
     * whose unit is an option); NULL: the schema's.  W, mW, cW, kW for
     * power, J, mJ for counters. */
    const char *unit;
    int counter;  /* a running energy total: a window's energy is its difference */
    /* The source of the repetition's mean and peak power, EDP, and of the
     * comparisons between runs (one source). */
    int primary;
    int required; /* its absence from every record of a stream is a finding */
} pw_energy_source;

/* Records read in one pass: the values of `n_locs` consecutive locations
 * (the channels of one meter, whose files share rows) are summed row by
 * row into each of the sources [first_source, first_source + n_sources)
 * of the layout. */
typedef struct pw_energy_stream {
    const char *file;     /* where the records come from (for findings) */
    int32_t first_loc;    /* -1: the file is missing */
    uint32_t n_locs;
    int required;         /* a missing file is a finding */
    uint32_t first_source, n_sources;
} pw_energy_stream;

/* A named integer of a run's setting ("power_limit_w" = 150). */
typedef struct pw_energy_setting {
    const char *key;
    int64_t value;
} pw_energy_setting;

typedef struct pw_energy_unit {
    const char *experiment, *benchmark, *run, *repetition;
    const char *dir;            /* the repetition's directory: baselines nest by it */
    int baseline;               /* an idle repetition */
    const char *baseline_group; /* baseline: the directory its idle power covers */
    const pw_energy_setting *settings;
    size_t n_settings;
    int32_t phases_loc;         /* the window and phase marks, or -1 */
    const char *phases_file;    /* where they are (or were expected) */
    const pw_energy_stream *streams;
    size_t n_streams;
} pw_energy_unit;

/* The phases reported: spans of records of type `name` (BEGIN/END); an
 * indexed phase repeats, numbered by the field `index_field`. */
typedef struct pw_energy_phase_kind {
    const char *name;
    int indexed;
} pw_energy_phase_kind;

typedef struct pw_energy_layout {
    const pw_energy_source *sources;
    size_t n_sources;
    const pw_energy_unit *units; /* in tree order: a run's repetitions adjacent */
    size_t n_units;
    const char *window;          /* the span type of the measured window */
    const pw_energy_phase_kind *phase_kinds;
    size_t n_phase_kinds;
    const char *index_field;
    int subtract_baseline;       /* asked by the user */
} pw_energy_layout;

/* What the energy analysis hands a watcher (a charts sink, ds->run->energy_watch).
 * Repetitions are read in parallel: for each one that is not a baseline
 * and whose window is known, unit_begin is called on the worker reading
 * it, then sample for every reading of the primary source (in W, in file
 * order); its figures follow on the reporting thread, after any idle
 * power was subtracted, with what unit_begin returned (NULL for the
 * others), which the watcher frees. */
typedef struct pw_energy_span {
    const char *name; /* the phase kind */
    int64_t index, begin, end;
} pw_energy_span;

typedef struct pw_energy_figures {
    size_t unit;         /* index into the layout's units */
    int ok;              /* the window is known (else nothing below holds) */
    int64_t begin, end;  /* the window, ns */
    double duration_s;
    int has_primary;
    double primary_j;    /* the primary source's energy */
    const pw_energy_span *phases;
    size_t n_phases;
} pw_energy_figures;

typedef struct pw_energy_watch {
    void *(*unit_begin)(void *ctx, size_t unit, int64_t begin, int64_t end);
    void (*sample)(void *unit_state, int64_t t, double watts);
    void (*repetition)(void *ctx, const pw_energy_figures *f, void *unit_state);
    void *ctx;
} pw_energy_watch;
#endif
