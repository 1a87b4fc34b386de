/* dataset.c — opening a dataset (format detection) and its builders. */
#include "model/dataset.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dirlist.h"
#include "core/grow.h"
#include "core/input.h"

size_t pw_format_count(void) { return pw_n_formats; }
const char *pw_format_name(size_t i) { return i < pw_n_formats ? pw_formats[i]->name : NULL; }
const char *pw_format_description(size_t i)
{
    return i < pw_n_formats ? pw_formats[i]->description : NULL;
}

const char *pw_format_table(size_t f, size_t i, const char **description)
{
    const pw_table_decl *const *t = f < pw_n_formats ? pw_formats[f]->tables : NULL;
    for (size_t k = 0; t && t[k]; k++)
        if (k == i) {
            if (description)
                *description = t[k]->description;
            return t[k]->name;
        }
    return NULL;
}

const pw_format_option *pw_format_options(size_t i)
{
    return i < pw_n_formats ? pw_formats[i]->options : NULL;
}

const char *pw_options_get(const pw_options *opt, const char *key)
{
    if (!opt)
        return NULL;
    const char *found = NULL;
    for (size_t i = 0; i < opt->n_kv; i++) /* the last setting wins */
        if (opt->kv[i].key && !strcmp(opt->kv[i].key, key))
            found = opt->kv[i].value;
    return found;
}

/* ---- builders ---------------------------------------------------------- */

const char *pw_ds_strndup(pw_dataset *ds, const char *s, size_t n)
{
    return pw_arena_strndup(&ds->arena, s, n);
}

const char *pw_ds_strdup(pw_dataset *ds, const char *s)
{
    return s ? pw_arena_strdup(&ds->arena, s) : NULL;
}

void *pw_ds_alloc(pw_dataset *ds, size_t size)
{
    void *p = pw_arena_alloc(&ds->arena, size);
    if (p)
        memset(p, 0, size);
    return p;
}

pw_status pw_ds_set_prop(pw_dataset *ds, const char *key, const char *value, pw_error *err)
{
    const char *v = pw_ds_strdup(ds, value);
    if (!v)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    uint32_t id = pw_names_find(&ds->prop_keys, key, strlen(key));
    if (id) {
        ds->props[id - 1].value = v;
        return PW_OK;
    }
    /* Keys are interned in the order props are appended: id - 1 is the
     * index of the new prop. */
    if (!pw_grow((void **)&ds->props, ds->n_props, &ds->cap_props, sizeof *ds->props))
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    id = pw_names_intern(&ds->prop_keys, key, strlen(key));
    if (!id)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    ds->props[ds->n_props++] = (pw_prop){pw_names_str(&ds->prop_keys, id, NULL), v};
    return PW_OK;
}

pw_status pw_ds_set_propf(pw_dataset *ds, pw_error *err, const char *key, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return pw_ds_set_prop(ds, key, buf, err);
}

pw_status pw_ds_set_version(pw_dataset *ds, const char *version, pw_error *err)
{
    const char *v = pw_ds_strdup(ds, version);
    if (!v)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    ds->version = v;
    return PW_OK;
}

size_t pw_ds_count_record_locations(const pw_dataset *ds)
{
    size_t n = 0;
    for (size_t i = 0; i < ds->n_locs; i++)
        n += ds->locs[i].has_records != 0;
    return n;
}

int32_t pw_ds_add_location(pw_dataset *ds, int32_t parent, pw_location_kind kind, int64_t id,
                           const char *name, const char *file, int has_records)
{
    if (ds->n_locs >= INT32_MAX || (parent >= 0 && (size_t)parent >= ds->n_locs))
        return -1;
    if (!pw_grow((void **)&ds->locs, ds->n_locs, &ds->cap_locs, sizeof *ds->locs))
        return -1;
    pw_location *l = &ds->locs[ds->n_locs];
    memset(l, 0, sizeof *l);
    l->index = (uint32_t)ds->n_locs;
    l->parent = parent;
    l->kind = kind;
    l->id = id;
    l->name = pw_ds_strdup(ds, name);
    l->file = pw_ds_strdup(ds, file);
    l->has_records = has_records;
    if (parent >= 0) {
        const char *pp = ds->locs[parent].path;
        size_t a = strlen(pp), b = strlen(name);
        char *path = pw_arena_alloc(&ds->arena, a + b + 2);
        if (path) {
            memcpy(path, pp, a);
            path[a] = '/';
            memcpy(path + a + 1, name, b + 1);
        }
        l->path = path;
    } else {
        l->path = l->name;
    }
    if (!l->name || !l->path || (file && !l->file))
        return -1;
    return (int32_t)ds->n_locs++;
}

