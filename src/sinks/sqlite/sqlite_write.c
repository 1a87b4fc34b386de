/* sqlite_write.c — a SQLite database: one table per record type (columns:
 * table_columns.h; "type" refers to strings.id), plus tables locations,
 * strings, metadata and record_types (record type -> table, kind, rows).
 * Times are numbers: "t" INTEGER ns (REAL for virtual time); tables of
 * spans add "t_end" and "dur" in the same clock, and the view "spans"
 * (loc, t, t_end, dur, type) unites them, so time per function per
 * location is one GROUP BY.  Integer columns hold integers; a u64 beyond
 * SQLite's integers is stored as the nearest REAL (counted).
 * Rows go in through one prepared statement per table inside a single
 * transaction with journaling off; indexes on t and loc are built after
 * the load, which is faster than maintaining them row by row. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/names.h"
#include "sinks/convert/convert.h"

#ifdef PW_HAVE_SQLITE3
#include <sqlite3.h>

#include "sinks/convert/table_columns.h"
#include "sinks/convert/value_text.h"

typedef struct sq_writer {
    pw_dataset *ds;
    sqlite3 *db;
    const char *path;
    sqlite3_stmt **insert; /* per schema, prepared on first record */
    const char **table;    /* per schema: its table's name */
    uint64_t *rows;        /* per schema */
    pw_names types;        /* record type names -> strings.id */
    pw_text sql, text;
    uint64_t big_u64;      /* u64 values stored as REAL */
} sq_writer;

/* Does schema i's table carry t_end and dur? */
static int sq_spans(const pw_schema *sc) { return sc->kind == PW_REC_SPAN; }

/* Whether the file system holding path has no block or no inode left
 * for an unprivileged writer. */
static int sq_fs_full(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    struct statvfs fs;
    return statvfs(dir, &fs) == 0 && (fs.f_bavail == 0 || (fs.f_files && fs.f_favail == 0));
}

/* The system's reason for SQLite's failure.  A write cut short (the last
 * blocks of a tmpfs) is SQLITE_FULL with no errno: the output's file
 * system, asked then, says whether it is full (ENOSPC). */
static int sq_system_reason(sq_writer *w)
{
    int sys = sqlite3_system_errno(w->db);
    if (sys || (sqlite3_errcode(w->db) & 0xff) != SQLITE_FULL)
        return sys;
    return sq_fs_full(w->path) ? ENOSPC : 0;
}

/* SQLite's words, and the system's reason when a system call failed
 * ("database or disk is full: No space left on device"). */
static pw_status sq_fail(sq_writer *w, pw_error *err)
{
    int sys = sq_system_reason(w);
    return pw_fail(err, PW_E_IO, w->path, PW_NO_OFFSET, "sqlite: %s%s%s", sqlite3_errmsg(w->db),
                   sys ? ": " : "", sys ? strerror(sys) : "");
}

static pw_status sq_exec(sq_writer *w, const char *sql, pw_error *err)
{
    return sqlite3_exec(w->db, sql, NULL, NULL, NULL) == SQLITE_OK ? PW_OK : sq_fail(w, err);
}

/* Appends an SQL identifier, double-quoted. */
static void sql_ident(pw_text *t, const char *s)
{
    pw_text_add(t, "\"", 1);
    for (const char *q; (q = strchr(s, '"')) != NULL; s = q + 1) {
        pw_text_add(t, s, (size_t)(q + 1 - s));
        pw_text_add(t, "\"", 1);
    }
    pw_text_add(t, s, strlen(s));
    pw_text_add(t, "\"", 1);
}

static const char *sql_type(pw_type t)
{
    switch (t) {
    case PW_T_BOOL:
    case PW_T_I64:
    case PW_T_U64: return " INTEGER";
    case PW_T_F64:
    case PW_T_DECIMAL: return " REAL";
    case PW_T_BYTES: return " BLOB";
    default: return " TEXT";
    }
}

/* Creates the table of rec's schema and prepares its insert; times are
 * INTEGER ns or REAL virtual time, as the first record's clock, and a
 * column's type is that of the first record's value (a field may hold
 * another type than it declares: ovni VWC's "value" is a list). */
