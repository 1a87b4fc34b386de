/* sink.c — finding sinks in the registry: a sink's kind, by kind and
 * name, the functions of a style, by an output path's extension; and the
 * public listing of them. */
#include <string.h>

#include "sinks/sink.h"

pw_sink_kind pw_sink_kind_of_ops(const pw_sink_ops *sink)
{
    if (sink->records)
        return PW_SINK_RECORDS;
    if (sink->report)
        return PW_SINK_REPORT;
    if (sink->convert)
        return PW_SINK_CONVERT;
    return sink->plot ? PW_SINK_PLOT : 0;
}

const pw_sink_ops *pw_sink_find(pw_sink_kind kind, const char *name)
{
    for (size_t i = 0; name && i < pw_n_sinks; i++)
        if (pw_sink_kind_of_ops(pw_sinks[i]) == kind && !strcmp(pw_sinks[i]->name, name))
            return pw_sinks[i];
    return NULL;
}

const pw_sink_records *pw_sink_records_of(pw_dump_style style)
{
    for (size_t i = 0; i < pw_n_sinks; i++)
        if (pw_sinks[i]->records && pw_sinks[i]->records->style == style)
            return pw_sinks[i]->records;
    return NULL;
}

const pw_sink_report *pw_sink_report_of(pw_report_style style)
{
    for (size_t i = 0; i < pw_n_sinks; i++)
        if (pw_sinks[i]->report && pw_sinks[i]->report->style == style)
            return pw_sinks[i]->report;
    return NULL;
}

/* Does path[0..n) end in one of the space-separated extensions? */
static int has_extension(const char *path, size_t n, const char *exts)
{
    while (exts && *exts) {
        size_t len = strcspn(exts, " ");
        if (len < n && !strncmp(path + n - len, exts, len))
            return 1;
        exts += len + (exts[len] == ' ');
    }
    return 0;
}

const pw_sink_ops *pw_sink_for_path(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') /* "out.otf2/" names the same directory */
        n--;
    for (size_t i = 0; i < pw_n_sinks; i++)
        if (pw_sinks[i]->convert && has_extension(path, n, pw_sinks[i]->extensions))
            return pw_sinks[i];
    return NULL;
}

int pw_sink_names_states(const pw_sink_ops *sink, const char *path)
{
    const pw_sink_convert *c = sink->convert;
    if (!c || !c->write_states)
        return 0;
    if (!c->states_extensions)
        return !pw_sink_for_path(path);
    return has_extension(path, strlen(path), c->states_extensions);
}

size_t pw_sink_count(void) { return pw_n_sinks; }
const char *pw_sink_name(size_t i) { return i < pw_n_sinks ? pw_sinks[i]->name : NULL; }
pw_sink_kind pw_sink_kind_of(size_t i) { return i < pw_n_sinks ? pw_sink_kind_of_ops(pw_sinks[i]) : 0; }
unsigned pw_sink_caps(size_t i) { return i < pw_n_sinks ? pw_sinks[i]->caps : 0; }
const char *pw_sink_extensions(size_t i) { return i < pw_n_sinks ? pw_sinks[i]->extensions : NULL; }
const char *pw_sink_description(size_t i) { return i < pw_n_sinks ? pw_sinks[i]->description : NULL; }
const char *pw_sink_hint(size_t i) { return i < pw_n_sinks ? pw_sinks[i]->hint : NULL; }
const char *pw_sink_states_output(size_t i)
{
    const pw_sink_convert *c = i < pw_n_sinks ? pw_sinks[i]->convert : NULL;
    if (!c || !c->write_states)
        return NULL;
    return c->states_extensions ? c->states_extensions : "";
}
