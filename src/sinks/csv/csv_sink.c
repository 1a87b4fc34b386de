/* csv_sink.c — the "csv" convert target: one CSV file per record type.
 * The writer (csv_write.c) streams the merged records into the path the output
 * discipline gives it. */
#include "sinks/convert/convert.h"
#include "sinks/sink.h"

static const pw_sink_convert csv_convert = {.write = pw_convert_csv};

const pw_sink_ops pw_sink_csv = {
    .name = "csv",
    .caps = PW_SINK_DIRECTORY | PW_SINK_UNTIMED,
    .extensions = ".csv.d .csv",
    .description = "a directory with one CSV file per record type",
    .convert = &csv_convert,
};
