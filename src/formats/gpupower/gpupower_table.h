/* gpupower_table.h — one gpupower CSV file read as a table: the header
 * names the columns (read by name, never by position: gpupower-facts.md
 * §3.1-3.3), each row becomes a time and a vector of values.  Malformed
 * rows are reported with file:line and skipped. */
#ifndef PW_GPUPOWER_TABLE_H
#define PW_GPUPOWER_TABLE_H
#include "formats/gpupower/gpupower_csv.h"
#include "formats/gpupower/gpupower_time.h"
#include "model/dataset.h"

typedef enum gp_file_kind {
    GP_FILE_GPU = 0,    /* gpu-power.csv */
    GP_FILE_EXTERNAL,   /* power-external.csv */
    GP_FILE_SAMPLES,    /* *_samples.csv */
    GP_FILE_TIMESTAMPS  /* timestamps.csv */
} gp_file_kind;

/* The metric columns of gpu-power.csv, in the order the tool writes them
 * (facts §3.2).  A table's values[] holds them in this order. */
enum {
    GP_CLOCK_MEM = 0, GP_CLOCK_GPU, GP_APP_CLOCK_MEM, GP_APP_CLOCK_GPU, GP_POWER_LIMIT,
    GP_TOTAL_ENERGY, GP_POWER_STATE, GP_POWER, GP_TMP, GP_PCI_TX, GP_PCI_RX, GP_UTIL_GPU,
    GP_UTIL_MEM, GP_GPU_METRICS
};
extern const char *const gp_gpu_metric_names[GP_GPU_METRICS];

/* Column roles besides values. */
#define GP_COL_IGNORED (-1)
#define GP_COL_TIME (-2)
#define GP_COL_EVENT (-3)
#define GP_COL_DATA (-4)

typedef struct gp_table {
    gp_csv csv;
    gp_file_kind kind;
    pw_dataset *ds;          /* diagnostics go here */
    int quiet;               /* bad rows are skipped without a diagnostic */
    const gp_tz *tz;
    gp_time_cache tcache;
    size_t n_cols;
    int16_t col_role[GP_MAX_CELLS]; /* value index, or a GP_COL_* role */
    size_t n_values;         /* GPU: GP_GPU_METRICS; external: channels; samples: 1 */
    int has_value[GP_MAX_CELLS]; /* the header has this value's column */
    int32_t channel_dev[GP_MAX_CELLS]; /* external: value i is d{dev}c{ch} */
    int32_t channel_ch[GP_MAX_CELLS];
    /* the current row */
    int64_t t;                 /* ns since the epoch */
    double v[GP_MAX_CELLS];    /* NaN where the cell is empty */
    const char *event;         /* timestamps.csv */
    size_t event_len;
    int64_t data;
    int has_data;
    uint64_t rows;             /* good rows so far */
    int64_t last_t;            /* the previous good row's time */
    int64_t before_last_t;     /* the one before it */
    uint64_t last_off, last_line; /* where the previous good row is */
    uint64_t bad_rows;
    uint64_t first_bad_off, first_bad_line;
} gp_table;

/* Opens `path` with a window of `window` bytes (GP_WINDOW_*) and reads its
 * header.  PW_E_DATA (err set) when the file is empty or the header lacks a
 * column the kind needs.  Progress is counted on ds (when not NULL). */
pw_status gp_table_open(gp_table *t, pw_dataset *ds, const char *path, gp_file_kind kind,
                        const gp_tz *tz, size_t window, pw_error *err);
/* The next good row: PW_OK, PW_END, or an error from reading. */
pw_status gp_table_next(gp_table *t, pw_error *err);
void gp_table_close(gp_table *t);
#endif
