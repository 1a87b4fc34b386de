/* table.h — a report table declared as data: its name (the key of the
 * report's root that holds it), title, one-line description, default row
 * order and columns with their units.  Formats and analyses list their
 * declarations in their ops (pw_format_ops.tables, pw_analysis_ops.tables);
 * pw_stats hands them to the report, and every rendering (text, JSON, CSV,
 * the table listing, Python) reads units and titles from there. */
#ifndef PW_MODEL_TABLE_H
#define PW_MODEL_TABLE_H
#include <stddef.h>

#include "perfweave.h"

#define PW_TABLE_MAX_COLUMNS 24

/* A column.  unit is one of pw_table_units ("" for labels and ids); key
 * marks the columns that name a row (rank, function) rather than measure
 * it.  The name "*" stands for every column the data adds that no other
 * entry names (one per MPI function in a time profile), in that unit. */
typedef struct pw_table_column {
    const char *name;
    const char *unit;
    int key;
} pw_table_column;

typedef struct pw_table_decl {
    const char *name;
    const char *title;
    const char *description; /* one line */
    const char *order;       /* the rows' default order, in words */
    pw_table_column columns[PW_TABLE_MAX_COLUMNS]; /* ended by a NULL name */
} pw_table_decl;

/* Column `index` of the declaration `decl`, for the code that writes or
 * reads a table by its declaration's column enum (views/state_times.h)
 * rather than by a name spelt out again: renaming the enum fails the
 * build, and renaming the column's name renames it for every reader. */
#define PW_COLUMN(decl, index) ((decl).columns[(index)].name)
#define PW_COLUMN_UNIT(decl, index) ((decl).columns[(index)].unit)

/* The one vocabulary of units, NULL-ended. */
extern const char *const pw_table_units[];

/* Remembers the declarations of a NULL-ended list for r's tables (static
 * data: the report keeps the pointers).  0 when memory runs out. */
int pw_report_declare(pw_report *r, const pw_table_decl *const *decls);
/* Declares those of a NULL-ended list whose names the root holds and no
 * declaration names yet: an analysis's, once it has added its tables (two
 * analyses may both have a "summary"). */
int pw_report_declare_present(pw_report *r, const pw_table_decl *const *decls);
/* The declaration of the root's table `name`, or NULL. */
const pw_table_decl *pw_report_decl(const pw_report *r, const char *name);
/* The unit of `column` of a table declared d (d may be NULL): the
 * declared one, else one read from the name's suffix ("time_s": "s"). */
const char *pw_table_column_unit(const pw_table_decl *d, const char *column);
/* 1 when the declaration marks `column` as a key. */
int pw_table_column_key(const pw_table_decl *d, const char *column);
#endif