static pw_status sq_table(sq_writer *w, const pw_record *rec, pw_error *err)
{
    uint32_t i = rec->schema;
    pw_clock clock = rec->clock;
    const pw_schema *sc = w->ds->schemas[i];
    const pw_value *v = sc->n_fields ? pw_record_fields(rec) : NULL;
    pw_text *q = &w->sql;
    const char *time_type = clock == PW_CLOCK_VIRTUAL ? " REAL" : " INTEGER";
    q->n = 0;
    pw_text_add(q, "CREATE TABLE ", 13);
    sql_ident(q, w->table[i]);
    pw_text_add(q, "(loc INTEGER, t", 15);
    pw_text_add(q, time_type, strlen(time_type));
    pw_text_add(q, ", type INTEGER", 14);
    for (int k = 0; sq_spans(sc) && k < 2; k++) {
        pw_text_add(q, k ? ", dur" : ", t_end", k ? 5 : 7);
        pw_text_add(q, time_type, strlen(time_type));
    }
    for (size_t k = 0; k < sc->n_fields; k++) {
        char buf[256];
        pw_text_add(q, ", ", 2);
        sql_ident(q, pw_column_name(&sc->fields[k], buf, sizeof buf));
        const char *ty = sql_type(v[k].present ? v[k].type : sc->fields[k].type);
        pw_text_add(q, ty, strlen(ty));
    }
    pw_text_add(q, ")", 1);
    if (q->failed)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    pw_status s = sq_exec(w, q->p, err);
    if (s != PW_OK)
        return s;
    q->n = 0;
    pw_text_add(q, "INSERT INTO ", 12);
    sql_ident(q, w->table[i]);
    pw_text_add(q, " VALUES(?,?,?", 13);
    if (sq_spans(sc))
        pw_text_add(q, ",?,?", 4);
    for (size_t k = 0; k < sc->n_fields; k++)
        pw_text_add(q, ",?", 2);
    pw_text_add(q, ")", 1);
    if (q->failed || sqlite3_prepare_v2(w->db, q->p, -1, &w->insert[i], NULL) != SQLITE_OK)
        return sq_fail(w, err);
    return PW_OK;
}

static void sq_bind(sq_writer *w, sqlite3_stmt *st, int col, const pw_value *v)
{
    if (!v->present) {
        sqlite3_bind_null(st, col);
        return;
    }
    switch (v->type) {
    case PW_T_BOOL: sqlite3_bind_int(st, col, v->v.b); break;
    case PW_T_I64: sqlite3_bind_int64(st, col, v->v.i); break;
    case PW_T_U64:
        if (v->v.u <= INT64_MAX) {
            sqlite3_bind_int64(st, col, (sqlite3_int64)v->v.u);
        } else { /* beyond SQLite's integers: still a number */
            sqlite3_bind_double(st, col, (double)v->v.u);
            w->big_u64++;
        }
        break;
    default:
        if (v->type == PW_T_F64 || v->type == PW_T_DECIMAL) {
            sqlite3_bind_double(st, col, pw_value_number(v));
        } else if (v->type == PW_T_STR) {
            sqlite3_bind_text(st, col, v->v.s.p, (int)v->v.s.n, SQLITE_STATIC);
        } else if (v->type == PW_T_BYTES) {
            sqlite3_bind_blob(st, col, v->v.bytes.p, (int)v->v.bytes.n, SQLITE_STATIC);
        } else {
            pw_value_text(&w->text, v);
            sqlite3_bind_text(st, col, w->text.p, (int)w->text.n, SQLITE_TRANSIENT);
        }
        break;
    }
}

/* A span's end and duration (columns 4 and 5), in its own clock. */
static void sq_bind_end(sqlite3_stmt *st, const pw_record *rec)
{
    if (!rec->has_end || rec->clock == PW_CLOCK_NONE) {
        sqlite3_bind_null(st, 4);
        sqlite3_bind_null(st, 5);
    } else if (rec->clock == PW_CLOCK_NS) {
        int64_t dur;
        sqlite3_bind_int64(st, 4, rec->t_end);
        if (__builtin_sub_overflow(rec->t_end, rec->t, &dur))
            sqlite3_bind_null(st, 5);
        else
            sqlite3_bind_int64(st, 5, dur);
    } else {
        sqlite3_bind_double(st, 4, rec->vt_end);
        sqlite3_bind_double(st, 5, rec->vt_end - rec->vt);
    }
}

