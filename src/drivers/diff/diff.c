/* diff.c — pw_diff_reports: two stats reports, table by table, rows
 * matched by their keys (diff_table.c), each numeric column's values in A
 * and B and their difference B - A; rows with no difference are left out
 * and the others come largest change first. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/diff/diff_table.h"
#include "core/error.h"
#include "model/report.h"

/* One changed row: A's and B's rows (-1: absent) and how much it moved. */
typedef struct changed_row {
    long a, b;
    double rel;  /* largest |B - A| / max(|A|, |B|) over its columns */
    double abs;  /* largest |B - A| */
    size_t order;
} changed_row;

static double num(const json_t *v)
{
    return v ? json_number_value(v) : 0.0;
}

/* B - A for every numeric column of either row (absent: 0); integers stay
 * integers.  Sets *rel, *abs; returns the deltas (all zero: no change). */
static json_t *deltas(const json_t *va, const json_t *vb, double *rel, double *abs_max, int *changed)
{
    json_t *d = json_object();
    const json_t *sides[2] = {va, vb};
    *rel = *abs_max = 0;
    *changed = !va || !vb;
    for (int s = 0; s < 2; s++) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)sides[s], k, v) {
            if (json_object_get(d, k))
                continue;
            json_t *x = va ? json_object_get(va, k) : NULL, *y = vb ? json_object_get(vb, k) : NULL;
            int ints = (!x || json_is_integer(x)) && (!y || json_is_integer(y));
            double dx = num(y) - num(x);
            json_object_set_new(d, k, ints ? json_integer((y ? json_integer_value(y) : 0) -
                                                          (x ? json_integer_value(x) : 0))
                                           : json_real(dx));
            double m = fmax(fabs(num(x)), fabs(num(y)));
            if (dx != 0) {
                *changed = 1;
                *rel = fmax(*rel, m > 0 ? fabs(dx) / m : 0);
                *abs_max = fmax(*abs_max, fabs(dx));
            }
        }
    }
    if (!va || !vb)
        *rel = 1;
    return d;
}

static int by_change(const void *pa, const void *pb)
{
    const changed_row *a = pa, *b = pb;
    if (a->rel != b->rel)
        return a->rel > b->rel ? -1 : 1;
    if (a->abs != b->abs)
        return a->abs > b->abs ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Sets row's column `name` where the text and CSV renderers look for it:
 * a name with dots ("late_sender.by_rank.0 A") is a path of nested
 * objects to them, so it is stored as one. */
static void set_column(json_t *row, const char *name, json_t *value)
{
    const char *dot = strchr(name, '.');
    if (!dot) {
        json_object_set_new(row, name, value);
        return;
    }
    char head[600];
    snprintf(head, sizeof head, "%.*s", (int)(dot - name), name);
    json_t *inner = json_object_get(row, head);
    if (!json_is_object(inner)) {
        inner = json_object();
        json_object_set_new(row, head, inner);
    }
    set_column(inner, dot + 1, value);
}

/* Flat rows (text, CSV): key columns, then "COL A", "COL B", "COL B-A"
 * for the columns that changed somewhere in the table. */
static json_t *flat_row(const json_t *keys, const json_t *va, const json_t *vb, const json_t *d,
                        const json_t *cols)
{
    json_t *row = json_object();
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)keys, k, v) set_column(row, k, json_copy(v));
    size_t i;
    json_t *c;
    json_array_foreach(cols, i, c) {
        k = json_string_value(c);
        char name[600];
        const json_t *x = va ? json_object_get(va, k) : NULL, *y = vb ? json_object_get(vb, k) : NULL;
        snprintf(name, sizeof name, "%s A", k);
        set_column(row, name, x ? json_copy((json_t *)x) : json_null());
        snprintf(name, sizeof name, "%s B", k);
        set_column(row, name, y ? json_copy((json_t *)y) : json_null());
        snprintf(name, sizeof name, "%s B-A", k);
        set_column(row, name, json_copy(json_object_get(d, k)));
    }
    return row;
}

static int nonzero(const json_t *v)
{
    return json_is_integer(v) ? json_integer_value(v) != 0 : json_real_value(v) != 0;
}

