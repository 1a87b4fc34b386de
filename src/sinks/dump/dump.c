/* dump.c — pw_dump: buffered record writers, one style each. */
#include <stdlib.h>

#include "sinks/dump/dump.h"

pw_status pw_dump_open(pw_dataset *ds, FILE *out, pw_dump_style style, pw_dump **d, pw_error *err)
{
    *d = NULL;
    if (style != PW_DUMP_TEXT && style != PW_DUMP_JSONL)
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
    n->style = style;
    *d = n;
    return PW_OK;
}

pw_status pw_dump_record(pw_dump *d, const pw_record *rec, pw_error *err)
{
    if (d->style == PW_DUMP_JSONL)
        pw_dump_jsonl_record(d, rec);
    else
        pw_dump_text_record(d, rec);
    if (d->out.failed) /* stop early when the reader of our output went away */
        return pw_fail(err, PW_E_IO, "<output>", PW_NO_OFFSET, "write failed");
    return PW_OK;
}

pw_status pw_dump_close(pw_dump *d, pw_error *err)
{
    if (!d)
        return PW_OK;
    pw_status s = pw_outbuf_flush(&d->out, err);
    pw_outbuf_free(&d->out);
    free(d);
    return s;
}
