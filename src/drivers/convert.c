/* convert.c — the convert driver: pw_convert finds the CONVERT sink (by
 * name or by the output's extension), prepares the output under the output
 * discipline and lets the sink stream the records into it. */
#include "sinks/convert/convert.h"
#include "sinks/output.h"
#include "sinks/sink.h"

#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

/* The i-th CONVERT sink of the registry, or NULL. */
static const pw_sink_ops *target_at(size_t i)
{
    for (size_t k = 0; k < pw_n_sinks; k++)
        if (pw_sinks[k]->convert && i-- == 0)
            return pw_sinks[k];
    return NULL;
}

size_t pw_convert_target_count(void)
{
    size_t n = 0;
    while (target_at(n))
        n++;
    return n;
}

const char *pw_convert_target_for_path(const char *out)
{
    const pw_sink_ops *sink = pw_sink_for_path(out);
    return sink ? sink->name : NULL;
}

/* Several processes write one output (PW_SINK_TOGETHER, collectives set):
 * share 0 prepares it and tells the others where to write; every process
 * writes its share; share 0 commits it only when every process succeeded. */
static pw_status convert_together(pw_dataset *ds, const pw_sink_ops *sink, const char *out, unsigned flags,
                                  pw_convert_report *rep, pw_error *err)
{
    const pw_collectives *c = ds->run->collectives;
    pw_output *o = NULL;
    char work[sizeof o->work] = "";
    pw_status s = ds->run->share_index == 0 ? pw_output_begin(out, flags, sink->caps, &o, err) : PW_OK;
    if (o)
        memcpy(work, o->work, sizeof work);
    c->broadcast(c->ctx, work, sizeof work);
    if (!work[0])
        return s != PW_OK ? s : pw_fail(err, PW_E_IO, out, PW_NO_OFFSET, "the first process could not prepare the output");
    s = sink->convert->write(ds, work, rep, err);
    uint64_t failed = s != PW_OK;
    c->sum(c->ctx, &failed, 1);
    if (o && failed) {
        pw_output_rename_in(o, err);
        pw_output_discard(o);
    } else if (o) {
        s = pw_output_finish(o, err);
    }
    if (s == PW_OK && failed)
        s = pw_fail(err, PW_E_IO, out, PW_NO_OFFSET, "another process could not write its part of the output");
    return s;
}

/* A dataset with no timed record (a profile without its trace, a trace
 * recorded without clocks: the format says so, ds->untimed) gives a
 * target for timelines nothing to draw: refused before any output
 * exists, naming the targets that hold it. */
static pw_status refuse_untimed(const pw_dataset *ds, const pw_sink_ops *sink, const char *out, pw_error *err)
{
    char fit[256] = "";
    for (size_t i = 0; i < pw_n_sinks; i++) {
        const pw_sink_ops *k = pw_sinks[i];
        size_t used = strlen(fit);
        if (k->convert && (k->caps & PW_SINK_UNTIMED) && !(k->caps & PW_SINK_MISSING))
            snprintf(fit + used, sizeof fit - used, "%s, ", k->name);
    }
    return pw_fail(err, PW_E_USAGE, out, PW_NO_OFFSET,
                   "not written: %s has no record with a time (a profile without a trace, or a trace "
                   "recorded without clocks), so the %s "
                   "target would hold nothing; the targets that fit: %sor 'perfweave stats'",
                   ds->path, sink->name, fit);
}

pw_status pw_convert_output(pw_dataset *ds, const char *out, const char *target, unsigned flags,
                            pw_convert_report *rep, pw_error *err)
{
    pw_convert_report local;
    if (!rep)
        rep = &local;
    memset(rep, 0, sizeof *rep);
    const pw_sink_ops *sink = target ? pw_sink_find(PW_SINK_CONVERT, target) : pw_sink_for_path(out);
    if (!sink && !target)
        return pw_fail(err, PW_E_USAGE, out, PW_NO_OFFSET,
                       "cannot tell the target from the extension: use --to NAME");
    if (!sink)
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET, "unknown conversion target '%s'", target);
    rep->target = sink->name;
    if (ds->untimed && !(sink->caps & PW_SINK_UNTIMED))
        return refuse_untimed(ds, sink, out, err);
    if (ds->run->collectives && (sink->caps & PW_SINK_TOGETHER))
        return convert_together(ds, sink, out, flags, rep, err);
    /* The states an analysis derives from the records, instead of the
     * records, when the sink writes them and OUT is named for them. */
    const pw_states_source *states = pw_sink_names_states(sink, out) ? pw_states_source_for(ds) : NULL;
    pw_output *o;
    /* States named by an extension are one file; the others a directory
     * (sink.h, states_extensions), which --force replaces as a directory. */
    unsigned caps = !states ? sink->caps : sink->convert->states_extensions ? 0 : PW_SINK_DIRECTORY;
    pw_status s = pw_output_begin(out, flags, caps, &o, err);
    if (s != PW_OK)
        return s;
    if (states)
        s = sink->convert->write_states(ds, states, o->work, rep, err);
    else
        s = sink->convert->write(ds, o->work, rep, err);
    if (s != PW_OK) {
        pw_output_rename_in(o, err);
        pw_output_discard(o);
        return s;
    }
    return pw_output_finish(o, err);
}

pw_status pw_convert(pw_dataset *ds, const char *out, const char *target, pw_convert_report *rep,
                     pw_error *err)
{
    return pw_convert_output(ds, out, target, PW_OUTPUT_FORCE, rep, err);
}
