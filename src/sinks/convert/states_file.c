/* states_file.c — one states file written from a producer: every writer
 * of a single file (Chrome JSON, Perfetto) keeps the same order of
 * creation, replay, flush and the same error reporting here. */
#include "sinks/convert/states_file.h"

#include <stdio.h>

pw_status pw_states_write_file(pw_dataset *ds, const pw_states_source *src, const char *path,
                               const pw_states_file *how, pw_convert_report *rep, pw_error *err)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return pw_fail_errno(err, path, "cannot create");
    pw_states *st = NULL;
    pw_status s = pw_outbuf_init(how->out, f, err);
    if (s == PW_OK)
        s = src->start(ds, how->change, how->change_ctx, &st, err);
    if (s == PW_OK) {
        how->begin(how->ctx, st);
        s = src->play(st, err);
    }
    if (s == PW_OK && how->end(how->ctx, st) != 0)
        s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    pw_error ignored;
    pw_status fs = how->out->buf ? pw_outbuf_flush(how->out, s == PW_OK ? err : &ignored) : PW_OK;
    if (s == PW_OK)
        s = fs;
    long size = ftell(f);
    if (how->count_bytes)
        rep->bytes_out = size > 0 ? (uint64_t)size : 0;
    int bad = ferror(f);
    if ((fclose(f) != 0 || bad) && s == PW_OK)
        s = pw_fail_errno(err, path, "cannot write");
    if (st)
        rep->records_in = rep->records_out = st->events;
    src->release(st);
    return s;
}
