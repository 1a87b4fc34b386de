/* diff_table.h — a stats report seen as tables of keyed rows, what
 * pw_diff_reports matches between two reports. */
#ifndef PW_DRIVERS_DIFF_TABLE_H
#define PW_DRIVERS_DIFF_TABLE_H
#include <jansson.h>

#include "drivers/diff/diff_keys.h"

/* One table: rows flattened to one level (nested objects' members named
 * "outer.inner"), each split into its key columns (text, ranks, call
 * paths) and its numeric columns; identifiers and clocks left out.  `index` maps a row's match key (its key
 * columns as compact JSON, with "#n" for the n-th repeat) to its row. */
typedef struct diff_table {
    const char *name;
    json_t *keys;    /* array of objects: the key columns of each row */
    json_t *values;  /* array of objects: the numeric columns of each row */
    json_t *index;   /* object: match key -> row number */
    json_t *match;   /* array of strings: each row's match key */
} diff_table;

typedef struct diff_tables {
    diff_table *t;
    size_t n;
} diff_tables;

/* The tables of a report root: each array of objects, each object of
 * scalars (one row), and the root's own numbers (table "summary"); text
 * keys as they hold across runs (diff_keys.h), paths under dataset_path
 * relative to it.  0 when memory runs out. */
int diff_tables_of(const json_t *root, const char *dataset_path, diff_tables *out);
void diff_tables_free(diff_tables *ts);
/* The table named `name`, or NULL. */
const diff_table *diff_table_find(const diff_tables *ts, const char *name);
#endif
