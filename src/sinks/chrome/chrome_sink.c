/* chrome_sink.c — the "chrome" convert target: Chrome JSON trace events.
 * The writer (chrome_write.c) streams the merged records into the path the output
 * discipline gives it. */
#include "sinks/convert/convert.h"
#include "sinks/sink.h"

const pw_sink_ops pw_sink_chrome = {
    .name = "chrome",
    .kind = PW_SINK_CONVERT,
    .caps = PW_SINK_STREAMS,
    .extensions = ".json .json.gz",
    .description = "Chrome JSON trace events (chrome://tracing, Perfetto)",
    .convert = pw_convert_chrome,
    .states_extensions = ".states.json",
    .convert_states = pw_convert_chrome_states,
};
