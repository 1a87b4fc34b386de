/* report_csv.c — reports for machines: each array of objects becomes one
 * CSV table, introduced by a "# <path>" line, its rows in long format (a
 * table nested in a row is one row per its rows, report_rows).  Top-level
 * scalars come first as a key,value table. */
#include <string.h>

#include "sinks/report/report_render.h"
#include "report_table.h"

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void csv_table(const pw_report *rep, FILE *out, json_t *arr, const char *path)
{
    report_table t;
    if (!report_table_columns(rep, arr, &t)) {
        report_table_free(&t);
        return;
    }
    char buf[64];
    fprintf(out, "# %s\n", path);
    for (size_t c = 0; c < t.n; c++) {
        if (c)
            fputc(',', out);
        csv_field(out, t.columns[c]);
    }
    fputc('\n', out);
    report_rows it;
    report_rows_start(&it, rep, arr);
    for (json_t *row; (row = report_rows_next(&it));) {
        for (size_t c = 0; c < t.n; c++) {
            if (c)
                fputc(',', out);
            csv_field(out, report_scalar_text(report_table_cell(row, t.columns[c]), buf, sizeof buf, 1));
        }
        fputc('\n', out);
    }
    report_rows_end(&it);
    fputc('\n', out);
    report_table_free(&t);
}

/* An empty table of the root: its name, and the columns it declares. */
static void csv_empty_table(const pw_report *rep, FILE *out, const char *name)
{
    const pw_table_decl *d = pw_report_decl(rep, name);
    fprintf(out, "# %s\n", name);
    for (size_t c = 0, n = 0; d && c < PW_TABLE_MAX_COLUMNS && d->columns[c].name; c++) {
        if (strcmp(d->columns[c].name, "*")) {
            fputs(n++ ? "," : "", out);
            csv_field(out, d->columns[c].name);
        }
    }
    fputs("\n\n", out);
}

/* A table of the root held as an object: one row of its scalars (and of
 * its nested objects' scalars, dotted), then its nested tables.  0 when
 * it has no scalars (only nested tables). */
static int csv_object_table(const pw_report *rep, FILE *out, json_t *obj, const char *name)
{
    json_t *one = json_array();
    int shown = 0;
    if (one && json_array_append(one, obj) == 0) {
        report_table t;
        shown = report_table_columns(rep, one, &t) && t.n;
        report_table_free(&t);
        if (shown)
            csv_table(rep, out, one, name);
    }
    json_decref(one);
    return shown;
}

static int csv_wanted(const pw_report *rep, const char *key, const char *path)
{
    return !rep->only_table || !strcmp(rep->only_table, key) || !strcmp(rep->only_table, path);
}

static void csv_tables(const pw_report *rep, FILE *out, json_t *node, const char *path)
{
    const char *k;
    json_t *v;
    int top = node == rep->root;
    json_object_foreach(node, k, v)
    {
        char sub[512];
        snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", k);
        if (report_is_table(rep, v) && csv_wanted(rep, k, sub)) {
            csv_table(rep, out, v, sub);
        } else if (top && json_is_array(v) && report_rows_count(rep, v) == 0 && csv_wanted(rep, k, sub)) {
            csv_empty_table(rep, out, k);
        } else if (json_is_object(v) && !(top && csv_wanted(rep, k, sub) && csv_object_table(rep, out, v, sub))) {
            csv_tables(rep, out, v, sub);
        }
    }
}

pw_status pw_report_write_csv(const pw_report *rep, FILE *out)
{
    json_t *root = rep->root;
    const char *k;
    json_t *v;
    int any = 0;
    char buf[64];
    json_object_foreach(root, k, v)
    {
        if (json_is_object(v) || json_is_array(v))
            continue;
        if (!any++)
            fputs("# summary\nkey,value\n", out);
        csv_field(out, k);
        fputc(',', out);
        csv_field(out, report_scalar_text(v, buf, sizeof buf, 1));
        fputc('\n', out);
    }
    if (any)
        fputc('\n', out);
    csv_tables(rep, out, root, "");
    return ferror(out) ? PW_E_IO : PW_OK;
}
