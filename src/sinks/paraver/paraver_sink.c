/* paraver_sink.c — the "paraver" convert target: a Paraver trace.
 * The writer (paraver_write.c) streams the merged records into the path the output
 * discipline gives it. */
#include "sinks/convert/convert.h"
#include "sinks/sink.h"

static const pw_sink_convert paraver_convert = {
    .write = pw_convert_paraver,
    .write_states = pw_convert_paraver_states, /* to a directory: DIR/thread.prv, DIR/cpu.prv */
};

const pw_sink_ops pw_sink_paraver = {
    .name = "paraver",
    .caps = PW_SINK_SIBLINGS,
    .extensions = ".prv",
    .description = "Paraver .prv/.pcf/.row (wxparaver)",
    .convert = &paraver_convert,
};
