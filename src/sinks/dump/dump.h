/* dump.h — the record pipeline behind pw_dump: prepared names and the
 * RECORDS sink (text, JSON Lines, ...) that formats each record. */
#ifndef PW_SINKS_DUMP_H
#define PW_SINKS_DUMP_H
#include "core/outbuf.h"
#include "model/dataset.h"
#include "sinks/sink.h"

/* A piece of text prepared once (a field's name as written before its
 * value, a type, a location), padded so that it can be copied with a
 * fixed-size move: PW_NAME_PAD bytes from text are always readable. */
#define PW_NAME_PAD 64
typedef struct pw_dump_name {
    const char *text;
    size_t len;
} pw_dump_name;

/* Appends a prepared text: one fixed move when it is short enough. */
static inline void pw_dump_put_text(pw_outbuf *o, const char *text, size_t len)
{
    if (len <= PW_NAME_PAD && o->cap - o->len >= PW_NAME_PAD) {
        memcpy(o->buf + o->len, text, PW_NAME_PAD);
        o->len += len;
    } else {
        pw_out_mem(o, text, len);
    }
}

/* A buffered record writer to `out` (which the caller keeps open and
 * closes), behind pw_dump_all: writes go through a large private buffer;
 * pw_dump_close flushes. */
pw_status pw_dump_open(pw_dataset *ds, FILE *out, pw_dump_style style, pw_dump **d, pw_error *err);
pw_status pw_dump_record(pw_dump *d, const pw_record *rec, pw_error *err);
pw_status pw_dump_close(pw_dump *d, pw_error *err);

struct pw_dump {
    pw_dataset *ds;
    pw_outbuf out;
    const pw_sink_records *sink; /* the RECORDS functions of the style */
    /* sink->format_record, kept here: one load less per record */
    void (*format_record)(const pw_dump *d, pw_outbuf *o, const pw_record *rec, const pw_schema *sc,
                          const pw_value *vals);
    /* Per location, its path as it is written: quoted and escaped for JSON
     * Lines, plain for text (formatted once, padded, copied per record). */
    char **loc_text;
    size_t *loc_len;
    /* Per schema, its name as the style writes a type (padded). */
    pw_dump_name *types;
    /* Per schema, per field, the text written before its value, as the
     * style writes it (" name=" or ",\"name\":"), built once at open:
     * names[s][i] for schemas s < n_named (later schemas go the slow way). */
    pw_dump_name **names;
    size_t n_named;
};

/* Append one record, as the sink writes it, to o (d->out or a memory
 * buffer of a worker thread: d is only read), given its schema and its
 * decoded values (from the cursor, or a copy of them made by another
 * thread: the writers never touch rec->cursor nor d->ds->schemas). */
static inline void pw_dump_format_values(const pw_dump *d, pw_outbuf *o, const pw_record *rec,
                                         const pw_schema *sc, const pw_value *vals)
{
    d->format_record(d, o, rec, sc, vals);
}
/* The same for a record still owned by its cursor (decoded here). */
static inline void pw_dump_format(const pw_dump *d, pw_outbuf *o, const pw_record *rec)
{
    pw_dump_format_values(d, o, rec, d->ds->schemas[rec->schema], pw_record_fields(rec));
}
/* Writes the name part of field i of schema sc before its value. */
static inline void pw_dump_put_name(const pw_dump *d, pw_outbuf *o, const pw_schema *sc, size_t i)
{
    if (sc->index < d->n_named) {
        const pw_dump_name *n = &d->names[sc->index][i];
        pw_dump_put_text(o, n->text, n->len);
        return;
    }
    pw_out_str(o, d->sink->field_before);
    pw_out_str(o, sc->fields[i].name);
    pw_out_str(o, d->sink->field_after);
}
/* Writes the record's location path as the style writes it. */
static inline void pw_dump_put_location(const pw_dump *d, pw_outbuf *o, const pw_record *rec)
{
    pw_dump_put_text(o, d->loc_text[rec->location], d->loc_len[rec->location]);
}
/* Whether the record's type is its schema's name, prepared at open (else
 * the writer formats rec->type itself). */
static inline const pw_dump_name *pw_dump_schema_type(const pw_dump *d, const pw_record *rec,
                                                      const pw_schema *sc)
{
    return rec->type == sc->name && sc->index < d->n_named ? &d->types[sc->index] : NULL;
}
#endif
