/* batch.c — pw_batch: records in columns, many per call, for bindings
 * (Python/numpy) that must not pay one foreign call per record.  Field
 * values go to one column per field name (see batch_columns.c). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "batch/batch_columns.h"

#define BATCH_DEFAULT_CAPACITY 65536

struct pw_batch_reader {
    pw_dataset *ds;
    pw_merge *merge;   /* all locations, or NULL */
    pw_cursor *cursor; /* one location, or NULL */
    size_t capacity;
    pw_batch batch;
    /* Per-record columns behind batch's const pointers. */
    uint32_t *location, *schema, *type;
    uint8_t *clock, *kind, *has_end;
    int64_t *t, *t_end;
    double *vt, *vt_end;
    pw_batch_columns fields;
    /* Type names that are not their schema's name (ids PW_BATCH_OTHER_TYPE + i). */
    char **other_types;
    size_t n_other, other_cap;
    int done;
    pw_status pending; /* an error met after the records of the last batch */
    pw_error pending_err;
};

static pw_status batch_nomem(pw_error *err)
{
    return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory for a record batch");
}

/* The per-record columns, `capacity` entries each, allocated once. */
static int batch_alloc_records(pw_batch_reader *br)
{
    size_t n = br->capacity;
    br->location = malloc(n * sizeof *br->location);
    br->schema = malloc(n * sizeof *br->schema);
    br->type = malloc(n * sizeof *br->type);
    br->clock = malloc(n);
    br->kind = malloc(n);
    br->has_end = malloc(n);
    br->t = malloc(n * sizeof *br->t);
    br->t_end = malloc(n * sizeof *br->t_end);
    br->vt = malloc(n * sizeof *br->vt);
    br->vt_end = malloc(n * sizeof *br->vt_end);
    return br->location && br->schema && br->type && br->clock && br->kind && br->has_end &&
           br->t && br->t_end && br->vt && br->vt_end;
}

pw_status pw_batch_open(pw_dataset *ds, int64_t location, size_t capacity, pw_batch_reader **out,
                        pw_error *err)
{
    *out = NULL;
    if (location >= (int64_t)pw_location_count(ds))
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET, "location %lld: the dataset has %zu",
                       (long long)location, pw_location_count(ds));
    pw_batch_reader *br = calloc(1, sizeof *br);
    if (!br)
        return batch_nomem(err);
    br->ds = ds;
    br->capacity = capacity ? capacity : BATCH_DEFAULT_CAPACITY;
    pw_status s = pw_batch_columns_init(&br->fields, ds, br->capacity, err);
    if (s == PW_OK && !batch_alloc_records(br))
        s = batch_nomem(err);
    if (s == PW_OK)
        s = location < 0 ? pw_merge_open(ds, &br->merge, err)
                         : pw_cursor_open(ds, (uint32_t)location, &br->cursor, err);
    if (s != PW_OK) {
        pw_batch_close(br);
        return s;
    }
    *out = br;
    return PW_OK;
}

/* The type id of a record: its schema's index when its type is the
 * schema's name (nearly always: a pointer compare), else the id of its own
 * name, remembered on first sight (a handful per dataset: unknown ovni
 * MCVs).  UINT32_MAX when out of memory. */
static uint32_t batch_type_id(pw_batch_reader *br, const pw_record *rec)
{
    const pw_schema *sc = pw_schema_get(br->ds, rec->schema);
    if (rec->type == sc->name || strcmp(rec->type, sc->name) == 0)
        return rec->schema;
    for (size_t i = 0; i < br->n_other; i++)
        if (strcmp(br->other_types[i], rec->type) == 0)
            return PW_BATCH_OTHER_TYPE | (uint32_t)i;
    if (br->n_other == br->other_cap) {
        size_t cap = br->other_cap ? br->other_cap * 2 : 8;
        char **grown = realloc(br->other_types, cap * sizeof *grown);
        if (!grown)
            return UINT32_MAX;
        br->other_types = grown;
        br->other_cap = cap;
    }
    char *name = strdup(rec->type);
    if (!name)
        return UINT32_MAX;
    br->other_types[br->n_other] = name;
    return PW_BATCH_OTHER_TYPE | (uint32_t)br->n_other++;
}

