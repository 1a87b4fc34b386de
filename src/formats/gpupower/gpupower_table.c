/* gpupower_table.c — headers by name, rows to numbers, bad rows reported. */
#include "formats/gpupower/gpupower_table.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Per file, bad rows beyond this are counted, not listed. */
#define GP_DIAGS_PER_FILE 10

const char *const gp_gpu_metric_names[GP_GPU_METRICS] = {
    "clock-mem", "clock-gpu", "app-clock-mem", "app-clock-gpu", "enforced-power-limit",
    "total-energy", "power-state", "power", "tmp", "pci-tx", "pci-rx", "util-gpu", "util-mem"};

static const char *const kind_file[] = {"gpu-power.csv", "power-external.csv", "*_samples.csv",
                                        "timestamps.csv"};

static int cell_is(const gp_cell *c, const char *name)
{
    return c->n == strlen(name) && !memcmp(c->p, name, c->n);
}

/* A cell as printable text for messages (at most 40 bytes shown). */
static const char *shown(const gp_cell *c, char *buf, size_t cap)
{
    size_t n = c->n < 40 ? c->n : 40, o = 0;
    for (size_t i = 0; i < n && o + 1 < cap; i++)
        buf[o++] = c->p[i] >= 0x20 && c->p[i] < 0x7f ? c->p[i] : '?';
    buf[o] = '\0';
    if (c->n > 40 && o + 4 < cap)
        strcpy(buf + o, "...");
    return buf;
}

/* "d{dev}c{ch}" -> dev, ch; 0 or -1. */
static int channel_name(const gp_cell *c, int32_t *dev, int32_t *ch)
{
    const char *p = c->p, *end = c->p + c->n;
    if (p == end || *p++ != 'd')
        return -1;
    int32_t a = 0, b = 0;
    const char *s = p;
    for (; p < end && (unsigned)(*p - '0') < 10 && p - s < 6; p++)
        a = a * 10 + (*p - '0');
    if (p == s || p == end || *p++ != 'c')
        return -1;
    s = p;
    for (; p < end && (unsigned)(*p - '0') < 10 && p - s < 6; p++)
        b = b * 10 + (*p - '0');
    if (p == s || p != end)
        return -1;
    *dev = a;
    *ch = b;
    return 0;
}

/* The role of one header cell for this kind of file. */
static int column_role(gp_table *t, const gp_cell *c, size_t col)
{
    if (cell_is(c, "timestamp"))
        return GP_COL_TIME;
    if (col == 0 && c->n == 0)
        return GP_COL_IGNORED; /* pandas' unnamed index (facts §3.1, §3.5) */
    switch (t->kind) {
    case GP_FILE_GPU:
        for (int i = 0; i < GP_GPU_METRICS; i++)
            if (cell_is(c, gp_gpu_metric_names[i]))
                return i;
        break;
    case GP_FILE_EXTERNAL: {
        int32_t dev, ch;
        if (channel_name(c, &dev, &ch) == 0) {
            t->channel_dev[t->n_values] = dev;
            t->channel_ch[t->n_values] = ch;
            return (int)t->n_values++;
        }
        break;
    }
    case GP_FILE_SAMPLES:
        if (cell_is(c, "value"))
            return 0;
        break;
    case GP_FILE_TIMESTAMPS:
        if (cell_is(c, "event"))
            return GP_COL_EVENT;
        if (cell_is(c, "data"))
            return GP_COL_DATA;
        break;
    }
    return GP_COL_IGNORED;
}

