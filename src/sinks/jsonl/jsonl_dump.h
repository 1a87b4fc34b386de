/* jsonl_dump.h — the JSON Lines record writer (jsonl_dump.c) behind the
 * "jsonl" RECORDS sink (jsonl_sink.c). */
#ifndef PW_SINKS_JSONL_DUMP_H
#define PW_SINKS_JSONL_DUMP_H
#include "views/states.h"
#include "sinks/dump/dump.h"

void pw_dump_jsonl_record(const pw_dump *d, pw_outbuf *o, const pw_record *rec, const pw_schema *sc,
                          const pw_value *vals);
/* A field value as JSON (null when absent; also used by the Chrome writer). */
void pw_jsonl_value(pw_outbuf *o, const pw_value *v);
/* Every change of src's states as one JSON object per line (jsonl_states.c). */
pw_status pw_dump_jsonl_states(pw_dataset *ds, const pw_states_source *src, FILE *out, pw_error *err);
#endif
