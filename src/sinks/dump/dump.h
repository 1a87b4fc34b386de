/* dump.h — the record writers behind pw_dump (text and JSON Lines). */
#ifndef PW_SINKS_DUMP_H
#define PW_SINKS_DUMP_H
#include "core/outbuf.h"
#include "model/dataset.h"

struct pw_dump {
    pw_dataset *ds;
    pw_outbuf out;
    pw_dump_style style;
    /* Per location, its path as it is written: quoted and escaped for JSON
     * Lines, plain for text (formatted once, copied per record). */
    char **loc_text;
    size_t *loc_len;
};

/* Append one record, as the style writes it, to o (d->out or a memory
 * buffer of a worker thread: d is only read). */
void pw_dump_text_record(const pw_dump *d, pw_outbuf *o, const pw_record *rec);
void pw_dump_jsonl_record(const pw_dump *d, pw_outbuf *o, const pw_record *rec);
static inline void pw_dump_format(const pw_dump *d, pw_outbuf *o, const pw_record *rec)
{
    if (d->style == PW_DUMP_JSONL)
        pw_dump_jsonl_record(d, o, rec);
    else
        pw_dump_text_record(d, o, rec);
}
#endif