int32_t pw_ds_add_schema(pw_dataset *ds, const char *name, const char *description,
                         pw_record_kind kind, const pw_field *fields, size_t n_fields)
{
    if (!pw_grow((void **)&ds->schemas, ds->n_schemas, &ds->cap_schemas, sizeof *ds->schemas))
        return -1;
    pw_schema *s = pw_ds_alloc(ds, sizeof *s);
    if (!s)
        return -1;
    s->index = (uint32_t)ds->n_schemas;
    s->name = pw_ds_strdup(ds, name);
    s->description = pw_ds_strdup(ds, description);
    s->kind = kind;
    s->fields = fields;
    s->n_fields = n_fields;
    if (!s->name)
        return -1;
    if (n_fields > ds->max_fields)
        ds->max_fields = n_fields;
    ds->schemas[ds->n_schemas] = s;
    return (int32_t)ds->n_schemas++;
}

void pw_ds_schema_pairs(pw_dataset *ds, int32_t s, pw_record_kind as, size_t group_len)
{
    if (s >= 0 && (size_t)s < ds->n_schemas) {
        ds->schemas[s]->pairs_as = as;
        ds->schemas[s]->group_len = group_len;
    }
}

void pw_ds_schema_mpi_fields(pw_dataset *ds, int32_t s, const int16_t *fields)
{
    if (s >= 0 && (size_t)s < ds->n_schemas)
        ds->schemas[s]->mpi_fields = fields;
}

const char *pw_ds_option(const pw_dataset *ds, const char *key)
{
    size_t fl = strlen(ds->fmt->name), kl = strlen(key);
    const char *found = NULL;
    for (size_t i = 0; i < ds->n_kv; i++) {
        const char *k = ds->kv[i].key;
        if (!strncmp(k, ds->fmt->name, fl) && k[fl] == '.' && !strcmp(k + fl + 1, key) &&
            strlen(k) == fl + 1 + kl)
            found = ds->kv[i].value;
    }
    return found;
}

const char *pw_ds_common_option(const pw_dataset *ds, const char *key)
{
    const char *found = NULL;
    for (size_t i = 0; i < ds->n_kv; i++)
        if (!strcmp(ds->kv[i].key, key))
            found = ds->kv[i].value;
    return found;
}

/* ---- accessors --------------------------------------------------------- */

const char *pw_dataset_path(const pw_dataset *ds) { return ds->path; }
const char *pw_dataset_format(const pw_dataset *ds) { return ds->fmt->name; }
const char *pw_dataset_version(const pw_dataset *ds) { return ds->version ? ds->version : ""; }
size_t pw_dataset_prop_count(const pw_dataset *ds) { return ds->n_props; }

void pw_dataset_prop(const pw_dataset *ds, size_t i, const char **key, const char **value)
{
    *key = i < ds->n_props ? ds->props[i].key : NULL;
    *value = i < ds->n_props ? ds->props[i].value : NULL;
}

const char *pw_dataset_prop_get(const pw_dataset *ds, const char *key)
{
    uint32_t id = key ? pw_names_find(&ds->prop_keys, key, strlen(key)) : 0;
    return id ? ds->props[id - 1].value : NULL;
}

