/* convert.h — what the converters share: the account of records kept in
 * pw_convert_report, and the writers' entry points that their sinks
 * (<target>_sink.c) adapt to the sink contract. */
#ifndef PW_SINKS_CONVERT_H
#define PW_SINKS_CONVERT_H
#include "model/dataset.h"

/* Adds an item to rep's account when count > 0 (items beyond the limit
 * are folded into the last one, so counts still add up). */
void pw_convert_note(pw_convert_report *rep, const char *what, uint64_t count, int lost);

/* Feeds every record of ds, merged in time order, to write(ctx, rec),
 * counting records in and out in rep; stops at the first error. */
pw_status pw_convert_records(pw_dataset *ds, pw_convert_report *rep,
                             pw_status (*write)(void *ctx, const pw_record *rec, pw_error *err), void *ctx,
                             pw_error *err);

/* Grows a zero-filled array *p of *cap elements of `size` bytes so that
 * index `need` fits; 0 when memory runs out. */
int pw_grow_zeroed(void **p, uint32_t *cap, uint32_t need, size_t size);

/* The writers: each writes ds into the fresh path `out` (never an existing one). */
pw_status pw_convert_perfetto(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_chrome(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_csv(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_sqlite(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_otf2(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_paraver(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
#endif
