/* report_write.c — pw_report_write: picks the renderer for a style. */
#include <jansson.h>

#include "core/error.h"
#include "model/report.h"

pw_status pw_report_write(const pw_report *r, FILE *out, pw_report_style style, pw_error *err)
{
    if (pw_report_nomem())
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory while building the report");
    json_t *root = pw_report_json(r);
    pw_status s = PW_OK;
    switch (style) {
    case PW_REPORT_JSON:
        if (json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0 ||
            fputc('\n', out) == EOF)
            s = PW_E_IO;
        break;
    case PW_REPORT_CSV:
        s = pw_report_write_csv(root, out);
        break;
    case PW_REPORT_TEXT:
        s = pw_report_write_text(root, out);
        break;
    default:
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET, "unknown report style %d", (int)style);
    }
    if (s == PW_OK && fflush(out) != 0)
        s = PW_E_IO;
    if (s != PW_OK)
        return pw_fail_errno(err, "<output>", "cannot write the report");
    return PW_OK;
}