size_t pw_location_count(const pw_dataset *ds) { return ds->n_locs; }
const pw_location *pw_location_get(const pw_dataset *ds, size_t i)
{
    return i < ds->n_locs ? &ds->locs[i] : NULL;
}
size_t pw_schema_count(const pw_dataset *ds) { return ds->n_schemas; }
const pw_schema *pw_schema_get(const pw_dataset *ds, size_t i)
{
    return i < ds->n_schemas ? ds->schemas[i] : NULL;
}

const char *pw_location_kind_name(pw_location_kind k)
{
    static const char *const names[] = {"root", "node", "process", "thread", "pe", "kp",
                                        "lp",   "gpu",  "meter",   "profile", "other"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "other";
}

void pw_dataset_progress(const pw_dataset *ds, uint64_t *done, uint64_t *total)
{
    *done = atomic_load_explicit(&((pw_dataset *)ds)->progress_done, memory_order_relaxed);
    *total = ds->progress_total;
}

/* ---- open / close ------------------------------------------------------ */

/* The format named by opt->format, or the most confident probe. */
static const pw_format_ops *detect_format(const char *path, const pw_options *opt,
                                          pw_error *err)
{
    if (opt && opt->format) {
        for (size_t i = 0; i < pw_n_formats; i++)
            if (!strcmp(pw_formats[i]->name, opt->format))
                return pw_formats[i];
        pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET, "unknown format '%s'", opt->format);
        return NULL;
    }
    const pw_format_ops *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < pw_n_formats; i++) {
        int s = pw_formats[i]->probe(path);
        if (s > best_score) {
            best_score = s;
            best = pw_formats[i];
        }
    }
    if (!best) {
        if (pw_path_is_dir(path) < 0)
            pw_fail_errno(err, path, "cannot open");
        else
            pw_fail(err, PW_E_FORMAT, path, PW_NO_OFFSET,
                    "no known format recognises this path (try --format)");
    }
    return best;
}

/* Rejects "<this format>.<key>" options the format does not know, so a typo
 * does not silently do nothing. */
static pw_status check_option_keys(pw_dataset *ds, pw_error *err)
{
    size_t fl = strlen(ds->fmt->name);
    for (size_t i = 0; i < ds->n_kv; i++) {
        const char *k = ds->kv[i].key;
        if (strncmp(k, ds->fmt->name, fl) || k[fl] != '.')
            continue;
        int known = 0;
        for (const pw_format_option *o = ds->fmt->options; o && o->key && !known; o++)
            known = !strcmp(o->key, k + fl + 1);
        if (!known)
            return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET,
                           "the %s format has no option '%s'", ds->fmt->name, k + fl + 1);
    }
    return PW_OK;
}

static pw_status copy_options(pw_dataset *ds, const pw_options *opt, pw_error *err)
{
    ds->threads = opt ? opt->threads : 0;
    if (!opt || !opt->n_kv)
        return PW_OK;
    ds->kv = pw_ds_alloc(ds, opt->n_kv * sizeof *ds->kv);
    if (!ds->kv)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < opt->n_kv; i++) {
        ds->kv[i].key = pw_ds_strdup(ds, opt->kv[i].key ? opt->kv[i].key : "");
        ds->kv[i].value = pw_ds_strdup(ds, opt->kv[i].value ? opt->kv[i].value : "");
        if (!ds->kv[i].key || !ds->kv[i].value)
            return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    }
    ds->n_kv = opt->n_kv;
    return PW_OK;
}

pw_dataset *pw_ds_new(const pw_format_ops *fmt, const char *path)
{
    pw_dataset *ds = calloc(1, sizeof *ds);
    if (!ds)
        return NULL;
    ds->fmt = fmt;
    ds->worst = -1;
    pw_arena_init(&ds->arena, 64 * 1024);
    pw_names_init(&ds->prop_keys);
    pthread_mutex_init(&ds->diag_lock, NULL);
    atomic_init(&ds->progress_done, 0);
    ds->path = pw_ds_strdup(ds, path);
    ds->run = pw_run_new(0);
    if (!ds->path || !ds->run) {
        pw_close(ds);
        return NULL;
    }
    return ds;
}

