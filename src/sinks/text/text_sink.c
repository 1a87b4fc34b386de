/* text_sink.c — dump records for people, one line each:
 *   <time> <location> <type> field=value ... */
#include "sinks/text/text_dump.h"

static const pw_sink_records text_records = {
    .style = PW_DUMP_TEXT,
    .format_record = pw_dump_text_record,
    .field_before = " ",
    .field_after = "=",
};

const pw_sink_ops pw_sink_text = {
    .name = "text",
    .caps = PW_SINK_STREAMS,
    .extensions = ".txt",
    .description = "one line per record for people; named constants",
    .records = &text_records,
};
