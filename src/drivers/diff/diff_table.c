/* diff_table.c — a stats report as tables of keyed rows.  Which columns
 * identify a row is read from their names and values (diff_keys.c): text
 * columns and the columns that number things (rank, pe...) are keys,
 * identifiers of one run and absolute clocks are left out, the other
 * numbers are what changes.  A column whose text is indented by levels
 * of two spaces is a tree (HPCToolkit's calling contexts): its rows are
 * keyed by their path from the root, as Hatchet matches nodes for its
 * subtract. */
#include "drivers/diff/diff_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The name of an element of an array inside a row: its first text
 * member (a phase's name, a setting's run), else its position. */
static void element_name(const json_t *el, size_t i, char *name, size_t n)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)el, k, v) if (json_is_string(v))
    {
        snprintf(name, n, "%s", json_string_value(v));
        return;
    }
    snprintf(name, n, "%zu", i);
}

static void drop_first_text(json_t *obj)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) if (json_is_string(v))
    {
        json_object_del(obj, k);
        return;
    }
}

/* Copies obj's scalars into flat, nested objects' as "outer.inner", and
 * the objects of an array inside a row as "array.<element name>.inner"
 * (arrays of plain values, such as time bins, are left out). */
static void flatten(json_t *flat, const char *prefix, const json_t *obj)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)obj, k, v) {
        char name[512];
        snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "." : "", k);
        if (json_is_object(v)) {
            flatten(flat, name, v);
        } else if (json_is_array(v)) {
            size_t i;
            json_t *el;
            json_array_foreach(v, i, el) if (json_is_object(el))
            {
                char sub[800], elname[256];
                element_name(el, i, elname, sizeof elname);
                snprintf(sub, sizeof sub, "%s.%s", name, elname);
                json_t *inner = json_deep_copy(el);
                drop_first_text(inner); /* it is in the column's name now */
                flatten(flat, sub, inner);
                json_decref(inner);
            }
        } else {
            json_object_set(flat, name, v);
        }
    }
}

/* Is a text column a tree: some value indented, every indent levels of
 * two spaces?  (A CPU's name " CPU 0.0" is indented by one: not a tree.) */
static int is_tree_column(const json_t *rows, const char *col)
{
    size_t i;
    json_t *row;
    int indented = 0;
    json_array_foreach(rows, i, row) {
        const json_t *v = json_object_get(row, col);
        if (!json_is_string(v))
            continue;
        size_t depth = strspn(json_string_value(v), " ");
        if (depth % 2)
            return 0;
        indented |= depth > 0;
    }
    return indented;
}

/* The role of each column (diff_role), by its name and values.  A state's
 * number is a key where a label names it (ovni's states: type, value). */
static json_t *classify(const json_t *rows)
{
    json_t *kind = json_object(), *text = json_object();
    size_t i;
    json_t *row;
    const char *k;
    json_t *v;
    json_array_foreach(rows, i, row) json_object_foreach(row, k, v) if (json_is_string(v))
        json_object_set_new(text, k, json_true());
    int has_text = json_object_size(text) > 0, labelled = json_object_get(text, "label") != NULL;
    json_array_foreach(rows, i, row) json_object_foreach(row, k, v)
    {
        if (json_object_get(kind, k))
            continue;
        diff_role role = diff_role_of_name(k, has_text);
        if (json_object_get(text, k))
            role = is_tree_column(rows, k) ? DIFF_TREE : DIFF_KEY;
        else if (role == DIFF_VALUE && labelled && !strcmp(k, "value") && json_is_integer(v))
            role = DIFF_KEY;
        json_object_set_new(kind, k, json_integer(role));
    }
    json_decref(text);
    return kind;
}

/* The path of an indented name: `stack` holds the names of its ancestors
 * by depth (leading spaces). */
static json_t *tree_path(json_t *stack, const char *text)
{
    size_t depth = strspn(text, " ");
    while (json_array_size(stack) > 0) {
        json_t *top = json_array_get(stack, json_array_size(stack) - 1);
        if ((size_t)json_integer_value(json_array_get(top, 0)) < depth)
            break;
        json_array_remove(stack, json_array_size(stack) - 1);
    }
    json_array_append_new(stack, json_pack("[Is]", (json_int_t)depth, text + depth));
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(stack); i++)
        n += strlen(json_string_value(json_array_get(json_array_get(stack, i), 1))) + 3;
    char *path = calloc(n + 1, 1);
    if (!path)
        return NULL;
    for (size_t i = 0; i < json_array_size(stack); i++) {
        if (i)
            strcat(path, " > ");
        strcat(path, json_string_value(json_array_get(json_array_get(stack, i), 1)));
    }
    json_t *j = json_string(path);
    free(path);
    return j;
}

