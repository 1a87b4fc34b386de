/* report_text.c — reports for people: "key: value" lines, and aligned
 * tables for arrays of objects, section by section. */
#include <stdlib.h>
#include <string.h>

#include "sinks/report/report_render.h"
#include "report_table.h"

/* A table with right-aligned numbers and left-aligned text. */
/* Each column as wide as its header and its widest cell. */
static void column_widths(const pw_report *rep, json_t *arr, const report_table *t, size_t *w)
{
    char buf[64];
    for (size_t c = 0; c < t->n; c++)
        w[c] = strlen(t->columns[c]);
    report_rows it;
    report_rows_start(&it, rep, arr);
    for (json_t *row; (row = report_rows_next(&it));)
        for (size_t c = 0; c < t->n; c++) {
            size_t l = strlen(report_scalar_text(report_table_cell(row, t->columns[c]), buf, sizeof buf, 0));
            if (l > w[c])
                w[c] = l;
        }
    report_rows_end(&it);
}

static void text_table(const pw_report *rep, FILE *out, json_t *arr)
{
    report_table t;
    if (!report_table_columns(rep, arr, &t)) {
        report_table_free(&t);
        return;
    }
    size_t *w = calloc(t.n ? t.n : 1, sizeof *w);
    if (!w) {
        report_table_free(&t);
        return;
    }
    char buf[64];
    column_widths(rep, arr, &t, w);
    for (size_t c = 0; c < t.n; c++)
        fprintf(out, "%s%-*s", c ? "  " : "  ", (int)w[c], t.columns[c]);
    fputc('\n', out);
    report_rows it;
    report_rows_start(&it, rep, arr);
    for (json_t *row; (row = report_rows_next(&it));) {
        for (size_t c = 0; c < t.n; c++) {
            json_t *v = report_table_cell(row, t.columns[c]);
            const char *s = report_scalar_text(v, buf, sizeof buf, 0);
            int num = json_is_number(v);
            fprintf(out, "  %*s", num ? (int)w[c] : -(int)w[c], s);
        }
        fputc('\n', out);
    }
    report_rows_end(&it);
    free(w);
    report_table_free(&t);
}

static void text_section(const pw_report *rep, FILE *out, json_t *obj, const char *title, int depth);

/* Scalars first (aligned "key: value"), then sub-sections and tables. */
static void text_object(const pw_report *rep, FILE *out, json_t *obj, const char *path, int depth)
{
    const char *k;
    json_t *v;
    size_t kw = 0;
    json_object_foreach(obj, k, v) if (!json_is_object(v) && !report_is_table(rep, v) && strlen(k) > kw)
        kw = strlen(k);
    char buf[64];
    json_object_foreach(obj, k, v)
    {
        if (json_is_object(v) || report_is_table(rep, v))
            continue;
        fprintf(out, "%*s%-*s  ", depth * 2, "", (int)kw + 1, k);
        if (json_is_array(v)) {
            report_rows it;
            report_rows_start(&it, rep, v);
            json_t *item;
            for (size_t i = 0; (item = report_rows_next(&it)); i++)
                fprintf(out, "%s%s", i ? ", " : "", report_scalar_text(item, buf, sizeof buf, 0));
            report_rows_end(&it);
            fputc('\n', out);
        } else {
            fprintf(out, "%s\n", report_scalar_text(v, buf, sizeof buf, 0));
        }
    }
    json_object_foreach(obj, k, v)
    {
        char sub[512];
        snprintf(sub, sizeof sub, "%s%s%s", path, *path ? " / " : "", k);
        if (json_is_object(v))
            text_section(rep, out, v, sub, depth);
        else if (report_is_table(rep, v)) {
            fprintf(out, "\n%s (%zu)\n", sub, report_rows_count(rep, v));
            text_table(rep, out, v);
        }
    }
}

static void text_section(const pw_report *rep, FILE *out, json_t *obj, const char *title, int depth)
{
    fprintf(out, "\n%s\n", title);
    text_object(rep, out, obj, title, depth + 1);
}

pw_status pw_report_write_text(const pw_report *rep, FILE *out)
{
    text_object(rep, out, rep->root, "", 0);
    return ferror(out) ? PW_E_IO : PW_OK;
}
