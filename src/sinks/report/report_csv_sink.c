/* report_csv_sink.c — reports as CSV tables, each introduced by a
 * "# name" line. */
#include "sinks/report/report_render.h"
#include "sinks/sink.h"

static pw_status csv_render(pw_report *r, FILE *out) { return pw_report_write_csv(r, out); }

static const pw_sink_report csv_report = {.style = PW_REPORT_CSV, .render = csv_render};

const pw_sink_ops pw_sink_report_csv = {
    .name = "csv",
    .caps = PW_SINK_STREAMS,
    .extensions = ".csv",
    .description = "CSV tables, each introduced by a '# name' line",
    .report = &csv_report,
};
