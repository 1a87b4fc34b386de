/* ross_payload.c — naming model payload bytes.  ROSS payloads are whatever
 * the model's callback copied (ross-facts.md §4-6); a user who knows the
 * model describes them in a small text file, one `name:type` per line
 * (u8 u16 u32 u64 i8 i16 i32 i64 f32 f64, or padN to skip N bytes; '#'
 * starts a comment), packed in order, little-endian. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/input.h"
#include "formats/ross/ross.h"


/* Width and kind ('u', 'i', 'f', 'p' for padding) of a type name. */
static int parse_type(const char *t, unsigned *width, char *kind)
{
    static const struct {
        const char *name;
        unsigned width;
        char kind;
    } types[] = {{"u8", 1, 'u'},  {"u16", 2, 'u'}, {"u32", 4, 'u'}, {"u64", 8, 'u'},
                 {"i8", 1, 'i'},  {"i16", 2, 'i'}, {"i32", 4, 'i'}, {"i64", 8, 'i'},
                 {"f32", 4, 'f'}, {"f64", 8, 'f'}};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (!strcmp(t, types[i].name)) {
            *width = types[i].width;
            *kind = types[i].kind;
            return 1;
        }
    char *end;
    if (!strncmp(t, "pad", 3) && isdigit((unsigned char)t[3])) {
        unsigned long n = strtoul(t + 3, &end, 10);
        if (!*end && n > 0 && n <= 4096) {
            *width = (unsigned)n;
            *kind = 'p';
            return 1;
        }
    }
    return 0;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static pw_status add_field(pw_dataset *ds, ross_payload_schema *ps, const char *name, unsigned width,
                           char kind)
{
    size_t i = ps->n_fields++;
    ps->fields[i] = (pw_field){pw_ds_strdup(ds, name),
                               kind == 'f' ? PW_T_F64 : kind == 'i' ? PW_T_I64 : PW_T_U64, NULL, NULL};
    ps->widths[i] = (uint8_t)width;
    ps->kinds[i] = (uint8_t)kind;
    ps->offsets[i] = (uint32_t)ps->size;
    return ps->fields[i].name ? PW_OK : PW_E_NOMEM;
}

/* One `name:type` line; blank and comment lines are skipped. */
static pw_status parse_line(pw_dataset *ds, ross_payload_schema *ps, char *line, const char *file,
                            long off, pw_error *err)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *s = trim(line);
    if (!*s)
        return PW_OK;
    char *colon = strchr(s, ':');
    unsigned width;
    char kind;
    if (!colon)
        return pw_fail(err, PW_E_USAGE, file, off, "'name:type' expected, found '%s'", s);
    *colon = '\0';
    char *name = trim(s), *type = trim(colon + 1);
    if (!*name || !parse_type(type, &width, &kind))
        return pw_fail(err, PW_E_USAGE, file, off,
                       "field '%s': type u8|u16|u32|u64|i8|i16|i32|i64|f32|f64|padN expected, "
                       "found '%s'",
                       name, type);
    if (kind != 'p') {
        if (ps->n_fields == ROSS_SCHEMA_MAX_FIELDS)
            return pw_fail(err, PW_E_USAGE, file, off, "at most %d fields", ROSS_SCHEMA_MAX_FIELDS);
        if (add_field(ds, ps, name, width, kind) != PW_OK)
            return pw_fail(err, PW_E_NOMEM, file, off, "out of memory");
    }
    ps->size += width;
    return PW_OK;
}

pw_status ross_payload_schema_load(pw_dataset *ds, const char *file, ross_payload_schema *ps,
                                   pw_error *err)
{
    char *text = NULL;
    size_t text_len = 0;
    pw_status rs = pw_input_read_all(file, (size_t)1 << 20, &text, &text_len, err);
    if (rs != PW_OK)
        return rs;
    ps->fields = calloc(ROSS_SCHEMA_MAX_FIELDS, sizeof *ps->fields);
    ps->widths = calloc(ROSS_SCHEMA_MAX_FIELDS, 1);
    ps->kinds = calloc(ROSS_SCHEMA_MAX_FIELDS, 1);
    ps->offsets = calloc(ROSS_SCHEMA_MAX_FIELDS, sizeof *ps->offsets);
    pw_status st = ps->fields && ps->widths && ps->kinds && ps->offsets
                       ? PW_OK
                       : pw_fail(err, PW_E_NOMEM, file, PW_NO_OFFSET, "out of memory");
    char line[1024];
    long off = 0;
    for (const char *p = text; st == PW_OK && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
        size_t keep = len < sizeof line ? len : sizeof line - 1;
        memcpy(line, p, keep);
        line[keep] = '\0';
        st = parse_line(ds, ps, line, file, off, err);
        off += (long)len;
        p += len;
    }
    free(text);
    if (st == PW_OK && ps->n_fields == 0)
        st = pw_fail(err, PW_E_USAGE, file, PW_NO_OFFSET, "no 'name:type' field in the schema");
    return st;
}

void ross_payload_decode(const ross_payload_schema *ps, const uint8_t *p, pw_value *values)
{
    for (size_t i = 0; i < ps->n_fields; i++) {
        const uint8_t *q = p + ps->offsets[i];
        uint64_t raw = ps->widths[i] == 1   ? q[0]
                       : ps->widths[i] == 2 ? pw_le16(q)
                       : ps->widths[i] == 4 ? pw_le32(q)
                                            : pw_le64(q);
        pw_value *v = &values[i];
        v->present = 1;
        if (ps->kinds[i] == 'f')
            v->v.f = ps->widths[i] == 4 ? (double)pw_f32_from_bits((uint32_t)raw)
                                        : pw_f64_from_bits(raw);
        else if (ps->kinds[i] == 'i') {
            unsigned shift = 64 - 8 * ps->widths[i];
            v->v.i = (int64_t)(raw << shift) >> shift; /* sign-extend */
        } else
            v->v.u = raw;
    }
}

void ross_payload_schema_free(ross_payload_schema *ps)
{
    free(ps->fields);
    free(ps->widths);
    free(ps->kinds);
    free(ps->offsets);
    memset(ps, 0, sizeof *ps);
}
