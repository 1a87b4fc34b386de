/* report_json.c — the JSON rendering.  A whole report is one jansson dump;
 * an opened report with streamed arrays is written member by member (and a
 * streamed array row by row) in exactly the layout of that dump: two
 * spaces of indent per level, "key": value, members and items each on
 * their own line, "[]" for an empty array. */
#include <string.h>

#include "sinks/report/report_render.h"

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY)

pw_status report_json_whole(const json_t *root, FILE *out)
{
    if (json_dumpf(root, out, DUMP_FLAGS) != 0 || fputc('\n', out) == EOF)
        return PW_E_IO;
    return PW_OK;
}

/* Writes a chunk of a value's dump, indenting every line after the first
 * by the levels above it (strings escape their own newlines). */
typedef struct indented_out {
    pw_report *r;
    const char *newline; /* "\n" and the indent of the level */
    size_t newline_len;
} indented_out;

static int put_indented(const char *buf, size_t size, void *data)
{
    const indented_out *o = data;
    for (const char *p = buf, *end = buf + size; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (fwrite(p, 1, n, o->r->out) != n)
            return -1;
        if (nl && fwrite(o->newline, 1, o->newline_len, o->r->out) != o->newline_len)
            return -1;
        p += n + (nl ? 1 : 0);
    }
    return 0;
}

/* v as it appears `depth` levels deep: its own dump, re-indented. */
static void put_value(pw_report *r, json_t *v, int depth)
{
    /* Streamed values sit at most two levels deep (a row of a root array). */
    static const char newline[] = "\n    ";
    indented_out o = {r, newline, 1 + 2 * (size_t)(depth < 2 ? depth : 2)};
    if (json_dump_callback(v, put_indented, &o, DUMP_FLAGS) != 0)
        r->io_failed = 1;
}

/* "{" or "," then the member's key on its own line. */
static void put_key(pw_report *r, const char *key)
{
    json_t *k = json_string(key);
    if (fputs(r->json_started ? ",\n  " : "{\n  ", r->out) == EOF)
        r->io_failed = 1;
    r->json_started = 1;
    if (!k) {
        pw_report_set_nomem();
        return;
    }
    put_value(r, k, 1);
    json_decref(k);
    if (fputs(": ", r->out) == EOF)
        r->io_failed = 1;
}

void report_json_members(pw_report *r)
{
    const char *k;
    json_t *v;
    json_object_foreach(r->root, k, v)
    {
        put_key(r, k);
        put_value(r, v, 1);
    }
    json_object_clear(r->root); /* out: no longer needed */
}

int report_json_stream_start(pw_report *r, const char *key)
{
    put_key(r, key);
    return fputc('[', r->out) != EOF;
}

void report_json_row(pw_report *r, report_stream *st, json_t *row)
{
    if (fputs(st->rows ? ",\n    " : "\n    ", r->out) == EOF)
        r->io_failed = 1;
    put_value(r, row, 2);
}

void report_json_stream_end(pw_report *r, report_stream *st)
{
    if (fputs(st->rows ? "\n  ]" : "]", r->out) == EOF)
        r->io_failed = 1;
}

pw_status report_json_finish(pw_report *r)
{
    if (!r->json_started)
        return report_json_whole(r->root, r->out);
    report_json_members(r);
    if (fputs("\n}\n", r->out) == EOF)
        r->io_failed = 1;
    return r->io_failed ? PW_E_IO : PW_OK;
}
