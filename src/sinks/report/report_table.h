/* report_table.h — an array of objects seen as a table: the columns are
 * the union of the (flattened) keys of its rows.  Shared by the text and
 * CSV renderers. */
#ifndef PW_SINKS_REPORT_TABLE_H
#define PW_SINKS_REPORT_TABLE_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

typedef struct report_table {
    char **columns; /* "energy_j.gpu" for nested objects */
    size_t n;
} report_table;

#include "model/report.h"
#include "model/table.h"

/* The rows of an array of the tree: its items, or for the placeholder of
 * a streamed array, the rows waiting in its temporary file; in long
 * format: a row holding a list is one row per item of it (the item in the
 * list's place: a scalar, or an object whose members become dotted
 * columns; an empty list, one row with null there), so every renderer
 * shows what lists hold and no cell is a list.  A streamed table's rows
 * are counted as streamed (they hold no lists). */
typedef struct report_rows {
    json_t *arr;
    const report_stream *stream;
    size_t next;
    json_t *row;  /* the row read from the stream, owned */
    char *line;
    size_t cap;
    json_t *long_rows; /* the long-format rows of the last row read */
    size_t next_long;
} report_rows;

void report_rows_start(report_rows *it, const pw_report *r, json_t *arr);
/* The next row (valid until the next call), or NULL at the end. */
json_t *report_rows_next(report_rows *it);
void report_rows_end(report_rows *it);
size_t report_rows_count(const pw_report *r, json_t *arr);

/* 1 when arr is a non-empty array whose items are all objects. */
int report_is_table(const pw_report *r, json_t *arr);
/* Collects the columns of a table: scalar members and members of nested
 * objects (dotted); nested arrays are not columns.  0 when out of memory. */
int report_table_columns(const pw_report *r, json_t *arr, report_table *t);
void report_table_free(report_table *t);
/* The value of a dotted column in row, or NULL. */
json_t *report_table_cell(json_t *row, const char *column);
/* Scalar as text, the way a person reads it (reals with 6 significant
 * digits), or precise (reals in the shortest text that reads back exact).  buf must hold 64 bytes for numbers. */
const char *report_scalar_text(json_t *v, char *buf, size_t n, int precise);
#endif