/* Appends record rec as row r; 0 when out of memory. */
static int batch_add(pw_batch_reader *br, size_t r, const pw_record *rec)
{
    uint32_t type = batch_type_id(br, rec);
    if (type == UINT32_MAX)
        return 0;
    br->location[r] = rec->location;
    br->schema[r] = rec->schema;
    br->type[r] = type;
    br->clock[r] = (uint8_t)rec->clock;
    br->t[r] = rec->clock == PW_CLOCK_NS ? rec->t : 0;
    br->vt[r] = rec->clock == PW_CLOCK_VIRTUAL ? rec->vt : 0.0;
    br->kind[r] = (uint8_t)rec->kind;
    br->has_end[r] = rec->has_end != 0;
    br->t_end[r] = rec->has_end ? rec->t_end : 0;
    br->vt_end[r] = rec->has_end ? rec->vt_end : 0.0;
    return pw_batch_columns_add(&br->fields, r, rec);
}

/* Publishes the filled columns as the batch. */
static const pw_batch *batch_publish(pw_batch_reader *br, size_t n)
{
    pw_batch *b = &br->batch;
    b->n = n;
    b->location = br->location;
    b->schema = br->schema;
    b->type = br->type;
    b->clock = br->clock;
    b->t = br->t;
    b->vt = br->vt;
    b->kind = br->kind;
    b->has_end = br->has_end;
    b->t_end = br->t_end;
    b->vt_end = br->vt_end;
    pw_batch_columns_publish(&br->fields, b);
    return b;
}

pw_status pw_batch_next(pw_batch_reader *br, const pw_batch **out, pw_error *err)
{
    *out = NULL;
    if (br->pending != PW_OK) { /* the error that ended the previous batch */
        *err = br->pending_err;
        br->pending = PW_OK;
        return err->status;
    }
    if (br->done)
        return PW_END;
    pw_batch_columns_clear(&br->fields, br->batch.n);
    br->batch.n = 0;
    size_t n = 0;
    pw_status s = PW_OK;
    while (n < br->capacity) {
        const pw_record *rec;
        s = br->merge ? pw_merge_next(br->merge, &rec, err) : pw_cursor_next(br->cursor, &rec, err);
        if (s != PW_OK)
            break;
        if (!batch_add(br, n, rec)) {
            s = batch_nomem(err);
            break;
        }
        n++;
    }
    if (s != PW_OK)
        br->done = 1;
    if (n == 0)
        return s;
    /* The good records first; an error after them comes with the next call. */
    if (s < 0) {
        br->pending = s;
        br->pending_err = *err;
    }
    *out = batch_publish(br, n);
    return PW_OK;
}

const char *pw_batch_type_name(const pw_batch_reader *br, uint32_t id)
{
    if (!(id & PW_BATCH_OTHER_TYPE))
        return id < pw_schema_count(br->ds) ? pw_schema_get(br->ds, id)->name : NULL;
    id &= ~PW_BATCH_OTHER_TYPE;
    return id < br->n_other ? br->other_types[id] : NULL;
}

const char *pw_batch_column_name(const pw_batch_reader *br, size_t c)
{
    return c < br->fields.n ? br->fields.name[c] : NULL;
}

void pw_batch_close(pw_batch_reader *br)
{
    if (!br)
        return;
    pw_merge_close(br->merge);
    pw_cursor_close(br->cursor);
    free(br->location);
    free(br->schema);
    free(br->type);
    free(br->clock);
    free(br->kind);
    free(br->has_end);
    free(br->t);
    free(br->t_end);
    free(br->vt);
    free(br->vt_end);
    pw_batch_columns_free(&br->fields);
    for (size_t i = 0; i < br->n_other; i++)
        free(br->other_types[i]);
    free(br->other_types);
    free(br);
}
