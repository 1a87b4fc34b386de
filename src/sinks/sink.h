/* sink.h — the contract every sink keeps: where records and reports go.
 *
 * A sink is one `<name>_sink.c` file in a folder under src/sinks/ that
 * defines `const pw_sink_ops pw_sink_<name>`; CMake finds the file and
 * lists the sink in the registry (sink_registry.c, generated from
 * src/sinks/sink_registry.c.in), as it does formats.  A sink has a head
 * every kind shares (name, caps, extensions, the lines --help prints) and
 * the functions of one kind, in a struct of that kind; the drivers use
 * the sinks by kind, never by name:
 *   - pw_dump_all (src/drivers/dump_all.c) streams records through the
 *     RECORDS functions of a style (pw_sink_records), formatting each
 *     record with `format_record` (also on worker threads; the context,
 *     pw_dump, is src/sinks/dump/dump.h);
 *   - pw_dump_states (src/drivers/dump_states.c) streams the states an
 *     analysis derives from the records (views/states.h) through their
 *     `dump_states`;
 *   - pw_report_open / pw_report_write (src/sinks/report/) render a report
 *     tree through the REPORT functions of a style (pw_sink_report);
 *   - pw_convert (src/drivers/convert.c) hands the dataset to a CONVERT
 *     sink's `write` (pw_sink_convert), which streams the merged records
 *     into its output; or, when an analysis derives states from the
 *     records and the output is named for them, to its `write_states`;
 *   - pw_plot_begin / pw_plot_finish (src/sinks/plot/) let a PLOT sink
 *     (pw_sink_plot) draw what an analysis hands it while pw_stats runs.
 * A name is unique within its kind only: "text" is both the RECORDS style
 * of `dump` (src/sinks/text/) and the REPORT style of `stats`
 * (src/sinks/report/report_text_sink.c), two different outputs.
 * Outputs are created by the output discipline (src/sinks/output.c), never
 * by a sink under the final name. */
#ifndef PW_SINKS_SINK_H
#define PW_SINKS_SINK_H
#include "views/states.h"
#include "core/outbuf.h"
#include "model/dataset.h"
#include "model/report.h"

typedef struct pw_sink_ops pw_sink_ops;
typedef struct pw_dump pw_dump; /* a RECORDS sink's pipeline: sinks/dump/dump.h */

/* RECORDS: a dump style, what pw_dump_all and pw_dump_states use. */
typedef struct pw_sink_records {
    pw_dump_style style;
    /* How a record is written, given its schema and its decoded values,
     * appended to o (d is only read: worker threads share it). */
    void (*format_record)(const pw_dump *d, pw_outbuf *o, const pw_record *rec, const pw_schema *sc,
                          const pw_value *vals);
    /* The text written around a field's name before its value (" name="
     * or ",\"name\":"), and whether names of locations and types are
     * written as JSON strings (quoted and escaped). */
    const char *field_before, *field_after;
    int quoted_names;
    /* Optional: writes every change of the states src derives from ds to
     * out (dump --states). */
    pw_status (*dump_states)(pw_dataset *ds, const pw_states_source *src, FILE *out, pw_error *err);
} pw_sink_records;

/* REPORT: a report style, what pw_report_open/_write/_finish use. */
typedef struct pw_sink_report {
    pw_report_style style;
    /* Renders what r holds (all of it, or what is left after its streamed
     * members went out) to out. */
    pw_status (*render)(pw_report *r, FILE *out);
    /* Optional: writes streamed rows as they come (else rows wait in a
     * spool until the report is rendered). */
    const report_live_ops *live;
} pw_sink_report;

/* CONVERT: a target, what pw_convert uses. */
typedef struct pw_sink_convert {
    /* Writes every record of ds into `out` (a path the output discipline
     * chose); NULL when this build lacks the library it needs. */
    pw_status (*write)(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
    /* Optional: writes the states src derives from ds's records (thread
     * and CPU views: rows, channels, changes) instead of the records, when
     * the output is named for states: it ends with one of
     * `states_extensions` (".states.json"), or, when that is NULL, is named
     * for no sink at all (a directory: Paraver's DIR/thread.prv, ...).
     * rep->records_in counts the records replayed. */
    const char *states_extensions;
    pw_status (*write_states)(pw_dataset *ds, const pw_states_source *src, const char *out,
                              pw_convert_report *rep, pw_error *err);
} pw_sink_convert;

/* PLOT: charts of what an analysis finds, what pw_plot_begin/_finish use. */
typedef struct pw_sink_plot {
    /* Starts drawing into the directory dir (made by the output
     * discipline) what the analyses of the next pw_stats of ds hand over
     * (ds->run->energy_watch): *state, or NULL when ds has nothing it draws. */
    pw_status (*begin)(pw_dataset *ds, const char *dir, void **state, pw_error *err);
    /* Draws what needed every figure (when ok) and frees state. */
    pw_status (*end)(void *state, int ok, pw_error *err);
} pw_sink_plot;

/* A sink: what every kind shares (its name, what it can write into, how
 * the program lists it), then the functions of its kind.  Exactly one of
 * the kind pointers is set, and it is the sink's kind. */
struct pw_sink_ops {
    const char *name;         /* unique within its kind: "jsonl", "perfetto" */
    unsigned caps;            /* PW_SINK_STREAMS, PW_SINK_DIRECTORY, ... */
    const char *extensions;   /* space-separated, e.g. ".json .json.gz"; NULL: none */
    const char *description;  /* one line for --help */
    const char *hint;         /* what to do with the output, printed after it; or NULL */
    const pw_sink_records *records;
    const pw_sink_report *report;
    const pw_sink_convert *convert;
    const pw_sink_plot *plot;
};

/* The registry (generated): every sink of the build, in folder order. */
extern const pw_sink_ops *const pw_sinks[];
extern const size_t pw_n_sinks;

/* The sink's kind (PW_SINK_RECORDS, ...): the kind whose functions it has. */
pw_sink_kind pw_sink_kind_of_ops(const pw_sink_ops *sink);
/* The sink of a kind with this name; NULL if none. */
const pw_sink_ops *pw_sink_find(pw_sink_kind kind, const char *name);
/* The functions of a dump style, of a report style; NULL if none. */
const pw_sink_records *pw_sink_records_of(pw_dump_style style);
const pw_sink_report *pw_sink_report_of(pw_report_style style);
/* The CONVERT sink whose extensions end `path` ("out.otf2/" counts). */
const pw_sink_ops *pw_sink_for_path(const char *path);
/* 1 when the sink writes states and `path` is named for them (ends with
 * one of its states_extensions; without them, named for no sink). */
int pw_sink_names_states(const pw_sink_ops *sink, const char *path);
#endif
