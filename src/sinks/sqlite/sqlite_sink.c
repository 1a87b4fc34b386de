/* sqlite_sink.c — the "sqlite" convert target: a SQLite database.
 * The writer (sqlite_write.c) streams the merged records into the path the output
 * discipline gives it. */
#include "sinks/convert/convert.h"
#include "sinks/sink.h"

/* Listed in every build; without its library it refuses to run. */
#ifdef PW_HAVE_SQLITE3
#define PW_SINK_SQLITE3_MISSING 0
#else
#define PW_SINK_SQLITE3_MISSING PW_SINK_MISSING
#endif

static const pw_sink_convert sqlite_convert = {.write = pw_convert_sqlite};

const pw_sink_ops pw_sink_sqlite = {
    .name = "sqlite",
    .caps = PW_SINK_UNTIMED | PW_SINK_SQLITE3_MISSING,
    .extensions = ".sqlite .sqlite3 .db",
    .description = "SQLite database, one table per record type",
    .convert = &sqlite_convert,
};
