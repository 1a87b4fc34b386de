/* report_write.c — pw_report_write and pw_report_finish: pick the renderer
 * for a style. */
#include <jansson.h>

#include "core/error.h"
#include "model/report.h"

/* Renders what r still holds (all of it unless it streamed JSON). */
static pw_status render(pw_report *r, FILE *out, pw_report_style style, pw_error *err)
{
    if (pw_report_nomem())
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory while building the report");
    pw_status s = r->io_failed ? PW_E_IO : PW_OK;
    if (s == PW_OK) {
        switch (style) {
        case PW_REPORT_JSON:
            s = r->opened ? report_json_finish(r) : report_json_whole(r->root, out);
            break;
        case PW_REPORT_CSV:
            s = pw_report_write_csv(r, out);
            break;
        case PW_REPORT_TEXT:
            s = pw_report_write_text(r, out);
            break;
        default:
            return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET, "unknown report style %d", (int)style);
        }
    }
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
