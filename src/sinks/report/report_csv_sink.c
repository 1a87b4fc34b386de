/* report_csv_sink.c — reports as CSV tables, each introduced by a
 * "# name" line. */
#include "sinks/report/report_render.h"
#include "sinks/sink.h"

static pw_status csv_render(pw_report *r, FILE *out) { return pw_report_write_csv(r, out); }

const pw_sink_ops pw_sink_report_csv = {
    .name = "csv",
    .kind = PW_SINK_REPORT,
    .caps = PW_SINK_STREAMS,
    .style = PW_REPORT_CSV,
    .extensions = ".csv",
    .description = "CSV tables, each introduced by a '# name' line",
    .render = csv_render,
};
