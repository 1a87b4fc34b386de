/* perfetto_sink.c — the "perfetto" convert target: a Perfetto protobuf trace.
 * The writer (perfetto_write.c) streams the merged records into the path the output
 * discipline gives it. */
#include "sinks/convert/convert.h"
#include "sinks/sink.h"

const pw_sink_ops pw_sink_perfetto = {
    .name = "perfetto",
    .kind = PW_SINK_CONVERT,
    .caps = PW_SINK_STREAMS,
    .extensions = ".pftrace .perfetto-trace .pb",
    .description = "Perfetto protobuf trace (ui.perfetto.dev)",
    .hint = "open it at https://ui.perfetto.dev (Open trace file)",
    .convert = pw_convert_perfetto,
    .states_extensions = ".states.pftrace .states.perfetto-trace",
    .convert_states = pw_convert_perfetto_states,
};
