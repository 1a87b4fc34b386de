/* report_long.h — report rows in long format: a row holding a list (in
 * itself or in a nested object) is one row per item of it, the item in
 * the list's place (a scalar, or an object whose members become dotted
 * columns; an empty list, one row with null there), exploded in turn.
 * Every rendering of a table (text, CSV, the table listing) and Python's
 * table() show these rows; JSON keeps the lists. */
#ifndef PW_MODEL_REPORT_LONG_H
#define PW_MODEL_REPORT_LONG_H
#include <jansson.h>
#include <stddef.h>

/* 1 when row is an object holding a list. */
int report_row_has_list(json_t *row);
/* Appends row's long-format rows to out (row itself when it holds no
 * list, else new copies).  0 when out of memory. */
int report_long_rows(json_t *row, json_t *out);
/* How many long-format rows row is (1 when out of memory). */
size_t report_long_count(json_t *row);
#endif
