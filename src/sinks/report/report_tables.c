/* report_tables.c — the list of a report's tables (stats --tables): name,
 * rows and description, or as JSON with title and columns (name, unit,
 * key), from the tables' declarations and what they hold. */
#include <string.h>

#include "core/error.h"
#include "report_table.h"
#include "sinks/report/report_render.h"

/* Its rows in long format (a one-row table too: one per item of a list). */
static size_t table_rows(const pw_report *r, json_t *v)
{
    if (!json_is_object(v))
        return report_rows_count(r, v);
    json_t *one = json_array();
    size_t n = one && json_array_append(one, v) == 0 ? report_rows_count(r, one) : 1;
    json_decref(one);
    return n;
}

static json_t *column_json(const pw_table_decl *d, const char *name)
{
    json_t *c = json_object();
    json_object_set_new(c, "name", json_string(name));
    json_object_set_new(c, "unit", json_string(pw_table_column_unit(d, name)));
    json_object_set_new(c, "key", json_boolean(pw_table_column_key(d, name)));
    return c;
}

/* The columns a table holds; an empty one, those it declares. */
static json_t *columns_json(const pw_report *r, const pw_table_decl *d, json_t *v)
{
    json_t *cols = json_array(), *one = json_is_object(v) ? json_array() : json_incref(v);
    if (json_is_object(v))
        json_array_append(one, v);
    report_table t;
    if (report_table_columns(r, one, &t) && t.n) {
        for (size_t c = 0; c < t.n; c++)
            json_array_append_new(cols, column_json(d, t.columns[c]));
    } else {
        for (size_t c = 0; d && c < PW_TABLE_MAX_COLUMNS && d->columns[c].name; c++)
            if (strcmp(d->columns[c].name, "*"))
                json_array_append_new(cols, column_json(d, d->columns[c].name));
    }
    report_table_free(&t);
    json_decref(one);
    return cols;
}

static json_t *tables_json(const pw_report *r)
{
    json_t *list = json_array();
    for (size_t i = 0; list && i < pw_report_table_count(r); i++) {
        const char *name = pw_report_table_name(r, i);
        const pw_table_decl *d = pw_report_decl(r, name);
        json_t *v = json_object_get(r->root, name), *o = json_object();
        json_object_set_new(o, "name", json_string(name));
        json_object_set_new(o, "title", json_string(d ? d->title : name));
        json_object_set_new(o, "description", json_string(d ? d->description : ""));
        json_object_set_new(o, "rows", json_integer((json_int_t)table_rows(r, v)));
        json_object_set_new(o, "columns", columns_json(r, d, v));
        json_array_append_new(list, o);
    }
    return list;
}

static void tables_text(const pw_report *r, FILE *out)
{
    size_t w = strlen("table");
    for (size_t i = 0; i < pw_report_table_count(r); i++)
        if (strlen(pw_report_table_name(r, i)) > w)
            w = strlen(pw_report_table_name(r, i));
    fprintf(out, "%-*s  %8s  %s\n", (int)w, "table", "rows", "description");
    for (size_t i = 0; i < pw_report_table_count(r); i++) {
        const char *name = pw_report_table_name(r, i);
        const pw_table_decl *d = pw_report_decl(r, name);
        fprintf(out, "%-*s  %8zu  %s\n", (int)w, name, table_rows(r, json_object_get(r->root, name)),
                d ? d->description : "");
    }
}

pw_status pw_report_write_tables(const pw_report *r, FILE *out, int json, pw_error *err)
{
    if (json) {
        json_t *list = tables_json(r);
        pw_status s = list ? report_json_whole(list, out) : PW_E_NOMEM;
        json_decref(list);
        if (s == PW_E_NOMEM)
            return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory while listing the tables");
    } else {
        tables_text(r, out);
    }
    if (ferror(out) || fflush(out) != 0)
        return pw_fail_errno(err, "<output>", "cannot write the list of tables");
    return PW_OK;
}
