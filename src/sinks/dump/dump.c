/* dump.c — pw_dump: buffered records through the RECORDS sink of a style. */
#include <stdio.h>
#include <stdlib.h>

#include "sinks/dump/dump.h"

/* A copy of text[0..len) followed by PW_NAME_PAD readable bytes, so that
 * pw_dump_put_text can move it with one fixed-size copy. */
static char *padded_copy(const char *text, size_t len)
{
    char *p = calloc(1, len + PW_NAME_PAD);
    if (p)
        memcpy(p, text, len);
    return p;
}

/* The text the sink writes for a name: quoted and escaped as a JSON string
 * or plain; padded (see padded_copy).  scratch is a memory buffer reused
 * for every name (one allocation per name, not three: a dataset may have
 * hundreds of schemas and thousands of locations).  NULL when out of
 * memory. */
static char *style_text(const pw_dump *d, pw_outbuf *scratch, const char *s, size_t *len)
{
    scratch->len = 0;
    if (d->sink->quoted_names) {
        pw_out_json_string(scratch, s, strlen(s));
    } else {
        pw_out_str(scratch, s);
    }
    *len = scratch->len;
    return scratch->failed ? NULL : padded_copy(scratch->buf, scratch->len);
}

/* Renders every location path once, as the style writes it. */
static pw_status dump_prepare_locations(pw_dump *d, pw_outbuf *scratch, pw_error *err)
{
    size_t n = d->ds->n_locs;
    d->loc_text = calloc(n ? n : 1, sizeof *d->loc_text);
    d->loc_len = calloc(n ? n : 1, sizeof *d->loc_len);
    if (!d->loc_text || !d->loc_len)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < n; i++)
        if (!(d->loc_text[i] = style_text(d, scratch, d->ds->locs[i].path, &d->loc_len[i])))
            return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

/* Builds names[s][i] for every schema known now: all field texts of a
 * schema in one block, each padded to PW_NAME_PAD readable bytes; and the
 * schema's name as the style writes a record's type. */
static pw_status dump_prepare_names(pw_dump *d, pw_outbuf *scratch, pw_error *err)
{
    size_t n = d->ds->n_schemas;
    d->names = calloc(n ? n : 1, sizeof *d->names);
    d->types = calloc(n ? n : 1, sizeof *d->types);
    if (!d->names || !d->types)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    for (size_t s = 0; s < n; s++) {
        const pw_schema *sc = d->ds->schemas[s];
        char *type = style_text(d, scratch, sc->name, &d->types[s].len);
        if (!type)
            return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
        d->types[s].text = type;
        size_t bytes = sc->n_fields * sizeof(pw_dump_name) + PW_NAME_PAD;
        size_t around = strlen(d->sink->field_before) + strlen(d->sink->field_after);
        for (size_t i = 0; i < sc->n_fields; i++)
            bytes += strlen(sc->fields[i].name) + around;
        pw_dump_name *names = calloc(1, bytes);
        if (!names)
            return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
        d->names[s] = names;
        char *text = (char *)(names + sc->n_fields);
        for (size_t i = 0; i < sc->n_fields; i++) {
            const char *name = sc->fields[i].name;
            size_t len = strlen(name);
            names[i].text = text;
            text = stpcpy(text, d->sink->field_before);
            memcpy(text, name, len);
            text = stpcpy(text + len, d->sink->field_after);
            names[i].len = (size_t)(text - names[i].text);
        }
        d->n_named = s + 1;
    }
    return PW_OK;
}

static void dump_free(pw_dump *d)
{
    for (size_t s = 0; d->names && s < d->n_named; s++)
        free(d->names[s]);
    for (size_t s = 0; d->types && s < d->ds->n_schemas; s++)
        free((char *)d->types[s].text);
    free(d->names);
    free(d->types);
    for (size_t i = 0; d->loc_text && i < d->ds->n_locs; i++)
        free(d->loc_text[i]);
    free(d->loc_text);
    free(d->loc_len);
    pw_outbuf_free(&d->out);
    free(d);
}

pw_status pw_dump_open(pw_dataset *ds, FILE *out, pw_dump_style style, pw_dump **d, pw_error *err)
{
    *d = NULL;
    const pw_sink_records *sink = pw_sink_records_of(style);
    if (!sink)
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET, "unknown dump style %d", (int)style);
    pw_dump *n = calloc(1, sizeof *n);
    if (!n)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    pw_status s = pw_outbuf_init(&n->out, out, err);
    if (s != PW_OK) {
        free(n);
        return s;
    }
    n->ds = ds;
    n->sink = sink;
    n->format_record = sink->format_record;
    pw_outbuf scratch;
    s = pw_outbuf_init_memory(&scratch, 256, err);
    if (s == PW_OK) {
        s = dump_prepare_locations(n, &scratch, err);
        if (s == PW_OK)
            s = dump_prepare_names(n, &scratch, err);
        pw_outbuf_free(&scratch);
    }
    if (s != PW_OK) {
        dump_free(n);
        return s;
    }
    *d = n;
    return PW_OK;
}

pw_status pw_dump_record(pw_dump *d, const pw_record *rec, pw_error *err)
{
    pw_dump_format(d, &d->out, rec);
    if (d->out.failed) /* stop early when the reader of our output went away */
        return pw_outbuf_error(&d->out, err);
    return PW_OK;
}

pw_status pw_dump_close(pw_dump *d, pw_error *err)
{
    if (!d)
        return PW_OK;
    pw_status s = pw_outbuf_flush(&d->out, err);
    dump_free(d);
    return s;
}
