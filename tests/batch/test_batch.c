/* test_batch.c — pw_batch gives, column by column, exactly what pw_merge
 * and pw_cursor_next give record by record: same order, locations,
 * schemas, types, times, span ends and field values (numbers in cells,
 * other values as one '\n'-ended JSON text each), with batches small
 * enough to split the input many times.  Runs on one fixture per format. */
#include <math.h>

#include "harness.h"
#include "perfweave.h"

#define SMALL_BATCH 7

/* A text cell: it starts with prefix[0..n) and ends at a '\n' inside
 * text; a string held as itself (exact != 0) is exactly prefix[0..n). */
static void check_text(const pw_batch *b, uint8_t kind, uint64_t off, const char *prefix, size_t n,
                       int exact)
{
    CHECK(kind == PW_CELL_TEXT || kind == PW_CELL_JSON);
    CHECK(off < b->text_len);
    if (off >= b->text_len)
        return;
    const char *end = memchr(b->text + off, '\n', b->text_len - off);
    CHECK(end != NULL);
    size_t len = end ? (size_t)(end - (b->text + off)) : 0;
    CHECK(len >= n && memcmp(b->text + off, prefix, n) == 0);
    if (exact)
        CHECK_EQ_INT(len, n);
}

/* A field of a record against its cell in the batch. */
static void check_cell(const pw_batch *b, uint8_t kind, uint64_t bits, const pw_value *v)
{
    if (!v->present) {
        CHECK_EQ_INT(kind, PW_CELL_ABSENT);
        return;
    }
    int64_t i;
    double f;
    memcpy(&i, &bits, 8);
    memcpy(&f, &bits, 8);
    switch (v->type) {
    case PW_T_BOOL: CHECK(kind == PW_CELL_BOOL && i == (v->v.b != 0)); break;
    case PW_T_I64: CHECK(kind == PW_CELL_I64 && i == v->v.i); break;
    case PW_T_U64: CHECK(kind == PW_CELL_U64 && bits == v->v.u); break;
    case PW_T_F64:
    case PW_T_DECIMAL:
        if (isfinite(pw_value_number(v)))
            CHECK(kind == PW_CELL_F64 && f == pw_value_number(v));
        else
            CHECK_EQ_INT(kind, PW_CELL_NULL);
        break;
    case PW_T_BYTES: /* ":hh" per byte */
        CHECK_EQ_INT(kind, PW_CELL_TEXT);
        check_text(b, kind, bits, ":", v->v.bytes.n ? 1 : 0, !v->v.bytes.n);
        break;
    case PW_T_STR:
        if (kind == PW_CELL_TEXT)
            check_text(b, kind, bits, v->v.s.p, v->v.s.n, 1);
        else
            check_text(b, kind, bits, "\"", 1, 0); /* JSON: it needs escapes */
        break;
    default:
        CHECK_EQ_INT(kind, PW_CELL_JSON);
        check_text(b, kind, bits, v->type == PW_T_LIST ? "[" : "{", 1, 0);
        break;
    }
}

/* Row r of batch b against record rec. */
static void check_row(pw_dataset *ds, const pw_batch_reader *br, const pw_batch *b, size_t r,
                      const pw_record *rec)
{
    CHECK_EQ_INT(b->location[r], rec->location);
    CHECK_EQ_INT(b->schema[r], rec->schema);
    CHECK_STR(pw_batch_type_name(br, b->type[r]), rec->type);
    CHECK_EQ_INT(b->clock[r], rec->clock);
    CHECK_EQ_INT(b->kind[r], rec->kind);
    if (rec->clock == PW_CLOCK_NS)
        CHECK_EQ_INT(b->t[r], rec->t);
    if (rec->clock == PW_CLOCK_VIRTUAL)
        CHECK(b->vt[r] == rec->vt);
    CHECK_EQ_INT(b->has_end[r], rec->has_end != 0);
    if (rec->has_end)
        CHECK(b->t_end[r] == rec->t_end && b->vt_end[r] == rec->vt_end);
    const pw_schema *sc = pw_schema_get(ds, rec->schema);
    const pw_value *vals = sc->n_fields ? pw_record_fields(rec) : NULL;
    for (size_t i = 0; i < sc->n_fields; i++) {
        size_t c = 0;
        while (c < b->n_columns && strcmp(pw_batch_column_name(br, c), sc->fields[i].name))
            c++;
        CHECK(c < b->n_columns);
        if (c == b->n_columns)
            continue;
        if (b->column_used[c])
            check_cell(b, b->column_kind[c][r], b->column[c][r], &vals[i]);
        else
            CHECK(!vals[i].present);
    }
    /* No other column holds a value for this row (none left from an
     * earlier batch either). */
    size_t held = 0, present = 0;
    for (size_t c = 0; c < b->n_columns; c++)
        held += b->column_used[c] && b->column_kind[c][r] != PW_CELL_ABSENT;
    for (size_t i = 0; i < sc->n_fields; i++)
        present += vals[i].present != 0;
    CHECK_EQ_INT(held, present);
}

