/* paraver_sink.c — the "paraver" convert target: a Paraver trace.
 * The writer (paraver_write.c) streams the merged records into the path the output
 * discipline gives it. */
#include "sinks/convert/convert.h"
#include "sinks/sink.h"

const pw_sink_ops pw_sink_paraver = {
    .name = "paraver",
    .kind = PW_SINK_CONVERT,
    .caps = PW_SINK_SIBLINGS,
    .extensions = ".prv",
    .description = "Paraver .prv/.pcf/.row (wxparaver)",
    .convert = pw_convert_paraver,
    .convert_states = pw_convert_paraver_states, /* to a directory: DIR/thread.prv, DIR/cpu.prv */
};
