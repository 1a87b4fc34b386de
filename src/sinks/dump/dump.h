/* dump.h — the record writers behind pw_dump (text and JSON Lines). */
#ifndef PW_SINKS_DUMP_H
#define PW_SINKS_DUMP_H
#include "core/outbuf.h"
#include "model/dataset.h"

struct pw_dump {
    pw_dataset *ds;
    pw_outbuf out;
    pw_dump_style style;
};

void pw_dump_text_record(pw_dump *d, const pw_record *rec);
void pw_dump_jsonl_record(pw_dump *d, const pw_record *rec);
/* A field value as JSON (null when absent; also used by the Chrome writer). */
void pw_jsonl_value(pw_outbuf *o, const pw_value *v);
#endif