/* Reads the header line and maps columns to roles. */
static pw_status read_header(gp_table *t, pw_error *err)
{
    const char *path = t->csv.w.path;
    pw_status s = gp_csv_next_line(&t->csv, err);
    if (s == PW_END)
        return pw_fail(err, PW_E_DATA, path, 0, "empty file: a header line of %s expected",
                       kind_file[t->kind]);
    if (s != PW_OK)
        return s;
    /* A UTF-8 byte order mark (spreadsheet tools write one) is not a name. */
    if (t->csv.len >= 3 && !memcmp(t->csv.line, "\xef\xbb\xbf", 3)) {
        t->csv.line += 3;
        t->csv.len -= 3;
    }
    size_t n = gp_csv_split(&t->csv);
    if (!n)
        return pw_fail(err, PW_E_DATA, path, 0, "line 1: more than %d columns", GP_MAX_CELLS);
    t->n_cols = n;
    t->n_values = t->kind == GP_FILE_GPU ? GP_GPU_METRICS : t->kind == GP_FILE_SAMPLES ? 1 : 0;
    int seen_time = 0, seen_event = 0;
    for (size_t i = 0; i < n; i++) {
        int role = column_role(t, &t->csv.cells[i], i);
        t->col_role[i] = (int16_t)role;
        seen_time += role == GP_COL_TIME;
        seen_event += role == GP_COL_EVENT;
        if (role >= 0) {
            if (t->has_value[role]) {
                char b[64];
                return pw_fail(err, PW_E_DATA, path, 0, "line 1: column '%s' appears twice",
                               shown(&t->csv.cells[i], b, sizeof b));
            }
            t->has_value[role] = 1;
        }
    }
    if (seen_time != 1)
        return pw_fail(err, PW_E_DATA, path, 0,
                       "line 1: one 'timestamp' column expected in the header of %s, found %d",
                       kind_file[t->kind], seen_time);
    if (t->kind == GP_FILE_TIMESTAMPS && seen_event != 1)
        return pw_fail(err, PW_E_DATA, path, 0, "line 1: an 'event' column expected");
    if (t->kind == GP_FILE_EXTERNAL && !t->n_values)
        return pw_fail(err, PW_E_DATA, path, 0,
                       "line 1: no d{device}c{channel} power columns in the header");
    if (t->kind == GP_FILE_SAMPLES && !t->has_value[0])
        return pw_fail(err, PW_E_DATA, path, 0, "line 1: a 'value' column expected");
    return PW_OK;
}

pw_status gp_table_open(gp_table *t, pw_dataset *ds, const char *path, gp_file_kind kind,
                        const gp_tz *tz, size_t window, pw_error *err)
{
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->ds = ds;
    t->tz = tz;
    pw_status s = gp_csv_open(&t->csv, path, window, ds ? &ds->progress_done : NULL, err);
    if (s == PW_OK)
        s = read_header(t, err);
    return s;
}

void gp_table_close(gp_table *t) { gp_csv_close(&t->csv); }

/* Reports one bad row (the first few per file; the rest are counted). */
static void bad_row(gp_table *t, const char *fmt, ...) PW_PRINTF(2, 3);
static void bad_row(gp_table *t, const char *fmt, ...)
{
    if (!t->bad_rows) {
        t->first_bad_off = t->csv.line_off;
        t->first_bad_line = t->csv.line_no;
    }
    if (t->bad_rows++ >= GP_DIAGS_PER_FILE || !t->ds || t->quiet)
        return;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    pw_ds_diag(t->ds, PW_SEV_ERROR, "gpupower.bad-row", t->csv.w.path, (int64_t)t->csv.line_off,
               "line %llu: %s; row skipped", (unsigned long long)t->csv.line_no, what);
}

/* The time cell: ISO text, or integer microseconds in *_samples.csv. */
static int parse_time_cell(gp_table *t, const gp_cell *c)
{
    if (t->kind != GP_FILE_SAMPLES)
        return gp_parse_time(c->p, c->n, t->tz, &t->tcache, &t->t);
    int64_t us;
    if (gp_parse_int(c->p, c->n, &us) != 0 || us < 0 || us > INT64_MAX / 1000)
        return -1;
    t->t = us * 1000;
    return 0;
}

/* One cell into its role; 0, or -1 when the row is bad (reported). */
static int parse_cell(gp_table *t, size_t col, const gp_cell *c)
{
    char b1[64], b2[64];
    int role = t->col_role[col];
    if (role == GP_COL_IGNORED)
        return 0;
    if (role == GP_COL_TIME) {
        if (parse_time_cell(t, c) == 0)
            return 0;
        bad_row(t, "bad timestamp '%s' (%s expected)", shown(c, b1, sizeof b1),
                t->kind == GP_FILE_SAMPLES ? "integer microseconds since the epoch"
                                           : "YYYY-MM-DD HH:MM:SS[.ffffff][zone]");
        return -1;
    }
    if (role == GP_COL_EVENT) {
        t->event = c->p;
        t->event_len = c->n;
        if (c->n)
            return 0;
        bad_row(t, "empty event name");
        return -1;
    }
    if (role == GP_COL_DATA) {
        t->has_data = c->n != 0;
        if (!c->n || gp_parse_int(c->p, c->n, &t->data) == 0)
            return 0;
        bad_row(t, "event data '%s' is not an integer", shown(c, b1, sizeof b1));
        return -1;
    }
    if (!c->n) {
        t->v[role] = NAN; /* pandas writes a missing value as an empty cell */
        return 0;
    }
    if (gp_parse_double(c->p, c->n, &t->v[role]) == 0)
        return 0;
    if (t->kind == GP_FILE_GPU)
        snprintf(b2, sizeof b2, "'%s'", gp_gpu_metric_names[role]);
    else
        snprintf(b2, sizeof b2, "%zu", col + 1);
    bad_row(t, "'%s' is not a number (column %s)", shown(c, b1, sizeof b1), b2);
    return -1;
}

