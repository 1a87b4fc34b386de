/* jsonl_sink.c — dump records as JSON Lines: one object per record with
 * "loc", "t", "type" and one key per field. */
#include "sinks/jsonl/jsonl_dump.h"

static const pw_sink_records jsonl_records = {
    .style = PW_DUMP_JSONL,
    .format_record = pw_dump_jsonl_record,
    .field_before = ",\"",
    .field_after = "\":",
    .quoted_names = 1,
    .dump_states = pw_dump_jsonl_states,
};

const pw_sink_ops pw_sink_jsonl = {
    .name = "jsonl",
    .caps = PW_SINK_STREAMS,
    .extensions = ".jsonl",
    .description = "one JSON object per line: \"loc\", \"t\", \"type\", fields",
    .records = &jsonl_records,
};
