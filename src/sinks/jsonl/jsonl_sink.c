/* jsonl_sink.c — dump records as JSON Lines: one object per record with
 * "loc", "t", "type" and one key per field. */
#include "sinks/jsonl/jsonl_dump.h"

const pw_sink_ops pw_sink_jsonl = {
    .name = "jsonl",
    .kind = PW_SINK_RECORDS,
    .caps = PW_SINK_STREAMS,
    .style = PW_DUMP_JSONL,
    .extensions = ".jsonl",
    .description = "one JSON object per line: \"loc\", \"t\", \"type\", fields",
    .format_record = pw_dump_jsonl_record,
    .field_before = ",\"",
    .field_after = "\":",
    .quoted_names = 1,
    .dump_states = pw_dump_jsonl_states,
};
