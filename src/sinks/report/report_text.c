/* report_text.c — reports for people: "key: value" lines, and aligned
 * tables for arrays of objects, section by section. */
#include <stdlib.h>
#include <string.h>

#include "model/report.h"
#include "report_table.h"

/* A table with right-aligned numbers and left-aligned text. */
static void text_table(FILE *out, json_t *arr)
{
    report_table t;
    if (!report_table_columns(arr, &t)) {
        report_table_free(&t);
        return;
    }
    size_t rows = json_array_size(arr);
    size_t *w = calloc(t.n ? t.n : 1, sizeof *w);
    if (!w) {
        report_table_free(&t);
        return;
    }
    char buf[64];
    for (size_t c = 0; c < t.n; c++) {
        w[c] = strlen(t.columns[c]);
        for (size_t r = 0; r < rows; r++) {
            size_t l = strlen(report_scalar_text(report_table_cell(json_array_get(arr, r), t.columns[c]),
                                                 buf, sizeof buf, 0));
            if (l > w[c])
                w[c] = l;
        }
    }
    for (size_t c = 0; c < t.n; c++)
        fprintf(out, "%s%-*s", c ? "  " : "  ", (int)w[c], t.columns[c]);
    fputc('\n', out);
    for (size_t r = 0; r < rows; r++) {
        json_t *row = json_array_get(arr, r);
        for (size_t c = 0; c < t.n; c++) {
            json_t *v = report_table_cell(row, t.columns[c]);
            const char *s = report_scalar_text(v, buf, sizeof buf, 0);
            int num = json_is_number(v);
            fprintf(out, "  %*s", num ? (int)w[c] : -(int)w[c], s);
        }
        fputc('\n', out);
    }
    free(w);
    report_table_free(&t);
}

static void text_section(FILE *out, json_t *obj, const char *title, int depth);

/* Scalars first (aligned "key: value"), then sub-sections and tables. */
static void text_object(FILE *out, json_t *obj, const char *path, int depth)
{
    const char *k;
    json_t *v;
    size_t kw = 0;
    json_object_foreach(obj, k, v) if (!json_is_object(v) && !report_is_table(v) && strlen(k) > kw)
        kw = strlen(k);
    char buf[64];
    json_object_foreach(obj, k, v)
    {
        if (json_is_object(v) || report_is_table(v))
            continue;
        fprintf(out, "%*s%-*s  ", depth * 2, "", (int)kw + 1, k);
        if (json_is_array(v)) {
            size_t i;
            json_t *it;
            json_array_foreach(v, i, it) fprintf(out, "%s%s", i ? ", " : "",
                                                 report_scalar_text(it, buf, sizeof buf, 0));
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
            text_section(out, v, sub, depth);
        else if (report_is_table(v)) {
            fprintf(out, "\n%s (%zu)\n", sub, json_array_size(v));
            text_table(out, v);
        }
    }
}

static void text_section(FILE *out, json_t *obj, const char *title, int depth)
{
    fprintf(out, "\n%s\n", title);
    text_object(out, obj, title, depth + 1);
}

pw_status pw_report_write_text(json_t *root, FILE *out)
{
    text_object(out, root, "", 0);
    return ferror(out) ? PW_E_IO : PW_OK;
}