static void note_bad_total(gp_table *t)
{
    if (t->bad_rows > GP_DIAGS_PER_FILE && t->ds && !t->quiet)
        pw_ds_diag(t->ds, PW_SEV_ERROR, "gpupower.bad-row", t->csv.w.path, (int64_t)t->first_bad_off,
                   "line %llu: the first of %llu malformed rows in all, all skipped",
                   (unsigned long long)t->first_bad_line, (unsigned long long)t->bad_rows);
}

/* The previous row's time lies after this row's and after the rows
 * before it: it is the damaged one (readers of the time series drop it,
 * see gp_integral_add). */
static void note_outlier(gp_table *t)
{
    t->bad_rows++;
    if (t->ds && !t->quiet && t->bad_rows <= GP_DIAGS_PER_FILE)
        pw_ds_diag(t->ds, PW_SEV_ERROR, "gpupower.bad-row", t->csv.w.path, (int64_t)t->last_off,
                   "line %llu: time later than the next row's (line %llu); the row is out of place",
                   (unsigned long long)t->last_line, (unsigned long long)t->csv.line_no);
    t->last_t = t->before_last_t;
}

/* The cell that starts at p: up to the next comma or the line's end. */
static gp_cell cell_at(const char *p, const char *end)
{
    const char *q = p;
    while (q < end && *q != ',')
        q++;
    return (gp_cell){p, (uint32_t)(q - p)};
}

/* One pass over the row: value cells are parsed where they start (the
 * number must end at the comma), other cells are delimited first.  0, or
 * -1 when the row is bad (reported). */
static int parse_row(gp_table *t)
{
    const char *p = t->csv.line, *end = p + t->csv.len;
    t->has_data = 0;
    for (size_t col = 0; col < t->n_cols; col++) {
        int role = t->col_role[col];
        if (role >= 0 && p < end && *p != ',') {
            const char *q = gp_scan_double(p, end, &t->v[role]);
            if (!q || (q < end && *q != ',')) {
                gp_cell c = cell_at(p, end);
                return parse_cell(t, col, &c); /* reports the bad number */
            }
            p = q;
        } else {
            gp_cell c = cell_at(p, end);
            if (parse_cell(t, col, &c) != 0)
                return -1;
            p += c.n;
        }
        if (col + 1 < t->n_cols && p < end)
            p++; /* the comma */
        else if (col + 1 < t->n_cols || p < end)
            break;
        else
            return 0;
    }
    gp_csv_split(&t->csv);
    bad_row(t, "%zu columns expected (as in the header), found %zu", t->n_cols, t->csv.n_cells);
    return -1;
}

pw_status gp_table_next(gp_table *t, pw_error *err)
{
    for (;;) {
        pw_status s = gp_csv_next_line(&t->csv, err);
        if (s == PW_END)
            note_bad_total(t);
        if (s != PW_OK)
            return s;
        if (!t->csv.len)
            continue; /* a blank line (the end of a hand-edited file) */
        if (parse_row(t) != 0)
            continue;
        /* Rows are written as time goes on; one from the past is damage,
         * unless it is not earlier than the row before the previous: then
         * the previous row was the one out of place (a time in the future
         * must not make every later row look damaged). */
        if (t->rows && t->t < t->last_t) {
            if (t->rows < 2 || t->t < t->before_last_t) {
                bad_row(t, "time earlier than the previous row's");
                continue;
            }
            note_outlier(t);
        }
        t->rows++;
        t->before_last_t = t->last_t;
        t->last_t = t->t;
        t->last_off = t->csv.line_off;
        t->last_line = t->csv.line_no;
        return PW_OK;
    }
}
