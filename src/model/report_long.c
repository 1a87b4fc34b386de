/* report_long.c — report rows in long format: a row holding a list is one
 * row per item of it, so that tables have no list in a cell and drop
 * nothing (see report_long.h). */
#include "model/report_long.h"

#define LIST_DEPTH 8

/* The first list of a row, depth first through its nested objects in
 * member order: the keys leading to it (*depth of them), or NULL. */
static json_t *first_list(json_t *obj, const char **path, size_t *depth)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v)
    {
        if (json_is_array(v) && *depth < LIST_DEPTH) {
            path[(*depth)++] = k;
            return v;
        }
        if (json_is_object(v) && *depth < LIST_DEPTH - 1) {
            path[(*depth)++] = k;
            json_t *found = first_list(v, path, depth);
            if (found)
                return found;
            (*depth)--;
        }
    }
    return NULL;
}

int report_long_rows(json_t *row, json_t *out)
{
    const char *path[LIST_DEPTH];
    size_t depth = 0;
    json_t *list = json_is_object(row) ? first_list(row, path, &depth) : NULL;
    if (!list)
        return json_array_append(out, row) == 0;
    size_t n = json_array_size(list);
    int ok = 1;
    for (size_t i = 0; ok && i < (n ? n : 1); i++) {
        json_t *copy = json_deep_copy(row), *holder = copy;
        for (size_t d = 0; holder && d + 1 < depth; d++)
            holder = json_object_get(holder, path[d]);
        ok = holder && json_object_set(holder, path[depth - 1], n ? json_array_get(list, i) : json_null()) == 0 &&
             report_long_rows(copy, out);
        json_decref(copy);
    }
    return ok;
}

int report_row_has_list(json_t *row)
{
    const char *path[LIST_DEPTH];
    size_t depth = 0;
    return json_is_object(row) && first_list(row, path, &depth) != NULL;
}

size_t report_long_count(json_t *row)
{
    if (!report_row_has_list(row))
        return 1;
    json_t *rows = json_array();
    size_t n = rows && report_long_rows(row, rows) ? json_array_size(rows) : 1;
    json_decref(rows);
    return n;
}
