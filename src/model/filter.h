/* filter.h — a dataset's filter once resolved (pw_dataset_filter): what
 * cursors test every record against, and the window sinks clip spans to. */
#ifndef PW_MODEL_FILTER_H
#define PW_MODEL_FILTER_H
#include "model/dataset.h"

/* The time window in force, in the dataset's clocks, for sinks that clip
 * spans to it: ns bounds (has_ns) and virtual-time bounds (has_vt).  An
 * open side is INT64_MIN / INT64_MAX (or -/+infinity). */
typedef struct pw_time_window {
    int has_ns;
    int64_t start_ns, end_ns;
    int has_vt;
    double start_vt, end_vt;
} pw_time_window;

typedef struct pw_filter_state {
    int has_window;
    pw_time_window win;
    uint8_t *loc_keep;     /* per location; NULL: every location */
    size_t n_types;        /* type globs; 0: every type */
    const char **types;
    int8_t *schema_keep;   /* per schema: its name matches a type glob */
    int stop_at_end;       /* the format is time ordered: stop past the window */
    /* What analyses read (pw_cursor_open_history): every record of every
     * location before the window's end; NULL when the window has no end
     * (analyses then read everything, unfiltered). */
    struct pw_filter_state *history;
    /* Per location: it had records before the location filter left it
     * out (own_subtree formats), so that analyses still read it; NULL:
     * none was left out. */
    uint8_t *had_records;
} pw_filter_state;

/* The one rule for filters: a filter selects what is REPORTED, never what
 * an analysis SEES.  Readers of records for output (dump, convert, the
 * format's counts) open cursors and merges as usual and get only what the
 * filter keeps.  Analyses, which need history (an emulator's state, MPI
 * matching, integration), read through pw_cursor_open_history /
 * pw_merge_open_history: every record before the window's end, of every
 * type and location (with a time-ordered format nothing after the end is
 * read), or, when they need the run's end too (the MPI critical path is
 * walked back from it), pw_cursor_open_whole_run; then they clip what they
 * report with the selection below.  No analysis tests ds->filter itself. */

/* Does location loc have records an analysis reads: its own, or those the
 * location filter left out of the report? */
int pw_ds_history_has_records(const pw_dataset *ds, uint32_t loc);

/* The report window [start_ns, end_ns) when one is set with an ns clock
 * (0: none, report everything).  A format's summary that reads its files
 * past the cursors tests a record with pw_filter_keeps_record (ROSS's,
 * on the virtual clock). */
int pw_selection_window_ns(const pw_dataset *ds, int64_t *start_ns, int64_t *end_ns);
/* Is location loc (or an ancestor) selected for the report? */
int pw_selection_keeps_location(const pw_dataset *ds, uint32_t loc);
/* Is a row or record of this type name selected for the report? */
int pw_selection_keeps_type(const pw_dataset *ds, const char *type);

/* Does ds's filter keep rec (1 when no filter is set)?  For a format's
 * own summary that reads its files past the cursors. */
int pw_filter_keeps_record(const pw_dataset *ds, const pw_record *rec);

/* When a window is set on ds and the span rec reaches outside it: *clipped
 * becomes rec with its begin and end moved into the window, and 1 is
 * returned; else 0. */
int pw_window_clip(const pw_dataset *ds, const pw_record *rec, pw_record *clipped);
#endif