static pw_status sq_record(void *ctx, const pw_record *rec, pw_error *err)
{
    sq_writer *w = ctx;
    if (!w->insert[rec->schema]) {
        pw_status s = sq_table(w, rec, err);
        if (s != PW_OK)
            return s;
    }
    sqlite3_stmt *st = w->insert[rec->schema];
    uint32_t type = pw_names_intern(&w->types, rec->type, strlen(rec->type));
    if (!type)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    sqlite3_bind_int64(st, 1, rec->location);
    if (rec->clock == PW_CLOCK_NS)
        sqlite3_bind_int64(st, 2, rec->t);
    else if (rec->clock == PW_CLOCK_VIRTUAL)
        sqlite3_bind_double(st, 2, rec->vt);
    else
        sqlite3_bind_null(st, 2);
    sqlite3_bind_int64(st, 3, type);
    const pw_schema *sc = w->ds->schemas[rec->schema];
    int first_field = 4;
    if (sq_spans(sc)) {
        sq_bind_end(st, rec);
        first_field = 6;
    }
    const pw_value *v = sc->n_fields ? pw_record_fields(rec) : NULL;
    for (size_t i = 0; i < sc->n_fields; i++)
        sq_bind(w, st, (int)i + first_field, &v[i]);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return sq_fail(w, err);
    w->rows[rec->schema]++;
    return PW_OK;
}

/* Runs sql with text parameters, for the small side tables. */
static pw_status sq_row(sq_writer *w, sqlite3_stmt *st, pw_error *err)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? PW_OK : sq_fail(w, err);
}

