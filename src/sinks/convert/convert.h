/* convert.h — what the converters share: the account of records kept in
 * pw_convert_report, and the writers' entry points that their sinks
 * (<target>_sink.c) adapt to the sink contract. */
#ifndef PW_SINKS_CONVERT_H
#define PW_SINKS_CONVERT_H
#include "views/states.h"
#include "core/grow.h"
#include "model/account.h"
#include "model/dataset.h"

/* Feeds every record of ds, merged in time order, to write(ctx, rec),
 * counting records in and out in rep; stops at the first error. */
pw_status pw_convert_records(pw_dataset *ds, pw_convert_report *rep,
                             pw_status (*write)(void *ctx, const pw_record *rec, pw_error *err), void *ctx,
                             pw_error *err);

/* The writers: each writes ds into the fresh path `out` (never an existing one). */
pw_status pw_convert_perfetto(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_chrome(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_csv(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_sqlite(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_otf2(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_paraver(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
/* The states writers: each writes the states src derives from ds into `out`. */
pw_status pw_convert_paraver_states(pw_dataset *ds, const pw_states_source *src, const char *out,
                                    pw_convert_report *rep, pw_error *err);
pw_status pw_convert_chrome_states(pw_dataset *ds, const pw_states_source *src, const char *out,
                                   pw_convert_report *rep, pw_error *err);
pw_status pw_convert_perfetto_states(pw_dataset *ds, const pw_states_source *src, const char *out,
                                     pw_convert_report *rep, pw_error *err);
#endif
