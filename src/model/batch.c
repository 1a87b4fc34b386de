/* batch.c — pw_batch: records in columns, many per call, for bindings
 * (Python/numpy) that must not pay one foreign call per record. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/outbuf.h"
#include "sinks/dump/dump.h"

#define BATCH_DEFAULT_CAPACITY 65536

struct pw_batch_reader {
    pw_dataset *ds;
    pw_merge *merge;    /* all locations, or NULL */
    pw_cursor *cursor;  /* one location, or NULL */
    size_t capacity;
    pw_batch batch;
    /* Column storage behind batch's const pointers. */
    uint32_t *location, *schema, *type;
    uint8_t *clock, *kind, *has_end;
    int64_t *t, *t_end;
    double *vt, *vt_end;
    uint64_t *first_cell;
    uint8_t *cell_kind;
    uint64_t *cell;
    size_t cell_cap;
    pw_outbuf text;
    /* Type names that are not their schema's name (ids n_schemas + i). */
    char **extra_types;
    size_t n_extra, extra_cap;
    int done;
    pw_status pending; /* an error met after the records of the last batch */
    pw_error pending_err;
};

static pw_status batch_nomem(pw_error *err)
{
    return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory for a record batch");
}

/* The per-record columns, `capacity` entries each, allocated once. */
static int batch_alloc_columns(pw_batch_reader *br)
{
    size_t n = br->capacity;
    br->location = malloc(n * sizeof *br->location);
    br->schema = malloc(n * sizeof *br->schema);
    br->type = malloc(n * sizeof *br->type);
    br->clock = malloc(n);
    br->t = malloc(n * sizeof *br->t);
    br->vt = malloc(n * sizeof *br->vt);
    br->kind = malloc(n);
    br->has_end = malloc(n);
    br->t_end = malloc(n * sizeof *br->t_end);
    br->vt_end = malloc(n * sizeof *br->vt_end);
    br->first_cell = malloc(n * sizeof *br->first_cell);
    br->cell_cap = n * 4;
    br->cell_kind = malloc(br->cell_cap);
    br->cell = malloc(br->cell_cap * sizeof *br->cell);
    return br->location && br->schema && br->type && br->clock && br->t && br->vt &&
           br->kind && br->has_end && br->t_end && br->vt_end &&
           br->first_cell && br->cell_kind && br->cell;
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
    pw_status s = pw_outbuf_init_memory(&br->text, 1 << 16, err);
    if (s != PW_OK) {
        free(br);
        return s;
    }
    if (!batch_alloc_columns(br))
        s = batch_nomem(err);
    else if (location < 0)
        s = pw_merge_open(ds, &br->merge, err);
    else
        s = pw_cursor_open(ds, (uint32_t)location, &br->cursor, err);
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
    uint32_t base = (uint32_t)pw_schema_count(br->ds);
    for (size_t i = 0; i < br->n_extra; i++)
        if (strcmp(br->extra_types[i], rec->type) == 0)
            return base + (uint32_t)i;
    if (br->n_extra == br->extra_cap) {
        size_t cap = br->extra_cap ? br->extra_cap * 2 : 8;
        char **grown = realloc(br->extra_types, cap * sizeof *grown);
        if (!grown)
            return UINT32_MAX;
        br->extra_types = grown;
        br->extra_cap = cap;
    }
    char *name = strdup(rec->type);
    if (!name)
        return UINT32_MAX;
    br->extra_types[br->n_extra] = name;
    return base + (uint32_t)br->n_extra++;
}

/* Room for n more cells (the cell arrays double as records need). */
static int batch_reserve_cells(pw_batch_reader *br, size_t used, size_t n)
{
    if (br->cell_cap - used >= n)
        return 1;
    size_t cap = br->cell_cap;
    while (cap - used < n)
        cap *= 2;
    uint8_t *kind = realloc(br->cell_kind, cap);
    if (kind)
        br->cell_kind = kind;
    uint64_t *cell = realloc(br->cell, cap * sizeof *cell);
    if (cell)
        br->cell = cell;
    if (!kind || !cell)
        return 0;
    br->cell_cap = cap;
    return 1;
}

/* One value into one cell: numbers as themselves, the rest as JSON text. */
static void batch_cell(pw_batch_reader *br, size_t c, const pw_value *v)
{
    uint8_t kind = PW_CELL_ABSENT;
    uint64_t bits = 0;
    double f;
    if (v->present) {
        switch (v->type) {
        case PW_T_BOOL: kind = PW_CELL_BOOL; bits = v->v.b != 0; break;
        case PW_T_I64: kind = PW_CELL_I64; memcpy(&bits, &v->v.i, 8); break;
        case PW_T_U64: kind = PW_CELL_U64; bits = v->v.u; break;
        case PW_T_F64:
        case PW_T_DECIMAL:
            f = pw_value_number(v);
            kind = f != f || f - f != 0 ? PW_CELL_NULL : PW_CELL_F64;
            memcpy(&bits, &f, 8);
            break;
        default:
            kind = PW_CELL_JSON;
            bits = br->text.len;
            pw_jsonl_value(&br->text, v);
            pw_out_char(&br->text, '\n');
            break;
        }
    }
    br->cell_kind[c] = kind;
    br->cell[c] = bits;
}

/* Appends record rec as row r; 0 when out of memory. */
static int batch_add(pw_batch_reader *br, size_t r, const pw_record *rec, size_t *n_cells)
{
    const pw_schema *sc = pw_schema_get(br->ds, rec->schema);
    uint32_t type = batch_type_id(br, rec);
    if (type == UINT32_MAX || !batch_reserve_cells(br, *n_cells, sc->n_fields))
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
    br->first_cell[r] = *n_cells;
    const pw_value *vals = sc->n_fields ? pw_record_fields(rec) : NULL;
    for (size_t i = 0; i < sc->n_fields; i++)
        batch_cell(br, *n_cells + i, &vals[i]);
    *n_cells += sc->n_fields;
    return !br->text.failed;
}

/* Publishes the filled columns as the batch. */
static const pw_batch *batch_publish(pw_batch_reader *br, size_t n, size_t n_cells)
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
    b->first_cell = br->first_cell;
    b->n_cells = n_cells;
    b->cell_kind = br->cell_kind;
    b->cell = br->cell;
    b->text_len = br->text.len;
    b->text = br->text.buf;
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
    size_t n = 0, n_cells = 0;
    br->text.len = 0;
    pw_status s = PW_OK;
    while (n < br->capacity) {
        const pw_record *rec;
        s = br->merge ? pw_merge_next(br->merge, &rec, err) : pw_cursor_next(br->cursor, &rec, err);
        if (s != PW_OK)
            break;
        if (!batch_add(br, n, rec, &n_cells)) {
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
    *out = batch_publish(br, n, n_cells);
    return PW_OK;
}

const char *pw_batch_type_name(const pw_batch_reader *br, uint32_t id)
{
    size_t base = pw_schema_count(br->ds);
    if (id < base)
        return pw_schema_get(br->ds, id)->name;
    return id - base < br->n_extra ? br->extra_types[id - base] : NULL;
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
    free(br->t);
    free(br->vt);
    free(br->kind);
    free(br->has_end);
    free(br->t_end);
    free(br->vt_end);
    free(br->first_cell);
    free(br->cell_kind);
    free(br->cell);
    pw_outbuf_free(&br->text);
    for (size_t i = 0; i < br->n_extra; i++)
        free(br->extra_types[i]);
    free(br->extra_types);
    free(br);
}
