/* text_sink.c — dump records for people, one line each:
 *   <time> <location> <type> field=value ... */
#include "sinks/text/text_dump.h"

const pw_sink_ops pw_sink_text = {
    .name = "text",
    .kind = PW_SINK_RECORDS,
    .caps = PW_SINK_STREAMS,
    .style = PW_DUMP_TEXT,
    .extensions = ".txt",
    .description = "one line per record for people; named constants",
    .format_record = pw_dump_text_record,
    .field_before = " ",
    .field_after = "=",
};