/* A compressed file given as the path (NAME.zst, NAME.gz) whose plain NAME
 * does not exist is opened as NAME: formats recognise their files by their
 * plain names, and every input is read through its compressed sibling.
 * Otherwise a copy of path; NULL when out of memory. */
static char *plain_path(const char *path)
{
    size_t k = pw_input_suffix_len(path);
    struct stat st;
    char *plain = strndup(path, strlen(path) - k);
    if (plain && k && stat(plain, &st) != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
        return plain;
    free(plain);
    return strdup(path);
}

static pw_status open_share(const char *path, const pw_options *opt, unsigned index, unsigned count,
                            pw_dataset **out, pw_error *err)
{
    if (count > 1 && index >= count)
        return pw_fail(err, PW_E_USAGE, path, PW_NO_OFFSET, "share %u of %u does not exist", index, count);
    const pw_format_ops *fmt = detect_format(path, opt, err);
    if (!fmt)
        return err ? err->status : PW_E_FORMAT;
    pw_dataset *ds = pw_ds_new(fmt, path);
    if (!ds)
        return pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "out of memory");
    ds->run->wants = opt ? opt->wants : 0;
    if (count > 1 && fmt->share_found && fmt->share_complete) {
        ds->run->opening_share = index;
        ds->run->opening_shares = count;
    }
    pw_status s = copy_options(ds, opt, err);
    if (s == PW_OK)
        s = check_option_keys(ds, err);
    if (s == PW_OK)
        s = fmt->open(ds, err);
    if (s != PW_OK) {
        pw_close(ds);
        return s;
    }
    *out = ds;
    return PW_OK;
}

pw_status pw_open_share(const char *path, const pw_options *opt, unsigned index, unsigned count,
                        pw_dataset **out, pw_error *err)
{
    *out = NULL;
    pw_error_clear(err);
    if (!path || !*path)
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET, "no path given");
    char *plain = plain_path(path);
    if (!plain)
        return pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "out of memory");
    pw_status s = open_share(plain, opt, index, count, out, err);
    free(plain);
    return s;
}

pw_status pw_open(const char *path, const pw_options *opt, pw_dataset **out, pw_error *err)
{
    return pw_open_share(path, opt, 0, 1, out, err);
}

pw_status pw_dataset_share_found(pw_dataset *ds, void **found, size_t *size, pw_error *err)
{
    *size = 0;
    if (ds->run->opening_shares > 1)
        return ds->fmt->share_found(ds, found, size, err);
    *found = malloc(1);
    return *found ? PW_OK : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
}

pw_status pw_dataset_share_complete(pw_dataset *ds, const void *const *found, const size_t *sizes, size_t n,
                                    pw_error *err)
{
    if (ds->run->opening_shares <= 1)
        return PW_OK;
    if (n != ds->run->opening_shares)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "%zu shares' findings for %u shares", n,
                       ds->run->opening_shares);
    pw_status s = ds->fmt->share_complete(ds, found, sizes, n, err);
    ds->run->opening_shares = 0; /* complete: the dataset is whole */
    return s;
}

uint64_t pw_dataset_open_bytes(const pw_dataset *ds)
{
    return atomic_load_explicit(&ds->run->open_bytes, memory_order_relaxed);
}

void pw_close(pw_dataset *ds)
{
    if (!ds)
        return;
    if (ds->fmt && ds->fmt->close)
        ds->fmt->close(ds);
    pw_run_free(ds->run);
    for (size_t i = 0; i < ds->n_diags; i++) {
        free((char *)ds->diags[i].message);
        free((char *)ds->diags[i].file);
    }
    free(ds->diags);
    free(ds->props);
    pw_names_free(&ds->prop_keys);
    free(ds->locs);
    free(ds->schemas);
    pthread_mutex_destroy(&ds->diag_lock);
    pw_arena_free(&ds->arena);
    free(ds);
}

int pw_field_index(const pw_schema *sc, const char *name)
{
    for (size_t i = 0; i < sc->n_fields; i++)
        if (!strcmp(sc->fields[i].name, name))
            return (int)i;
    return -1;
}
