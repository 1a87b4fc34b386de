/* table_columns.h — the columns of a record type's table, shared by the
 * CSV and SQLite writers: "loc" (location index), "t" (ns, or virtual
 * time), "type" (the record's type name), SQLite's "t_end" and "dur" for
 * spans, then one column per schema
 * field, under its own name unless that collides with the first three. */
#ifndef PW_SINKS_CONVERT_TABLE_COLUMNS_H
#define PW_SINKS_CONVERT_TABLE_COLUMNS_H
#include <stdio.h>
#include <string.h>

#include "model/dataset.h"

/* The column name of field f: its name, or "f_<name>" on a collision
 * (with SQLite's span columns "t_end" and "dur" too). */
static inline const char *pw_column_name(const pw_field *f, char *buf, size_t n)
{
    if (strcmp(f->name, "loc") && strcmp(f->name, "t") && strcmp(f->name, "type") && strcmp(f->name, "t_end") &&
        strcmp(f->name, "dur"))
        return f->name;
    snprintf(buf, n, "f_%s", f->name);
    return buf;
}
/* The table (or file) name of every schema: its name, unless an earlier
 * schema's name equals it but for case (SQL and some file systems ignore
 * case: ovni's "MUt" and "MUT"; two schemas may also share a name, like a
 * span's begin and end); then name + "_" + the schema's index.  A malloc'd
 * array (names live with ds); NULL when memory runs out. */
const char **pw_table_names(pw_dataset *ds);
#endif
