/* perfetto_sink.c — the "perfetto" convert target: a Perfetto protobuf trace.
 * The writer (perfetto_write.c) streams the merged records into the path the output
 * discipline gives it. */
#include "sinks/convert/convert.h"
#include "sinks/sink.h"

static const pw_sink_convert perfetto_convert = {
    .write = pw_convert_perfetto,
    .states_extensions = ".states.pftrace .states.perfetto-trace",
    .write_states = pw_convert_perfetto_states,
};

const pw_sink_ops pw_sink_perfetto = {
    .name = "perfetto",
    .caps = PW_SINK_STREAMS,
    .extensions = ".pftrace .perfetto-trace .pb",
    .description = "Perfetto protobuf trace (ui.perfetto.dev)",
    .hint = "open it at https://ui.perfetto.dev (Open trace file)",
    .convert = &perfetto_convert,
};