/* The changed rows of one table into out[name] (NULL table: absent). */
static int diff_table_rows(const diff_table *ta, const diff_table *tb, int flat, json_t *out)
{
    size_t na = ta ? json_array_size(ta->keys) : 0, nb = tb ? json_array_size(tb->keys) : 0;
    changed_row *rows = calloc(na + nb + 1, sizeof *rows);
    json_t **ds = calloc(na + nb + 1, sizeof *ds);
    json_t *cols = json_array(), *arr = json_array();
    if (!rows || !ds || !cols || !arr) {
        free(rows);
        free(ds);
        json_decref(cols);
        json_decref(arr);
        return 0;
    }
    size_t n = 0;
    for (size_t i = 0; i < na + nb; i++) {
        long a = -1, b = -1;
        if (i < na) {
            a = (long)i;
            const json_t *j = tb ? json_object_get(tb->index, json_string_value(json_array_get(ta->match, i))) : NULL;
            b = j ? (long)json_integer_value(j) : -1;
        } else {
            b = (long)(i - na);
            if (ta && json_object_get(ta->index, json_string_value(json_array_get(tb->match, (size_t)b))))
                continue; /* matched from A's side */
        }
        const json_t *va = a >= 0 ? json_array_get(ta->values, (size_t)a) : NULL;
        const json_t *vb = b >= 0 ? json_array_get(tb->values, (size_t)b) : NULL;
        int changed;
        changed_row r = {a, b, 0, 0, i};
        json_t *d = deltas(va, vb, &r.rel, &r.abs, &changed);
        if (!changed) {
            json_decref(d);
            continue;
        }
        const char *k;
        json_t *v;
        json_object_foreach(d, k, v) {
            int seen = 0;
            for (size_t c = 0; c < json_array_size(cols); c++)
                seen |= !strcmp(json_string_value(json_array_get(cols, c)), k);
            if (!seen && nonzero(v))
                json_array_append_new(cols, json_string(k));
        }
        rows[n] = r;
        ds[n++] = d;
    }
    /* sort the rows with their deltas: sort indexes, then emit */
    for (size_t i = 0; i < n; i++)
        rows[i].order = i;
    qsort(rows, n, sizeof *rows, by_change);
    for (size_t i = 0; i < n; i++) {
        const changed_row *r = &rows[i];
        const json_t *keys = r->a >= 0 ? json_array_get(ta->keys, (size_t)r->a) : json_array_get(tb->keys, (size_t)r->b);
        const json_t *va = r->a >= 0 ? json_array_get(ta->values, (size_t)r->a) : NULL;
        const json_t *vb = r->b >= 0 ? json_array_get(tb->values, (size_t)r->b) : NULL;
        json_t *d = ds[r->order];
        if (flat)
            json_array_append_new(arr, flat_row(keys, va, vb, d, cols));
        else
            json_array_append_new(arr, json_pack("{sOsOsOsO}", "key", keys, "a", va ? va : json_null(), "b",
                                                 vb ? vb : json_null(), "delta", d));
    }
    for (size_t i = 0; i < n; i++)
        json_decref(ds[i]);
    if (json_array_size(arr))
        json_object_set(out, ta ? ta->name : tb->name, arr);
    json_decref(arr);
    json_decref(cols);
    free(rows);
    free(ds);
    return 1;
}

pw_status pw_diff_reports(const pw_report *a, const pw_report *b, const char *name_a, const char *name_b,
                          int flat, pw_report *out, pw_error *err)
{
    diff_tables ta, tb;
    int ok = diff_tables_of(pw_report_json(a), name_a, &ta);
    ok &= diff_tables_of(pw_report_json(b), name_b, &tb);
    json_t *root = (json_t *)pw_report_root(out);
    json_object_set_new(root, "a", json_string(name_a));
    json_object_set_new(root, "b", json_string(name_b));
    json_t *tables = flat ? root : json_object();
    for (size_t i = 0; ok && i < ta.n; i++)
        ok &= diff_table_rows(&ta.t[i], diff_table_find(&tb, ta.t[i].name), flat, tables);
    for (size_t i = 0; ok && i < tb.n; i++)
        if (!diff_table_find(&ta, tb.t[i].name))
            ok &= diff_table_rows(NULL, &tb.t[i], flat, tables);
    if (!flat)
        json_object_set_new(root, "tables", tables);
    diff_tables_free(&ta);
    diff_tables_free(&tb);
    return ok ? PW_OK : pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
}