/* The match key of a row: its keys as compact JSON, "#n" on repeats. */
static void add_match(diff_table *t, const json_t *keys, size_t row)
{
    char *text = json_dumps(keys, JSON_COMPACT | JSON_SORT_KEYS);
    char name[1024];
    snprintf(name, sizeof name, "%s", text ? text : "");
    for (int n = 2; json_object_get(t->index, name); n++)
        snprintf(name, sizeof name, "%s#%d", text ? text : "", n);
    free(text);
    json_object_set_new(t->index, name, json_integer((json_int_t)row));
    json_array_append_new(t->match, json_string(name));
}

static int table_of_rows(diff_table *t, const char *name, const json_t *rows, const diff_names *names)
{
    t->name = name;
    t->keys = json_array();
    t->values = json_array();
    t->index = json_object();
    t->match = json_array();
    json_t *flat_rows = json_array(), *stack = json_array();
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        json_t *flat = json_object();
        flatten(flat, "", row);
        json_array_append_new(flat_rows, flat);
    }
    json_t *kind = classify(flat_rows);
    json_array_foreach(flat_rows, i, row) {
        json_t *keys = json_object(), *values = json_object();
        const char *k;
        json_t *v;
        json_object_foreach(row, k, v) {
            diff_role c = (diff_role)json_integer_value(json_object_get(kind, k));
            if (c == DIFF_TREE)
                json_object_set_new(keys, k, tree_path(stack, json_string_value(v)));
            else if (c == DIFF_KEY && json_is_string(v))
                json_object_set_new(keys, k, diff_names_key(names, json_string_value(v)));
            else if (c == DIFF_KEY)
                json_object_set(keys, k, v);
            else if (c == DIFF_VALUE && json_is_number(v))
                json_object_set(values, k, v);
        }
        add_match(t, keys, i);
        json_array_append_new(t->keys, keys);
        json_array_append_new(t->values, values);
    }
    json_decref(kind);
    json_decref(stack);
    json_decref(flat_rows);
    return t->keys && t->values && t->index && t->match;
}

static int is_table(const json_t *v)
{
    if (!json_is_array(v) || json_array_size(v) == 0)
        return 0;
    size_t i;
    json_t *row;
    json_array_foreach(v, i, row) if (!json_is_object(row)) return 0;
    return 1;
}

static int push(diff_tables *ts, const char *name, const json_t *rows, const diff_names *names)
{
    diff_table *n = realloc(ts->t, (ts->n + 1) * sizeof *n);
    if (!n)
        return 0;
    ts->t = n;
    memset(&n[ts->n], 0, sizeof *n);
    return table_of_rows(&n[ts->n++], name, rows, names);
}

int diff_tables_of(const json_t *root, const char *dataset_path, diff_tables *out)
{
    memset(out, 0, sizeof *out);
    json_t *summary = json_object(), *one = json_array();
    diff_names *names = diff_names_of(root, dataset_path);
    int ok = summary && one && names;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)root, k, v) {
        if (is_table(v)) {
            ok &= push(out, k, v, names);
        } else if (json_is_object(v)) {
            json_t *rows = json_pack("[O]", v);
            ok &= rows && push(out, k, rows, names);
            json_decref(rows);
        } else if (json_is_number(v)) { /* the root's text names the run: not a key */
            json_object_set(summary, k, v);
        }
    }
    if (json_object_size(summary)) {
        json_array_append(one, summary);
        ok &= push(out, "summary", one, names);
    }
    diff_names_free(names);
    json_decref(summary);
    json_decref(one);
    return ok;
}

void diff_tables_free(diff_tables *ts)
{
    for (size_t i = 0; i < ts->n; i++) {
        json_decref(ts->t[i].keys);
        json_decref(ts->t[i].values);
        json_decref(ts->t[i].index);
        json_decref(ts->t[i].match);
    }
    free(ts->t);
    memset(ts, 0, sizeof *ts);
}

const diff_table *diff_table_find(const diff_tables *ts, const char *name)
{
    for (size_t i = 0; i < ts->n; i++)
        if (!strcmp(ts->t[i].name, name))
            return &ts->t[i];
    return NULL;
}
