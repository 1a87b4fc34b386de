/* dump_states.c — pw_dump_states: the states an analysis derives from
 * the records, streamed through the RECORDS sink of the style asked for. */
#include "sinks/sink.h"
#include "analysis/analysis.h"

pw_status pw_dump_states(pw_dataset *ds, FILE *out, pw_dump_style style, pw_error *err)
{
    const pw_states_source *src = pw_states_source_for(ds);
    if (!src)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                       "no analysis derives states from these records");
    const pw_sink_records *sink = pw_sink_records_of(style);
    if (!sink || !sink->dump_states)
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET, "this dump style cannot write states");
    return sink->dump_states(ds, src, out, err);
}
