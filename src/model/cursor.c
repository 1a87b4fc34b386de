/* cursor.c — the format-independent side of cursors: lifetime, lazy field
 * decoding, and turning damage into diagnostics. */
#include <stdlib.h>
#include <string.h>

#include "core/window.h"
#include "model/dataset.h"
#include "model/filter.h"

/* A cursor of loc testing its records against `filter` (NULL: none). */
static pw_status cursor_open_filtered(pw_dataset *ds, uint32_t loc, size_t window_cap,
                                      const struct pw_filter_state *filter, pw_cursor **out,
                                      pw_error *err)
{
    *out = NULL;
    int readable = loc < ds->n_locs && (filter == ds->filter ? ds->locs[loc].has_records
                                                               : pw_ds_history_has_records(ds, loc));
    if (!readable)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                       "location %u has no records to read", loc);
    pw_cursor *c = calloc(1, sizeof *c);
    if (!c)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    c->ds = ds;
    c->location = loc;
    c->window_cap = window_cap;
    c->rec.cursor = c;
    c->rec.location = loc;
    c->filter = filter;
    pw_arena_init(&c->scratch, 16 * 1024);
    /* Schemas are fixed once the dataset is open: size the field array for
     * the widest one now, so decoding never allocates. */
    c->values_cap = ds->max_fields ? ds->max_fields : 1;
    c->values = calloc(c->values_cap, sizeof *c->values);
    pw_status s = c->values ? ds->fmt->cursor_open(ds, c, err)
                            : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    if (s != PW_OK) {
        free(c->values);
        pw_arena_free(&c->scratch);
        free(c);
        return s;
    }
    *out = c;
    return PW_OK;
}

pw_status pw_cursor_open_sized(pw_dataset *ds, uint32_t loc, size_t window_cap, pw_cursor **out,
                               pw_error *err)
{
    return cursor_open_filtered(ds, loc, window_cap, ds->filter, out, err);
}

pw_status pw_cursor_open_history(pw_dataset *ds, uint32_t loc, size_t window_cap, pw_cursor **out,
                                 pw_error *err)
{
    return cursor_open_filtered(ds, loc, window_cap, ds->filter ? ds->filter->history : NULL, out, err);
}

pw_status pw_cursor_open_whole_run(pw_dataset *ds, uint32_t loc, size_t window_cap, pw_cursor **out,
                                   pw_error *err)
{
    return cursor_open_filtered(ds, loc, window_cap, NULL, out, err);
}

pw_status pw_cursor_open(pw_dataset *ds, uint32_t loc, pw_cursor **out, pw_error *err)
{
    return pw_cursor_open_sized(ds, loc, PW_WINDOW_DEFAULT_CAP, out, err);
}

void pw_cursor_note_damage(pw_cursor *c, const pw_error *err)
{
    const char *code = c->err_code ? c->err_code : err->status == PW_E_DATA ? "damaged" : "unreadable";
    pw_ds_diag_error(c->ds, PW_SEV_ERROR, code, err);
}

pw_status pw_cursor_next(pw_cursor *c, const pw_record **rec, pw_error *err)
{
    pw_error local;
    pw_status s = pw_cursor_step(c, err ? err : &local);
    *rec = s == PW_OK ? &c->rec : NULL;
    return s;
}

void pw_cursor_close(pw_cursor *c)
{
    if (!c)
        return;
    if (c->ops && c->ops->close)
        c->ops->close(c);
    free(c->values);
    pw_arena_free(&c->scratch);
    free(c);
}

/* Values as decoders receive them: absent, of their field's type; the
 * rest is never read. */
static void values_blank(const pw_schema *sc, pw_value *values)
{
    for (size_t i = 0; i < sc->n_fields; i++) {
        values[i].type = sc->fields[i].type;
        values[i].present = 0;
    }
}

void pw_record_decode_into(const pw_record *rec, pw_value *values)
{
    pw_cursor *c = rec->cursor;
    const pw_schema *sc = c->ds->schemas[rec->schema];
    if (c->decoded) {
        memcpy(values, c->values, sc->n_fields * sizeof *values);
        return;
    }
    if (!c->ops->sets_absent)
        values_blank(sc, values);
    pw_arena_reset(&c->scratch);
    c->ops->decode(c, values);
}

void pw_snapshot_decode(const pw_dataset *ds, const pw_cursor_ops *ops, const pw_schema *sc,
                        const pw_record *rec, const void *snap, size_t n, pw_arena *scratch,
                        pw_value *values)
{
    if (!ops->sets_absent)
        values_blank(sc, values);
    ops->decode_snapshot(ds, rec, snap, n, scratch, values);
}

const pw_value *pw_record_fields(const pw_record *rec)
{
    pw_cursor *c = rec->cursor;
    if (!c->decoded) {
        pw_record_decode_into(rec, c->values);
        c->decoded = 1;
    }
    return c->values;
}
