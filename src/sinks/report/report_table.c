/* report_table.c — tables out of arrays of objects. */
#include "report_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/f64_text.h"
#include "model/report_long.h"

void report_rows_start(report_rows *it, const pw_report *r, json_t *arr)
{
    *it = (report_rows){.arr = arr, .stream = report_stream_of(r, arr)};
    if (it->stream && fseek(it->stream->spool, 0, SEEK_SET) != 0)
        it->stream = NULL; /* unreadable: reported by the rows' absence */
}

static json_t *next_item(report_rows *it)
{
    if (!it->stream)
        return json_array_get(it->arr, it->next++);
    json_decref(it->row);
    it->row = NULL;
    ssize_t n = getline(&it->line, &it->cap, it->stream->spool);
    if (n > 0)
        it->row = json_loadb(it->line, (size_t)n, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    return it->row;
}

json_t *report_rows_next(report_rows *it)
{
    if (it->long_rows && it->next_long < json_array_size(it->long_rows))
        return json_array_get(it->long_rows, it->next_long++);
    json_decref(it->long_rows);
    it->long_rows = NULL;
    json_t *row = next_item(it);
    if (!report_row_has_list(row))
        return row;
    it->long_rows = json_array();
    it->next_long = 1;
    /* out of memory: the row as it is, its lists left out of the columns */
    return it->long_rows && report_long_rows(row, it->long_rows) ? json_array_get(it->long_rows, 0) : row;
}

void report_rows_end(report_rows *it)
{
    json_decref(it->row);
    json_decref(it->long_rows);
    free(it->line);
    *it = (report_rows){0};
}

size_t report_rows_count(const pw_report *r, json_t *arr)
{
    const report_stream *st = report_stream_of(r, arr);
    if (st)
        return st->long_rows;
    report_rows it;
    size_t n = 0;
    report_rows_start(&it, r, arr);
    while (report_rows_next(&it))
        n++;
    report_rows_end(&it);
    return n;
}

int report_is_table(const pw_report *r, json_t *arr)
{
    const report_stream *st = report_stream_of(r, arr);
    if (st)
        return st->rows && st->all_objects;
    if (!json_is_array(arr) || json_array_size(arr) == 0)
        return 0;
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) if (!json_is_object(v)) return 0;
    return 1;
}

static int table_add(report_table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->columns[i], name))
            return 1;
    char **nc = realloc(t->columns, (t->n + 1) * sizeof *nc);
    if (!nc)
        return 0;
    t->columns = nc;
    t->columns[t->n] = strdup(name);
    return t->columns[t->n++] != NULL;
}

static int table_collect(report_table *t, json_t *obj, const char *prefix)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v)
    {
        char name[512];
        snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "." : "", k);
        if (json_is_array(v))
            continue;
        if (json_is_object(v)) {
            if (!table_collect(t, v, name))
                return 0;
        } else if (!table_add(t, name)) {
            return 0;
        }
    }
    return 1;
}

int report_table_columns(const pw_report *r, json_t *arr, report_table *t)
{
    t->columns = NULL;
    t->n = 0;
    report_rows it;
    report_rows_start(&it, r, arr);
    int ok = 1;
    for (json_t *row; ok && (row = report_rows_next(&it));)
        ok = table_collect(t, row, "");
    report_rows_end(&it);
    return ok;
}

void report_table_free(report_table *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->columns[i]);
    free(t->columns);
    t->columns = NULL;
    t->n = 0;
}

json_t *report_table_cell(json_t *row, const char *column)
{
    const char *p = column;
    json_t *cur = row;
    while (cur && *p) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        cur = json_is_object(cur) ? json_object_getn(cur, p, n) : NULL;
        p += n + (dot ? 1 : 0);
    }
    return cur;
}

/* The shortest text that reads back as v (0.203699849, not
 * 0.20369984899999999). */
static const char *shortest_real(double v, char *buf, size_t n)
{
    char t[PW_F64_TEXT_MAX + 1];
    size_t l = isfinite(v) ? pw_f64_text(v, t) : 0;
    if (l && l < n) {
        memcpy(buf, t, l);
        buf[l] = '\0';
        return buf;
    }
    for (int digits = 15; digits <= 17; digits++) { /* the exact, slower path */
        snprintf(buf, n, "%.*g", digits, v);
        if (strtod(buf, NULL) == v || !isfinite(v))
            break;
    }
    return buf;
}

const char *report_scalar_text(json_t *v, char *buf, size_t n, int precise)
{
    if (!v || json_is_null(v))
        return "";
    if (json_is_string(v))
        return json_string_value(v);
    if (json_is_integer(v)) {
        snprintf(buf, n, "%lld", (long long)json_integer_value(v));
        return buf;
    }
    if (json_is_real(v)) {
        if (precise)
            return shortest_real(json_real_value(v), buf, n);
        snprintf(buf, n, "%.6g", json_real_value(v));
        return buf;
    }
    if (json_is_boolean(v))
        return json_is_true(v) ? "true" : "false";
    if (json_is_array(v)) {
        snprintf(buf, n, "[%zu]", json_array_size(v));
        return buf;
    }
    return "";
}
