/* report_csv.c — reports for machines: each array of objects becomes one
 * CSV table, introduced by a "# <path>" line; tables nested inside rows get
 * a leading "<parent>_index" column naming their row.  Top-level scalars
 * come first as a key,value table. */
#include <string.h>

#include "model/report.h"
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

static void csv_tables(const pw_report *rep, FILE *out, json_t *node, const char *path,
                       const char *parent_col, long parent_row);

static void csv_table(const pw_report *rep, FILE *out, json_t *arr, const char *path,
                      const char *parent_col, long parent_row)
{
    report_table t;
    if (!report_table_columns(rep, arr, &t)) {
        report_table_free(&t);
        return;
    }
    char buf[64];
    fprintf(out, "# %s\n", path);
    if (parent_col)
        fprintf(out, "%s_index%s", parent_col, t.n ? "," : "");
    for (size_t c = 0; c < t.n; c++) {
        if (c)
            fputc(',', out);
        csv_field(out, t.columns[c]);
    }
    fputc('\n', out);
    report_rows it;
    report_rows_start(&it, rep, arr);
    for (json_t *row; (row = report_rows_next(&it));) {
        if (parent_col)
            fprintf(out, "%ld%s", parent_row, t.n ? "," : "");
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
    /* Tables inside rows: one section per row that has them. */
    report_rows_start(&it, rep, arr);
    json_t *row;
    for (long r = 0; (row = report_rows_next(&it)); r++)
        csv_tables(rep, out, row, path, path, r);
    report_rows_end(&it);
}

static void csv_tables(const pw_report *rep, FILE *out, json_t *node, const char *path,
                       const char *parent_col, long parent_row)
{
    const char *k;
    json_t *v;
    json_object_foreach(node, k, v)
    {
        char sub[512];
        snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", k);
        if (report_is_table(rep, v) && (!rep->only_table || !strcmp(rep->only_table, k) ||
                                        !strcmp(rep->only_table, sub)))
            csv_table(rep, out, v, sub, parent_col, parent_row);
        else if (json_is_object(v))
            csv_tables(rep, out, v, sub, parent_col, parent_row);
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
    csv_tables(rep, out, root, "", NULL, 0);
    return ferror(out) ? PW_E_IO : PW_OK;
}
