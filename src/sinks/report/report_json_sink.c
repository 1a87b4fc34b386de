/* report_json_sink.c — reports as one JSON document; streamed arrays go
 * out row by row while the report is filled. */
#include "sinks/report/report_render.h"
#include "sinks/sink.h"

/* The root so far, then the opening of the streamed array. */
static int json_live_start(pw_report *r, const char *key)
{
    report_json_members(r);
    return report_json_stream_start(r, key);
}

static const report_live_ops json_live = {json_live_start, report_json_row, report_json_stream_end};

/* An opened report has written its streamed members already. */
static pw_status json_render(pw_report *r, FILE *out)
{
    return r->opened ? report_json_finish(r) : report_json_whole(r->root, out);
}

static const pw_sink_report json_report = {.style = PW_REPORT_JSON, .render = json_render, .live = &json_live};

const pw_sink_ops pw_sink_report_json = {
    .name = "json",
    .caps = PW_SINK_STREAMS,
    .extensions = ".json",
    .description = "one JSON document",
    .report = &json_report,
};
