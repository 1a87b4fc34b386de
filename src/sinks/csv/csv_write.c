/* csv_write.c — a directory of CSV files (RFC 4180): one per record type
 * (columns: table_columns.h), plus locations.csv and metadata.csv.
 *
 * Files are opened on the first record of their type; one shared output
 * buffer moves between them (each FILE keeps a 64 KiB stdio buffer), so
 * memory stays small with hundreds of record types.  When too many are
 * open, the oldest is closed and later reopened for appending. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/outbuf.h"
#include "sinks/convert/convert.h"
#include "sinks/convert/table_columns.h"
#include "sinks/convert/value_text.h"

#ifndef CSV_MAX_OPEN /* a test build lowers it to exercise reopening */
#define CSV_MAX_OPEN 256
#endif

typedef struct csv_table {
    FILE *f;
    int created; /* header written; reopen with "ab" */
} csv_table;

typedef struct csv_writer {
    pw_dataset *ds;
    const char *dir;
    csv_table *tables; /* per schema */
    const char **names; /* per schema: its file's base name */
    uint32_t *open_order; /* FIFO of schemas with an open file */
    size_t n_open, oldest;
    pw_outbuf out;
    pw_text text;
} csv_writer;

/* A cell; quoted (with doubled quotes) when it holds a separator. */
static void csv_cell(pw_outbuf *o, const char *s, size_t n)
{
    if (!memchr(s, ',', n) && !memchr(s, '"', n) && !memchr(s, '\n', n) && !memchr(s, '\r', n)) {
        pw_out_mem(o, s, n);
        return;
    }
    pw_out_char(o, '"');
    for (const char *q; (q = memchr(s, '"', n)) != NULL; n -= (size_t)(q + 1 - s), s = q + 1) {
        pw_out_mem(o, s, (size_t)(q + 1 - s));
        pw_out_char(o, '"');
    }
    pw_out_mem(o, s, n);
    pw_out_char(o, '"');
}

/* A file name from a table name: [A-Za-z0-9._-] kept, others as %XX hex,
 * so "6W[" and "6W]" stay distinct ("6W%5b", "6W%5d"). */
static void csv_file_name(char *buf, size_t cap, const char *dir, const char *type)
{
    size_t n = (size_t)snprintf(buf, cap, "%s/", dir);
    for (const char *c = type; *c && n + 8 < cap; c++) {
        unsigned char u = (unsigned char)*c;
        if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '.' || u == '-' || u == '_')
            buf[n++] = (char)u;
        else
            n += (size_t)snprintf(buf + n, cap - n, "%%%02x", u);
    }
    snprintf(buf + n, cap - n, ".csv");
}

/* Points the shared buffer at the file of schema i, opening it if needed. */
static pw_status csv_select(csv_writer *w, uint32_t i, pw_error *err)
{
    csv_table *t = &w->tables[i];
    if (w->out.out == t->f && t->f)
        return PW_OK;
    if (w->out.out) /* what is buffered belongs to the previous file */
        pw_outbuf_drain(&w->out, 0);
    w->out.out = t->f;
    if (t->f)
        return PW_OK;
    if (w->n_open == CSV_MAX_OPEN) { /* close the oldest */
        uint32_t old = w->open_order[w->oldest];
        fclose(w->tables[old].f);
        w->tables[old].f = NULL;
        w->open_order[w->oldest] = i;
        w->oldest = (w->oldest + 1) % CSV_MAX_OPEN;
    } else {
        w->open_order[w->n_open++] = i;
    }
    const pw_schema *sc = w->ds->schemas[i];
    char path[4096];
    csv_file_name(path, sizeof path, w->dir, w->names[i]);
    t->f = fopen(path, t->created ? "ab" : "wb");
    if (!t->f)
        return pw_fail_errno(err, path, "cannot create");
    setvbuf(t->f, NULL, _IOFBF, 64 * 1024);
    w->out.out = t->f;
    if (!t->created) {
        t->created = 1;
        pw_out_str(&w->out, "loc,t,type");
        for (size_t k = 0; k < sc->n_fields; k++) {
            char buf[256];
            const char *name = pw_column_name(&sc->fields[k], buf, sizeof buf);
            pw_out_char(&w->out, ',');
            csv_cell(&w->out, name, strlen(name));
        }
        pw_out_char(&w->out, '\n');
    }
    return PW_OK;
}

static void csv_value(csv_writer *w, const pw_value *v)
{
    pw_outbuf *o = &w->out;
    if (!v->present)
        return;
    switch (v->type) {
    case PW_T_I64: pw_out_i64(o, v->v.i); break;
    case PW_T_U64: pw_out_u64(o, v->v.u); break;
    case PW_T_F64: pw_out_f64(o, v->v.f); break;
    case PW_T_DECIMAL: pw_out_decimal(o, v->v.dec.units, v->v.dec.scale); break;
    case PW_T_STR: csv_cell(o, v->v.s.p, v->v.s.n); break;
    default:
        pw_value_text(&w->text, v);
        csv_cell(o, w->text.p, w->text.n);
        break;
    }
}

