/* report_write.c — the report driver: pw_report_open, pw_report_write and
 * pw_report_finish render through the REPORT sink of a style. */
#include <jansson.h>
#include <string.h>

#include "core/error.h"
#include "model/report.h"
#include "sinks/sink.h"

pw_report *pw_report_open(FILE *out, pw_report_style style)
{
    const pw_sink_report *sink = pw_sink_report_of(style);
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
    const pw_sink_report *sink = pw_sink_report_of(style);
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

/* Is there a table (an array, rows or none) named `want` under obj, by its
 * key or its path ("a / b" as text titles it, "a.b" as CSV does)?  The
 * names met are appended to `names` for the error that lists them. */
static int has_table(const json_t *obj, const char *want, const char *text_path, const char *csv_path,
                     char *names, size_t cap)
{
    const char *k;
    json_t *v;
    int found = 0;
    json_object_foreach((json_t *)obj, k, v) {
        char tp[512], cp[512];
        snprintf(tp, sizeof tp, "%s%s%s", text_path, *text_path ? " / " : "", k);
        snprintf(cp, sizeof cp, "%s%s%s", csv_path, *csv_path ? "." : "", k);
        if (json_is_object(v) && *text_path) {
            found |= has_table(v, want, tp, cp, names, cap);
        } else if (json_is_array(v) || json_is_object(v)) { /* the root's objects are one-row tables */
            if (json_is_object(v))
                found |= has_table(v, want, tp, cp, names, cap);
            found |= !strcmp(want, k) || !strcmp(want, tp) || !strcmp(want, cp);
            size_t used = strlen(names);
            if (used + 1 < cap)
                snprintf(names + used, cap - used, "%s%s", used ? ", " : "", cp);
        }
    }
    return found;
}

pw_status pw_report_finish(pw_report *r, pw_error *err)
{
    if (!r || !r->opened)
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET,
                       "pw_report_finish needs a report from pw_report_open");
    report_stream_close_open(r);
    char names[1800] = "";
    /* An unknown table would print nothing and look like an empty answer. */
    if (r->only_table && r->style != PW_REPORT_JSON && !has_table(r->root, r->only_table, "", "", names, sizeof names))
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET, "--table %s: no such table; the tables are: %s",
                       r->only_table, *names ? names : "(none)");
    return render(r, r->out, r->style, err);
}
