/* report.h — the report tree, its streamed arrays and its renderers. */
#ifndef PW_MODEL_REPORT_H
#define PW_MODEL_REPORT_H
#include <jansson.h>

#include "perfweave.h"

/* A streamed array (pw_report_stream).  Its rows are held one at a time in
 * `pending`; a finished row goes to the output at once (JSON) or to `spool`
 * (text and CSV, whose tables need every row to lay out columns). */
typedef struct report_stream {
    pw_report *report;
    json_t *pending;     /* detached array holding the unfinished row, if any */
    json_t *placeholder; /* text/CSV: the empty array standing for it in the tree */
    FILE *spool;         /* text/CSV: finished rows, one compact JSON value a line */
    size_t rows;
    size_t long_rows;    /* the rows in long format (report_long.h) */
    int all_objects;     /* every row is an object (it renders as a table) */
    int open;            /* still taking rows */
} report_stream;

/* A renderer that writes streamed rows as they come, set by the report
 * sink that opened the report (src/sinks/report/); without one, rows of a
 * streamed array wait in a spool until the report is rendered. */
typedef struct report_live_ops {
    /* Writes the root's members so far, then opens the array `key`; 0 on failure. */
    int (*start)(pw_report *r, const char *key);
    void (*row)(pw_report *r, report_stream *st, json_t *row);
    void (*end)(pw_report *r, report_stream *st);
} report_live_ops;

struct pw_report {
    json_t *root;
    FILE *out;             /* opened reports: rendered while filled */
    pw_report_style style;
    const report_live_ops *live; /* opened reports whose sink streams rows */
    int opened;
    int json_started;      /* JSON: the root's "{" and some members are out */
    int io_failed;
    report_stream **streams;
    size_t n_streams;
    size_t top_rows;        /* text: rows shown per table (0: all) */
    size_t width;           /* text: characters per table line (0: any) */
    char *only_table;       /* text and CSV: the one table shown, or NULL */
    const struct pw_table_decl **decls; /* what pw_report_declare was given */
    size_t n_decls;
};

json_t *pw_report_json(const pw_report *r);
/* Non-zero when an add failed for want of memory since pw_report_new. */
int pw_report_nomem(void);
void pw_report_set_nomem(void);

/* report_stream.c: called by every add before it attaches `child` to
 * `parent`.  Renders the pending row when a new row arrives, and closes the
 * open stream when its report's root gains another member. */
void report_stream_before_add(json_t *parent);
/* The stream a text/CSV placeholder stands for, or NULL. */
const report_stream *report_stream_of(const pw_report *r, const json_t *arr);
/* Ends the stream of r that is taking rows, if any. */
void report_stream_close_open(pw_report *r);
void report_stream_free_all(pw_report *r);
#endif
