/* table.c — table declarations as the report keeps them, and the units of
 * their columns. */
#include "model/table.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "model/report.h"

const char *const pw_table_units[] = {"s", "B", "B/s", "%", "J", "W", "Hz", "MHz", "\xc2\xb0" "C", "1/s", "vt",
                                      "vt/s", "count", "", NULL};

int pw_report_declare(pw_report *r, const pw_table_decl *const *decls)
{
    for (size_t i = 0; decls && decls[i]; i++) {
        const pw_table_decl **grown = realloc(r->decls, (r->n_decls + 1) * sizeof *grown);
        if (!grown)
            return 0;
        r->decls = grown;
        r->decls[r->n_decls++] = decls[i];
    }
    return 1;
}

int pw_report_declare_present(pw_report *r, const pw_table_decl *const *decls)
{
    int ok = 1;
    for (size_t i = 0; ok && decls && decls[i]; i++)
        if (json_object_get(r->root, decls[i]->name) && !pw_report_decl(r, decls[i]->name)) {
            const pw_table_decl *one[] = {decls[i], NULL};
            ok = pw_report_declare(r, one);
        }
    return ok;
}

const pw_table_decl *pw_report_decl(const pw_report *r, const char *name)
{
    /* The first declaration of a name wins: the format's own come before
     * the analyses' (an ovni trace's "trace" and an MPI trace's). */
    for (size_t i = 0; r && i < r->n_decls; i++)
        if (!strcmp(r->decls[i]->name, name))
            return r->decls[i];
    return NULL;
}

static const pw_table_column *column_of(const pw_table_decl *d, const char *column)
{
    const pw_table_column *any = NULL;
    for (size_t i = 0; d && i < PW_TABLE_MAX_COLUMNS && d->columns[i].name; i++) {
        if (!strcmp(d->columns[i].name, column))
            return &d->columns[i];
        if (!strcmp(d->columns[i].name, "*"))
            any = &d->columns[i];
    }
    return any;
}

/* A unit read from a name's last suffix, for undeclared columns. */
static const char *suffix_unit(const char *column)
{
    static const struct { const char *suffix, *unit; } units[] = {
        {"_per_s", "1/s"}, {"_s", "s"}, {"_ms", "ms"}, {"_us", "us"}, {"_ns", "ns"}, {"_pct", "%"},
        {"_j", "J"}, {"_w", "W"}, {"_mhz", "MHz"}, {"_hz", "Hz"}, {"_bytes", "B"}, {"_c", "\xc2\xb0" "C"}};
    const char *dot = strchr(column, '.'); /* "energy_j.gpu": the first part's */
    size_t n = dot ? (size_t)(dot - column) : strlen(column);
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        size_t l = strlen(units[i].suffix);
        if (n > l && !strncmp(column + n - l, units[i].suffix, l))
            return units[i].unit;
    }
    return "";
}

const char *pw_table_column_unit(const pw_table_decl *d, const char *column)
{
    /* a column the declaration names; else its suffix; else the "*" entry */
    const pw_table_column *c = column_of(d, column);
    if (c && strcmp(c->name, "*"))
        return c->unit;
    const char *unit = suffix_unit(column);
    return *unit || !c ? unit : c->unit;
}

int pw_table_column_key(const pw_table_decl *d, const char *column)
{
    const pw_table_column *c = column_of(d, column);
    return c && c->key;
}

/* The root's members that are tables: objects and arrays. */
static int is_table(json_t *v) { return json_is_object(v) || json_is_array(v); }

size_t pw_report_table_count(const pw_report *r)
{
    size_t n = 0;
    const char *k;
    json_t *v;
    json_object_foreach(r->root, k, v) n += is_table(v);
    return n;
}

const char *pw_report_table_name(const pw_report *r, size_t i)
{
    const char *k;
    json_t *v;
    json_object_foreach(r->root, k, v) if (is_table(v) && i-- == 0) return k;
    return NULL;
}
