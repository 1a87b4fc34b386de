/* sink.c — finding sinks in the registry: by kind and name, by style, by
 * an output path's extension; and the public listing of them. */
#include <string.h>

#include "sinks/sink.h"

const pw_sink_ops *pw_sink_find(unsigned kind, const char *name)
{
    for (size_t i = 0; name && i < pw_n_sinks; i++)
        if (pw_sinks[i]->kind == kind && !strcmp(pw_sinks[i]->name, name))
            return pw_sinks[i];
    return NULL;
}

const pw_sink_ops *pw_sink_of_style(unsigned kind, int style)
{
    for (size_t i = 0; i < pw_n_sinks; i++)
        if (pw_sinks[i]->kind == kind && pw_sinks[i]->style == style)
            return pw_sinks[i];
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
        if (pw_sinks[i]->kind == PW_SINK_CONVERT && has_extension(path, n, pw_sinks[i]->extensions))
            return pw_sinks[i];
    return NULL;
}

int pw_sink_names_states(const pw_sink_ops *sink, const char *path)
{
    if (!sink->convert_states)
        return 0;
    if (!sink->states_extensions)
        return !pw_sink_for_path(path);
    return has_extension(path, strlen(path), sink->states_extensions);
}

size_t pw_sink_count(void) { return pw_n_sinks; }
const char *pw_sink_name(size_t i) { return i < pw_n_sinks ? pw_sinks[i]->name : NULL; }
pw_sink_kind pw_sink_kind_of(size_t i) { return i < pw_n_sinks ? (pw_sink_kind)pw_sinks[i]->kind : 0; }
unsigned pw_sink_caps(size_t i) { return i < pw_n_sinks ? pw_sinks[i]->caps : 0; }
const char *pw_sink_extensions(size_t i) { return i < pw_n_sinks ? pw_sinks[i]->extensions : NULL; }
const char *pw_sink_description(size_t i) { return i < pw_n_sinks ? pw_sinks[i]->description : NULL; }
const char *pw_sink_hint(size_t i) { return i < pw_n_sinks ? pw_sinks[i]->hint : NULL; }
const char *pw_sink_states_output(size_t i)
{
    if (i >= pw_n_sinks || !pw_sinks[i]->convert_states)
        return NULL;
    return pw_sinks[i]->states_extensions ? pw_sinks[i]->states_extensions : "";
}
