/* report_text_sink.c — reports for people: aligned tables and
 * "key: value" lines. */
#include "sinks/report/report_render.h"
#include "sinks/sink.h"

static pw_status text_render(pw_report *r, FILE *out) { return pw_report_write_text(r, out); }

static const pw_sink_report text_report = {.style = PW_REPORT_TEXT, .render = text_render};

const pw_sink_ops pw_sink_report_text = {
    .name = "text",
    .caps = PW_SINK_STREAMS,
    .extensions = ".txt",
    .description = "aligned tables and \"key: value\" lines",
    .report = &text_report,
};