/* The batches of `location` (-1: the merge) against the record calls on a
 * second opening of the same path; returns the record count. */
static uint64_t compare_reader(const char *path, int64_t location)
{
    pw_dataset *a = NULL, *b = NULL;
    pw_error err;
    CHECK(pw_open(path, NULL, &a, &err) == PW_OK);
    CHECK(pw_open(path, NULL, &b, &err) == PW_OK);
    if (!a || !b) {
        pw_close(a);
        pw_close(b);
        return 0;
    }
    pw_merge *m = NULL;
    pw_cursor *cur = NULL;
    pw_batch_reader *br = NULL;
    if (location < 0)
        CHECK(pw_merge_open(a, &m, &err) == PW_OK);
    else
        CHECK(pw_cursor_open(a, (uint32_t)location, &cur, &err) == PW_OK);
    CHECK(pw_batch_open(b, location, SMALL_BATCH, &br, &err) == PW_OK);
    uint64_t n = 0;
    const pw_batch *batch;
    while (br && pw_batch_next(br, &batch, &err) == PW_OK) {
        CHECK(batch->n > 0 && batch->n <= SMALL_BATCH);
        for (size_t r = 0; r < batch->n; r++, n++) {
            const pw_record *rec;
            pw_status s = m ? pw_merge_next(m, &rec, &err) : pw_cursor_next(cur, &rec, &err);
            CHECK_EQ_INT(s, PW_OK);
            if (s != PW_OK)
                break;
            check_row(a, br, batch, r, rec);
        }
    }
    const pw_record *rec;
    CHECK((m ? pw_merge_next(m, &rec, &err) : pw_cursor_next(cur, &rec, &err)) == PW_END);
    CHECK(pw_batch_next(br, &batch, &err) == PW_END);
    pw_batch_close(br);
    pw_merge_close(m);
    pw_cursor_close(cur);
    pw_close(a);
    pw_close(b);
    return n;
}

/* The merge, then every location alone: the locations sum to the merge. */
static void compare_path(const char *path)
{
    uint64_t merged = compare_reader(path, -1);
    CHECK(merged > 0);
    pw_dataset *ds;
    pw_error err;
    if (pw_open(path, NULL, &ds, &err) != PW_OK)
        return;
    uint64_t sum = 0;
    for (size_t i = 0; i < pw_location_count(ds); i++)
        if (pw_location_get(ds, i)->has_records)
            sum += compare_reader(path, (int64_t)i);
    CHECK_EQ_INT(sum, merged);
    pw_batch_reader *br;
    CHECK(pw_batch_open(ds, (int64_t)pw_location_count(ds), 0, &br, &err) == PW_E_USAGE);
    pw_close(ds);
}

static void batch_ovni(void) { compare_path(PW_SOURCE_DIR "/examples/ovni/mpi-func"); }
static void batch_dumpi(void) { compare_path(PW_SHARED_DATA_DIR "/dumpi/nonblock4"); }
static void batch_ross(void) { compare_path(PW_SHARED_DATA_DIR "/ross/phold-np2-model"); }
static void batch_hpctoolkit(void)
{
    compare_path(PW_SHARED_DATA_DIR "/hpctoolkit/hatchet/hpctoolkit-cpi-database@79c009b");
}

TEST_MAIN(T(batch_ovni), T(batch_dumpi), T(batch_ross), T(batch_hpctoolkit))
