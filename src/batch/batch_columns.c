/* batch_columns.c — field values of a batch, column by column: numbers in
 * 8-byte cells, other values as text (see pw_batch in perfweave.h). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "batch/batch_columns.h"
#include "sinks/jsonl/jsonl_dump.h"

pw_status pw_batch_columns_init(pw_batch_columns *bc, pw_dataset *ds, size_t capacity,
                                pw_error *err)
{
    memset(bc, 0, sizeof *bc);
    bc->ds = ds;
    bc->capacity = capacity;
    return pw_outbuf_init_memory(&bc->text, 1 << 16, err);
}

/* The column named `name`, made when new; UINT32_MAX when out of memory. */
static uint32_t column_named(pw_batch_columns *bc, const char *name)
{
    for (size_t c = 0; c < bc->n; c++)
        if (strcmp(bc->name[c], name) == 0)
            return (uint32_t)c;
    if (bc->n == bc->cap) {
        size_t cap = bc->cap ? bc->cap * 2 : 16;
        const char **names = realloc(bc->name, cap * sizeof *names);
        if (names)
            bc->name = names;
        uint8_t **kind = realloc(bc->kind, cap * sizeof *kind);
        if (kind)
            bc->kind = kind;
        uint64_t **cell = realloc(bc->cell, cap * sizeof *cell);
        if (cell)
            bc->cell = cell;
        uint8_t *used = realloc(bc->used, cap);
        if (used)
            bc->used = used;
        if (!names || !kind || !cell || !used)
            return UINT32_MAX;
        bc->cap = cap;
    }
    bc->name[bc->n] = name;
    bc->kind[bc->n] = NULL;
    bc->cell[bc->n] = NULL;
    bc->used[bc->n] = 0;
    return (uint32_t)bc->n++;
}

/* Maps the fields of every schema up to `schema` to their columns (schemas
 * a format adds while reading are mapped when first met); 0 when out of
 * memory. */
static int columns_map(pw_batch_columns *bc, uint32_t schema)
{
    while (bc->n_mapped <= schema) {
        if (bc->n_mapped == bc->mapped_cap) {
            size_t cap = bc->mapped_cap ? bc->mapped_cap * 2 : 64;
            uint32_t **grown = realloc(bc->column_of, cap * sizeof *grown);
            if (!grown)
                return 0;
            bc->column_of = grown;
            bc->mapped_cap = cap;
        }
        const pw_schema *sc = pw_schema_get(bc->ds, bc->n_mapped);
        uint32_t *cols = malloc((sc->n_fields ? sc->n_fields : 1) * sizeof *cols);
        if (!cols)
            return 0;
        bc->column_of[bc->n_mapped++] = cols;
        for (size_t i = 0; i < sc->n_fields; i++)
            if ((cols[i] = column_named(bc, sc->fields[i].name)) == UINT32_MAX)
                return 0;
    }
    return 1;
}

void pw_batch_columns_clear(pw_batch_columns *bc, size_t rows)
{
    for (size_t c = 0; c < bc->n; c++) {
        if (bc->used[c])
            memset(bc->kind[c], PW_CELL_ABSENT, rows);
        bc->used[c] = 0;
    }
    bc->text.len = 0;
}

/* Whether a string can be held as itself: printable ASCII (no newline to
 * end it early, no bytes a binding would have to decode). */
static int printable_ascii(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)p[i] < 0x20 || (unsigned char)p[i] > 0x7e)
            return 0;
    return 1;
}

/* A value that is not a number, appended to the texts: its kind, and its
 * offset in *bits. */
static uint8_t column_text(pw_batch_columns *bc, const pw_value *v, uint64_t *bits)
{
    uint8_t kind = PW_CELL_JSON;
    *bits = bc->text.len;
    if (v->type == PW_T_BYTES) {
        kind = PW_CELL_TEXT;
        pw_out_hex_colons(&bc->text, v->v.bytes.p, v->v.bytes.n);
    } else if (v->type == PW_T_STR && printable_ascii(v->v.s.p, v->v.s.n)) {
        kind = PW_CELL_TEXT;
        pw_out_mem(&bc->text, v->v.s.p, v->v.s.n);
    } else { /* JSON escapes what is not plain */
        pw_jsonl_value(&bc->text, v);
    }
    pw_out_char(&bc->text, '\n');
    return kind;
}

/* One present value: its kind, and its 8 bytes in *bits. */
static uint8_t column_cell(pw_batch_columns *bc, const pw_value *v, uint64_t *bits)
{
    double f;
    switch (v->type) {
    case PW_T_BOOL: *bits = v->v.b != 0; return PW_CELL_BOOL;
    case PW_T_I64: memcpy(bits, &v->v.i, 8); return PW_CELL_I64;
    case PW_T_U64: *bits = v->v.u; return PW_CELL_U64;
    case PW_T_F64:
    case PW_T_DECIMAL:
        f = pw_value_number(v);
        memcpy(bits, &f, 8);
        return f != f || f - f != 0 ? PW_CELL_NULL : PW_CELL_F64;
    default: return column_text(bc, v, bits);
    }
}

/* Column c's arrays, allocated (all absent) on first use; 0 when out of memory. */
static int column_ready(pw_batch_columns *bc, uint32_t c)
{
    if (bc->kind[c])
        return 1;
    bc->kind[c] = calloc(bc->capacity, 1);
    bc->cell[c] = malloc(bc->capacity * sizeof(uint64_t));
    return bc->kind[c] && bc->cell[c];
}

int pw_batch_columns_add(pw_batch_columns *bc, size_t r, const pw_record *rec)
{
    const pw_schema *sc = pw_schema_get(bc->ds, rec->schema);
    if (!sc->n_fields)
        return 1;
    if (rec->schema >= bc->n_mapped && !columns_map(bc, rec->schema))
        return 0;
    const uint32_t *cols = bc->column_of[rec->schema];
    const pw_value *vals = pw_record_fields(rec);
    for (size_t i = 0; i < sc->n_fields; i++) {
        if (!vals[i].present)
            continue;
        uint32_t c = cols[i];
        if (!column_ready(bc, c))
            return 0;
        bc->kind[c][r] = column_cell(bc, &vals[i], &bc->cell[c][r]);
        bc->used[c] = 1;
    }
    return !bc->text.failed;
}

void pw_batch_columns_publish(const pw_batch_columns *bc, pw_batch *b)
{
    b->n_columns = bc->n;
    b->column_used = bc->used;
    b->column_kind = (const uint8_t *const *)bc->kind;
    b->column = (const uint64_t *const *)bc->cell;
    b->text_len = bc->text.len;
    b->text = bc->text.buf;
}

void pw_batch_columns_free(pw_batch_columns *bc)
{
    for (size_t s = 0; s < bc->n_mapped; s++)
        free(bc->column_of[s]);
    free(bc->column_of);
    for (size_t c = 0; c < bc->n; c++) {
        free(bc->kind[c]);
        free(bc->cell[c]);
    }
    free(bc->name);
    free(bc->kind);
    free(bc->cell);
    free(bc->used);
    pw_outbuf_free(&bc->text);
}
