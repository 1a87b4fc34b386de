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
} pw_filter_state;

/* Does ds's filter keep rec (1 when no filter is set)?  For a format's
 * own summary that reads its files past the cursors. */
int pw_filter_keeps_record(const pw_dataset *ds, const pw_record *rec);

/* When a window is set on ds and the span rec reaches outside it: *clipped
 * becomes rec with its begin and end moved into the window, and 1 is
 * returned; else 0. */
int pw_window_clip(const pw_dataset *ds, const pw_record *rec, pw_record *clipped);
#endif