static pw_status csv_record(void *ctx, const pw_record *rec, pw_error *err)
{
    csv_writer *w = ctx;
    pw_status s = csv_select(w, rec->schema, err);
    if (s != PW_OK)
        return s;
    pw_outbuf *o = &w->out;
    pw_out_u64(o, rec->location);
    pw_out_char(o, ',');
    if (rec->clock == PW_CLOCK_NS)
        pw_out_i64(o, rec->t);
    else if (rec->clock == PW_CLOCK_VIRTUAL)
        pw_out_f64(o, rec->vt);
    pw_out_char(o, ',');
    csv_cell(o, rec->type, strlen(rec->type));
    const pw_schema *sc = w->ds->schemas[rec->schema];
    const pw_value *v = sc->n_fields ? pw_record_fields(rec) : NULL;
    for (size_t i = 0; i < sc->n_fields; i++) {
        pw_out_char(o, ',');
        csv_value(w, &v[i]);
    }
    pw_out_char(o, '\n');
    if (o->failed)
        return pw_outbuf_error_at(o, w->dir, err);
    if (w->text.failed)
        return pw_fail(err, PW_E_NOMEM, w->dir, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

/* locations.csv and metadata.csv, through a small table of their own. */
static pw_status csv_side_tables(csv_writer *w, pw_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/locations.csv", w->dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        return pw_fail_errno(err, path, "cannot create");
    fprintf(f, "loc,parent,kind,id,name,path\n");
    for (size_t i = 0; i < w->ds->n_locs; i++) {
        const pw_location *l = &w->ds->locs[i];
        fprintf(f, "%zu,%d,%s,%lld,", i, (int)l->parent, pw_location_kind_name(l->kind), (long long)l->id);
        w->out.out = f;
        csv_cell(&w->out, l->name, strlen(l->name));
        pw_out_char(&w->out, ',');
        csv_cell(&w->out, l->path, strlen(l->path));
        pw_out_char(&w->out, '\n');
        pw_outbuf_drain(&w->out, 0);
    }
    int bad = fclose(f) != 0;
    snprintf(path, sizeof path, "%s/metadata.csv", w->dir);
    f = bad ? NULL : fopen(path, "wb");
    if (!f)
        return pw_fail_errno(err, path, "cannot write");
    w->out.out = f;
    pw_out_str(&w->out, "key,value\nformat,");
    csv_cell(&w->out, w->ds->fmt->name, strlen(w->ds->fmt->name));
    pw_out_str(&w->out, "\nversion,");
    const char *ver = w->ds->version ? w->ds->version : "";
    csv_cell(&w->out, ver, strlen(ver));
    pw_out_char(&w->out, '\n');
    for (size_t i = 0; i < w->ds->n_props; i++) {
        csv_cell(&w->out, w->ds->props[i].key, strlen(w->ds->props[i].key));
        pw_out_char(&w->out, ',');
        csv_cell(&w->out, w->ds->props[i].value, strlen(w->ds->props[i].value));
        pw_out_char(&w->out, '\n');
    }
    pw_outbuf_drain(&w->out, 0);
    w->out.out = NULL;
    if (fclose(f) != 0 || w->out.failed)
        return pw_fail_errno(err, path, "write failed");
    return PW_OK;
}

pw_status pw_convert_csv(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err)
{
    if (mkdir(out, 0777) != 0 && errno != EEXIST)
        return pw_fail_errno(err, out, "cannot create directory");
    csv_writer w;
    memset(&w, 0, sizeof w);
    w.ds = ds;
    w.dir = out;
    w.tables = calloc(ds->n_schemas ? ds->n_schemas : 1, sizeof *w.tables);
    w.open_order = calloc(CSV_MAX_OPEN, sizeof *w.open_order);
    w.names = pw_table_names(ds);
    pw_status s = w.tables && w.open_order && w.names ? pw_outbuf_init(&w.out, NULL, err)
                                           : pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    if (s == PW_OK)
        s = csv_side_tables(&w, err);
    if (s == PW_OK)
        s = pw_convert_records(ds, rep, csv_record, &w, err);
    if (w.out.out)
        pw_outbuf_drain(&w.out, 0);
    for (size_t i = 0; w.tables && i < ds->n_schemas; i++)
        if (w.tables[i].f && fclose(w.tables[i].f) != 0 && s == PW_OK)
            s = pw_fail_errno(err, out, "write failed");
    if (s == PW_OK && w.out.failed)
        s = pw_outbuf_error_at(&w.out, out, err);
    pw_outbuf_free(&w.out);
    pw_text_free(&w.text);
    free(w.tables);
    free(w.open_order);
    free(w.names);
    return s;
}
