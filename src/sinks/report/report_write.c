/* report_write.c — the report driver: pw_report_open, pw_report_write and
 * pw_report_finish render through the REPORT sink of a style. */
#include <jansson.h>

#include "core/error.h"
#include "model/report.h"
#include "sinks/sink.h"

pw_report *pw_report_open(FILE *out, pw_report_style style)
{
    const pw_sink_ops *sink = pw_sink_of_style(PW_SINK_REPORT, (int)style);
    pw_report *r = out ? pw_report_new() : NULL;
    if (r) {
        r->out = out;
        r->style = style;
        r->live = sink ? sink->live : NULL;
        r->opened = 1;
    }
    return r;
}

/* Renders what r still holds (all of it unless it streamed rows). */
static pw_status render(pw_report *r, FILE *out, pw_report_style style, pw_error *err)
{
    if (pw_report_nomem())
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory while building the report");
    const pw_sink_ops *sink = pw_sink_of_style(PW_SINK_REPORT, (int)style);
    if (!sink)
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET, "unknown report style %d", (int)style);
    pw_status s = r->io_failed ? PW_E_IO : sink->render(r, out);
    if (s == PW_OK && fflush(out) != 0)
        s = PW_E_IO;
    if (s != PW_OK)
        return pw_fail_errno(err, "<output>", "cannot write the report");
    return PW_OK;
}

pw_status pw_report_write(const pw_report *r, FILE *out, pw_report_style style, pw_error *err)
{
    if (r->opened)
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET,
                       "an opened report is rendered by pw_report_finish");
    /* Not opened: nothing streams, rendering only reads the tree. */
    return render((pw_report *)r, out, style, err);
}

pw_status pw_report_finish(pw_report *r, pw_error *err)
{
    if (!r || !r->opened)
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET,
                       "pw_report_finish needs a report from pw_report_open");
    report_stream_close_open(r);
    return render(r, r->out, r->style, err);
}
