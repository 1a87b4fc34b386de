/* text_dump.h — the text record writer (text_dump.c) behind the "text"
 * RECORDS sink (text_sink.c). */
#ifndef PW_SINKS_TEXT_DUMP_H
#define PW_SINKS_TEXT_DUMP_H
#include "sinks/dump/dump.h"

void pw_dump_text_record(const pw_dump *d, pw_outbuf *o, const pw_record *rec, const pw_schema *sc,
                         const pw_value *vals);
#endif
