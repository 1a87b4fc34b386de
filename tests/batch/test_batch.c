/* test_batch.c — pw_batch gives, column by column, exactly what pw_merge
 * and pw_cursor_next give record by record: same order, locations,
 * schemas, types, times, span ends and field values (numbers in cells,
 * other values as one '\n'-ended JSON text each), with batches small
 * enough to split the input many times.  Runs on one fixture per format. */
#include <math.h>

#include "harness.h"
#include "perfweave.h"

#define SMALL_BATCH 7

/* Field i of a record against its cell in the batch. */
static void check_cell(const pw_batch *b, uint64_t c, const pw_value *v)
{
    uint8_t kind = b->cell_kind[c];
    uint64_t bits = b->cell[c];
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
    default:
        CHECK_EQ_INT(kind, PW_CELL_JSON);
        CHECK(bits < b->text_len && b->text[bits] != '\n' &&
              memchr(b->text + bits, '\n', b->text_len - bits) != NULL);
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
    CHECK(b->first_cell[r] + sc->n_fields <= b->n_cells);
    for (size_t i = 0; i < sc->n_fields; i++)
        check_cell(b, b->first_cell[r] + i, &vals[i]);
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