static pw_status sq_side_tables(sq_writer *w, pw_error *err)
{
    pw_status s = sq_exec(w,
                          "CREATE TABLE metadata(key TEXT PRIMARY KEY, value TEXT);"
                          "CREATE TABLE locations(loc INTEGER PRIMARY KEY, parent INTEGER, kind TEXT,"
                          " id INTEGER, name TEXT, path TEXT);"
                          "CREATE TABLE strings(id INTEGER PRIMARY KEY, text TEXT);"
                          "CREATE TABLE record_types(name TEXT, table_name TEXT PRIMARY KEY, kind TEXT,"
                          " description TEXT, rows INTEGER);",
                          err);
    sqlite3_stmt *st = NULL;
    if (s == PW_OK && sqlite3_prepare_v2(w->db, "INSERT INTO metadata VALUES(?,?)", -1, &st, NULL) != SQLITE_OK)
        s = sq_fail(w, err);
    const char *ver = w->ds->version ? w->ds->version : "";
    for (size_t i = 0; s == PW_OK && i < w->ds->n_props + 2; i++) {
        /* perfweave's own keys carry a prefix no format uses (DUMPI has
         * a property named "version"). */
        const char *k = i == 0 ? "perfweave.format" : i == 1 ? "perfweave.format_version"
                                                             : w->ds->props[i - 2].key;
        const char *v = i == 0 ? w->ds->fmt->name : i == 1 ? ver : w->ds->props[i - 2].value;
        sqlite3_bind_text(st, 1, k, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, v, -1, SQLITE_STATIC);
        s = sq_row(w, st, err);
    }
    sqlite3_finalize(st);
    st = NULL;
    if (s == PW_OK && sqlite3_prepare_v2(w->db, "INSERT INTO locations VALUES(?,?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
        s = sq_fail(w, err);
    for (size_t i = 0; s == PW_OK && i < w->ds->n_locs; i++) {
        const pw_location *l = &w->ds->locs[i];
        sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
        if (l->parent >= 0)
            sqlite3_bind_int64(st, 2, l->parent);
        else
            sqlite3_bind_null(st, 2);
        sqlite3_bind_text(st, 3, pw_location_kind_name(l->kind), -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 4, l->id);
        sqlite3_bind_text(st, 5, l->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 6, l->path, -1, SQLITE_STATIC);
        s = sq_row(w, st, err);
    }
    sqlite3_finalize(st);
    return s;
}

static const char *const kind_names[] = {"instant", "span", "begin", "end", "sample", "message", "value", "meta"};

/* The view "spans": every span table's times and type, united. */
static pw_status sq_spans_view(sq_writer *w, pw_error *err)
{
    pw_text *q = &w->sql;
    q->n = 0;
    pw_text_add(q, "CREATE VIEW spans AS ", 21);
    int any = 0;
    for (size_t i = 0; i < w->ds->n_schemas; i++) {
        if (!w->insert[i] || !sq_spans(w->ds->schemas[i]))
            continue;
        if (any++)
            pw_text_add(q, " UNION ALL ", 11);
        pw_text_add(q, "SELECT loc, t, t_end, dur, type FROM ", 37);
        sql_ident(q, w->table[i]);
    }
    if (!any)
        pw_text_add(q, "SELECT NULL AS loc, NULL AS t, NULL AS t_end, NULL AS dur, NULL AS type WHERE 0", 79);
    return q->failed ? pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory") : sq_exec(w, q->p, err);
}

/* After the load: strings, record_types and the indexes. */
static pw_status sq_finish(sq_writer *w, pw_error *err)
{
    sqlite3_stmt *st = NULL;
    pw_status s = PW_OK;
    if (sqlite3_prepare_v2(w->db, "INSERT INTO strings VALUES(?,?)", -1, &st, NULL) != SQLITE_OK)
        return sq_fail(w, err);
    for (uint32_t id = 1; s == PW_OK && id <= w->types.n_items; id++) {
        size_t n;
        const char *str = pw_names_str(&w->types, id, &n);
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_text(st, 2, str, (int)n, SQLITE_STATIC);
        s = sq_row(w, st, err);
    }
    sqlite3_finalize(st);
    if (s == PW_OK && sqlite3_prepare_v2(w->db, "INSERT INTO record_types VALUES(?,?,?,?,?)", -1, &st,
                                         NULL) != SQLITE_OK)
        return sq_fail(w, err);
    for (size_t i = 0; s == PW_OK && i < w->ds->n_schemas; i++) {
        const pw_schema *sc = w->ds->schemas[i];
        if (!w->insert[i])
            continue;
        sqlite3_bind_text(st, 1, sc->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, w->table[i], -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, kind_names[sc->kind & 7], -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, sc->description, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 5, (sqlite3_int64)w->rows[i]);
        s = sq_row(w, st, err);
        for (int k = 0; s == PW_OK && k < 2; k++) {
            pw_text *q = &w->sql;
            q->n = 0;
            char idx[300];
            snprintf(idx, sizeof idx, "%s_%s", w->table[i], k ? "loc" : "t");
            pw_text_add(q, "CREATE INDEX ", 13);
            sql_ident(q, idx);
            pw_text_add(q, " ON ", 4);
            sql_ident(q, w->table[i]);
            pw_text_add(q, k ? "(loc)" : "(t)", k ? 5 : 3);
            s = q->failed ? pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory") : sq_exec(w, q->p, err);
        }
    }
    sqlite3_finalize(st);
    return s;
}

static void sq_free(sq_writer *w)
{
    for (size_t i = 0; w->insert && i < w->ds->n_schemas; i++)
        sqlite3_finalize(w->insert[i]);
    free(w->insert);
    free(w->table);
    free(w->rows);
    pw_names_free(&w->types);
    pw_text_free(&w->sql);
    pw_text_free(&w->text);
    sqlite3_close(w->db);
}

pw_status pw_convert_sqlite(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err)
{
    sq_writer w;
    memset(&w, 0, sizeof w);
    w.ds = ds;
    w.path = out;
    pw_names_init(&w.types);
    w.insert = calloc(ds->n_schemas ? ds->n_schemas : 1, sizeof *w.insert);
    w.rows = calloc(ds->n_schemas ? ds->n_schemas : 1, sizeof *w.rows);
    w.table = pw_table_names(ds);
    pw_status s = PW_OK;
    if (!w.insert || !w.rows || !w.table)
        s = pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    else if (sqlite3_open(out, &w.db) != SQLITE_OK)
        s = sq_fail(&w, err);
    if (s == PW_OK)
        s = sq_exec(&w, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN", err);
    if (s == PW_OK)
        s = sq_side_tables(&w, err);
    if (s == PW_OK)
        s = pw_convert_records(ds, rep, sq_record, &w, err);
    if (s == PW_OK)
        s = sq_finish(&w, err);
    if (s == PW_OK)
        s = sq_spans_view(&w, err);
    pw_convert_note(rep, "u64 values beyond SQLite's integers, stored as REAL", w.big_u64, 0);
    if (s == PW_OK)
        s = sq_exec(&w, "COMMIT", err);
    sq_free(&w);
    return s;
}
#else
pw_status pw_convert_sqlite(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err)
{
    (void)ds;
    (void)rep;
    return pw_fail(err, PW_E_USAGE, out, PW_NO_OFFSET, "this build has no SQLite (libsqlite3-dev)");
}
#endif
