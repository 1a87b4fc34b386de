/* chrome_sink.c — the "chrome" convert target: Chrome JSON trace events.
 * The writer (chrome_write.c) streams the merged records into the path the output
 * discipline gives it. */
#include "sinks/convert/convert.h"
#include "sinks/sink.h"

static const pw_sink_convert chrome_convert = {
    .write = pw_convert_chrome,
    .states_extensions = ".states.json",
    .write_states = pw_convert_chrome_states,
};

const pw_sink_ops pw_sink_chrome = {
    .name = "chrome",
    .caps = PW_SINK_STREAMS,
    .extensions = ".json .json.gz",
    .description = "Chrome JSON trace events (chrome://tracing, Perfetto)",
    .convert = &chrome_convert,
};
